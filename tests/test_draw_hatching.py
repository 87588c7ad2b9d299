"""draw.hatching: a seeded Random → one seamless tile of hatch strokes; floors → the ragged band of rock it fills."""

from __future__ import annotations

import math
import random

import pytest

from dungeonpress.draw.geometry import distance, inside, rect_polygon, simple
from dungeonpress.draw.hatching import (BAND, FRAME, FRAME_MM, RAGGED, STROKE, TILE, frame_cells, hatch_band,
                                        hatch_tile)

WIDTH, HEIGHT = 12, 10
ROOM = rect_polygon(2, 2, 3, 3)
CAVE = tuple((6.5 + 1.6 * math.cos(a / 10 * math.pi), 5 + 1.4 * math.sin(a / 10 * math.pi)) for a in range(20))


def test_same_seed_same_tile_and_another_seed_another():
    assert hatch_tile(random.Random(4)) == hatch_tile(random.Random(4))
    assert hatch_tile(random.Random(4)) != hatch_tile(random.Random(5))


@pytest.mark.parametrize("seed", range(6))
def test_the_tile_holds_bundles_of_short_strokes_inside_its_square(seed):
    strokes = hatch_tile(random.Random(seed))
    assert len(strokes) > 3 * (TILE / 0.5) ** 2  # bundles of three, closer than every half square
    for a, b in strokes:
        assert 0 < math.dist(a, b) <= STROKE + 1e-9
        for x, y in (a, b):
            assert -1e-9 <= x <= TILE + 1e-9 and -1e-9 <= y <= TILE + 1e-9


def _crossing(strokes, edge: str) -> list:
    """Where strokes meet one edge of the tile, measured along it (rounded)."""
    at = []
    for a, b in strokes:
        for x, y in (a, b):
            if edge in "LR" and abs(x - (0 if edge == "L" else TILE)) < 1e-9:
                at.append(round(y, 6))
            if edge in "TB" and abs(y - (0 if edge == "T" else TILE)) < 1e-9:
                at.append(round(x, 6))
    return sorted(at)


@pytest.mark.parametrize("seed", range(6))
def test_the_tile_has_no_seam(seed):
    """A stroke cut at one edge goes on from the same place on the opposite edge, so tiles join unseen."""
    strokes = hatch_tile(random.Random(seed))
    assert _crossing(strokes, "L") and _crossing(strokes, "L") == _crossing(strokes, "R")
    assert _crossing(strokes, "T") and _crossing(strokes, "T") == _crossing(strokes, "B")


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("floor,straight", [(ROOM, True), (CAVE, False)])
def test_the_band_wraps_its_floor_a_band_wide_and_raggedly(seed, floor, straight):
    band = hatch_band(floor, straight, WIDTH, HEIGHT, random.Random(seed))
    assert simple(band)
    assert all(inside(p, band) for p in floor)  # the floor lies inside: painted over, it cuts the hatching at the wall
    gaps = [distance(p, floor) for p in band]
    assert min(gaps) > BAND - RAGGED - 0.05 and max(gaps) < BAND + RAGGED + 0.05
    assert max(gaps) - min(gaps) > RAGGED / 2  # ragged, not ruled
    assert all(0 < x < WIDTH and 0 < y < HEIGHT for x, y in band)


def test_the_band_stays_inside_the_maps_frame():
    band = hatch_band(rect_polygon(0.5, 0.5, 2, 2), True, 4, 4, random.Random(1))
    assert min(x for x, _ in band) >= FRAME - 1e-9 and max(y for _, y in band) <= 4 - FRAME + 1e-9
    wide = hatch_band(rect_polygon(0.5, 0.5, 2, 2), True, 4, 4, random.Random(1), frame=0.6)
    assert min(x for x, _ in wide) >= 0.6 - 1e-9 and min(y for _, y in wide) >= 0.6 - 1e-9


def test_the_frame_kept_clear_is_a_millimetre_at_least_as_printed():
    assert frame_cells(10.0) == FRAME  # a large map: a third of a square
    assert frame_cells(1.5) * 1.5 == pytest.approx(FRAME_MM)  # a cover's small outline: a millimetre
