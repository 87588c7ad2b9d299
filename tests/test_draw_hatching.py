"""draw.hatching: floors and a seeded Random → hatch strokes in a band along the walls, never on the floor."""

from __future__ import annotations

import math
import random

import pytest

from dungeonpress.draw.geometry import distance, inside, rect_polygon
from dungeonpress.draw.hatching import BAND, STROKE, grow_rect, hatch_strokes

WIDTH, HEIGHT = 12, 10
FLOORS = (rect_polygon(2, 2, 3, 3), rect_polygon(7, 4, 3, 4), rect_polygon(5, 3, 2, 1))  # two rooms and a passage
GROWN = tuple(grow_rect(p, 0.14) for p in FLOORS)


def strokes(seed: int) -> list:
    return hatch_strokes(FLOORS, GROWN, WIDTH, HEIGHT, random.Random(seed))


def test_grow_rect_grows_every_side():
    assert grow_rect(rect_polygon(1, 2, 3, 4), 0.5) == rect_polygon(0.5, 1.5, 4, 5)


def test_same_seed_same_strokes_and_another_seed_others():
    assert strokes(4) == strokes(4)
    assert strokes(4) != strokes(5)


@pytest.mark.parametrize("seed", range(8))
def test_strokes_stay_off_the_grown_floor_near_the_walls_and_inside_the_frame(seed):
    drawn = strokes(seed)
    assert len(drawn) > 100
    for a, b in drawn:
        assert STROKE + 0.01 >= math.dist(a, b) > 0.05
        for t in (0.25, 0.5, 0.75):  # points along the stroke (its ends may sit on the grown floor's edge)
            point = (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)
            assert not any(inside(point, g) for g in GROWN)
            # a band along the walls: no stroke strays far out into the rock
            assert min(distance(point, f) for f in FLOORS) < BAND + STROKE
        for x, y in (a, b):
            assert 0.04 <= x <= WIDTH - 0.04 and 0.04 <= y <= HEIGHT - 0.04


def test_no_floors_no_strokes():
    assert hatch_strokes((), (), WIDTH, HEIGHT, random.Random(1)) == []
