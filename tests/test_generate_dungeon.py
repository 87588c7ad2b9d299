"""The dungeon generator: rolls exactly as the seed's procedure says, every result is a row of its table, same seed → same dungeon."""

from __future__ import annotations

import dataclasses
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from dungeonpress.dice import DiceSpec
from dungeonpress.errors import ContentErrors
from dungeonpress.generate import dungeon as gen
from dungeonpress.generate.dungeon import generate_dungeon
from dungeonpress.generate.oracle import resolve
from dungeonpress.views.data import dungeon_data
from tests.conftest import slow_fixture

SEEDS = range(1000)


def rooms_for(seed: int) -> int:
    """A spread of dungeon sizes over the seeds: 3 to 16 rooms."""
    return 3 + seed % 14


@pytest.fixture(scope="module")
@slow_fixture
def dungeons(content):
    """1,000 dungeons, rolled once for every property test in this module."""
    return [generate_dungeon(content, random.Random(seed), rooms=rooms_for(seed)) for seed in SEEDS]


def assert_roll_is_a_row(content, roll):
    """The value can come from the table's die, and the fields are that row's, word for word."""
    table = content.table(roll.table)
    assert roll.dice == table.die
    assert roll.value in DiceSpec(table.die).results, (roll.table, roll.value)
    row = table.row_for(roll.value)
    assert [(key, value) for key, _, value in roll.fields] == list(row.values)
    assert (roll.see, roll.creature) == (row.see, row.creature)


def all_rolls(dungeon):
    yield from dungeon.name_rolls
    yield dungeon.condition
    for room in dungeon.rooms:
        yield room.type
        yield from room.features
        yield room.exits
        if room.encounter_check:
            yield room.encounter_check
        for chain in (room.encounter, room.trap, room.treasure):
            if chain:
                yield from chain.rolls
    for chain in dungeon.wandering:
        yield from chain.rolls
    for twist in dungeon.twists:
        yield twist.subject
        yield twist.action


@pytest.mark.slow
def test_every_rolled_value_is_a_row_of_its_table(content, dungeons):
    for dungeon in dungeons:
        for roll in all_rolls(dungeon):
            assert_roll_is_a_row(content, roll)


def test_rooms_follow_the_procedure(content, dungeons):
    """Encounter check → type → its d66 table; traps in trapped rooms; treasure where called for."""
    for dungeon in dungeons:
        for room in dungeon.rooms:
            assert room.type.table == "room_type" and room.exits.table == "exits"
            assert [f.table for f in room.features] == ["room_features"]
            assert room.exit_count in (1, 2, 3)
            if room.encounter_check is None:  # only the boss chamber skips the check
                assert room.boss and room.type.value == gen.BOSS_ROOM
                assert room.encounter.rolls[0].table == gen.BOSS_TABLE
            elif room.encounter_check.see is None:
                assert room.encounter is None
            else:
                kinds = [r for r in room.encounter.rolls if not r.note]
                assert kinds[0].table == "encounter_type"
                assert kinds[1].table == kinds[0].see  # the d66 table the type row names
            if room.encounter:
                named = [r.creature for r in room.encounter.rolls if r.creature is not None]
                expected = content.creature(named[-1]) if named else None
                assert room.encounter.creature == expected
            assert (room.trap is not None) == (room.type.value == gen.TRAPPED_ROOM)
            if room.trap:
                assert room.trap.result.table == "traps"
                assert {key for key, _, _ in room.trap.result.fields} >= {"trigger", "effect"}
            wants_treasure = room.type.value in gen.TREASURE_ROOMS or (
                room.encounter is not None and room.encounter.table in gen.TREASURE_ENCOUNTERS)
            assert (room.treasure is not None) == wants_treasure
            if room.treasure:
                check, *found = room.treasure.rolls
                assert check.table == "treasure_check" and found[0].table == check.see
                for earlier, later in zip(found, found[1:]):  # gear or gold, then the gear itself
                    assert later.table == earlier.see


def test_one_master_per_dungeon(dungeons):
    for dungeon in dungeons:
        bosses = [room for room in dungeon.rooms if room.boss]
        assert len(bosses) <= 1
        for room in dungeon.rooms:
            if room.boss:
                assert room.encounter.table == gen.BOSS_TABLE
            elif room.encounter:
                assert room.encounter.table != gen.BOSS_TABLE
                for roll in room.encounter.rolls:  # a second Dungeon Boss was rolled again, and says so
                    assert (roll.see == gen.BOSS_TABLE) == bool(roll.note)
        assert (dungeon.plan.boss is not None) == bool(bosses)


def test_wandering_table_has_six_distinct_non_boss_rows(dungeons):
    for dungeon in dungeons:
        assert len(dungeon.wandering) == 6
        keys = [(chain.table, chain.result.value) for chain in dungeon.wandering]
        assert len(set(keys)) == 6
        for chain in dungeon.wandering:
            assert chain.rolls[0].table == "encounter_type" and chain.table != gen.BOSS_TABLE


def test_pre_rolled_oracle_answers_follow_the_rule(dungeons):
    for dungeon in dungeons[:200]:
        assert len(dungeon.oracle) == gen.ORACLE_ROWS and len(dungeon.twists) == gen.TWISTS
        for row in dungeon.oracle:
            for mode, roll in (("plain", row.plain), ("advantage", row.advantage), ("disadvantage", row.disadvantage)):
                chances, risks = {"plain": (1, 1), "advantage": (2, 1), "disadvantage": (1, 2)}[mode]
                assert (len(roll.chance), len(roll.risk)) == (chances, risks)
                assert (roll.answer, roll.double) == resolve(max(roll.chance), max(roll.risk))
        assert all(1 <= value <= 6 for value in dungeon.d6s)


def test_name_and_condition(dungeons):
    for dungeon in dungeons[:50]:
        adjective, place, region = (roll.text for roll in dungeon.name_rolls)
        assert dungeon.name == f"The {adjective} {place} of {region}"
        assert dungeon.condition.table == "environmental_conditions"


def test_roll_label_shows_the_roll_and_the_result(content):
    roll = gen._roll(random.Random(0), content.table("room_type"))
    assert roll.label == f"2d6 = {roll.value}: {content.table('room_type').row_for(roll.value).text}"
    nine = dataclasses.replace(roll, value=9, fields=(("room", "Room type", "Large chamber with columns/statues"),))
    assert nine.label == "2d6 = 9: Large chamber with columns/statues"


def test_same_seed_same_dungeon_and_json(content):
    one = generate_dungeon(content, random.Random(1234), rooms=8)
    two = generate_dungeon(content, random.Random(1234), rooms=8)
    assert one == two
    assert json.dumps(dungeon_data(one, seed=1234)) == json.dumps(dungeon_data(two, seed=1234))


def test_different_seeds_differ(content):
    names = {generate_dungeon(content, random.Random(seed), rooms=8).name for seed in range(20)}
    assert len(names) > 15
    a, b = (dungeon_data(generate_dungeon(content, random.Random(s), rooms=8), seed=0) for s in (1, 2))
    assert a != b


@pytest.mark.slow
def test_room_type_frequencies_match_2d6_odds(content):
    """Chi-square over 20,000 room-type rolls against 2d6 (10 degrees of freedom)."""
    rng = random.Random("chi-square")
    rolled = gen._roll_rooms(content, gen.needed_tables(content), rng, 20_000)
    counts = {total: 0 for total in range(2, 13)}
    for room in rolled:
        counts[room.type.value] += 1
    ways = {total: 6 - abs(total - 7) for total in range(2, 13)}
    chi2 = sum((counts[t] - 20_000 * ways[t] / 36) ** 2 / (20_000 * ways[t] / 36) for t in counts)
    assert chi2 < 29.59, (chi2, counts)  # the 0.1 % critical value: a fair 2d6 passes 999 times in 1000


def test_a_missing_table_is_a_content_error_naming_it(content):
    tables = {k: v for k, v in content.tables.items() if k not in ("treasure_check", "twist")}
    broken = dataclasses.replace(content, tables=tables)
    with pytest.raises(ContentErrors) as caught:
        generate_dungeon(broken, random.Random(1))
    text = str(caught.value)
    assert "the dungeon generator needs table 'treasure_check'" in text
    assert "table 'twist'" in text
    assert "build failed: 2 content errors" in text


def test_exits_table_must_hold_exit_counts(content):
    exits = content.table("exits")
    bad_row = dataclasses.replace(exits.rows[0], values=(("exits", "many"), ("meaning", "?")))
    broken = dataclasses.replace(content, tables={**content.tables,
                                                 "exits": dataclasses.replace(exits, rows=(bad_row, *exits.rows[1:]))})
    with pytest.raises(ContentErrors, match="table 'exits' needs a column 'exits' holding 1 to 4"):
        generate_dungeon(broken, random.Random(1))


@pytest.mark.slow
def test_no_hash_order_leaks_into_the_dungeon():
    """The same seed gives the same JSON whatever PYTHONHASHSEED is (no set or dict-order surprises)."""
    script = ("import json, random; from dungeonpress import build; "
              "from dungeonpress.generate.dungeon import generate_dungeon; "
              "from dungeonpress.views.data import dungeon_data; "
              "print(json.dumps(dungeon_data(generate_dungeon(build.load_content(), random.Random(77), rooms=12), seed=77)))")
    outputs = set()
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True,
                              cwd=Path(__file__).resolve().parents[1])
        outputs.add(done.stdout)
    assert len(outputs) == 1


DOOR_KINDS = ("sealed door", "locked door", "barred door")


def test_a_trapped_room_names_only_a_door_its_key_states(content, dungeons):
    """A trapped room's device fires on a door the room has: "the sealed door" only where a feature states one.

    The device (room type 8) is rolled whatever the room's features; a trigger that names a kind of door
    the room lacks cannot be played from the key (pack 66's delve 1, room 8, once did).
    """
    trapped = [room for dungeon in dungeons for room in dungeon.rooms if room.trap]
    assert len(trapped) > 500
    wrong = []
    for room in trapped:
        told = " ".join(str(value) for roll in room.trap.rolls for _, _, value in roll.fields).lower()
        features = " ".join(str(value) for roll in room.features for _, _, value in roll.fields).lower()
        for kind in DOOR_KINDS:
            if kind in told and kind.split()[0] not in features:
                wrong.append((room.number, kind, told[:60]))
    assert wrong == []
    # and every device in the table could fire in any room: none names a kind of door
    rows = [str(value) for row in content.table("traps").rows for _, value in row.values]
    assert [text for text in rows if any(kind in text.lower() for kind in DOOR_KINDS)] == []
