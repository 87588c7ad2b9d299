"""A table's title is not printed under a heading that already names it (issue 27: captions repeating the line above)."""

from __future__ import annotations

import pytest

from dungeonpress.views.chapter import same_name


@pytest.mark.parametrize("heading, title, same", [
    ("Stress Tags", "Stress Tags", True),
    ("The Navigation Check", "Navigation Check", True),
    ("Dungeon Name Adjectives", "Name Adjectives", True),
    ("Traps", "Trap Triggers", False),
    ("Treasure", "Minor Treasures", False),
    ("Ancient Inscriptions", "Deciphering Inscriptions", False),
])
def test_a_title_that_repeats_its_heading_is_the_same_name(heading, title, same):
    assert same_name(heading, title) is same
