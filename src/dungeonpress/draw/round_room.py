"""A shrine's round wall or apse, a grand hall's cut corners, a small chamber's fallen-in corner: a room rectangle and
its door points → a closed outline.

A shrine's corners are rounded with a radius of up to half the room's shorter side (a square room
comes out nearly circular); a shrine with its altar at the far wall ends in an apse there (that wall's two
corners rounded, a half circle where the wall is the shorter side); a grand hall's are cut straight across, a square along each wall (an
octagonal hall); a small chamber with debris has the one corner farthest from its way in cut so (fallen
in). None reaches into a door's mouth: the wall stays straight and on the rectangle
across every door's gap (a passage is a square wide), so passages meet it square and the VTT export
can open the wall there. The outline lies inside the rectangle and is convex.
"""

from __future__ import annotations

import math

ARC_STEPS = 6  # straight pieces per rounded corner
MOUTH = 0.5    # half a door's gap along the wall, in cells (the passage is a square wide)
APSE_LEAST = 1.0  # the least radius an apse's corners round by, in cells: less reads as a rounded box, not an apse
CUT = 1.0      # how far along each wall a grand hall's corner is cut: a square, so it reads at A7


def chamfered_outline(x: float, y: float, w: float, h: float, doors) -> tuple:
    """A grand hall's outline: each corner cut straight across, CUT along both walls (less where a door's gap is
    nearer the corner, none where it starts at the corner); clockwise on the page from the top-left cut."""
    return round_outline(x, y, w, h, doors, largest=min(CUT, min(w, h) / 2), steps=1)


def apsed_outline(x: float, y: float, w: float, h: float, doors, way_in) -> tuple | None:
    """A chapel's outline: the wall across from its way in (the point `way_in`) ends in an apse, both its corners
    rounded alike with a radius of half the room's shorter side, or less so the arcs stop at a door's gap: the farthest
    wall from the way in whose corners both round a square or more (the key sets the altar at the far wall: it stands
    in the apse). None when no wall's do."""
    walls = _walls(x, y, w, h)
    largest = min(w, h) / 2

    def far(k):  # how far wall k's middle lies from the way in
        (sx, sy), (dx, dy), length = walls[k]
        return round(math.dist((sx + dx * length / 2, sy + dy * length / 2), way_in), 9)

    def radius(k):  # the radius both corners of wall k round by
        return round(min(_radius(j, walls, doors, largest) for j in (k, (k + 1) % 4)), 9)

    least = min(APSE_LEAST, largest)
    k = min(range(4), key=lambda k: (radius(k) < least, -far(k), -radius(k), k))
    if radius(k) < least:
        return None
    return round_outline(x, y, w, h, doors, largest=tuple(radius(k) if j in (k, (k + 1) % 4) else 0.0 for j in range(4)))


def collapsed_outline(x: float, y: float, w: float, h: float, doors, way_in) -> tuple:
    """A small chamber with debris: the corner farthest from its way in (the point `way_in`) fallen in, cut straight
    across CUT along both walls; the next farthest where a door's gap comes nearer that one, or none."""
    corners = ((x, y), (x + w, y), (x + w, y + h), (x, y + h))
    walls = _walls(x, y, w, h)
    largest = min(CUT, min(w, h) / 2)
    for k in sorted(range(4), key=lambda k: (-round(math.dist(corners[k], way_in), 9), k)):
        if _radius(k, walls, doors, largest) >= largest - 1e-9:
            return round_outline(x, y, w, h, doors, largest=tuple(largest if j == k else 0.0 for j in range(4)),
                                 steps=1)
    return tuple(corners)


def _walls(x, y, w, h) -> tuple:
    """(start corner, direction, length) of the four walls, clockwise on the page from the top-left corner."""
    return ((x, y), (1, 0), w), ((x + w, y), (0, 1), h), ((x + w, y + h), (-1, 0), w), ((x, y + h), (0, -1), h)


def round_outline(x: float, y: float, w: float, h: float, doors, largest: float | tuple | None = None,
                  steps: int = ARC_STEPS) -> tuple:
    """Outline points, clockwise on the page from the top-left corner's arc; `doors` are (x, y) points on the edge.

    `largest` is the corners' greatest radius (half the shorter side unless given; a tuple gives each corner's,
    clockwise from the top-left); `steps` the straight pieces of each corner (1: a straight cut across it)."""
    walls = _walls(x, y, w, h)
    largest = min(w, h) / 2 if largest is None else largest
    each = largest if isinstance(largest, tuple) else (largest,) * 4
    radius = [_radius(k, walls, doors, each[k]) for k in range(4)]
    out = []
    for k, ((sx, sy), (dx, dy), length) in enumerate(walls):
        r = radius[k]
        # The corner this wall starts at: an arc from the previous wall's direction into this one.
        px, py = walls[k - 1][1]
        cx, cy = sx + (dx - px) * r, sy + (dy - py) * r  # the arc's centre, r in from both walls
        start = math.atan2(-dy, -dx) if r else 0.0  # from the centre, the arc starts across the previous wall
        for step in range(steps + 1 if r else 1):
            a = start + step * (math.pi / 2) / steps
            out.append((cx + math.cos(a) * r, cy + math.sin(a) * r) if r else (sx, sy))
        # The straight stretch, with each door's gap marked by its ends and middle (walls open there).
        offsets = []
        for door_x, door_y in doors:
            along = (door_x - sx) * dx + (door_y - sy) * dy
            across = (door_x - sx) * dy - (door_y - sy) * dx
            if abs(across) < 1e-9 and 0 < along < length:
                offsets += [along - MOUTH, along, along + MOUTH]
        for offset in sorted(o for o in offsets if r < o < length - radius[(k + 1) % 4]):
            out.append((sx + dx * offset, sy + dy * offset))
    return tuple(_dedupe(out))


def _radius(k: int, walls, doors, largest: float) -> float:
    """Corner k's radius: `largest`, or less so the arc stops at the nearest door's gap on either wall it joins."""
    (sx, sy), _, _ = walls[k]
    r = largest
    for door_x, door_y in doors:
        for (wx, wy), (dx, dy), length in (walls[k], walls[k - 1]):
            along = (door_x - wx) * dx + (door_y - wy) * dy
            across = (door_x - wx) * dy - (door_y - wy) * dx
            if abs(across) < 1e-9 and 0 <= along <= length:
                from_corner = math.hypot(door_x - sx, door_y - sy)
                r = min(r, max(0.0, from_corner - MOUTH))
    return r


def _dedupe(points) -> list:
    out = []
    for p in points:
        p = (round(p[0], 9) + 0.0, round(p[1], 9) + 0.0)
        if not out or math.dist(out[-1], p) > 1e-6:
            out.append(p)
    if len(out) > 1 and math.dist(out[0], out[-1]) <= 1e-6:
        out.pop()
    return out
