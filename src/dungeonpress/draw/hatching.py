"""Rock around the floor: floor polygons (cells) and a seeded Random → hatch strokes that never touch the floor.

Strokes come in little bundles of three at a random angle, the way a cartographer shades
rock with a pen, in a band along every wall. Each stroke is cut where it would enter the
floor (grown by the wall's thickness), so hatching never covers a room or a passage.
"""

from __future__ import annotations

import math
import random

from dungeonpress.draw.geometry import bbox, clip_inside, clip_outside, distance, rect_polygon

BAND = 0.85      # cells of hatching out from a wall
SPACING = 0.42   # cells between bundle centres
STROKE = 0.42    # length of one stroke, in cells
GAP = 0.11       # between the strokes of a bundle
MARGIN = 0.14    # strokes stop this far from the floor's edge (clear of the wall line)


def hatch_strokes(floors, grown, width: float, height: float, rng: random.Random) -> list:
    """Hatch strokes ((x0, y0), (x1, y1)) in cells; `floors` are the floor polygons, `grown` the same pushed out."""
    boxes = [bbox(p) for p in floors]
    grown_boxes = [bbox(p) for p in grown]
    index = _index(boxes, BAND + STROKE)  # which floors lie near each grid square: a few, not all
    frame = rect_polygon(0.05, 0.05, width - 0.1, height - 0.1)
    strokes = []
    rows, cols = int(height / SPACING), int(width / SPACING)
    for j in range(rows + 1):
        for i in range(cols + 1):
            x = (i + 0.5) * SPACING + (rng.random() - 0.5) * SPACING * 0.6
            y = (j + 0.5) * SPACING + (rng.random() - 0.5) * SPACING * 0.6
            angle = rng.random() * math.pi
            candidates = index.get((int(x), int(y)), ())
            near = [floors[k] for k in candidates if _box_distance(x, y, boxes[k]) < BAND]
            if not near:
                continue
            gap = min(distance((x, y), p) for p in near)
            if not 0 < gap < BAND:
                continue
            close = [grown[k] for k in candidates if _box_distance(x, y, grown_boxes[k]) < STROKE + GAP * 2]
            dx, dy = math.cos(angle) * STROKE / 2, math.sin(angle) * STROKE / 2
            nx, ny = -math.sin(angle) * GAP, math.cos(angle) * GAP
            for k in (-1, 0, 1):
                cx, cy = x + nx * k, y + ny * k
                for a, b in clip_outside((cx - dx, cy - dy), (cx + dx, cy + dy), close):
                    for piece in clip_inside(a, b, frame):
                        if math.dist(*piece) > 0.05:
                            strokes.append(piece)
    return strokes


def _index(boxes, reach: float) -> dict:
    """Grid square (x, y) → indices of the boxes within `reach` of it."""
    out = {}
    for k, (x0, y0, x1, y1) in enumerate(boxes):
        for gx in range(int(math.floor(x0 - reach)), int(math.floor(x1 + reach)) + 1):
            for gy in range(int(math.floor(y0 - reach)), int(math.floor(y1 + reach)) + 1):
                out.setdefault((gx, gy), []).append(k)
    return out


def _box_distance(x: float, y: float, box) -> float:
    x0, y0, x1, y1 = box
    return math.hypot(max(x0 - x, 0, x - x1), max(y0 - y, 0, y - y1))


def grow_rect(polygon, by: float) -> tuple:
    """An axis-aligned rectangle polygon grown by `by` on every side."""
    x0, y0, x1, y1 = bbox(polygon)
    return rect_polygon(x0 - by, y0 - by, x1 - x0 + 2 * by, y1 - y0 + 2 * by)
