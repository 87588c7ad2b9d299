"""A natural cave's wall: a room rectangle, its door points and a seeded Random → a smooth closed outline.

The wall is star-shaped around the room's centre: points walk round the rectangle and are
pulled toward the centre by a random amount, so their angles keep increasing and the outline
can never cross itself. Near a door the wall stays on the rectangle, straight, so the passage
meets it square. The outline stays inside the rectangle, which the layout keeps clear of
corridors.
"""

from __future__ import annotations

import math
import random

STEP = 0.5          # cells between wall points
DOOR_FLAT = 0.6     # cells of straight wall either side of a door (past the square-wide passage's mouth)
INSET = (0.06, 0.3)  # how far a wall point is pulled in, in cells, at random point by point (the rough rock)
CORNER = 0.55       # corners are cut deeper, so no cave looks like a box
# Bays and bulges: a slow wave round the wall (two and three swells, random phase) pulls it in up to this share
# of the room's shorter side, so a cave has lobes, not only a rough edge round a box. It fades out over
# LOBE_FADE cells toward each door, which stays on its straight stretch.
LOBE, LOBE_MAX, LOBE_FADE = 0.16, 0.7, 1.0


def cave_outline(x: float, y: float, w: float, h: float, doors, rng: random.Random) -> tuple:
    """Control points of the cave wall (clockwise from the top-left); `doors` are (x, y) points on the rectangle."""
    cx, cy = x + w / 2, y + h / 2
    phase = (rng.random() * 2 * math.pi, rng.random() * 2 * math.pi)
    depth = min(LOBE_MAX, LOBE * min(w, h))
    points = []
    for px, py in _perimeter(x, y, w, h, doors):
        door = min((math.hypot(px - dx, py - dy) for dx, dy in doors), default=math.inf)
        if door <= DOOR_FLAT + 1e-9:
            points.append((px, py))
            continue
        corner = min(math.hypot(px - qx, py - qy) for qx, qy in ((x, y), (x + w, y), (x + w, y + h), (x, y + h)))
        angle = math.atan2(py - cy, px - cx)
        swell = 0.5 + 0.3 * math.sin(2 * angle + phase[0]) + 0.2 * math.sin(3 * angle + phase[1])  # 0 to 1
        inset = INSET[0] + rng.random() * (INSET[1] - INSET[0])
        inset += depth * swell * min(1.0, (door - DOOR_FLAT) / LOBE_FADE)
        if corner < 0.75:
            inset += CORNER * (0.75 - corner) / 0.75
        length = math.hypot(px - cx, py - cy)
        keep = max(0.0, 1 - inset / length)
        points.append((cx + (px - cx) * keep, cy + (py - cy) * keep))
    return tuple(points)


def _perimeter(x, y, w, h, doors):
    """Points round the rectangle every STEP cells, plus each door and the ends of its flat stretch."""
    walls = (((x, y), (1, 0), w), ((x + w, y), (0, 1), h), ((x + w, y + h), (-1, 0), w), ((x, y + h), (0, -1), h))
    out = []
    for (sx, sy), (dx, dy), length in walls:
        offsets = [i * STEP for i in range(int(length / STEP))]
        for px, py in doors:
            along = (px - sx) * dx + (py - sy) * dy
            across = (px - sx) * dy - (py - sy) * dx
            if abs(across) < 1e-9 and 0 < along < length:
                offsets = [o for o in offsets if abs(o - along) > DOOR_FLAT + 0.05]
                # a door in a corner square keeps the corner too, so its mouth stays on the straight wall
                offsets += [max(0.0, along - DOOR_FLAT), along, along + DOOR_FLAT]
        for offset in sorted(o for o in offsets if 0 <= o < length):
            out.append((sx + dx * offset, sy + dy * offset))
    return out


def smooth(points, samples: int = 4) -> tuple:
    """The outline drawn through the midpoints of the control polygon, flattened to a polygon for geometry."""
    n = len(points)
    out = []
    for i in range(n):
        p0 = _mid(points[i - 1], points[i])
        p1 = points[i]
        p2 = _mid(points[i], points[(i + 1) % n])
        for k in range(samples):
            t = k / samples
            out.append(((1 - t) ** 2 * p0[0] + 2 * (1 - t) * t * p1[0] + t * t * p2[0],
                        (1 - t) ** 2 * p0[1] + 2 * (1 - t) * t * p1[1] + t * t * p2[1]))
    return tuple(out)


def _mid(a, b) -> tuple:
    return (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
