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


def _column(x, y, s, rng):
    cx, cy, r = x + s / 2, y + s / 2, min(0.2, s / 2 - 0.05)
    return (cx - r, cy - r, cx + r, cy + r), f'<circle class="column" cx="{u(cx)}" cy="{u(cy)}" r="{u(r)}"/>'


def _statue(x, y, s, rng):
    cx, cy, h = x + s / 2, y + s / 2, s / 2 - INSET
    return (cx - h, cy - h, cx + h, cy + h), statue(cx, cy, h)


def _crate(x, y, s, rng):
    k = s - 2 * INSET
    x, y = x + INSET, y + INSET
    return ((x, y, x + k, y + k),
            f'<rect class="furniture" x="{u(x)}" y="{u(y)}" width="{u(k)}" height="{u(k)}"/>'
            f'<path class="detail" d="M{u(x)} {u(y)}L{u(x + k)} {u(y + k)}M{u(x + k)} {u(y)}L{u(x)} {u(y + k)}"/>')


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
    """A small mark drawn as one low box with a detail inside: an altar, a forge, a shelf, a strongbox, a table."""
    def draw(x, y, s, rng):
        w, h = s - 2 * INSET, (s - 2 * INSET) * 0.6
        x0, y0 = x + INSET, y + (s - h) / 2
        return ((x0, y0, x0 + w, y0 + h),
                f'<rect class="{cls}" x="{u(x0)}" y="{u(y0)}" width="{u(w)}" height="{u(h)}"/>' + detail(x0, y0, w, h))
    return draw


def _candles(x, y, w, h):
    return (f'<circle class="candle" cx="{u(x + w * 0.2)}" cy="{u(y + h / 2)}" r="0.6"/>'
            f'<circle class="candle" cx="{u(x + w * 0.8)}" cy="{u(y + h / 2)}" r="0.6"/>')


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
SMALL = {"columns": _column, "statues": _statue, "water": _water, "crates": _crate, "rubble": _rubble,
         "cracks": _crack, "altar": _boxed("altar", _candles), "forge": _boxed("furniture", _hearth),
         "library": _boxed("furniture", _shelf_ticks), "vault": _boxed("chest", _band),
         "furniture": _boxed("furniture", _chairs)}
