"""Pre-rolled Loner: Dungeoneer characters: every value comes from its table, by the seed's rules."""

from __future__ import annotations

import ast
import dataclasses
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dungeonpress.dice import sub_rng
from dungeonpress.errors import ContentErrors
from dungeonpress.generate import character as character_module
from dungeonpress.generate.character import NAME_LISTS, _gear_item, generate_character
from dungeonpress.model.character import LUCK, TableValue
from dungeonpress.model import Row, Table
from tests.conftest import slow_fixture

SRC = Path(__file__).resolve().parents[1] / "src" / "dungeonpress" / "generate"


@pytest.fixture(scope="module")
@slow_fixture
def many(content):
    """A few hundred characters, so rare paths (rerolled repeats, durable gear) show up."""
    return [generate_character(content, sub_rng(seed, "character", "dungeoneer", "1")) for seed in range(400)]


def _assert_from_table(content, roll: TableValue, table_id: str) -> None:
    assert roll.table == table_id
    row = content.table(table_id).row_for(roll.result)
    assert roll.value == str(row.values[0][1])
    for thrown in roll.rerolled:
        content.table(table_id).row_for(thrown)  # a real result of that die


def _assert_character(content, c) -> None:
    assert c.first_name.table == NAME_LISTS[c.name_list_roll]
    assert 1 <= c.name_list_roll <= 6
    for roll, table_id in ((c.first_name, c.first_name.table), (c.surname, "surnames"), (c.nickname, "nicknames"),
                           (c.concept, "concepts"), (c.frailty, "frailties"), (c.goal, "delver_goals"),
                           (c.motive, "delver_motives"), (c.nemesis, "delver_nemeses")):
        _assert_from_table(content, roll, table_id)
    assert len(c.skills) == 2 and len(c.gear) == 2
    for skill in c.skills:
        _assert_from_table(content, skill, "skills")
    for gear in c.gear:
        _assert_from_table(content, gear.item, "gear")
    assert c.skills[0].value != c.skills[1].value
    assert c.gear[0].item.value != c.gear[1].item.value
    assert c.luck == LUCK == 6
    assert c.name == f"{c.first_name.value} \u201c{c.nickname.value}\u201d {c.surname.value}"


@pytest.mark.slow
def test_every_value_comes_from_its_table(content, many):
    for c in many:
        _assert_character(content, c)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**63))
def test_property_any_seed_gives_a_valid_character(content, seed):
    _assert_character(content, generate_character(content, random.Random(seed)))


def test_same_seed_same_character(content):
    first = generate_character(content, sub_rng(1234, "character", "dungeoneer", "1"))
    again = generate_character(content, sub_rng(1234, "character", "dungeoneer", "1"))
    other = generate_character(content, sub_rng(1234, "character", "dungeoneer", "2"))
    assert first == again
    assert first != other


def test_repeats_are_rerolled_and_recorded(content, many):
    """The second skill (or gear) rerolls a repeat of the first; the thrown-away results are kept."""
    seen = 0
    for c in many:
        for first, second in (c.skills, (c.gear[0].item, c.gear[1].item)):
            assert first.rerolled == ()
            table = content.table(second.table)
            for thrown in second.rerolled:
                assert str(table.row_for(thrown).values[0][1]) == first.value
                seen += 1
    assert seen, "400 characters should include at least one rerolled repeat"


def test_durability_comes_from_a_durability_table_by_item_name(content):
    gear = content.table("gear")
    by_value = {str(row.values[0][1]): row.low for row in gear.rows}
    rope = _gear_item(content, gear, TableValue("gear", by_value["Rope Bundle"], "Rope Bundle"))
    assert (rope.durability, rope.durability_table) == ("3 uses", "durability_ratings")
    herbs = _gear_item(content, gear, TableValue("gear", by_value["Healing Herbs"], "Healing Herbs"))
    assert herbs.durability == "1 use"
    plain = _gear_item(content, gear, TableValue("gear", by_value["Worn Map"], "Worn Map"))
    assert plain.durability is None and plain.durability_table is None


def test_durability_found_on_a_gear_table_with_its_own_column(content):
    """A pack whose gear table has a durability column (item / durability) is read directly."""
    rows = tuple(Row(low=n, high=n, values=(("item", f"Thing {n}"), ("durability", f"{n} uses"))) for n in range(1, 7))
    gear = Table(id="gear", title="Gear", die="d6", columns=(("item", "Item"), ("durability", "Durability")),
                 rows=rows, source_pack="test", origin="dungeonpress")
    item = _gear_item(content, gear, TableValue("gear", 4, "Thing 4"))
    assert (item.durability, item.durability_table) == ("4 uses", "gear")


def test_durable_gear_shows_up_in_pre_rolls(many):
    durable = {g.item.value: g.durability for c in many for g in c.gear if g.durability}
    assert durable.get("Rope Bundle") == "3 uses"


@pytest.mark.parametrize("missing", ["delver_goals", "delver_motives", "delver_nemeses", "skills"])
def test_missing_table_is_a_clear_error(content, missing):
    tables = {k: v for k, v in content.tables.items() if k != missing}
    with pytest.raises(ContentErrors) as caught:
        generate_character(dataclasses.replace(content, tables=tables), random.Random(1))
    assert str(caught.value).splitlines()[0] == (
        f"pre-rolled characters need table '{missing}', which no content pack defines "
        f"(expected <pack>/tables/{missing}.yaml)")


def test_a_table_too_small_for_two_different_entries_is_a_clear_error(content):
    rows = tuple(Row(low=n, high=n, values=(("skill", "Same"),)) for n in range(1, 7))
    skills = Table(id="skills", title="Skills", die="d6", columns=(("skill", "Skill"),), rows=rows,
                   source_pack="test", origin="dungeonpress")
    with pytest.raises(ContentErrors, match="table 'skills' needs at least 2 different entries"):
        generate_character(dataclasses.replace(content, tables=content.tables | {"skills": skills}), random.Random(1))


@pytest.mark.parametrize("module", ["character.py", "paperogue_character.py"])
def test_randomness_only_through_dice(module):
    """Generators roll through dungeonpress.dice: no rng.randint/choice/shuffle, no global random, no clock."""
    tree = ast.parse((SRC / module).read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            assert node.value.id != "rng", f"{module}:{node.lineno}: rng.{node.attr} (use dungeonpress.dice)"
            if node.value.id == "random":
                assert node.attr == "Random", f"{module}:{node.lineno}: random.{node.attr}"
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [alias.name for alias in node.names]
            module_name = getattr(node, "module", None) or ""
            assert not {"time", "datetime", "secrets", "os"} & {*names, module_name}, f"{module}:{node.lineno}"
    assert character_module.generate_character.__doc__
