"""draw.pen: lines in cells → SVG path data; a clean pen rules them, a sketch pen shakes them from its seed."""

from __future__ import annotations

import random
import re

from dungeonpress.draw.pen import UNIT, Pen, u

NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def points_of(path: str) -> list:
    values = [float(v) for v in NUMBER.findall(path)]
    return [(values[i] / UNIT, values[i + 1] / UNIT) for i in range(0, len(values), 2)]


def test_u_is_cells_in_user_units():
    assert u(1) == str(UNIT) and u(0.25) == "2.5" and u(0) == "0"


def test_a_clean_pen_rules_straight_through_the_points():
    pen = Pen()
    assert pen.path([(0, 0), (2, 0), (2, 1.5)]) == "M0 0L20 0L20 15"
    assert pen.path([(0, 0), (1, 0), (1, 1)], closed=True) == "M0 0L10 0L10 10L0 0Z"
    assert pen.jitter(5) == 0.0


def test_a_sketch_pen_is_seeded():
    line = [(0, 0), (6, 0), (6, 4)]
    assert Pen(random.Random(7)).path(line) == Pen(random.Random(7)).path(line)
    assert Pen(random.Random(7)).path(line) != Pen(random.Random(8)).path(line)


def test_a_sketch_pen_keeps_the_corners_and_wobbles_no_further_than_its_wobble():
    wobble = 0.045
    for seed in range(50):
        pen = Pen(random.Random(seed), wobble=wobble)
        path = pen.path([(0, 0), (8, 0), (8, 5)])
        points = points_of(path)
        assert points[0] == (0, 0) and (8, 0) in points and points[-1] == (8, 5)
        # long edges are split every 0.8 cell or so, and every inner point stays near its edge
        assert len(points) > 10
        for x, y in points:
            assert min(abs(y), abs(x - 8)) <= wobble + 0.01


def test_a_sketch_pen_closes_its_path_and_jitters_within_the_amount():
    pen = Pen(random.Random(1))
    path = pen.path([(0, 0), (3, 0), (3, 3)], closed=True)
    assert path.startswith("M0 0") and path.endswith("L0 0Z")
    offsets = [pen.jitter(0.3) for _ in range(200)]
    assert all(abs(o) <= 0.3 for o in offsets) and len(set(offsets)) > 100


def test_a_sketch_pen_draws_a_point_without_dividing_by_zero():
    assert points_of(Pen(random.Random(2)).path([(1, 1), (1, 1)])) == [(1, 1), (1, 1)]
    assert len(points_of(Pen(random.Random(2)).path([(0, 0), (0.5, 0)]))) == 2  # too short to split
