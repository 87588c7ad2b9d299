"""draw.geometry: inside tests, distances, clipping and crossings in grid cells, and stable SVG numbers."""

from __future__ import annotations

import math
import random

import pytest

from dungeonpress.draw.geometry import (Region, bbox, clip_inside, clip_outside, distance, grow, inside, num,
                                        rect_polygon, segment_distance, segments_cross, simple)

SQUARE = rect_polygon(0, 0, 4, 4)
# an L: the square with its top-right quarter cut away
ELL = ((0, 0), (2, 0), (2, 2), (4, 2), (4, 4), (0, 4))


@pytest.mark.parametrize("value, text", [
    (0, "0"), (1.0, "1"), (1.5, "1.5"), (1.25, "1.25"), (1.256, "1.26"), (10.10, "10.1"), (-0.001, "0"),
    (-2.5, "-2.5"), (100, "100"), (0.004, "0"),
])
def test_num_writes_at_most_two_decimals_without_trailing_zeros(value, text):
    assert num(value) == text


def test_rect_polygon_and_bbox():
    assert rect_polygon(1, 2, 3, 4) == ((1, 2), (4, 2), (4, 6), (1, 6))
    assert bbox(ELL) == (0, 0, 4, 4)
    assert bbox([(3, -1), (-2, 5)]) == (-2, -1, 3, 5)


def test_inside_a_square_and_an_l():
    assert inside((2, 2), SQUARE) and not inside((5, 2), SQUARE) and not inside((2, -0.1), SQUARE)
    assert inside((1, 3), ELL) and inside((3, 3), ELL) and inside((1, 1), ELL)
    assert not inside((3, 1), ELL)  # the cut-away corner


def test_a_region_answers_as_inside_does_on_edges_corners_and_level_sides():
    """Region is inside made ready for many points: the same answer everywhere, the edges' points included (a room's
    marks are placed on a grid of eighths that runs along its walls), for squares, an L and ragged cave walls."""
    rng = random.Random("region")
    caves = [tuple((5 + math.cos(a) * rng.uniform(2, 5), 5 + math.sin(a) * rng.uniform(2, 5))
                   for a in (k * math.tau / 17 for k in range(17))) for _ in range(20)]
    points = [(i / 8, j / 8) for i in range(-8, 90) for j in range(-8, 90)]
    for polygon in (SQUARE, ELL, *caves):
        region = Region(polygon)
        assert [region.contains(p) for p in points] == [inside(p, polygon) for p in points]
    assert Region(ELL).contains((1, 3)) and not Region(ELL).contains((3, 1))


def test_segment_distance_to_the_segment_its_ends_and_a_point():
    assert segment_distance((2, 3), (0, 0), (4, 0)) == 3
    assert segment_distance((7, 4), (0, 0), (4, 0)) == 5  # nearest the end (4, 0)
    assert segment_distance((3, 4), (0, 0), (0, 0)) == 5  # a segment of no length is a point


def test_distance_is_zero_inside_and_to_the_nearest_edge_outside():
    assert distance((2, 2), SQUARE) == 0
    assert distance((6, 2), SQUARE) == 2
    assert distance((3, 1), ELL) == 1  # out in the notch: one cell from either wall
    assert math.isclose(distance((7, 8), SQUARE), 5)


def test_clip_outside_keeps_the_pieces_beyond_the_polygons():
    pieces = clip_outside((-2, 2), (6, 2), [SQUARE])
    assert [(tuple(map(round, a)), tuple(map(round, b))) for a, b in pieces] == [((-2, 2), (0, 2)), ((4, 2), (6, 2))]
    assert clip_outside((-2, 2), (6, 2), []) == [((-2, 2), (6, 2))]
    assert clip_outside((1, 1), (3, 3), [SQUARE]) == []


def test_clip_inside_keeps_the_pieces_within_the_polygon():
    pieces = clip_inside((-2, 1), (6, 1), ELL)  # crosses the foot of the L, which is two cells wide
    assert len(pieces) == 1
    (ax, ay), (bx, by) = pieces[0]
    assert math.isclose(ax, 0) and math.isclose(bx, 2) and ay == by == 1
    assert len(clip_inside((-2, 3), (6, 3), ELL)) == 1 and clip_inside((5, 0), (5, 4), ELL) == []


def test_clipping_property_inside_and_outside_pieces_make_the_whole_segment():
    rng = random.Random(3)
    for _ in range(200):
        a = (rng.uniform(-3, 7), rng.uniform(-3, 7))
        b = (rng.uniform(-3, 7), rng.uniform(-3, 7))
        whole = math.dist(a, b)
        parts = sum(math.dist(p, q) for p, q in clip_inside(a, b, ELL) + clip_outside(a, b, [ELL]))
        assert math.isclose(parts, whole, abs_tol=1e-6)


def test_segments_cross_only_when_they_properly_cross():
    assert segments_cross((0, 0), (2, 2), (0, 2), (2, 0))
    assert not segments_cross((0, 0), (2, 2), (2, 2), (4, 0))  # touching ends
    assert not segments_cross((0, 0), (2, 0), (0, 1), (2, 1))  # parallel
    assert not segments_cross((0, 0), (1, 1), (3, 0), (2, 2))


def test_simple_refuses_a_bow_tie():
    assert simple(SQUARE) and simple(ELL)
    assert not simple(((0, 0), (2, 2), (2, 0), (0, 2)))


def test_grow_pushes_each_corner_away_from_the_centre():
    grown = grow(SQUARE, 1)
    for (x, y), (gx, gy) in zip(SQUARE, grown):
        assert math.isclose(math.dist((gx, gy), (2, 2)), math.dist((x, y), (2, 2)) + 1)
    assert all(inside(p, grown) for p in ((0.01, 0.01), (3.99, 3.99)))
