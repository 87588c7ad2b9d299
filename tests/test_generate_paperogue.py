"""generate.paperogue: a seeded Random and the Paperogue tables → pre-rolled levels that follow the seed's Step 1."""

from __future__ import annotations

import dataclasses
import random
from collections import deque

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dungeonpress.dice import DiceSpec, sub_rng
from dungeonpress.draw import paperogue_grid as grid
from dungeonpress.errors import ContentErrors
from dungeonpress.generate import paperogue as gen
from tests.conftest import slow_fixture

SEEDS = range(120)


@pytest.fixture(scope="module")
@slow_fixture
def dungeons(content):
    """Many dungeons: every rooms die, three levels each."""
    out = []
    for seed in SEEDS:
        die = gen.ROOMS_DICE[seed % len(gen.ROOMS_DICE)]
        out.append(gen.generate_paperogue(content, sub_rng(seed, "paperogue"), levels=3, rooms_die=die))
    return out


def all_levels(dungeons):
    for dungeon in dungeons:
        for level in dungeon.levels:
            yield dungeon, level


def reachable(level, *, through_locks=True) -> set:
    seen, queue = {1}, deque([1])
    while queue:
        room = level.room(queue.popleft())
        for door in room.exits:
            if door.leads_to and door.leads_to not in seen and (through_locks or not door.locked):
                seen.add(door.leads_to)
                queue.append(door.leads_to)
    return seen


# --- Step 1 as rolled ----------------------------------------------------------------------------

def test_room_count_is_a_roll_of_the_die_above_half(dungeons):
    for dungeon, level in all_levels(dungeons):
        top = DiceSpec(dungeon.rooms_die).results[-1]
        assert top // 2 < level.room_count <= top
        assert level.room_rolls[-1] == level.room_count
        assert all(1 <= r <= top // 2 for r in level.room_rolls[:-1])  # only low rolls were rolled again
        assert [room.number for room in level.rooms] == list(range(1, level.room_count + 1))


def test_stairs_room_is_valid(dungeons):
    for dungeon, level in all_levels(dungeons):
        top = DiceSpec(dungeon.rooms_die).results[-1]
        assert 1 <= level.stairs_room < level.room_count  # the seed: "less than" the room count
        assert level.stairs_rolls[-1] == level.stairs_room
        assert all(level.room_count <= r <= top for r in level.stairs_rolls[:-1])  # re-rolled only when not less
        assert [r.number for r in level.rooms if "down" in r.stairs] == [level.stairs_room]
        assert [r.number for r in level.rooms if "up" in r.stairs] == [1]
    assert [level.last for level in dungeons[0].levels] == [False, False, True]


def test_every_room_is_reachable_from_room_one(dungeons):
    for _, level in all_levels(dungeons):
        assert reachable(level) == set(range(1, level.room_count + 1))


def test_exits_are_d4_with_directions_consistent_between_neighbours(dungeons):
    for _, level in all_levels(dungeons):
        places = {(room.x, room.y) for room in level.rooms}
        assert len(places) == level.room_count  # no two rooms share a place
        for room in level.rooms:
            assert 0 <= room.x < gen.MAP_SIZE and 0 <= room.y < gen.MAP_SIZE
            directions = [door.direction for door in room.exits]
            assert directions == [d for d in gen.ORDER if d in directions]  # each wall once, N E S W order
            assert 1 <= room.exit_roll <= 4
            added = sum(door.added for door in room.exits)
            assert len(room.exits) == max(room.exit_roll, 1 if room.number > 1 else 0) + added
            entrances = [door for door in room.exits if door.roll is None and not door.added]
            assert len(entrances) == (0 if room.number == 1 else 1)
            stubs = {lock.direction for lock in level.locks if lock.stub and lock.room == room.number}
            for door in room.exits:
                if door.roll is not None:
                    assert gen.DIRECTIONS[door.roll] == door.direction
                if door.leads_to is None:
                    assert door.locked == (door.direction in stubs)  # locked only by a key's stub lock
                    continue
                other = level.room(door.leads_to)
                dx, dy = gen.STEP[door.direction]
                assert (other.x, other.y) == (room.x + dx, room.y + dy), (room, door)
                back = other.exit(gen.OPPOSITE[door.direction])
                assert back is not None and back.leads_to == room.number and back.locked == door.locked


def test_monster_lists_have_ascending_rolls_and_unique_initials(dungeons, content):
    monsters = {str(r.get("initial")): str(r.get("monster")) for r in content.table(gen.MONSTER_TABLE).rows}
    for _, level in all_levels(dungeons):
        listed = level.monsters
        assert [m.slot for m in listed] == [2, 3, 4, 5]
        rolls = [m.roll for m in listed]
        assert rolls == sorted(rolls)
        assert level.hit_dice == f"{level.number}d10"
        for m in listed:
            assert len(m.dice) == level.number and all(1 <= x <= 10 for x in m.dice) and sum(m.dice) == m.roll
            assert monsters[m.initial] == m.name
        initials = [m.initial for m in listed]
        assert len(set(initials)) == 4 and all(len(i) == 1 for i in initials)
        assert [m.table_roll for m in listed] == sorted(m.table_roll for m in listed)  # weakest first
        by_slot = {m.slot: m.initial for m in listed}
        for room in level.rooms:
            *rerolled, kept = room.monster_rolls
            assert all(r == 6 for r in rerolled) and 1 <= kept <= 5
            assert room.monster == by_slot.get(kept, "")


def test_treasure_comes_from_table_one_and_its_sub_table(dungeons, content):
    table_one = content.table(gen.TREASURE_TABLE)
    for _, level in all_levels(dungeons):
        for room in level.rooms:
            t = room.treasure
            row = table_one.row_for(t.type_roll)
            assert (t.initial, t.kind) == (row.get("initial"), row.get("treasure"))
            assert t.table == row.see
            if row.see is None:
                assert (t.roll, t.mark, t.item) == (None, "", "Key")
                continue
            sub = content.table(row.see).row_for(t.roll)
            values = dict(sub.values)
            if row.see == gen.GOLD_TABLE:
                assert t.gold == values["gold"] and t.mark == str(values["gold"])
            elif "initial" in values:
                assert t.mark == values["initial"] and t.item.startswith(values["item"])
            else:  # scrolls have no letter: their number is the mark
                assert t.mark == str(t.roll) and t.item == values["item"]


def play(level) -> set:
    """The rooms a player reaches from room 1, opening each locked door once its own key is in hand."""
    key_for = {}
    for lock in level.locks:
        door = level.room(lock.room).exit(lock.direction)
        key_for[(lock.room, lock.direction)] = lock.key_room
        if door.leads_to:
            key_for[(door.leads_to, gen.OPPOSITE[lock.direction])] = lock.key_room
    seen = {1}
    while True:
        grown = False
        for number in sorted(seen):
            for door in level.room(number).exits:
                key = key_for.get((number, door.direction))
                if door.leads_to and door.leads_to not in seen and (key is None or key in seen):
                    seen.add(door.leads_to)
                    grown = True
        if not grown:
            return seen


def check_keys(level) -> int:
    """Every key adds its own locked door, and the level can be opened in full: returns the keys seen."""
    keys = [r.number for r in level.rooms if r.treasure.initial == gen.KEY]
    assert [lock.key_room for lock in level.locks] == keys
    doors = [(lock.room, lock.direction) for lock in level.locks]
    assert len(set(doors)) == len(doors)  # one door per key
    for lock in level.locks:
        door = level.room(lock.room).exit(lock.direction)
        assert door is not None and door.locked
        assert lock.stub == (door.leads_to is None)
        assert lock.room != 1 or lock.stub  # room 1 is where play starts: never behind a lock
    locked = sum(1 for room in level.rooms for door in room.exits if door.locked)
    assert locked == sum(1 if lock.stub else 2 for lock in level.locks)  # both sides of a corridor, no others
    assert play(level) == set(range(1, level.room_count + 1))
    return len(keys)


def test_every_key_adds_a_locked_door_and_every_room_can_be_opened(dungeons):
    keys = dead_ends = 0
    for _, level in all_levels(dungeons):
        keys += check_keys(level)
        stairs_and_keys = {level.stairs_room, *(lock.key_room for lock in level.locks)}
        for lock in level.locks:
            room = level.room(lock.room)
            if not lock.stub and [d.direction for d in room.exits if d.leads_to] == [lock.direction] \
                    and lock.room not in stairs_and_keys:
                dead_ends += 1
    assert keys > 100
    assert dead_ends > keys / 2  # a dead-end room is the first choice, as the readings say


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**63), die=st.sampled_from(gen.ROOMS_DICE))
def test_any_seed_locks_a_door_for_every_key_and_keeps_the_stairs_below_the_room_count(content, seed, die):
    for level in gen.generate_paperogue(content, sub_rng(seed, "paperogue"), levels=3, rooms_die=die).levels:
        check_keys(level)
        assert level.stairs_room < level.room_count


@pytest.mark.slow  # rolls over 1,500 levels
def test_over_1500_levels_no_key_is_a_spare_and_no_stairs_land_on_the_last_room(content):
    # The playthrough that found these counted 160 spare keys of 2,944 and 99 last-room stairs in 1,500 levels.
    levels = [level for seed in range(500)
              for level in gen.generate_paperogue(content, sub_rng(seed, "paperogue"), levels=3).levels]
    assert len(levels) == 1500
    keys = sum(check_keys(level) for level in levels)
    assert keys > 2500
    assert sum(level.stairs_room == level.room_count for level in levels) == 0


def test_a_key_with_no_door_to_spare_locks_a_corridor_that_ends(content):
    """Three rooms in a row with the key at the far end: every door leads to it, so a stub is locked."""
    doors = {1: {"E": gen._Door("E", 2, leads_to=2), "N": gen._Door("N", 1)},
             2: {"W": gen._Door("W", None, leads_to=1), "E": gen._Door("E", 2, leads_to=3)},
             3: {"W": gen._Door("W", None, leads_to=2)}}
    key = gen.Treasure(type_roll=4, initial=gen.KEY, kind="Key", table=None, roll=None, item="Key", mark="")
    gold = gen.Treasure(type_roll=1, initial="G", kind="Gold", table=None, roll=None, item="1 gold", mark="1")
    locks = gen._locks(random.Random(1), 3, 2, doors, [gold, gold, key])
    assert locks == (gen.Lock(key_room=3, room=1, direction="N", stub=True),)
    # With no stub either, the key adds a door on a free wall.
    del doors[1]["N"]
    (lock,) = gen._locks(random.Random(1), 3, 2, doors, [gold, gold, key])
    assert lock.stub and lock.direction not in ("E",) and doors[lock.room][lock.direction].added


def test_same_seed_same_dungeon_and_other_seeds_differ(content):
    one = gen.generate_paperogue(content, sub_rng(7, "paperogue"))
    assert one == gen.generate_paperogue(content, sub_rng(7, "paperogue"))
    assert one != gen.generate_paperogue(content, sub_rng(8, "paperogue"))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**63), die=st.sampled_from(gen.ROOMS_DICE), levels=st.integers(1, 5))
def test_any_seed_gives_a_connected_drawable_dungeon(content, seed, die, levels):
    dungeon = gen.generate_paperogue(content, sub_rng(seed, "paperogue"), levels=levels, rooms_die=die)
    assert len(dungeon.levels) == levels
    cols, rows = grid.fit_grid("letter", grid.LEVEL_CELL, grid.LEVEL_RESERVED_MM)
    for level in dungeon.levels:
        assert reachable(level) == set(range(1, level.room_count + 1))
        grid.level_origin(level, cols, rows)  # raises if the level does not fit the smaller page


def test_bad_options_and_missing_tables_say_so(content):
    with pytest.raises(ValueError, match="rooms die"):
        gen.generate_paperogue(content, sub_rng(1, "x"), rooms_die="d7")
    with pytest.raises(ValueError, match="levels"):
        gen.generate_paperogue(content, sub_rng(1, "x"), levels=0)
    tables = {k: v for k, v in content.tables.items() if k not in (gen.MONSTER_TABLE, "paperogue_armor")}
    with pytest.raises(ContentErrors) as caught:
        gen.generate_paperogue(dataclasses.replace(content, tables=tables), sub_rng(1, "x"))
    text = str(caught.value)
    assert "need table 'paperogue_monsters'" in text and "need table 'paperogue_armor'" in text


def test_the_starting_gear_tables_point_to_their_sub_tables(content):
    """The character sheet rolls starting gear on Table 1 and follows its `see` links."""
    table_one = content.table("paperogue_treasure_type")
    assert table_one.die == "d8" and len(table_one.rows) == 8
    sees = [row.see for row in table_one.rows]
    assert sees == ["paperogue_gold", "paperogue_armor", "paperogue_weapons", None, "paperogue_potions",
                    "paperogue_scrolls", "paperogue_magic_books", "paperogue_jewelry"]
    dice = {t: content.table(t).die for t in sees if t}
    assert dice == {"paperogue_gold": "d10", "paperogue_armor": "d6", "paperogue_weapons": "d6",
                    "paperogue_potions": "d10", "paperogue_scrolls": "d10", "paperogue_magic_books": "d10",
                    "paperogue_jewelry": "d6"}
    for table_id in ("paperogue_equipment_bonus", "paperogue_jewelry_effects", "paperogue_potion_effects",
                     "paperogue_scroll_effects"):
        assert content.table(table_id).origin == "paperogue"


@pytest.mark.parametrize("levels, message", [(gen.MAX_LEVELS + 1, f"levels must be 1 to {gen.MAX_LEVELS} (got 10)"),
                                             (-1, f"levels must be 1 to {gen.MAX_LEVELS} (got -1)")])
def test_levels_outside_the_range_are_refused_with_the_range(content, levels, message):
    with pytest.raises(ValueError) as caught:
        gen.generate_paperogue(content, sub_rng(1, "x"), levels=levels)
    assert str(caught.value) == message


def test_levels_are_numbered_with_their_hit_dice_and_carry_the_readings(content):
    dungeon = gen.generate_paperogue(content, sub_rng(2, "paperogue"), levels=gen.MAX_LEVELS, rooms_die="d6")
    assert [level.number for level in dungeon.levels] == list(range(1, gen.MAX_LEVELS + 1))
    assert [level.hit_dice for level in dungeon.levels] == [f"{n}d10" for n in range(1, gen.MAX_LEVELS + 1)]
    assert [level.last for level in dungeon.levels].count(True) == 1 and dungeon.levels[-1].last
    assert dungeon.readings == gen.READINGS and dungeon.rooms_die == "d6"
    assert all(4 <= level.room_count <= 6 for level in dungeon.levels)  # a d6 above half: 4, 5 or 6
