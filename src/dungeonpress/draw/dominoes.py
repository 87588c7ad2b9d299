"""Turn a DominoMap into an SVG string: dominoes with pips on a grid, doors, markers and the way in.

The drawing names classes only; its palette is the stylesheet passed in (templates/css/dominoes.css),
copied into the SVG so it prints anywhere.
"""

from __future__ import annotations

import math

from dungeonpress.model.dunginoes import DominoMap, End, Tile

# SVG text takes no document rules: "Theme Marks" comes first so a theme that changes the letters
# (dyslexia-friendly declares it) reaches the map too; otherwise the family after it is used.
SERIF, TITLING = "Theme Marks, Vollkorn", "Theme Marks, Cinzel"
UNIT = 10  # SVG user units per grid unit; one domino half is 2 x 2 grid units
MARGIN = 1  # grid units of paper kept round the dungeon when it is scaled to its box
LEAST_PT = 6.1  # the smallest letters on a map or legend picture, printed (labels need 6 pt)
MAX_UNIT_MM = 12.0  # a grid unit at life size: a domino half (2 x 2 units) is about 24 mm square
_PIP_R = 0.19
BADGE_R = 0.33  # a room number's disc, in grid units, with figures BADGE_FIGURES high (two figures a little smaller)
BADGE_FIGURES, BADGE_FIGURES_TWO = 0.42, 0.36
# Where a secret door's S may go, in grid units: in from the door (its disc may cross the wall) and along the wall
# either way; a six's near pips stand where the three spots the door's middle and corners gave were.
SECRET_DEPTHS = (0.42, 0.3, 0.18, 0.0)
SECRET_ALONG = (0.0, 0.3, -0.3, 0.6, -0.6)
_SPREAD = 0.5  # pip offset from a half's centre, in grid units

# Pip positions for 0..6 on a half whose long axis is x: (along, across) offsets in steps of _SPREAD.
_PIPS = {
    0: (),
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (0, -1), (1, -1), (-1, 1), (0, 1), (1, 1)),
}


def draw_domino_map(dungeon: DominoMap, *, width_mm: float = 180, height_mm: float = 200, css: str = "") -> str:
    """The whole map as one `width_mm` x `height_mm` <svg> of graph paper, the tiles scaled to fill it and centred.

    The tiles (with the way in and a square of paper round them) are scaled to the box's width or
    height, at most life size (MAX_UNIT_MM); the grid runs on to the box's edges.
    """
    x0, y0, x1, y1 = _bounds(dungeon)
    scale = min(width_mm / (x1 - x0), height_mm / (y1 - y0), MAX_UNIT_MM)
    width, height = width_mm / scale, height_mm / scale  # the box, in grid units
    left, top = (x0 + x1 - width) / 2, (y0 + y1 - height) / 2
    least = LEAST_PT * 25.4 / 72 / scale  # the smallest letters, in grid units, that print at LEAST_PT
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="domino-map" '
             f'viewBox="{_u(left)} {_u(top)} {_u(width)} {_u(height)}" '
             f'width="{width_mm:.1f}mm" height="{height_mm:.1f}mm">{_style(css)}',
             f'<rect class="paper" x="{_u(left)}" y="{_u(top)}" width="{_u(width)}" height="{_u(height)}"/>']
    parts.append(_grid(left, top, left + width, top + height))
    taken = {cell for tile in dungeon.tiles for cell in tile.cells()}
    parts.append(_entrance(way_in(dungeon), taken=taken))
    for end in dungeon.open_ends if dungeon.mode == "fly" else ():
        parts.append(_stub(end))
    for tile in dungeon.tiles:
        parts.append(_tile(tile, least))
    marks = [mark for tile in dungeon.tiles for mark in _marks(tile, least)]
    for tile in dungeon.tiles if dungeon.mode == "fly" else ():
        if tile.via:
            parts.append(_door(tile, least, marks))
    parts.append("</svg>")
    return "\n".join(parts)


def _bounds(dungeon: DominoMap) -> tuple[int, int, int, int]:
    xs, ys = [], []
    for tile in dungeon.tiles:
        for x, y in tile.cells():
            xs += [x, x + 1]
            ys += [y, y + 1]
    x, y, dx, dy = way_in(dungeon)  # the arrow's passage and its label, two cells back from its point
    xs += [x - 2 * dx - (1 if dy else 0), x + (1 if dy else 0)]
    ys += [y - 2 * dy - (1 if dx else 0), y + (1 if dx else 0)]
    for end in dungeon.open_ends if dungeon.mode == "fly" else ():
        xs.append(end.x + end.dx)
        ys.append(end.y + end.dy)
    return min(xs) - MARGIN, min(ys) - MARGIN, max(xs) + MARGIN, max(ys) + MARGIN


def _u(value: float) -> str:
    """A grid coordinate in SVG user units, written short."""
    text = f"{value * UNIT:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _grid(x0: float, y0: float, x1: float, y1: float) -> str:
    """Grid lines on every whole unit inside the box (the box's edges need not be whole units)."""
    xs = range(math.ceil(x0), math.floor(x1) + 1)
    ys = range(math.ceil(y0), math.floor(y1) + 1)
    return (f'<path class="grid" d="' + " ".join(f"M{_u(x)} {_u(y0)}V{_u(y1)}" for x in xs)
            + " " + " ".join(f"M{_u(x0)} {_u(y)}H{_u(x1)}" for y in ys)
            + '"/>')


def _tile(tile: Tile, least: float = 0.0) -> str:
    (ax, ay, av), (bx, by, bv) = tile.halves
    left, top = min(ax, bx) - 1, min(ay, by) - 1
    right, bottom = max(ax, bx) + 1, max(ay, by) + 1
    inset = 0.1
    out = [f'<g class="tile" id="room-{tile.room}">',
           f'<rect class="face{" final" if tile.final else ""}" x="{_u(left + inset)}" y="{_u(top + inset)}" '
           f'width="{_u(right - left - 2 * inset)}" height="{_u(bottom - top - 2 * inset)}" rx="{_u(0.35)}"/>']
    mx, my = (ax + bx) / 2, (ay + by) / 2  # the middle of the dividing line
    horizontal = ay == by
    if horizontal:
        out.append(f'<line class="divider" x1="{_u(mx)}" y1="{_u(my - 0.7)}" x2="{_u(mx)}" y2="{_u(my + 0.7)}"/>')
    else:
        out.append(f'<line class="divider" x1="{_u(mx - 0.7)}" y1="{_u(my)}" x2="{_u(mx + 0.7)}" y2="{_u(my)}"/>')
    for px, py in _pip_centres(tile):
        out.append(f'<circle class="pip" cx="{_u(px)}" cy="{_u(py)}" r="{_u(_PIP_R)}"/>')
    out.append(_badge(mx, my, tile.room, diamond=bool(tile.special), least=least))
    out.append("</g>")
    return "\n".join(out)


def _badge(x: float, y: float, number, diamond: bool = False, least: float = 0.0) -> str:
    """The room number over the middle of the dividing line: in a disc, or in a diamond for a special room.

    The figures are never smaller than `least` grid units (the disc grows with them, as wide as two figures need).
    The disc clears the four pips nearest the line (0.71 units from its middle, 0.19 across) by a fifth of a unit at
    its natural size: wider, it touched them and the pips were hard to count."""
    size, radius = _badge_size(number, least)
    if diamond:
        r = radius * 1.5  # its corners point between the pips
        points = f"{_u(x)},{_u(y - r)} {_u(x + r)},{_u(y)} {_u(x)},{_u(y + r)} {_u(x - r)},{_u(y)}"
        mark = f'<polygon class="badge" points="{points}"/>'
    else:
        mark = f'<circle class="badge" cx="{_u(x)}" cy="{_u(y)}" r="{_u(radius)}"/>'
    return (f'{mark}<text class="badge-text" x="{_u(x)}" y="{_u(y + size * 0.36)}" text-anchor="middle" '
            f'font-family="{SERIF}" font-weight="700" font-size="{_u(size)}">{number}</text>')


def _badge_size(number, least: float = 0.0) -> tuple[float, float]:
    """A room number's figure size and its disc's radius, in grid units (figures at least `least`)."""
    size = max(BADGE_FIGURES if len(str(number)) < 2 else BADGE_FIGURES_TWO, least)
    return size, max(BADGE_R, 0.7 * size)  # two figures are about one size wide: 0.7 leaves a fifth either side


def way_in(dungeon: DominoMap) -> tuple[float, float, int, int]:
    """Where the entrance arrow meets the first room (x, y) and the way it points (dx, dy).

    The arrow comes in at the entrance, from the left; when the procedure has laid a domino there
    (the first domino's two ends are both free when play begins), it comes down onto the first
    room from above, or up from below, whichever passage is clear.
    """
    end = dungeon.entrance
    taken = {cell for tile in dungeon.tiles for cell in tile.cells()}
    x, y = end.x, end.y
    for tip, direction, passage in (((x, y), (1, 0), [(x - 2, y - 1), (x - 1, y - 1), (x - 2, y), (x - 1, y)]),
                                    ((x + 1, y - 1), (0, 1), [(x, y - 3), (x + 1, y - 3), (x, y - 2), (x + 1, y - 2)]),
                                    ((x + 1, y + 1), (0, -1), [(x, y + 1), (x + 1, y + 1), (x, y + 2), (x + 1, y + 2)])):
        if not taken.intersection(passage):
            return (*tip, *direction)
    return (x, y, 1, 0)


_ARROW = ((-1.8, -0.3), (-0.9, -0.3), (-0.9, -0.75), (-0.15, 0.0), (-0.9, 0.75), (-0.9, 0.3), (-1.8, 0.3))


def _entrance(tip: tuple, label: bool = True, taken: frozenset | set = frozenset()) -> str:
    """An arrow in the passage the party comes in by, its point at `tip` (x, y, dx, dy), labelled IN beside
    it: above a level arrow, or below when a domino lies above; left of an upright one, or right."""
    x, y, dx, dy = tip
    points = " ".join(f"{_u(x + along * dx - across * dy)},{_u(y + along * dy + across * dx)}" for along, across in _ARROW)
    arrow = f'<polygon class="entrance" points="{points}"/>'
    if not label:
        return arrow
    if dy == 0:  # level: the label's letters span x - 1.5 .. x - 0.6 and, above, y - 1.4 .. y - 1.0
        spots = [(x - 1.05, y - 1.0), (x - 1.05, y + 1.4)]
    else:  # upright: beside the shaft (along -1.8 .. -0.9 from the point), clear of the head
        middle = y - 1.45 * dy
        spots = [(x - 1.25, middle + 0.18), (x + 1.25, middle + 0.18)]  # clear of the head's 0.75 either side
    def clear(spot):
        cx, baseline = spot
        return not any((math.floor(cx + off), math.floor(row)) in taken
                       for off in (-0.45, 0.45) for row in (baseline - 0.39, baseline - 0.01))
    cx, baseline = next((spot for spot in spots if clear(spot)), spots[0])
    return (f'{arrow}<text class="entrance-text" x="{_u(cx)}" y="{_u(baseline)}" text-anchor="middle" '
            f'font-family="{TITLING}" font-weight="700" font-size="{_u(0.5)}">IN</text>')


def _stub(end: End) -> str:
    """An open exit nobody has explored yet: a short dashed passage leading off the tile."""
    x, y = end.x, end.y
    tx, ty = end.x + end.dx * 0.95, end.y + end.dy * 0.95
    return (f'<line class="stub" x1="{_u(x)}" y1="{_u(y)}" x2="{_u(tx)}" y2="{_u(ty)}"/>'
            f'<circle class="stub-end" cx="{_u(tx)}" cy="{_u(ty)}" r="{_u(0.16)}"/>')


def _door(tile: Tile, least: float = 0.0, marks: list = ()) -> str:
    """The door a room was entered by (mode fly): open, locked (filled) or secret (an S, at least `least` units)."""
    end = tile.via
    x, y = end.x, end.y
    if tile.secret:
        sx, sy = _secret_spot(tile, marks)
        size = max(0.38, least)
        return (f'<circle class="secret" cx="{_u(sx)}" cy="{_u(sy)}" r="{_u(0.27 * size / 0.38)}"/>'
                f'<text class="secret-text" x="{_u(sx)}" y="{_u(sy + 0.34 * size)}" text-anchor="middle" '
                f'font-family="{SERIF}" font-weight="700" font-size="{_u(size)}">S</text>')
    along, across = 0.42, 0.2  # half sizes of the door leaf
    w, h = (across, along) if end.dx else (along, across)
    return (f'<rect class="door{" locked" if tile.locked else ""}" x="{_u(x - w)}" y="{_u(y - h)}" '
            f'width="{_u(2 * w)}" height="{_u(2 * h)}"/>')


def _secret_spot(tile: Tile, marks: list = ()) -> tuple[float, float]:
    """Where a secret door's S goes: just in from the door (or on its wall), and of the spots along that wall the one
    with the most room between it and the `marks` (x, y, radius: every tile's pips and numbers, `_marks`), so it
    covers no pip of either room the door joins and stands apart from the number (beside it, the two read as one)."""
    end = tile.via
    if not tile.halves:  # the legend's sample door
        return end.x, end.y
    px, py = -end.dy, end.dx  # along the wall
    near = [(x, y, r) for x, y, r in marks if abs(x - end.x) < 2 and abs(y - end.y) < 2]
    spots = [(end.x + end.dx * depth + px * t, end.y + end.dy * depth + py * t)
             for depth in SECRET_DEPTHS for t in SECRET_ALONG]
    return max(spots, key=lambda p: min((math.hypot(p[0] - x, p[1] - y) - r for x, y, r in near), default=9.0))


def _pip_centres(tile: Tile) -> list:
    """Where a tile's pips are drawn, in grid units: each half's, in the order of its halves."""
    horizontal = tile.halves[0][1] == tile.halves[1][1]  # a half's pips are laid along the domino's long axis
    return [(cx + (along if horizontal else across) * _SPREAD, cy + (across if horizontal else along) * _SPREAD)
            for cx, cy, value in tile.halves for along, across in _PIPS[value]]


def _marks(tile: Tile, least: float = 0.0) -> list:
    """A tile's pips and its number's disc as drawn (x, y, radius in grid units), what a secret door's S keeps off."""
    (ax, ay, _), (bx, by, _) = tile.halves
    return [(x, y, _PIP_R) for x, y in _pip_centres(tile)] + [((ax + bx) / 2, (ay + by) / 2,
                                                               _badge_size(tile.room, least)[1])]


ICONS = ("entrance", "room", "special", "final", "door", "locked", "secret", "unexplored")


def draw_icon(kind: str, css: str = "") -> str:
    """A small SVG of one map mark, for the legend: one of ICONS, coloured by `css` as the map is."""
    boxes = {"entrance": (-2.0, -0.9, 2.0, 1.8), "final": (-1.2, -0.7, 2.4, 1.4)}
    x, y, w, h = boxes.get(kind, (-0.7, -0.7, 1.4, 1.4))
    if kind == "entrance":
        body = _entrance((0, 0, 1, 0), label=False)
    elif kind == "room":
        body = _badge(0, 0, 7)
    elif kind == "special":
        body = _badge(0, 0, 7, diamond=True)
    elif kind == "final":
        body = f'<rect class="face final" x="{_u(-1.1)}" y="{_u(-0.6)}" width="{_u(2.2)}" height="{_u(1.2)}" rx="{_u(0.3)}"/>'
    elif kind in ("door", "locked", "secret"):
        fake = Tile(room=0, halves=(), parent=0, via=End(0, 0, 0, 1, 0, 0), locked=kind == "locked",
                    secret=kind == "secret")
        body = _door(fake)
    elif kind == "unexplored":
        x, w = -0.2, 1.4
        body = _stub(End(0, 0, 1, 0, 0, 0))
    else:
        raise ValueError(f"unknown map icon {kind!r} (expected one of {', '.join(ICONS)})")
    # 2.6 mm a grid unit, or more where the picture has letters, so they print at LEAST_PT.
    figures = {"room": BADGE_FIGURES, "special": BADGE_FIGURES, "secret": 0.38}.get(kind, 99)
    mm = max(2.6, LEAST_PT * 25.4 / 72 / figures)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="icon domino-map" viewBox="{_u(x)} {_u(y)} {_u(w)} {_u(h)}" '
            f'width="{w * mm:.1f}mm" height="{h * mm:.1f}mm">{_style(css)}{body}</svg>')


def _style(css: str) -> str:
    """The palette as the drawing's own style element (inline SVG takes no document rules), or nothing."""
    return f"<style>{css}</style>" if css else ""
