"""Paperogue sheet geometry, and a grid size with a pre-rolled Level → an SVG of graph paper with the level drawn.

All coordinates are millimetres (the viewBox is in mm and the width/height attributes say
mm), so one grid cell is exactly `cell` mm on paper. Rooms are 2 x 2 cells, one lattice step
is PITCH cells, and corridors run along the grid line through the middle of a wall. The drawings
name classes only; their palette is the stylesheet passed in (templates/css/paperogue-grid.css),
copied into each SVG so it prints anywhere.
"""

from __future__ import annotations

import math
from xml.sax.saxutils import escape

from dungeonpress.generate.paperogue import STEP
from dungeonpress.model.paper import PAPER_MM
from dungeonpress.model.paperogue import Level, PaperogueRoom

PITCH = 4  # fewest cells from one room's corner to the next room's: a 2-cell room and a 2-cell corridor
MAX_PITCH = 9  # a small level spreads out to use the sheet (70% of its width or height), up to 7-cell corridors
ROOM = 2  # a room is ROOM x ROOM cells, one cell per quadrant
STAIRS_SHARE = 0.4  # of a room's top-right quadrant that its stairs take when it also holds the number
PAD = 0.5  # mm of paper drawn around the grid so its outer lines are not clipped
DEAD_END = 1  # cells a dead-end corridor runs before it stops

# Vollkorn with lining figures, declared in templates/css/paperogue.css. SVG text takes no document
# rules, so a theme that changes the letters (dyslexia-friendly) declares "Theme Marks" instead.
MARK_FONT = "Theme Marks, Paperogue Marks"

# The sheet's geometry in mm, the one place it is written down: the page margin and the heights of
# the boxes under the grid are also in templates/css/paperogue.css (tests/test_products_paper.py
# checks they agree); the grid gets whatever whole cells fit in what is left; the paper sizes are
# model.paper's.
CELL_MM = {"5mm": 5.0, "quarter-inch": 6.35}
MARGIN_MM = 9.0  # @page margin
BAND_GAP_MM = 3.0  # .band's margin-top: the space between the grid and the boxes below it
SHEET_BAND_MM = 34.0  # .band height on a blank sheet
LEVEL_BAND_MM = 44.0  # .level .band height on a level sheet
LEVEL_HEAD_MM = 10.0  # .level-head height above a level's grid
SLACK_MM = 1.0  # rounding room, so the band never tips onto a second page
SHEET_RESERVED_MM = SHEET_BAND_MM + BAND_GAP_MM + SLACK_MM
LEVEL_RESERVED_MM = LEVEL_HEAD_MM + LEVEL_BAND_MM + BAND_GAP_MM + SLACK_MM
LEVEL_CELL = "5mm"  # pre-rolled levels are drawn on 5 mm squares, which fit a 20-room level on both papers


def fit_grid(paper: str, cell: str, reserved_mm: float) -> tuple[int, int]:
    """How many whole cells fit across and down the printable area, after `reserved_mm` of boxes."""
    width, height = PAPER_MM[paper]
    size = CELL_MM[cell]
    usable_w = width - 2 * MARGIN_MM - 2 * PAD
    usable_h = height - 2 * MARGIN_MM - reserved_mm - 2 * PAD
    return math.floor(usable_w / size + 1e-9), math.floor(usable_h / size + 1e-9)


def sheet_svg(cols: int, rows: int, cell: float, grid: str = "square", level: Level | None = None,
              css: str = "") -> str:
    """A `cols` x `rows` grid of `cell` mm squares (lines, or dots for grid="dot"), with `level` drawn centred."""
    width, height = cols * cell, rows * cell
    parts = [_open(width + 2 * PAD, height + 2 * PAD, -PAD, -PAD, "paperogue-grid", css)]
    parts.append(_dots(cols, rows, cell) if grid == "dot" else _lines(cols, rows, cell))
    if level is not None:
        origin = level_origin(level, cols, rows)
        parts.append(_level(level, cell, origin))
    parts.append("</svg>")
    return "\n".join(parts)


def level_extent(level: Level, pitch: int = PITCH) -> tuple[int, int, int, int]:
    """(left, top, right, bottom) in cells of the drawn level, lattice place (0, 0)'s room corner at (0, 0):
    the rooms' boxes and the dead-end corridors that stick out of them."""
    xs, ys = [], []
    for room in level.rooms:
        x, y = room.x * pitch, room.y * pitch
        xs += [x, x + ROOM]
        ys += [y, y + ROOM]
        for door in room.exits:
            if door.leads_to is None:
                dx, dy = STEP[door.direction]
                xs.append(x + ROOM / 2 + dx * (ROOM / 2 + DEAD_END))
                ys.append(y + ROOM / 2 + dy * (ROOM / 2 + DEAD_END))
    return int(min(xs)), int(min(ys)), int(max(xs)), int(max(ys))


def level_span(level: Level, pitch: int = PITCH) -> tuple[int, int]:
    """How many cells wide and tall a drawn level is, dead-end corridors included."""
    left, top, right, bottom = level_extent(level, pitch)
    return right - left, bottom - top


def level_pitch(level: Level, cols: int, rows: int) -> int:
    """The widest lattice step (PITCH to MAX_PITCH cells) at which the level still fits the sheet with a cell to spare."""
    pitch = PITCH
    while pitch < MAX_PITCH:
        span_w, span_h = level_span(level, pitch + 1)
        if span_w + 2 > cols or span_h + 2 > rows:  # a wider step keeps a cell of paper all round
            break
        pitch += 1
    return pitch


def level_origin(level: Level, cols: int, rows: int) -> tuple[int, int, int]:
    """(column, row) where lattice place (0, 0)'s room corner goes, centred on whole cells, and the lattice step."""
    pitch = level_pitch(level, cols, rows)
    span_w, span_h = level_span(level, pitch)
    if span_w > cols or span_h > rows:
        raise ValueError(f"level {level.number} needs {span_w} x {span_h} cells; the sheet has {cols} x {rows}")
    left, top, _, _ = level_extent(level, pitch)
    return ((cols - span_w) // 2 - left, (rows - span_h) // 2 - top, pitch)


def room_cell(room: PaperogueRoom, origin: tuple) -> tuple[int, int]:
    """The grid cell (column, row) of a room's top-left corner; `origin` is what level_origin gave."""
    pitch = origin[2] if len(origin) > 2 else PITCH
    return origin[0] + room.x * pitch, origin[1] + room.y * pitch


# --- the grid ------------------------------------------------------------------------------------

def _open(width: float, height: float, x: float, y: float, css_class: str, css: str) -> str:
    """The <svg> start tag, with the palette as its own style element (inline SVG takes no document rules)."""
    style = f"<style>{css}</style>" if css else ""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="{css_class} paperogue-drawing" width="{_n(width)}mm" '
            f'height="{_n(height)}mm" viewBox="{_n(x)} {_n(y)} {_n(width)} {_n(height)}">{style}')


def _lines(cols: int, rows: int, cell: float) -> str:
    """One <line> per grid line, so each can be found and measured in the PDF."""
    width, height = cols * cell, rows * cell
    out = ['<g class="lines">']
    for i in range(cols + 1):
        out.append(f'<line x1="{_n(i * cell)}" y1="0" x2="{_n(i * cell)}" y2="{_n(height)}"/>')
    for j in range(rows + 1):
        out.append(f'<line x1="0" y1="{_n(j * cell)}" x2="{_n(width)}" y2="{_n(j * cell)}"/>')
    out.append("</g>")
    return "\n".join(out)


def _dots(cols: int, rows: int, cell: float) -> str:
    """One dot at every grid corner."""
    out = ['<g class="dots">']
    for j in range(rows + 1):
        for i in range(cols + 1):
            out.append(f'<circle cx="{_n(i * cell)}" cy="{_n(j * cell)}" r="0.3"/>')
    out.append("</g>")
    return "\n".join(out)


# --- the level -----------------------------------------------------------------------------------

def _level(level: Level, cell: float, origin: tuple[int, int]) -> str:
    corridors, doors, rooms = [], [], []
    locked = {(lock.room, lock.direction) for lock in level.locks}
    for room in level.rooms:
        cx, cy = room_cell(room, origin)
        for door in room.exits:
            start = _wall_middle(cx, cy, door.direction, cell)
            if door.leads_to is None:
                corridors.append(_dead_end(start, door.direction, cell))
            elif door.leads_to > room.number:  # each corridor once, from its lower-numbered room
                other = level.room(door.leads_to)
                ox, oy = room_cell(other, origin)
                end = _wall_middle(ox, oy, _facing(door.direction), cell)
                corridors.append(_segment(start, end, "corridor"))
            if (room.number, door.direction) in locked:
                doors.append(_lock(start, door.direction, cell))
        rooms.append(_room(room, level, cell, cx, cy))
    return "\n".join([f'<g class="level" data-level="{level.number}">',
                      '<g class="corridors">',
                      *corridors, "</g>", *rooms, *doors, "</g>"])


def _facing(direction: str) -> str:
    return {"N": "S", "E": "W", "S": "N", "W": "E"}[direction]


def _wall_middle(cx: int, cy: int, direction: str, cell: float) -> tuple[float, float]:
    """The point in the middle of a room's wall (a grid corner, since a wall is two cells long)."""
    half = ROOM / 2
    dx, dy = STEP[direction]
    return ((cx + half + dx * half) * cell, (cy + half + dy * half) * cell)


def _segment(start, end, css_class: str) -> str:
    return (f'<line class="{css_class}" x1="{_n(start[0])}" y1="{_n(start[1])}" '
            f'x2="{_n(end[0])}" y2="{_n(end[1])}"/>')


def _dead_end(start, direction: str, cell: float) -> str:
    """A corridor stub one cell long, closed by a bar across its end."""
    dx, dy = STEP[direction]
    end = (start[0] + dx * DEAD_END * cell, start[1] + dy * DEAD_END * cell)
    bar = 0.3 * cell
    a = (end[0] - dy * bar, end[1] - dx * bar)
    b = (end[0] + dy * bar, end[1] + dx * bar)
    return _segment(start, end, "dead-end") + _segment(a, b, "dead-end")


def _lock(at, direction: str, cell: float) -> str:
    """A locked door: a filled bar across the corridor just outside the locked room's wall."""
    dx, dy = STEP[direction]
    centre = (at[0] + dx * 0.22 * cell, at[1] + dy * 0.22 * cell)
    long_, short = 0.62 * cell, 0.26 * cell
    w, h = (short, long_) if dx else (long_, short)
    return (f'<rect class="lock" x="{_n(centre[0] - w / 2)}" y="{_n(centre[1] - h / 2)}" width="{_n(w)}" '
            f'height="{_n(h)}"/>')


def _room(room: PaperogueRoom, level: Level, cell: float, cx: int, cy: int) -> str:
    x, y, size = cx * cell, cy * cell, ROOM * cell
    mid_x, mid_y = x + cell, y + cell
    out = [f'<g class="room" data-room="{room.number}">',
           f'<rect class="box" x="{_n(x)}" y="{_n(y)}" width="{_n(size)}" height="{_n(size)}"/>',
           f'<line class="quadrant" x1="{_n(mid_x)}" y1="{_n(y)}" x2="{_n(mid_x)}" y2="{_n(y + size)}"/>',
           f'<line class="quadrant" x1="{_n(x)}" y1="{_n(mid_y)}" x2="{_n(x + size)}" y2="{_n(mid_y)}"/>']
    if room.monster:
        out.append(_mark(room.monster, x, y, cell, "monster"))
    if room.stairs:  # the top-right quadrant holds both: stairs on its left, the number on its right
        # the number gets three fifths of the quadrant, so a two-digit number stays over 6 pt on 5 mm squares
        out.append(stairs_glyph(room.stairs, x + cell, y, cell, width=STAIRS_SHARE * cell))
        text = str(room.number)
        room_for_number = (1 - STAIRS_SHARE) * cell
        number = min(0.5 * cell, (room_for_number - 0.04 * cell) / (0.62 * len(text)))
        out.append(_text(text, x + size - room_for_number / 2, y + 0.5 * cell + 0.36 * number, number, "middle", "number"))
    else:
        out.append(_mark(str(room.number), x + cell, y, cell, "number"))
    if room.treasure.mark:
        out.append(_mark(short_amount(room.treasure.mark), x, y + cell, cell, "subtype"))
    out.append(_mark(room.treasure.initial, x + cell, y + cell, cell, "treasure"))
    out.append("</g>")
    return "\n".join(out)


def short_amount(mark: str) -> str:
    """A gold amount in thousands as "1k": four digits in a 5 mm quadrant would print under 5 pt."""
    return f"{int(mark) // 1000}k" if mark.isdigit() and int(mark) >= 1000 and int(mark) % 1000 == 0 else mark


def _mark(text: str, qx: float, qy: float, cell: float, css_class: str) -> str:
    """Text centred in the quadrant whose top-left corner is (qx, qy), shrunk to fit its width."""
    size = min(0.62 * cell, 0.86 * cell / (0.66 * len(text)))
    return _text(text, qx + cell / 2, qy + cell / 2 + 0.36 * size, size, "middle", css_class)


def _text(text: str, x: float, y: float, size: float, anchor: str, css_class: str) -> str:
    return (f'<text class="{css_class}" x="{_n(x)}" y="{_n(y)}" font-family="{MARK_FONT}" font-weight="700" '
            f'font-size="{_n(size)}" text-anchor="{anchor}">{escape(text)}</text>')


def stairs_glyph(kinds, qx: float, qy: float, cell: float, width: float | None = None) -> str:
    """Stairs in a quadrant (or its left `width`): a down arrow, an up arrow, or both side by side."""
    kinds = tuple(kinds)
    out = []
    width = (cell if width is None else width) / len(kinds)
    for index, kind in enumerate(kinds):
        centre = qx + width * (index + 0.5)
        out.append(_arrow(centre, qy + cell / 2, cell * 0.62, min(width * 0.7, cell * 0.42), kind == "down"))
    return "\n".join(out)


def _arrow(x: float, y: float, length: float, head: float, down: bool) -> str:
    sign = 1 if down else -1
    tip = y + sign * length / 2
    tail = y - sign * length / 2
    base = tip - sign * head * 0.9
    return (f'<path class="stairs-{"down" if down else "up"}" d="M{_n(x)} {_n(tail)} L{_n(x)} {_n(base)}"/>'
            f'<path class="arrowhead" d="M{_n(x - head / 2)} {_n(base)} L{_n(x + head / 2)} {_n(base)} L{_n(x)} {_n(tip)} Z"/>')


# --- legend pictures -----------------------------------------------------------------------------

def legend_room_svg(size_mm: float = 16.0, *, labels=("M", "7", "250", "G"), css: str = "") -> str:
    """A sample room, drawn large, for the legend: the four quadrants with example marks."""
    cell = size_mm / 2
    out = [_open(size_mm + 1, size_mm + 1, -0.5, -0.5, "legend-room", css),
           f'<rect class="box" x="0" y="0" width="{_n(size_mm)}" height="{_n(size_mm)}"/>',
           f'<line class="quadrant" x1="{_n(cell)}" y1="0" x2="{_n(cell)}" y2="{_n(size_mm)}"/>',
           f'<line class="quadrant" x1="0" y1="{_n(cell)}" x2="{_n(size_mm)}" y2="{_n(cell)}"/>']
    kinds = ("sample monster", "sample", "sample", "sample")  # the monster's mark in the accent, as on a level
    corners = ((0, 0), (cell, 0), (0, cell), (cell, cell))
    for text, kind, (qx, qy) in zip(labels, kinds, corners):
        if text:
            out.append(_mark(text, qx, qy, cell, kind))
    out.append("</svg>")
    return "\n".join(out)


def legend_symbol_svg(kind: str, cell: float = 5.0, css: str = "") -> str:
    """One legend picture, one cell tall: "down", "up", "lock", "dead-end" or "corridor"."""
    width = 2 * cell
    out = [_open(width, cell, 0, 0, f"legend-symbol {kind}", css)]
    mid = cell / 2
    if kind in ("down", "up"):
        out.append(stairs_glyph((kind,), cell / 2, 0, cell))
    elif kind == "lock":
        out.append(f'<line class="way" x1="0" y1="{_n(mid)}" x2="{_n(width)}" y2="{_n(mid)}"/>')
        out.append(_lock((cell * 0.8, mid), "E", cell))
    elif kind == "dead-end":
        out.append('<g class="ways">' + _dead_end((0.2 * cell, mid), "E", cell) + "</g>")
    else:
        out.append(f'<line class="way" x1="0" y1="{_n(mid)}" x2="{_n(width)}" y2="{_n(mid)}"/>')
    out.append("</svg>")
    return "\n".join(out)


def _n(value: float) -> str:
    """A coordinate in mm, short and stable: at most three decimals, no trailing zeros."""
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text
