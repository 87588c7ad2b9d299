"""Paperogue levels on the sheet: every mark inside its room's box, and the level spread to use the sheet."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from dungeonpress.dice import sub_rng
from dungeonpress.draw import paperogue_grid as grid
from dungeonpress.generate import paperogue as gen

SVG = "{http://www.w3.org/2000/svg}"
CELL = 5.0


def levels(content, seeds=range(25)):
    for seed in seeds:
        for level in gen.generate_paperogue(content, sub_rng(seed, "paperogue")).levels:
            yield level


def test_every_number_and_initial_sits_inside_its_room(content):
    for paper in ("a4", "letter"):
        cols, rows = grid.fit_grid(paper, grid.LEVEL_CELL, grid.LEVEL_RESERVED_MM)
        for level in levels(content):
            svg = ET.fromstring(grid.sheet_svg(cols, rows, CELL, "square", level))
            for g in svg.iter(f"{SVG}g"):
                if not g.get("data-room"):
                    continue
                rect = g.find(f"{SVG}rect")
                x0, y0 = float(rect.get("x")), float(rect.get("y"))
                x1, y1 = x0 + float(rect.get("width")), y0 + float(rect.get("height"))
                for text in g.iter(f"{SVG}text"):
                    x, y, size = (float(text.get(k)) for k in ("x", "y", "font-size"))
                    half = 0.62 * size * len(text.text) / 2  # lining figures and capitals: under 0.62 em wide
                    assert x0 < x - half and x + half < x1, (level.number, text.text)
                    assert y0 < y - 0.72 * size and y < y1, (level.number, text.text)
                    if text.get("class") == "number" and g.find(f"{SVG}path") is not None:
                        assert x > x0 + CELL and y < y0 + CELL  # shares the top-right quadrant with the stairs


def test_a_level_spreads_out_to_use_the_sheet(content):
    cols, rows = grid.fit_grid("a4", grid.LEVEL_CELL, grid.LEVEL_RESERVED_MM)
    for level in levels(content):
        _, _, pitch = grid.level_origin(level, cols, rows)
        w, h = grid.level_span(level, pitch)
        assert w <= cols and h <= rows
        if pitch < grid.MAX_PITCH:  # one step wider would not fit
            wider = grid.level_span(level, pitch + 1)
            assert wider[0] + 2 > cols or wider[1] + 2 > rows
        assert pitch >= grid.PITCH


def test_every_level_is_centred_and_uses_the_grid_sheet(content):
    """Rooms and dead ends span at least 70% of the sheet's grid one way, centred to within a cell."""
    for paper in ("a4", "letter"):
        cols, rows = grid.fit_grid(paper, grid.LEVEL_CELL, grid.LEVEL_RESERVED_MM)
        for level in levels(content, range(40)):
            svg = ET.fromstring(grid.sheet_svg(cols, rows, CELL, "square", level))
            xs, ys = [], []
            for el in svg.iter():
                if el.tag == f"{SVG}rect" and el.get("class") == "box":  # a room's box
                    x, y, w, h = (float(el.get(k)) for k in ("x", "y", "width", "height"))
                    xs += [x, x + w]
                    ys += [y, y + h]
                elif el.tag == f"{SVG}line" and el.get("class") in ("corridor", "dead-end"):
                    xs += [float(el.get("x1")), float(el.get("x2"))]
                    ys += [float(el.get("y1")), float(el.get("y2"))]
            left, right = min(xs), cols * CELL - max(xs)
            top, bottom = min(ys), rows * CELL - max(ys)
            assert min(left, right, top, bottom) >= 0, (paper, level.number)
            assert abs(left - right) <= CELL and abs(top - bottom) <= CELL, (paper, level.number)
            span_w, span_h = max(xs) - min(xs), max(ys) - min(ys)
            assert span_w >= 0.7 * cols * CELL or span_h >= 0.7 * rows * CELL, (paper, level.number, span_w, span_h)


def test_every_mark_in_a_room_prints_at_six_points_or_more(content):
    """On 5 mm squares a room's quadrant is 5 mm: four-digit gold ("1000", was 4.6 pt) prints as "1k", and a
    two-digit room number beside its stairs (was 5.3 pt) gets three fifths of the quadrant."""
    cols, rows = grid.fit_grid("a4", grid.LEVEL_CELL, grid.LEVEL_RESERVED_MM)
    seen = set()
    for level in levels(content, range(60)):
        svg = ET.fromstring(grid.sheet_svg(cols, rows, CELL, "square", level))
        for g in svg.iter(f"{SVG}g"):
            if g.get("data-room"):
                for text in g.iter(f"{SVG}text"):
                    points = float(text.get("font-size")) * 72 / 25.4  # the drawing's user unit is the millimetre
                    assert points >= 6.0, (level.number, text.text, round(points, 1))
                    seen.add(text.text)
    assert "1k" in seen and any(len(t) == 2 and t.isdigit() for t in seen)  # the cases this guards did occur


def test_gold_in_thousands_is_written_short():
    assert [grid.short_amount(m) for m in ("50", "250", "1000", "2000", "1500", "G")] == ["50", "250", "1k", "2k", "1500", "G"]
