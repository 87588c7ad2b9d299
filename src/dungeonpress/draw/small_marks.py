"""Marks drawn small between others: a mark's name, a free square spot (x, y, size in cells) and a Random → (box, SVG).

When a room's whole cells are taken, furnish draws a mark the key states here instead of
leaving it out: one smaller version of it, inside the spot, with the same classes (so the
legend and the stylesheet still fit it). The shapes a mark shares at every size (a statue, a heap of
rubble) are drawn here too, for furnish and the legend.
"""

from __future__ import annotations

import math
import random

from dungeonpress.draw.pen import u

INSET = 0.04  # cells kept free inside the spot's edge


def draw_small(mark: str, x: float, y: float, size: float, rng: random.Random) -> tuple:
    """(box, svg) of `mark` drawn in the square spot at (x, y) of `size` cells; the box lies inside the spot."""
    return SMALL[mark](x, y, size, rng)


PILLAR = (0.19, 0.27)  # a round pillar's shaft and its base, radii in cells
PILASTER = 0.24  # a half-pillar's radius, out from the wall it is set in
SLAB_DEPTH, SLAB_OFF = 0.5, 0.1  # an altar slab's depth out from the wall, and the gap it keeps to the wall


def _column(x, y, s, rng):
    cx, cy = x + s / 2, y + s / 2
    scale = min(1.0, (s / 2 - 0.05) / PILLAR[1])
    r = PILLAR[1] * scale
    return (cx - r, cy - r, cx + r, cy + r), pillar(cx, cy, scale)


def pillar(x: float, y: float, scale: float = 1.0) -> str:
    """A round pillar seen from above: its shaft, dark, standing on a round base a little wider."""
    shaft, base = PILLAR[0] * scale, PILLAR[1] * scale
    return (f'<circle class="column-base" cx="{u(x)}" cy="{u(y)}" r="{u(base)}"/>'
            f'<circle class="column" cx="{u(x)}" cy="{u(y)}" r="{u(shaft)}"/>')


INWARD = {"N": (0, 1), "S": (0, -1), "E": (-1, 0), "W": (1, 0)}


def pilaster(x: float, y: float, wall: str) -> str:
    """A half-pillar set in the wall at (x, y), standing out into the room: the row of pillars ends in it."""
    dx, dy = INWARD[wall]
    r = PILASTER
    ring = [(x + (dx * math.sin(a) - dy * math.cos(a)) * r, y + (dy * math.sin(a) + dx * math.cos(a)) * r)
            for a in (math.pi * k / 6 for k in range(7))]
    return f'<path class="column" d="M{"L".join(f"{u(px)} {u(py)}" for px, py in ring)}Z"/>'


def altar_slab(cells, wall: str) -> tuple:
    """(box, svg) of an altar: a slab against `wall` spanning the wall cells `cells`, a candle at each end on it."""
    x0, y0 = min(c[0] for c in cells), min(c[1] for c in cells)
    x1, y1 = max(c[0] for c in cells) + 1, max(c[1] for c in cells) + 1
    end = 0.15 if len(cells) > 1 else 0.1  # in from the ends of the cells it spans
    if wall in ("N", "S"):
        x0, x1 = x0 + end, x1 - end
        y0 = y0 + SLAB_OFF if wall == "N" else y1 - SLAB_OFF - SLAB_DEPTH
        y1 = y0 + SLAB_DEPTH
        candles = ((x0 + 0.14, (y0 + y1) / 2), (x1 - 0.14, (y0 + y1) / 2))
    else:
        y0, y1 = y0 + end, y1 - end
        x0 = x0 + SLAB_OFF if wall == "W" else x1 - SLAB_OFF - SLAB_DEPTH
        x1 = x0 + SLAB_DEPTH
        candles = (((x0 + x1) / 2, y0 + 0.14), ((x0 + x1) / 2, y1 - 0.14))
    return (x0, y0, x1, y1), _slab(x0, y0, x1, y1, candles)


def altar_in(box, wall: str) -> str:
    """The SVG of an altar slab filling `box` (x0, y0, x1, y1), its long side along `wall`, a candle at each end."""
    x0, y0, x1, y1 = box
    if wall in ("N", "S"):
        candles = ((x0 + 0.14, (y0 + y1) / 2), (x1 - 0.14, (y0 + y1) / 2))
    else:
        candles = (((x0 + x1) / 2, y0 + 0.14), ((x0 + x1) / 2, y1 - 0.14))
    return _slab(x0, y0, x1, y1, candles)


def _slab(x0, y0, x1, y1, candles) -> str:
    """A stone slab with its top's edge drawn inside it, and candles on it."""
    inset = min(0.07, (x1 - x0) / 6, (y1 - y0) / 6)
    lights = "".join(f'<circle class="candle" cx="{u(cx)}" cy="{u(cy)}" r="{u(min(0.07, inset * 1.2))}"/>'
                     for cx, cy in candles)
    return (f'<rect class="altar" x="{u(x0)}" y="{u(y0)}" width="{u(x1 - x0)}" height="{u(y1 - y0)}"/>'
            f'<rect class="detail" x="{u(x0 + inset)}" y="{u(y0 + inset)}" width="{u(x1 - x0 - 2 * inset)}" '
            f'height="{u(y1 - y0 - 2 * inset)}"/>{lights}')


RING_INK = 0.08  # how far a ritual ring's candles reach past its line


def ritual(cx: float, cy: float, radius: float, across: bool, candles: int = 5) -> tuple:
    """(box, svg) of a ritual altar at (cx, cy): a slab (its long side east-west when `across`) in a ring of `radius`
    cut in the floor, doubled and with `candles` candles standing on it when there is room (a ring of 0.6 or more);
    radius 0: the slab alone."""
    w = min(1.0, 1.7 * (radius - 0.15)) if radius else 0.8
    w, h = (w, w / 2) if across else (w / 2, w)
    x0, y0, x1, y1 = cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2
    end = min(0.14, min(w, h) * 0.3)
    on_slab = ((x0 + end, cy), (x1 - end, cy)) if across else ((cx, y0 + end), (cx, y1 - end))
    slab = _slab(x0, y0, x1, y1, on_slab)
    if not radius:
        return (x0, y0, x1, y1), slab
    ring = f'<circle class="detail" cx="{u(cx)}" cy="{u(cy)}" r="{u(radius)}"/>'
    if radius < 0.6:
        return (cx - radius, cy - radius, cx + radius, cy + radius), ring + slab
    ring += f'<circle class="detail" cx="{u(cx)}" cy="{u(cy)}" r="{u(radius - 0.1)}"/>'
    lights = "".join(f'<circle class="candle" cx="{u(cx + math.sin(a) * (radius - 0.05))}" '
                     f'cy="{u(cy - math.cos(a) * (radius - 0.05))}" r="{u(RING_INK)}"/>'
                     for a in (2 * math.pi * k / candles for k in range(candles)))
    reach = radius + RING_INK
    return (cx - reach, cy - reach, cx + reach, cy + reach), ring + lights + slab


def _ritual(x, y, s, rng):
    """A small ritual altar: the slab in its ring, filling the spot."""
    return ritual(x + s / 2, y + s / 2, s / 2 - INSET, True)


def crate_pile(x: float, y: float, s: float, rng: random.Random, count: int = 3) -> tuple:
    """(box, svg) of `count` crates stacked askew in the `s` square at (x, y): each drawn over the ones before it."""
    sides = (0.52, 0.44, 0.38)[:count]
    spots = ((0.0, 0.0), (1.0, 0.3), (0.45, 1.0))  # where each sits in the square: 0 at its left/top, 1 at its right/bottom
    crates, xs, ys = [], [], []
    for k, side in enumerate(sides):
        k_side = side * s
        turn = (rng.random() - 0.5) * 0.5
        reach = k_side / 2 * (abs(math.cos(turn)) + abs(math.sin(turn)))  # half the turned crate's width
        fx, fy = spots[k]
        cx = x + reach + fx * (s - 2 * reach)
        cy = y + reach + fy * (s - 2 * reach)
        corners = [(cx + math.cos(turn + a) * k_side / math.sqrt(2), cy + math.sin(turn + a) * k_side / math.sqrt(2))
                   for a in (math.pi * (2 * j + 1) / 4 for j in range(4))]
        xs += [p[0] for p in corners]
        ys += [p[1] for p in corners]
        a, b, c, d = corners
        # a plank across the lid, corner to corner: what tells a crate from a block of stone
        crates.append(f'<path class="furniture" d="M{"L".join(f"{u(px)} {u(py)}" for px, py in corners)}Z"/>'
                      f'<path class="detail" d="M{u(a[0])} {u(a[1])}L{u(c[0])} {u(c[1])}"/>')
    return (min(xs), min(ys), max(xs), max(ys)), "".join(crates)


def _statue(x, y, s, rng):
    cx, cy, h = x + s / 2, y + s / 2, s / 2 - INSET
    return (cx - h, cy - h, cx + h, cy + h), statue(cx, cy, h)


def _crate(x, y, s, rng):
    return crate_pile(x + INSET, y + INSET, s - 2 * INSET, rng, 2)


def _altar(x, y, s, rng):
    """A small altar: a slab across the spot, its candles on it."""
    w, h = s - 2 * INSET, (s - 2 * INSET) * 0.55
    x0, y0 = x + INSET, y + (s - h) / 2
    candles = ((x0 + w * 0.2, y0 + h / 2), (x0 + w * 0.8, y0 + h / 2))
    return (x0, y0, x0 + w, y0 + h), _slab(x0, y0, x0 + w, y0 + h, candles)


def _rubble(x, y, s, rng):
    return (x + INSET, y + INSET, x + s - INSET, y + s - INSET), rubble(x + s / 2, y + s / 2, s - 2 * INSET, rng, 4)


def _water(x, y, s, rng):
    """A small pool: an irregular ring of ten points and one ripple."""
    cx, cy, r = x + s / 2, y + s / 2, s / 2 - INSET
    pts = [(cx + math.cos(2 * math.pi * k / 10) * r * (0.8 + 0.2 * rng.random()),
             cy + math.sin(2 * math.pi * k / 10) * r * (0.8 + 0.2 * rng.random())) for k in range(10)]
    d = smooth_ring(pts)
    ripple = f"M{u(cx - r * 0.45)} {u(cy)}Q{u(cx)} {u(cy - r * 0.2)} {u(cx + r * 0.45)} {u(cy)}"
    return (cx - r, cy - r, cx + r, cy + r), f'<path class="water" d="{d}"/><path class="ripple" d="{ripple}"/>'


def _crack(x, y, s, rng):
    d = (f"M{u(x + 0.05)} {u(y + 0.05)}L{u(x + s * 0.45)} {u(y + s * 0.4)}L{u(x + s * 0.35)} {u(y + s * 0.7)}"
         f"L{u(x + s - 0.05)} {u(y + s - 0.05)}")
    return (x + 0.05, y + 0.05, x + s - 0.05, y + s - 0.05), f'<path class="crack" d="{d}"/>'


def _boxed(cls: str, detail):
    """A small mark drawn as one low box with a detail inside: a forge, a shelf, a strongbox, a table."""
    def draw(x, y, s, rng):
        w, h = s - 2 * INSET, (s - 2 * INSET) * 0.6
        x0, y0 = x + INSET, y + (s - h) / 2
        return ((x0, y0, x0 + w, y0 + h),
                f'<rect class="{cls}" x="{u(x0)}" y="{u(y0)}" width="{u(w)}" height="{u(h)}"/>' + detail(x0, y0, w, h))
    return draw


def _hearth(x, y, w, h):
    return f'<circle class="hearth" cx="{u(x + w / 2)}" cy="{u(y + h / 2)}" r="{u(h * 0.3)}"/>'


def _shelf_ticks(x, y, w, h):
    return '<path class="detail" d="' + "".join(f"M{u(x + w * k / 4)} {u(y)}V{u(y + h)}" for k in (1, 2, 3)) + '"/>'


def _band(x, y, w, h):
    return f'<path class="band" d="M{u(x)} {u(y + h * 0.4)}H{u(x + w)}"/>'


def _chairs(x, y, w, h):
    return f'<path class="detail" d="M{u(x + w * 0.3)} {u(y)}V{u(y + h)}M{u(x + w * 0.7)} {u(y)}V{u(y + h)}"/>'


def statue(x: float, y: float, r: float) -> str:
    """A statue of radius `r` at (x, y): the plinth's circle and the figure on it, a star pointing up."""
    points = []
    for k in range(10):
        a = -math.pi / 2 + k * math.pi / 5
        reach = r * (0.62 if k % 2 == 0 else 0.27)
        points.append(f"{u(x + math.cos(a) * reach)} {u(y + math.sin(a) * reach)}")
    return (f'<circle class="plinth" cx="{u(x)}" cy="{u(y)}" r="{u(r)}"/>'
            f'<path class="statue" d="M{"L".join(points)}Z"/>')


def broken_statue(cx: float, cy: float, s: float, turn: int, rng: random.Random) -> str:
    """A statue toppled and broken in the `s` square centred at (cx, cy), seen from above: its empty plinth in one
    corner (`turn` quarter turns clockwise from the top-left) with the stump of its feet, the figure fallen away from
    it across the square in two pieces (legs; torso and shoulders), its head rolled on and an arm broken off beside,
    and chips of stone at the break."""
    ca, sa = math.cos(turn * math.pi / 2), math.sin(turn * math.pi / 2)
    r2 = math.sqrt(0.5)

    def at(along, aside):  # from the plinth's middle, `along` the fall (corner to corner) and `aside` across it
        lx, ly = -0.25 + (along - aside) * r2, -0.25 + (along + aside) * r2
        return cx + (lx * ca - ly * sa) * s, cy + (lx * sa + ly * ca) * s

    def shape(points):
        return "M" + "L".join(f"{u(px)} {u(py)}" for px, py in (at(a, b) for a, b in points)) + "Z"

    wobble = (rng.random() - 0.5) * 0.06  # the legs lie a little askew of the torso: they broke apart in the fall
    stump = shape([(-0.1, -0.08), (0.07, -0.11), (0.11, 0.04), (0.03, 0.09), (-0.08, 0.07)])
    legs = shape([(0.27, -0.1 + wobble), (0.48, -0.11), (0.45, 0.0), (0.49, 0.11), (0.27, 0.09 + wobble)])
    torso = shape([(0.53, -0.11), (0.57, 0.01), (0.53, 0.12), (0.77, 0.17), (0.82, 0.0), (0.77, -0.16)])
    arm = shape([(0.52, 0.25), (0.7, 0.31), (0.67, 0.37), (0.5, 0.31)])
    hx, hy = at(0.92, -0.04)
    chips = []
    for along, aside in ((0.5, -0.22), (0.4, 0.21), (0.62, -0.28)):
        px, py = at(along + (rng.random() - 0.5) * 0.04, aside)
        r = s * (0.035 + rng.random() * 0.02)
        chips.append("M" + "L".join(f"{u(px + math.cos(a) * r)} {u(py + math.sin(a) * r)}"
                                    for a in (rng.random() * 2 + k * 2 * math.pi / 3 for k in range(3))) + "Z")
    px, py = at(0, 0)
    return (f'<circle class="plinth" cx="{u(px)}" cy="{u(py)}" r="{u(0.24 * s)}"/>'
            f'<path class="statue" d="{stump}{legs}{torso}{arm}"/>'
            f'<circle class="statue" cx="{u(hx)}" cy="{u(hy)}" r="{u(0.095 * s)}"/>'
            f'<path class="rubble" d="{"".join(chips)}"/>')


def _broken_statue(x, y, s, rng):
    return (x + INSET, y + INSET, x + s - INSET, y + s - INSET), broken_statue(x + s / 2, y + s / 2, s - 2 * INSET, 0, rng)


def rubble(cx: float, cy: float, size: float, rng, stones: int = 5) -> str:
    """`stones` broken blocks inside the `size` square centred at (cx, cy): irregular five-sided shapes, the first largest."""
    out = []
    for k in range(stones):
        r = size * (0.2 if k == 0 else 0.09 + rng.random() * 0.07)
        reach = size / 2 - r
        x, y = cx + (rng.random() * 2 - 1) * reach, cy + (rng.random() * 2 - 1) * reach
        turn = rng.random() * 2 * math.pi
        corners = []
        for j in range(5):
            a = turn + j * 2 * math.pi / 5 + (rng.random() - 0.5) * 0.6
            f = 0.7 + 0.3 * rng.random()
            corners.append(f"{u(x + math.cos(a) * r * f)} {u(y + math.sin(a) * r * f)}")
        out.append(f'M{"L".join(corners)}Z')
    return f'<path class="rubble" d="{"".join(out)}"/>'


def pool(x: float, y: float, w: float, h: float, rng: random.Random) -> tuple:
    """(box, SVG) of an irregular pool in the block at (x, y), `w` × `h` cells: its bank a smooth curve, two ripples."""
    cx, cy, rx, ry = x + w / 2, y + h / 2, w / 2 - 0.12, h / 2 - 0.12
    pts = []
    for k in range(10):
        a = 2 * math.pi * k / 10
        f = 0.78 + 0.22 * rng.random()
        pts.append((cx + math.cos(a) * rx * f, cy + math.sin(a) * ry * f))
    d = smooth_ring(pts)  # a bank that curves, not a polygon
    ripple = "".join(f"M{u(cx - rx * 0.45)} {u(cy + dy)}Q{u(cx)} {u(cy + dy - 0.12)} {u(cx + rx * 0.45)} {u(cy + dy)}"
                     for dy in (-ry * 0.25, ry * 0.3))
    return ((cx - rx, cy - ry, cx + rx, cy + ry),
            f'<path class="water" d="{d}"/><path class="ripple" d="{ripple}"/>')


def smooth_ring(points) -> str:
    """Path data for a closed curve through the midpoints of `points`, each point pulling it (a pool's bank)."""
    n = len(points)
    mids = [((points[i - 1][0] + points[i][0]) / 2, (points[i - 1][1] + points[i][1]) / 2) for i in range(n)]
    d = f"M{u(mids[0][0])} {u(mids[0][1])}"
    for i in range(n):
        end = mids[(i + 1) % n]
        d += f"Q{u(points[i][0])} {u(points[i][1])} {u(end[0])} {u(end[1])}"
    return d + "Z"


# Every floor mark a table row may state (model.MAP_MARKS but the doors and alcoves, which are walls).
SMALL = {"columns": _column, "statues": _statue, "broken_statues": _broken_statue, "water": _water, "crates": _crate, "rubble": _rubble,
         "cracks": _crack, "altar": _altar, "ritual": _ritual, "forge": _boxed("furniture", _hearth),
         "library": _boxed("furniture", _shelf_ticks), "vault": _boxed("chest", _band),
         "furniture": _boxed("furniture", _chairs)}
