"""draw.small_marks: a mark, a free spot and a Random → a small version of the mark inside the spot."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

import pytest

from dungeonpress.draw import small_marks
from dungeonpress.draw.small_marks import SMALL, draw_small
from dungeonpress.model import MAP_MARKS

SIZES = (0.7, 0.55, 0.42)


def test_every_floor_mark_has_a_small_version():
    assert set(SMALL) == set(MAP_MARKS) - {"barred", "locked", "alcoves"}


@pytest.mark.parametrize("mark", sorted(SMALL))
@pytest.mark.parametrize("size", SIZES)
def test_a_small_mark_lies_inside_its_spot_and_is_one_svg_fragment(mark, size):
    for seed in range(5):
        x, y = 3.25, 7.5
        box, svg = draw_small(mark, x, y, size, random.Random(seed))
        x0, y0, x1, y1 = box
        assert x <= x0 < x1 <= x + size and y <= y0 < y1 <= y + size, (mark, size, box)
        ET.fromstring(f'<g xmlns="http://www.w3.org/2000/svg">{svg}</g>')  # well formed
        # every coordinate drawn stays in the spot (user units: ten to a cell)
        for value in (float(v) for v in re.findall(r'(?:x|y|cx|cy)="([\d.]+)"', svg)):
            assert min(x, y) * 10 - 1e-6 <= value <= (max(x, y) + size) * 10 + 1e-6


def test_the_same_random_draws_the_same_mark():
    assert draw_small("rubble", 1, 1, 0.7, random.Random(4)) == draw_small("rubble", 1, 1, 0.7, random.Random(4))


@pytest.mark.parametrize("wall", ["N", "S", "E", "W"])
def test_an_altar_fills_its_box_with_a_candle_at_each_end_along_its_wall(wall):
    box = (2.0, 3.0, 2.8, 3.5) if wall in ("N", "S") else (2.0, 3.0, 2.5, 3.8)
    svg = small_marks.altar_in(box, wall)
    slab = re.search(r'<rect class="altar" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"', svg)
    assert [float(v) / 10 for v in slab.groups()] == pytest.approx([box[0], box[1], box[2] - box[0], box[3] - box[1]])
    candles = [(float(x) / 10, float(y) / 10) for x, y in re.findall(r'class="candle" cx="([\d.]+)" cy="([\d.]+)"', svg)]
    assert len(candles) == 2
    along = 0 if wall in ("N", "S") else 1  # the candles stand apart along the wall, level across it
    assert candles[0][1 - along] == pytest.approx(candles[1][1 - along]) and candles[0][along] < candles[1][along]
