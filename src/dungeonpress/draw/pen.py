"""Lines in grid cells → SVG path data, ruled (clean) or with a slight hand tremor (sketch, from a seeded Random)."""

from __future__ import annotations

import math
import random

from dungeonpress.draw.geometry import num

UNIT = 10  # SVG user units per grid cell


def u(value: float) -> str:
    """A cell coordinate as SVG user units."""
    return num(value * UNIT)


class Pen:
    """Draws polylines; with a Random it wobbles them a little, like ink on a ruler-less hand."""

    def __init__(self, rng: random.Random | None = None, wobble: float = 0.045):
        self.rng, self.wobble = rng, wobble

    def path(self, points, closed: bool = False) -> str:
        """Path data through `points` (cells); a sketch pen splits long edges and shakes the inner points."""
        pts = list(points)
        if closed:
            pts.append(pts[0])
        if self.rng is not None:
            pts = self._shake(pts, closed)
        d = "M" + "L".join(f"{u(x)} {u(y)}" for x, y in pts)
        return d + ("Z" if closed else "")

    def _shake(self, pts, closed: bool) -> list:
        out = [pts[0]]
        for (x0, y0), (x1, y1) in zip(pts, pts[1:]):
            length = math.hypot(x1 - x0, y1 - y0)
            pieces = max(1, int(length / 0.8))
            nx, ny = ((y0 - y1) / length, (x1 - x0) / length) if length else (0.0, 0.0)
            for k in range(1, pieces):
                t = k / pieces
                off = (self.rng.random() * 2 - 1) * self.wobble
                out.append((x0 + (x1 - x0) * t + nx * off, y0 + (y1 - y0) * t + ny * off))
            out.append((x1, y1))
        return out

    def jitter(self, amount: float) -> float:
        """A small random offset for a sketch pen, 0 for a clean one."""
        return 0.0 if self.rng is None else (self.rng.random() * 2 - 1) * amount
