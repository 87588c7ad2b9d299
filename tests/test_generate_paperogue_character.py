"""Pre-rolled Paperogue characters: d10 stats, one swap, the seed's totals, starting gear from Table 1."""

from __future__ import annotations

import dataclasses
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dungeonpress.dice import sub_rng
from dungeonpress.errors import ContentErrors
from dungeonpress.generate import paperogue_character as pc
from dungeonpress.model import Row, Table
from tests.conftest import slow_fixture


@pytest.fixture(scope="module")
@slow_fixture
def many(content):
    return [pc.generate_paperogue_character(content, sub_rng(seed, "character", "paperogue", "1"))
            for seed in range(400)]


def _assert_rules(c) -> None:
    rolled = dict(c.rolls)
    scores = dict(c.scores)
    assert [stat for stat, _ in c.rolls] == list(pc.STATS)
    assert all(1 <= roll <= 10 for roll in rolled.values())
    # One swap at most: the scores are the rolls with (at most) two of them exchanged.
    changed = sorted(stat for stat in pc.STATS if rolled[stat] != scores[stat])
    if c.swap is None:
        assert scores == rolled
    else:
        first, second = c.swap
        assert scores[first] == rolled[second] and scores[second] == rolled[first]
        assert set(changed) <= {first, second}
        assert sorted(rolled.values()) == sorted(scores.values())
    # The seed's totals.
    assert c.hp == scores["HP"] + scores["STR"]
    assert c.mp == scores["MP"] + scores["INT"]
    assert (c.strength, c.dexterity, c.intelligence) == (scores["STR"], scores["DEX"], scores["INT"])
    # Our reading of the swap: the highest roll ends in STR.
    assert scores["STR"] == max(rolled.values())


def _assert_gear(content, c) -> None:
    assert len(c.items) == 1, "one roll on Table 1 for starting gear"
    item = c.items[0]
    kind_roll = item.rolls[0]
    assert kind_roll.table == pc.TREASURE
    kind_row = content.table(pc.TREASURE).row_for(kind_roll.result)
    assert pc.treasure_kind(kind_row) == item.kind
    if kind_row.see:
        sub_roll = item.rolls[1]
        assert sub_roll.table == kind_row.see
        sub_row = content.table(kind_row.see).row_for(sub_roll.result)
        assert sub_roll.value == pc._text(sub_row)
    if item.kind == "gold":
        assert c.gold == item.gold == int(item.rolls[1].value)
    if item.kind in pc.EQUIPMENT:
        assert item.identified
        id_rolls = item.rolls[2:]
        assert id_rolls and id_rolls[0].table in (pc.EQUIPMENT_BONUS, pc.JEWELRY_EFFECTS)
        for roll in id_rolls:
            row = content.table(roll.table).row_for(roll.result)
            assert roll.value == pc._text(row)
    if item.kind in ("potion", "scroll"):
        assert not item.identified and item.effect == ""
    if item.kind == "weapon":
        assert item.stat in ("STR", "DEX", "INT")
    if item.spell:
        assert c.spells == (item.spell,)
        assert item.spell in [pc._text(row) for row in content.table(pc.MAGIC_BOOKS).rows]
    # A rolled-out bonus: "+1d4 STR" became "+n STR" with n the dice (plus any "roll again" bonus).
    for notation, results in item.dice:
        count, sides = (int(x) for x in notation.split("d"))
        assert len(results) == count and all(1 <= r <= sides for r in results)
        amount = int(re.match(r"[+-](\d+)", item.effect).group(1))
        assert amount >= sum(results)


def test_totals_follow_the_rules(many):
    for c in many:
        _assert_rules(c)


def test_starting_gear_comes_from_table_1_and_its_sub_tables(content, many):
    for c in many:
        _assert_gear(content, c)
    kinds = {c.items[0].kind for c in many}
    assert kinds == {"gold", "armor", "weapon", "key", "potion", "scroll", "book", "jewelry"}


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**63))
def test_property_any_seed(content, seed):
    c = pc.generate_paperogue_character(content, random.Random(seed))
    _assert_rules(c)
    _assert_gear(content, c)


@pytest.mark.parametrize("rolls, swap", [
    ((("HP", 6), ("MP", 10), ("STR", 3), ("DEX", 3), ("INT", 6)), ("MP", "STR")),
    ((("HP", 9), ("MP", 2), ("STR", 4), ("DEX", 9), ("INT", 1)), ("HP", "STR")),  # first of the highest
    ((("HP", 9), ("MP", 2), ("STR", 9), ("DEX", 5), ("INT", 1)), None),  # STR already highest
])
def test_swap_reading(rolls, swap):
    assert pc.choose_swap(rolls) == swap
    after = dict(pc.apply_swap(rolls, swap))
    assert after["STR"] == max(dict(rolls).values())


def test_same_seed_same_character(content):
    rng = lambda: sub_rng(1234, "character", "paperogue", "1")  # noqa: E731
    assert pc.generate_paperogue_character(content, rng()) == pc.generate_paperogue_character(content, rng())


def _d4_table(table_id: str, texts) -> Table:
    rows = tuple(Row(low=n, high=n, values=(("effect", text),)) for n, text in enumerate(texts, start=1))
    return Table(id=table_id, title=table_id, die="d4", columns=(("effect", "Effect"),), rows=rows,
                 source_pack="test", origin="paperogue")


def test_jewelry_roll_again_adds_one_and_spells_roll_table_7(content):
    """Table 10's two special rows, forced by a small table: "roll again" stacks +1, "spell" rolls Table 7."""
    again = "Roll again and add 1 to any stat bonus"
    effects = _d4_table(pc.JEWELRY_EFFECTS, [again, "+1d4 STR", "Grants a spell (roll on Table 7)", again])
    small = dataclasses.replace(content, tables=content.tables | {pc.JEWELRY_EFFECTS: effects})
    seen_plus = seen_spell = False
    for seed in range(200):
        effect, spell, rolls, rolled = pc.identify_jewelry(small, random.Random(seed))
        again_rolls = sum(1 for r in rolls if r.value.startswith("Roll again"))
        if spell:
            seen_spell = True
            assert effect == f"Grants a spell: {spell}" and rolls[-1].table == pc.MAGIC_BOOKS
        else:
            assert effect == f"+{sum(rolled[0][1]) + again_rolls} STR"
            seen_plus = seen_plus or again_rolls > 0
    assert seen_plus and seen_spell


def test_bonus_text_is_kept_when_it_is_not_a_stat_bonus():
    assert pc.resolve_bonus(random.Random(1), "Heal 1d4 per room") == ("Heal 1d4 per room", ())
    effect, rolled = pc.resolve_bonus(random.Random(1), "+1d6 HP", plus=2)
    assert effect == f"+{rolled[0][1][0] + 2} HP"


def test_missing_tables_are_a_clear_error(content):
    tables = {k: v for k, v in content.tables.items() if k != pc.EQUIPMENT_BONUS}
    with pytest.raises(ContentErrors) as caught:
        pc.generate_paperogue_character(dataclasses.replace(content, tables=tables), random.Random(1))
    assert f"need table '{pc.EQUIPMENT_BONUS}'" in str(caught.value)
