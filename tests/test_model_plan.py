"""model.plan: the floor plan as data; rooms by key number, by the spec they came from, and their extra doors."""

from __future__ import annotations

import pytest

from dungeonpress.model.plan import OUTSIDE, Door, FloorPlan, PlacedRoom


def plan() -> FloorPlan:
    first = PlacedRoom(1, 2, 0, 0, 3, 3, 0, (Door("N", 1, 0, 2), Door("S", 1, 3, OUTSIDE)))
    second = PlacedRoom(2, 0, 0, 5, 3, 3, 1, (Door("S", 1, 8, 1), Door("E", 3, 6, None, extra=True),
                                              Door("W", 0, 6, None, extra=True)))
    return FloorPlan(rooms=(first, second), connections=((1, 2),), corridors=(), entrance=1, stairs=2, boss=None,
                     width=10, height=10)


def test_room_finds_a_room_by_its_key_number():
    assert plan().room(1).spec == 2 and plan().room(2).spec == 0


def test_number_of_maps_a_spec_index_to_its_key_number():
    assert plan().number_of(2) == 1 and plan().number_of(0) == 2
    with pytest.raises(KeyError):
        plan().number_of(5)


def test_extra_doors_counts_the_break_through_doors_only():
    assert plan().room(1).extra_doors == 0 and plan().room(2).extra_doors == 2
    assert plan().room(1).shape == "rect"  # rooms are rectangles unless drawn as caves
    assert OUTSIDE == 0  # room numbers start at 1, so 0 is free for the way out
