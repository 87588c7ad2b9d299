"""draw.map_reading: a dungeon and a seeded Random → what the map shows of each room, read from architecture only."""

from __future__ import annotations

import dataclasses
import random

import pytest

from dungeonpress.dice import sub_rng
from dungeonpress.draw.map_reading import (CAVE_TYPE, FEATURE_MARKS, FURNITURE, TYPE_MARKS, TYPE_WORDS, WORDS,
                                           read_rooms)
from dungeonpress.generate.dungeon import generate_dungeon
from dungeonpress.model.plan import OUTSIDE

SEEDS = range(60)


@pytest.fixture(scope="module")
def read(content):
    """(dungeon, looks) for many seeds, the looks read with their own stream."""
    out = []
    for seed in SEEDS:
        dungeon = generate_dungeon(content, sub_rng(seed, "dungeon"), rooms=10)
        out.append((dungeon, read_rooms(dungeon, random.Random(seed))))
    return out


def test_one_look_per_room_in_key_order_with_the_plan_flags(read):
    for dungeon, looks in read:
        plan = dungeon.plan
        assert [look.number for look in looks] == [room.number for room in dungeon.rooms]
        for look in looks:
            assert look.boss == (look.number == plan.boss) and look.stairs == (look.number == plan.stairs)
            assert look.entrance == (look.number == plan.entrance)
            assert look.cave == (plan.room(look.number).shape == "cave")


def test_marks_come_from_the_room_type_and_its_features_only(read):
    for dungeon, looks in read:
        for room, look in zip(dungeon.rooms, looks):
            kind = room.type.value
            typed = ["FURNITURE" if m == "furniture" else m for m in TYPE_MARKS.get(kind, ())]
            featured = {FEATURE_MARKS[f.value] for f in room.features if f.value in FEATURE_MARKS} - {"barred"}
            allowed = set(typed) | featured | set(FURNITURE) | ({"water"} if kind == CAVE_TYPE else set())
            assert set(look.marks) <= allowed, (room, look)
            assert len(look.marks) == len(set(look.marks))  # no repeats
            assert "barred" not in look.marks
            for mark in typed:
                assert (mark in look.marks) if mark != "FURNITURE" else any(f in look.marks for f in FURNITURE)
            assert featured <= set(look.marks)
            assert all(mark in WORDS for mark in look.marks)
            if not room.special:
                assert look.words == TYPE_WORDS.get(kind, "a room")


def test_a_barred_door_is_a_real_door_and_never_the_way_out(read):
    barred = 0
    for dungeon, looks in read:
        for room, look in zip(dungeon.rooms, looks):
            doors = dungeon.plan.room(look.number).doors
            wants = any(FEATURE_MARKS.get(f.value) == "barred" for f in room.features)
            assert bool(look.barred) <= wants
            for index in look.barred:
                barred += 1
                assert doors[index].to != OUTSIDE
    assert barred > 5


def test_a_trapped_room_looks_like_a_plain_room(read):
    # type 8 is the trapped room: only its feature tags show, never the trap
    trapped = [(room, look) for dungeon, looks in read for room, look in zip(dungeon.rooms, looks)
               if room.type.value == 8]
    assert trapped
    for room, look in trapped:
        assert set(look.marks) <= {FEATURE_MARKS.get(f.value) for f in room.features}
        assert look.words == "a room"


def test_the_same_stream_reads_the_same_looks(content):
    dungeon = generate_dungeon(content, sub_rng(3, "dungeon"), rooms=12)
    assert read_rooms(dungeon, random.Random(1)) == read_rooms(dungeon, random.Random(1))


def test_a_reworded_row_keeps_its_drawing(content):
    # rows are read by their 2d6 value, so new words on the same roll draw the same room
    dungeon = generate_dungeon(content, sub_rng(5, "dungeon"), rooms=10)
    reworded = dataclasses.replace(dungeon, rooms=tuple(
        dataclasses.replace(room, type=dataclasses.replace(room.type, fields=tuple((k, h, "Reworded") for k, h, _ in room.type.fields)))
        for room in dungeon.rooms))
    assert read_rooms(reworded, random.Random(2)) == read_rooms(dungeon, random.Random(2))
