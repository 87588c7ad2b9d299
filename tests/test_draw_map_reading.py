"""draw.map_reading: a dungeon → what the map shows of each room, read from the marks its key states."""

from __future__ import annotations

import dataclasses

import pytest

from dungeonpress.dice import sub_rng
from dungeonpress.draw.map_reading import DOOR_MARKS, TYPE_WORDS, WORDS, read_rooms
from dungeonpress.generate.dungeon import generate_dungeon
from dungeonpress.model import MAP_MARKS
from dungeonpress.model.plan import OUTSIDE

SEEDS = range(60)


@pytest.fixture(scope="module")
def read(content):
    """(dungeon, looks) for many seeds."""
    out = []
    for seed in SEEDS:
        dungeon = generate_dungeon(content, sub_rng(seed, "dungeon"), rooms=10)
        out.append((dungeon, read_rooms(dungeon)))
    return out


def test_one_look_per_room_in_key_order_with_the_plan_flags(read):
    for dungeon, looks in read:
        plan = dungeon.plan
        assert [look.number for look in looks] == [room.number for room in dungeon.rooms]
        for look in looks:
            assert look.boss == (look.number == plan.boss) and look.stairs == (look.number == plan.stairs)
            assert look.entrance == (look.number == plan.entrance)
            assert look.cave == (plan.room(look.number).shape == "cave")


def test_marks_are_exactly_those_the_key_states(read):
    for dungeon, looks in read:
        for room, look in zip(dungeon.rooms, looks):
            stated = [mark for mark in room.marks if mark not in DOOR_MARKS]
            assert list(look.marks) == stated, (room, look)
            assert all(mark in WORDS for mark in look.marks)
            if not room.special:
                assert look.words == TYPE_WORDS.get(room.type.value, "a room")


def test_a_barred_or_locked_door_is_the_door_the_key_names(read):
    shut = {"barred": 0, "locked": 0}
    for dungeon, looks in read:
        for room, look in zip(dungeon.rooms, looks):
            doors = dungeon.plan.room(look.number).doors
            for mark, indices in (("barred", look.barred), ("locked", look.locked)):
                assert len(indices) == (1 if mark in room.marks else 0), (room, look)
                for index in indices:
                    shut[mark] += 1
                    assert doors[index].side == room.shut_door
                    assert not doors[index].extra  # a hole broken through has no door to shut
                    if any(door.to != OUTSIDE for door in doors):
                        assert doors[index].to != OUTSIDE
    assert shut["barred"] > 5 and shut["locked"] > 5


def test_a_trapped_room_looks_like_a_plain_room(read):
    # type 8 is the trapped room: only its feature tags show, never the trap
    trapped = [(room, look) for dungeon, looks in read for room, look in zip(dungeon.rooms, looks)
               if room.type.value == 8]
    assert trapped
    for room, look in trapped:
        assert not room.type.marks
        assert set(look.marks) <= {mark for f in room.features for mark in f.marks}
        assert look.words == "a room"


def test_the_same_dungeon_reads_the_same_looks(content):
    dungeon = generate_dungeon(content, sub_rng(3, "dungeon"), rooms=12)
    assert read_rooms(dungeon) == read_rooms(dungeon)


def test_a_reworded_row_keeps_its_drawing(content):
    # the drawing reads the marks a roll carries, not its words
    dungeon = generate_dungeon(content, sub_rng(5, "dungeon"), rooms=10)
    reworded = dataclasses.replace(dungeon, rooms=tuple(
        dataclasses.replace(room, type=dataclasses.replace(room.type, fields=tuple((k, h, "Reworded") for k, h, _ in room.type.fields)))
        for room in dungeon.rooms))
    assert read_rooms(reworded) == read_rooms(dungeon)


def test_every_mark_has_words_for_the_description():
    assert set(MAP_MARKS) <= set(WORDS)


def test_a_shrine_with_its_altar_at_the_far_wall_is_apsed_a_ritual_space_round_and_a_workroom_an_l(read):
    """The wall follows the room type and the reading the key printed: "Shrine, an altar at its far wall" ends in an
    apse, "Ritual space around a stone altar" is round, every functional room (forge, library, vault, storeroom) is
    an L; no trapped or empty room takes one of these shapes (a trap stays hidden in a plain room)."""
    seen = set()
    for dungeon, looks in read:
        for room, look in zip(dungeon.rooms, looks):
            if dungeon.plan.room(look.number).shape == "cave" or room.special:
                continue
            kind = room.type.value
            expected = {11: "apse" if "altar" in look.marks else "round", 7: "ell"}.get(kind)
            if expected:
                assert look.shape == expected, (room.number, kind, look.marks)
                seen.add(expected)
            else:
                assert look.shape not in ("apse", "ell"), (room.number, kind)
    assert seen == {"apse", "round", "ell"}
