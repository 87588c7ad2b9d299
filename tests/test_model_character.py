"""model.character: a pre-rolled Dungeoneer as data; its printed name, Luck, and the rolls behind each trait."""

from __future__ import annotations

import dataclasses

import pytest

from dungeonpress.dice import sub_rng
from dungeonpress.generate.character import generate_character
from dungeonpress.model.character import LUCK, Character, TableValue


def value(text: str, table: str = "t") -> TableValue:
    return TableValue(table=table, result=11, value=text)


def character(**changes) -> Character:
    base = dict(name_list_roll=2, first_name=value("Elara"), surname=value("Duskbane"), nickname=value("Stonefoot"),
                concept=value("c"), skills=(value("a"), value("b")), frailty=value("f"), gear=(), goal=value("g"),
                motive=value("m"), nemesis=value("n"))
    return Character(**(base | changes))


def test_the_name_is_first_name_nickname_in_curly_quotes_and_surname():
    assert character().name == "Elara \u201cStonefoot\u201d Duskbane"


def test_luck_starts_at_six():
    assert LUCK == 6 and character().luck == 6


def test_a_table_value_has_no_rerolls_unless_given():
    assert value("x").rerolled == ()
    with pytest.raises(dataclasses.FrozenInstanceError):
        value("x").value = "y"


def test_a_generated_characters_name_reads_its_rolled_values(content):
    made = generate_character(content, sub_rng(8, "character"))
    assert made.name == f"{made.first_name.value} \u201c{made.nickname.value}\u201d {made.surname.value}"
    assert made.first_name.table.endswith("_names") and made.surname.table == "surnames"
