"""Marks drawn small between others: a mark's name, a free square spot (x, y, size in cells) and a Random → (box, SVG).

When a room's whole cells are taken, furnish draws a mark the key states here instead of
leaving it out: one smaller version of it, inside the spot, with the same classes (so the
legend and the stylesheet still fit it).
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
    return ((cx - h, cy - h, cx + h, cy + h),
            f'<rect class="plinth" x="{u(cx - h)}" y="{u(cy - h)}" width="{u(2 * h)}" height="{u(2 * h)}"/>'
            f'<circle class="statue" cx="{u(cx)}" cy="{u(cy)}" r="{u(h * 0.55)}"/>')


def _crate(x, y, s, rng):
    k = s - 2 * INSET
    x, y = x + INSET, y + INSET
    return ((x, y, x + k, y + k),
            f'<rect class="furniture" x="{u(x)}" y="{u(y)}" width="{u(k)}" height="{u(k)}"/>'
            f'<path class="detail" d="M{u(x)} {u(y)}L{u(x + k)} {u(y + k)}M{u(x + k)} {u(y)}L{u(x)} {u(y + k)}"/>')


def _rubble(x, y, s, rng):
    stones = []
    for _ in range(3):
        px, py = x + s * (0.25 + rng.random() * 0.5), y + s * (0.25 + rng.random() * 0.5)
        r = s * 0.1
        stones.append(f'<rect class="rubble" x="{u(px - r)}" y="{u(py - r)}" width="{u(2 * r)}" height="{u(2 * r)}" '
                      f'transform="rotate({int(rng.random() * 90)} {u(px)} {u(py)})"/>')
    return (x + INSET, y + INSET, x + s - INSET, y + s - INSET), "".join(stones)


def _water(x, y, s, rng):
    """A small pool: an irregular ring of ten points and one ripple."""
    cx, cy, r = x + s / 2, y + s / 2, s / 2 - INSET
    pts = [(cx + math.cos(2 * math.pi * k / 10) * r * (0.8 + 0.2 * rng.random()),
             cy + math.sin(2 * math.pi * k / 10) * r * (0.8 + 0.2 * rng.random())) for k in range(10)]
    d = "M" + "L".join(f"{u(px)} {u(py)}" for px, py in pts) + "Z"
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


# Every floor mark a table row may state (model.MAP_MARKS but the doors and alcoves, which are walls).
SMALL = {"columns": _column, "statues": _statue, "water": _water, "crates": _crate, "rubble": _rubble,
         "cracks": _crack, "altar": _boxed("altar", _candles), "forge": _boxed("furniture", _hearth),
         "library": _boxed("furniture", _shelf_ticks), "vault": _boxed("chest", _band),
         "furniture": _boxed("furniture", _chairs)}
