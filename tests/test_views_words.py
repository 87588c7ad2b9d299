"""views.words: counts become printable words, so templates never pluralise."""

from __future__ import annotations

import pytest

from dungeonpress.views.words import counted, plural


@pytest.mark.parametrize("count, word, many, expected", [
    (1, "room", "", "room"),
    (0, "room", "", "rooms"),
    (2, "room", "", "rooms"),
    (-1, "room", "", "rooms"),
    (1, "torch", "torches", "torch"),
    (3, "torch", "torches", "torches"),
    (0, "foe", "foes", "foes"),
])
def test_plural_is_the_word_for_one_and_the_many_form_otherwise(count, word, many, expected):
    assert plural(count, word, many) == expected


@pytest.mark.parametrize("count, word, many, expected", [
    (1, "room", "", "1 room"),
    (3, "room", "", "3 rooms"),
    (0, "turn", "", "0 turns"),
    (2, "torch", "torches", "2 torches"),
    (1, "torch", "torches", "1 torch"),
])
def test_counted_puts_the_number_before_its_word(count, word, many, expected):
    assert counted(count, word, many) == expected
