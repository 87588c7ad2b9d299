"""draw.cave: a room rectangle, its doors and a seeded Random → a cave wall that never crosses itself."""

from __future__ import annotations

import math
import random

import pytest

from dungeonpress.draw.cave import DOOR_FLAT, cave_outline, smooth
from dungeonpress.draw.geometry import inside, rect_polygon, simple


def rooms(seed: int):
    """A random room with a door or two on its walls."""
    rng = random.Random(seed)
    x, y, w, h = rng.randint(0, 20), rng.randint(0, 20), rng.randint(2, 7), rng.randint(2, 7)
    doors = [(x + rng.randint(1, w - 1), y), (x + w, y + rng.randint(1, h - 1))][: rng.randint(1, 2)]
    return x, y, w, h, doors


@pytest.mark.parametrize("seed", range(40))
def test_the_wall_is_simple_inside_the_rectangle_and_flat_at_its_doors(seed):
    x, y, w, h, doors = rooms(seed)
    outline = cave_outline(x, y, w, h, doors, random.Random(seed))
    box = rect_polygon(x - 1e-6, y - 1e-6, w + 2e-6, h + 2e-6)
    assert len(outline) >= 8 and simple(outline) and simple(smooth(outline))
    assert all(inside(p, box) for p in outline)
    for dx, dy in doors:
        # the passage meets a straight stretch of the rectangle's wall: the door and DOOR_FLAT either side
        along = (1, 0) if dy in (y, y + h) else (0, 1)
        for k in (-1, 0, 1):
            flat = (dx + k * DOOR_FLAT * along[0], dy + k * DOOR_FLAT * along[1])
            assert any(math.dist(flat, p) < 1e-9 for p in outline), (flat, outline)


def test_the_wall_is_clockwise_round_the_centre():
    outline = cave_outline(0, 0, 6, 4, [(3, 0)], random.Random(1))
    angles = [math.atan2(py - 2, px - 3) for px, py in outline]
    turns = sum((b - a + math.pi) % (2 * math.pi) - math.pi for a, b in zip(angles, angles[1:] + angles[:1]))
    assert math.isclose(turns, 2 * math.pi)  # once round, angles always increasing (y grows down)


def test_same_seed_same_wall():
    assert cave_outline(1, 1, 5, 5, [(3, 1)], random.Random(4)) == cave_outline(1, 1, 5, 5, [(3, 1)], random.Random(4))
    assert cave_outline(1, 1, 5, 5, [(3, 1)], random.Random(4)) != cave_outline(1, 1, 5, 5, [(3, 1)], random.Random(5))


def test_smooth_samples_each_control_point_and_stays_within_its_hull():
    square = ((0, 0), (4, 0), (4, 4), (0, 4))
    curve = smooth(square, samples=5)
    assert len(curve) == 20 and curve[0] == (0.0, 2.0)  # starts midway along the closing edge
    assert all(0 <= px <= 4 and 0 <= py <= 4 for px, py in curve)


def _area(polygon) -> float:
    n = len(polygon)
    return abs(sum(polygon[i][0] * polygon[(i + 1) % n][1] - polygon[(i + 1) % n][0] * polygon[i][1]
                   for i in range(n))) / 2


def test_a_cave_has_bays_and_bulges_not_only_a_rough_edge_round_a_box():
    """The wall swells in and out round the cave: on average a cave fills under 70% of its rectangle, and none over
    80% (a rough edge alone, every point pulled in a little, left caves filling 77% on average, up to 85%)."""
    rng = random.Random("bays")
    fills = []
    for _ in range(300):
        w, h = rng.randint(3, 6), rng.randint(3, 6)
        outline = smooth(cave_outline(3, 5, w, h, [(3 + rng.randint(1, w - 2) + 0.5, 5.0)], rng))
        fills.append(_area(outline) / (w * h))
    assert sum(fills) / len(fills) < 0.7 and max(fills) < 0.8, (sum(fills) / len(fills), max(fills))
