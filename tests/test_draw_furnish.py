"""draw.furnish: a room's look, its floor and a seeded Random → marks inside the floor, clear of number and doors."""

from __future__ import annotations

import itertools
import random

import re

import pytest

from dungeonpress.draw.free_floor import NUMBER_HALF, FreeFloor
from dungeonpress.draw.furnish import PLACERS, furnish
from dungeonpress.draw.geometry import inside, rect_polygon
from dungeonpress.draw.map_reading import RoomLook
from dungeonpress.model.plan import Door, PlacedRoom

MARKS = sorted(PLACERS)


def room(w: int, h: int) -> PlacedRoom:
    x, y = 2, 3
    return PlacedRoom(1, 0, x, y, w, h, 0, (Door("N", x + w // 2 + 0.5, y, 2), Door("W", x, y + h // 2 + 0.5, 3)))


def furnished(w, h, marks, seed, *, stairs=False, boss=False, number=None):
    """(placed room, floor, items); `number`, a list, is given the box the room's number keeps clear."""
    placed = room(w, h)
    floor = rect_polygon(placed.x, placed.y, placed.w, placed.h)
    space = FreeFloor(placed, floor, random.Random(seed))
    look = RoomLook(1, False, tuple(marks), (), boss=boss, stairs=stairs, entrance=True, words="a room")
    items = furnish(space, look)
    if number is not None:
        number.append(space.number)
    return placed, floor, items


def overlaps(a, b, gap=1e-9) -> bool:
    return a[0] < b[2] - gap and b[0] < a[2] - gap and a[1] < b[3] - gap and b[1] < a[3] - gap


@pytest.mark.parametrize("mark", MARKS)
@pytest.mark.parametrize("w, h", [(3, 3), (4, 6), (7, 4)])
def test_each_mark_lies_inside_the_floor_and_clear_of_the_number_and_thresholds(mark, w, h):
    for seed in range(5):
        drawn_at = []
        placed, floor, items = furnished(w, h, [mark], seed, stairs=True, boss=True, number=drawn_at)
        cx, cy = placed.x + w / 2, placed.y + h / 2
        number = (cx - NUMBER_HALF[0], cy - NUMBER_HALF[1], cx + NUMBER_HALF[0], cy + NUMBER_HALF[1])
        if mark == "ritual":  # its altar takes the middle: the number stands beside it, as big, inside the floor
            assert drawn_at[0] != number and abs((drawn_at[0][2] - drawn_at[0][0]) - (number[2] - number[0])) < 1e-9
            number = drawn_at[0]
        assert all(inside(p, floor) for p in ((number[0], number[1]), (number[2], number[3]))), mark
        for item in items:
            x0, y0, x1, y1 = item.box
            assert all(inside(p, rect_polygon(placed.x - 1e-6, placed.y - 1e-6, w + 2e-6, h + 2e-6))
                       for p in ((x0, y0), (x1, y1))), (mark, item)
            if item.mark != "cracks":  # cracks run along the wall itself
                assert not overlaps(item.box, number), (mark, item)
            assert item.svg.startswith("<") and item.mark in (mark, "stairs", "boss")


@pytest.mark.parametrize("w, h", [(4, 4), (6, 5)])
def test_marks_in_one_room_do_not_sit_on_each_other(w, h):
    for marks in itertools.combinations(["statues", "altar", "crates", "forge", "library"], 2):
        _, _, items = furnished(w, h, marks, 1, stairs=True)
        # (a pile of crates may stack within its own cell: only different marks must keep apart)
        for a, b in itertools.combinations(items, 2):
            if a.mark != b.mark:
                assert not overlaps(a.box, b.box, gap=0.01), (marks, a.box, b.box)


def test_stairs_go_nearest_the_top_right_corner():
    placed, _, items = furnished(5, 5, [], 1, stairs=True)
    (stairs,) = items
    assert stairs.mark == "stairs"
    assert stairs.box[:2] == (pytest.approx(placed.x + 4.1), pytest.approx(placed.y + 0.1))
    # drawn as a flight, not a boxed icon: two sides and treads that start at the north wall and crowd downward
    assert '<rect' not in stairs.svg and 'class="stairs"' in stairs.svg and 'class="step"' in stairs.svg
    treads = [float(y) for y in re.findall(r"M[\d.]+ ([\d.]+)L", stairs.svg.split('class="step"')[1])]
    gaps = [b - a for a, b in zip(treads, treads[1:])]
    assert len(treads) == 7 and all(g > 0 for g in gaps) and gaps[-1] < gaps[0]


def test_same_seed_same_furnishings():
    assert furnished(6, 5, ["rubble", "water", "columns"], 3) == furnished(6, 5, ["rubble", "water", "columns"], 3)


def test_alcoves_place_nothing_inside_the_room():
    assert furnished(4, 4, ["alcoves"], 1)[2] == []


# Rooms as crowded as the generator makes them (it gives a room over two floor marks a square more
# each way per mark), with the stairs and the boss too.
@pytest.mark.parametrize("w, h, count", [(3, 3, 2), (2, 4, 2), (3, 5, 2), (4, 4, 3), (5, 5, 4), (6, 6, 5)])
def test_a_crowded_room_draws_every_mark_it_states(w, h, count):
    """Whole cells run out: the marks that find none are drawn smaller between the others, never left out."""
    crowd = ["columns", "statues", "crates", "rubble", "forge", "library", "vault", "furniture", "altar", "water"]
    for seed in range(10):
        marks = crowd[seed:seed + count]
        _, _, items = furnished(w, h, marks, seed, stairs=True, boss=True)
        assert set(marks) | {"stairs", "boss"} <= {item.mark for item in items}, (w, h, marks)
        for a, b in itertools.combinations(items, 2):
            if a.mark != b.mark:
                assert not overlaps(a.box, b.box, gap=0.01), (marks, a, b)


@pytest.mark.parametrize("w, h", [(5, 5), (6, 5)])
def test_a_ritual_altar_stands_in_the_middle_in_its_ring_with_floor_all_round(w, h):
    """The ritual space's altar is centred on the room's middle, its ring round it, and nothing else (the number,
    the stairs, the lair, crates) stands inside the ring's box."""
    for seed in range(5):
        drawn_at = []
        placed, floor, items = furnished(w, h, ["ritual", "crates"], seed, stairs=True, boss=True, number=drawn_at)
        ring = next(item for item in items if item.mark == "ritual")
        x0, y0, x1, y1 = ring.box
        assert abs((x0 + x1) / 2 - (placed.x + w / 2)) < 1e-9 and abs((y0 + y1) / 2 - (placed.y + h / 2)) < 1e-9
        assert x1 - x0 >= 2.0 and ring.svg.count('class="candle"') == 5 + 2  # the ring's candles and the slab's
        for other in [item.box for item in items if item is not ring] + drawn_at:
            assert not overlaps(other, ring.box), (seed, other)
