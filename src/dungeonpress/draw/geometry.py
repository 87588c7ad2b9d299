"""Plane geometry for the maps: polygons and segments in grid cells → inside tests, distances and clipped segments."""

from __future__ import annotations

import math


def num(value: float) -> str:
    """A number for SVG text: at most two decimals, no trailing zeros (stable text for byte-identical output)."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def rect_polygon(x: float, y: float, w: float, h: float) -> tuple:
    return ((x, y), (x + w, y), (x + w, y + h), (x, y + h))


def bbox(points) -> tuple:
    """(x0, y0, x1, y1) of some points."""
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def inside(point, polygon) -> bool:
    """Ray casting: is `point` inside the simple `polygon` (points on the edge may go either way)?"""
    x, y = point
    hit = False
    n = len(polygon)
    for i in range(n):
        (x1, y1), (x2, y2) = polygon[i], polygon[(i + 1) % n]
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            hit = not hit
    return hit


class Region:
    """A polygon made ready for many inside tests (a room's floor while its marks are placed): the same ray casting
    as `inside`, with each edge's differences worked out once and level edges (which no ray crosses) left out."""

    def __init__(self, polygon):
        n = len(polygon)
        self.edges = tuple((y1, y2, x1, x2 - x1, y2 - y1)
                           for (x1, y1), (x2, y2) in ((polygon[i], polygon[(i + 1) % n]) for i in range(n)) if y1 != y2)

    def contains(self, point) -> bool:
        x, y = point
        hit = False
        for y1, y2, x1, dx, dy in self.edges:
            if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * dx / dy:
                hit = not hit
        return hit


def segment_distance(point, a, b) -> float:
    px, py = point
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    length = dx * dx + dy * dy
    t = 0.0 if length == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length))
    return math.hypot(px - ax - t * dx, py - ay - t * dy)


def distance(point, polygon) -> float:
    """0 inside the polygon, else the distance to its nearest edge."""
    if inside(point, polygon):
        return 0.0
    n = len(polygon)
    return min(segment_distance(point, polygon[i], polygon[(i + 1) % n]) for i in range(n))


def _crossings(a, b, polygon) -> list:
    """Parameters t in (0, 1) where segment a→b crosses an edge of the polygon."""
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    out = []
    n = len(polygon)
    for i in range(n):
        (x1, y1), (x2, y2) = polygon[i], polygon[(i + 1) % n]
        ex, ey = x2 - x1, y2 - y1
        denom = dx * ey - dy * ex
        if abs(denom) < 1e-12:
            continue
        t = ((x1 - ax) * ey - (y1 - ay) * ex) / denom
        u = ((x1 - ax) * dy - (y1 - ay) * dx) / denom
        if 0 < t < 1 and 0 <= u <= 1:
            out.append(t)
    return out


def clip_outside(a, b, polygons) -> list:
    """The pieces of segment a→b that lie outside every polygon, as (start, end) point pairs."""
    cuts = [0.0, 1.0]
    for polygon in polygons:
        cuts.extend(_crossings(a, b, polygon))
    cuts.sort()
    pieces = []
    for t0, t1 in zip(cuts, cuts[1:]):
        if t1 - t0 < 1e-6:
            continue
        mid = _at(a, b, (t0 + t1) / 2)
        if not any(inside(mid, polygon) for polygon in polygons):
            if pieces and abs(pieces[-1][1] - t0) < 1e-9:
                pieces[-1] = (pieces[-1][0], t1)
            else:
                pieces.append((t0, t1))
    return [(_at(a, b, t0), _at(a, b, t1)) for t0, t1 in pieces]


def clip_inside(a, b, polygon) -> list:
    """The pieces of segment a→b inside the polygon."""
    cuts = sorted([0.0, 1.0, *_crossings(a, b, polygon)])
    return [(_at(a, b, t0), _at(a, b, t1)) for t0, t1 in zip(cuts, cuts[1:])
            if t1 - t0 > 1e-6 and inside(_at(a, b, (t0 + t1) / 2), polygon)]


def _at(a, b, t: float) -> tuple:
    return a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t


def segments_cross(p1, p2, p3, p4) -> bool:
    """Do segments p1p2 and p3p4 properly cross (touching ends do not count)?"""
    def orient(a, b, c):
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    d1, d2 = orient(p3, p4, p1), orient(p3, p4, p2)
    d3, d4 = orient(p1, p2, p3), orient(p1, p2, p4)
    return d1 * d2 < 0 and d3 * d4 < 0


def simple(polygon) -> bool:
    """True when no two non-adjacent edges of the polygon cross."""
    n = len(polygon)
    edges = [(polygon[i], polygon[(i + 1) % n]) for i in range(n)]
    for i in range(n):
        for j in range(i + 2, n):
            if i == 0 and j == n - 1:
                continue
            if segments_cross(*edges[i], *edges[j]):
                return False
    return True


def grow(polygon, by: float) -> tuple:
    """A star-shaped polygon pushed out from its centre by `by` (a cheap outset for clipping margins)."""
    cx = sum(p[0] for p in polygon) / len(polygon)
    cy = sum(p[1] for p in polygon) / len(polygon)
    out = []
    for x, y in polygon:
        length = math.hypot(x - cx, y - cy) or 1.0
        out.append((x + (x - cx) / length * by, y + (y - cy) / length * by))
    return tuple(out)
