"""Turn a laid-out dungeon (generate.layout.Layout) into an SVG string: the player's map.

The map shows only what a delver could see from a doorway: room shapes and numbers, doors,
corridors and dead ends, the entrance and the stairs down. Nothing about encounters, traps
or treasure is drawn, so a solo player can keep it open while playing.
"""

from __future__ import annotations

from html import escape

from dungeonpress.generate.layout import OUTSIDE, Layout, PlacedRoom

UNIT = 10  # SVG user units per grid cell
INK, PAPER, GRID, CORRIDOR = "#1d1a17", "#ffffff", "#c4ccd4", "#1d1a17"
FONT = "Cinzel"
NUMBER_SIZE = 9.5  # user units: about 2 mm tall when a cell prints 2.2 mm wide


def draw_dungeon_map(layout: Layout, *, width_mm: float, height_mm: float, title: str = "Dungeon map") -> str:
    """The whole map as an <svg>, scaled to fit a `width_mm` × `height_mm` box (aspect kept)."""
    w, h = layout.width * UNIT, layout.height * UNIT
    scale = min(width_mm / w, height_mm / h)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="dungeon-map" viewBox="0 0 {w} {h}" '
        f'width="{_n(w * scale)}mm" height="{_n(h * scale)}mm" role="img" aria-label="{escape(title)}">',
        f'<rect x="0" y="0" width="{w}" height="{h}" fill="{PAPER}"/>',
        _grid(layout),
        _corridors(layout),
        *(_room(room) for room in layout.rooms),
        *(_doors(room) for room in layout.rooms),
        _entrance(layout),
        _stairs(layout.room(layout.stairs)),
        *(_number(room, room.number == layout.stairs) for room in layout.rooms),
        "</svg>",
    ]
    return "\n".join(part for part in parts if part)


def draw_legend_icon(kind: str) -> str:
    """A small inline SVG for the map legend: door, dead end, stairs or entrance."""
    body = {
        "door": f'<rect x="1" y="6" width="14" height="4" fill="{PAPER}" stroke="{INK}" stroke-width="1.2"/>'
                f'<path d="M1 4V12M15 4V12" stroke="{INK}" stroke-width="1.6"/>',
        "dead": f'<path d="M0 8H12" stroke="{CORRIDOR}" stroke-width="6.4"/>'
                f'<path d="M0 8H12" stroke="{PAPER}" stroke-width="4.2"/>' + _dead_end_marks(12, 8, "E", 6.4),
        "stairs": _stairs_icon(2, 2, 12, 12),
        "entrance": _arrow(8, 14, 8),
    }[kind]
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="legend-icon" viewBox="0 0 16 16" '
            f'width="3mm" height="3mm">{body}</svg>')


def _n(value: float) -> str:
    """A number for SVG: at most two decimals, no trailing zeros (stable text for byte-identical output)."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _grid(layout: Layout) -> str:
    """Graph-paper lines, one path for the whole map."""
    w, h = layout.width * UNIT, layout.height * UNIT
    lines = [f"M{x * UNIT} 0V{h}" for x in range(1, layout.width)]
    lines += [f"M0 {y * UNIT}H{w}" for y in range(1, layout.height)]
    return f'<path d="{"".join(lines)}" stroke="{GRID}" stroke-width="0.35" fill="none"/>'


def _corridors(layout: Layout) -> str:
    """Corridors as double lines: a dark stroke with a paper-coloured stroke inside it."""
    paths = []
    for corridor in layout.corridors:
        points = list(corridor.points)
        if corridor.end == OUTSIDE:  # the entrance passage stops short of the arrow head
            (x0, y0), (x1, y1) = points[0], points[-1]
            points = [(x0, y0), (x1, y1 - 1.2)]
        paths.append("M" + "L".join(f"{_n(x * UNIT)} {_n(y * UNIT)}" for x, y in points))
    d = "".join(paths)
    out = [f'<path d="{d}" stroke="{CORRIDOR}" stroke-width="6.4" fill="none" stroke-linecap="butt" stroke-linejoin="miter"/>',
           f'<path d="{d}" stroke="{PAPER}" stroke-width="4.2" fill="none" stroke-linecap="square" stroke-linejoin="miter"/>']
    for corridor in layout.corridors:
        if corridor.end is None:
            (x0, y0), (x1, y1) = corridor.points
            side = "E" if x1 > x0 else "W" if x1 < x0 else "S" if y1 > y0 else "N"
            out.append(_dead_end_marks(x1 * UNIT, y1 * UNIT, side, 6.4))
    return "\n".join(out)


def _dead_end_marks(x: float, y: float, side: str, width: float) -> str:
    """A wall across the end of a passage and a little rubble before it."""
    half = width / 2 + 0.8
    if side in ("E", "W"):
        wall = f"M{_n(x)} {_n(y - half)}V{_n(y + half)}"
        back = -2.2 if side == "E" else 2.2
        dots = [(x + back, y - 1.1), (x + back * 1.7, y + 1.0)]
    else:
        wall = f"M{_n(x - half)} {_n(y)}H{_n(x + half)}"
        back = -2.2 if side == "S" else 2.2
        dots = [(x - 1.1, y + back), (x + 1.0, y + back * 1.7)]
    rubble = "".join(f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="0.8" fill="{INK}"/>' for cx, cy in dots)
    return f'<path d="{wall}" stroke="{INK}" stroke-width="1.6" fill="none"/>{rubble}'


def _room(room: PlacedRoom) -> str:
    x, y, w, h = room.x * UNIT, room.y * UNIT, room.w * UNIT, room.h * UNIT
    corner = ' rx="5" ry="5"' if room.shape == "cave" else ""
    return (f'<rect class="room" x="{x}" y="{y}" width="{w}" height="{h}"{corner} fill="{PAPER}" '
            f'stroke="{INK}" stroke-width="1.6"/>')


def _doors(room: PlacedRoom) -> str:
    """Each door as a small leaf set into the wall."""
    out = []
    for door in room.doors:
        cx, cy = door.x * UNIT, door.y * UNIT
        if door.side in ("N", "S"):
            out.append(f'<rect x="{_n(cx - 3)}" y="{_n(cy - 1.3)}" width="6" height="2.6" fill="{PAPER}" '
                       f'stroke="{INK}" stroke-width="0.9"/>')
        else:
            out.append(f'<rect x="{_n(cx - 1.3)}" y="{_n(cy - 3)}" width="2.6" height="6" fill="{PAPER}" '
                       f'stroke="{INK}" stroke-width="0.9"/>')
    return "".join(out)


def _entrance(layout: Layout) -> str:
    """An arrow pointing up into the entrance room from the bottom edge."""
    for corridor in layout.corridors:
        if corridor.end == OUTSIDE:
            (x, top), (_, bottom) = corridor.points
            return _arrow(x * UNIT, bottom * UNIT - 1, 13)
    return ""


def _arrow(x: float, base: float, length: float) -> str:
    tip = base - length
    return (f'<path d="M{_n(x)} {_n(base)}V{_n(tip + 5)}" stroke="{INK}" stroke-width="2"/>'
            f'<path d="M{_n(x - 4)} {_n(tip + 6)}L{_n(x)} {_n(tip)}L{_n(x + 4)} {_n(tip + 6)}Z" fill="{INK}"/>')


def _stairs(room: PlacedRoom) -> str:
    """Stairs down in the corner of the room farthest from its number (which sits in the middle)."""
    size = 0.9 * UNIT
    inset = 0.35 * UNIT
    x = room.x * UNIT + room.w * UNIT - size - inset
    y = room.y * UNIT + inset if room.h >= room.w else room.y * UNIT + room.h * UNIT - size - inset
    if room.w <= 2 and room.h > 2:  # a thin room: stairs at the top end, number stays in the middle
        x = room.x * UNIT + (room.w * UNIT - size) / 2
    return _stairs_icon(x, y, size, size)


def _stairs_icon(x: float, y: float, w: float, h: float) -> str:
    """A box of treads narrowing downward: the usual map mark for stairs going down."""
    treads = "".join(f"M{_n(x + i * w / 10)} {_n(y + (i + 1) * h / 5)}H{_n(x + w - i * w / 10)}" for i in range(4))
    return (f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}" fill="{PAPER}" stroke="{INK}" '
            f'stroke-width="0.9"/><path d="{treads}" stroke="{INK}" stroke-width="0.8" fill="none"/>')


def _number(room: PlacedRoom, stairs: bool) -> str:
    cx = (room.x + room.w / 2) * UNIT
    cy = (room.y + room.h / 2) * UNIT + NUMBER_SIZE * 0.36  # optical centre of lining figures
    if stairs and room.w > 2:  # step away from the stairs in the corner
        cx -= 0.35 * UNIT
        cy += 0.3 * UNIT if room.h >= room.w else -0.3 * UNIT
    return (f'<text x="{_n(cx)}" y="{_n(cy)}" font-family="{FONT}" font-weight="700" '
            f'font-size="{NUMBER_SIZE}" text-anchor="middle" fill="{INK}">{room.number}</text>')
