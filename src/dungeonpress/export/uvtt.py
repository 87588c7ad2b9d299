"""A dungeon's floor plan and its map image → Universal VTT data (the `.dd2vtt` JSON Foundry, Owlbear Rodeo,
Roll20 and Fantasy Grounds importers read): grid, line-of-sight walls, a portal at every door, the entrance.

Everything is in grid units, one grid square per map cell. Walls run along every room's edge (a
cave's drawn outline when it is given) and both sides of every passage, broken only where a door
is; each door is a closed portal exactly spanning the gap, so a room is closed by its walls and
doors together. Dead ends and the map edge at the end of the entrance passage are walled across.
"""

from __future__ import annotations

import base64
import math

from dungeonpress.draw.dungeon_map import PASSAGE
from dungeonpress.model.plan import OUTSIDE, FloorPlan

FORMAT = 0.3
PIXELS_PER_GRID = 100  # Foundry's default grid size: the map imports at 100 % with a square a cell
HALF = PASSAGE / 2  # a door's gap is as wide as the passage behind it
ALONG = {"N": (1, 0), "S": (1, 0), "E": (0, 1), "W": (0, 1)}  # the wall's direction at a door


def _round(value: float) -> float:
    return round(value, 4) + 0.0  # + 0.0: no "-0.0" in the JSON


def _point(x: float, y: float) -> dict:
    return {"x": _round(x), "y": _round(y)}


def door_gap(door) -> tuple:
    """The two ends of a door's gap in its wall, in grid units."""
    ax, ay = ALONG[door.side]
    return (door.x - ax * HALF, door.y - ay * HALF), (door.x + ax * HALF, door.y + ay * HALF)


def room_walls(room) -> list:
    """The room's edge as polylines, clockwise from its top-left corner, broken at each door's gap."""
    x0, y0, x1, y1 = room.x, room.y, room.x + room.w, room.y + room.h
    corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)]
    sides = ("N", "E", "S", "W")  # the side each leg of the walk runs along
    lines, current = [], [corners[0]]
    for side, start, end in zip(sides, corners, corners[1:]):
        length = abs(end[0] - start[0]) + abs(end[1] - start[1])
        dx, dy = (end[0] - start[0]) / length, (end[1] - start[1]) / length

        def along(p, start=start, dx=dx, dy=dy):
            return (p[0] - start[0]) * dx + (p[1] - start[1]) * dy

        for door in sorted((d for d in room.doors if d.side == side), key=lambda d: along((d.x, d.y))):
            first, second = sorted(door_gap(door), key=along)
            current.append(first)
            lines.append(current)
            current = [second]
        current.append(end)
    if lines and lines[0][0] == current[-1]:
        lines[0] = current[:-1] + lines[0]  # the walk ends where it began: one line round the corner
    else:
        lines.append(current)
    return [_simplify(line) for line in lines]


DOOR_ZONE = 0.3  # how far off the wall's line an outline point may lie and still be in a door's gap


def outline_walls(room, outline) -> list:
    """A drawn room outline (a closed polygon, e.g. a cave's wall) as polylines, opened at each door's gap.

    Near a door the drawn wall runs straight along the room's rectangle; its points inside the gap
    are dropped and the wall is joined to the gap's ends, so walls and doors still close the room.
    """
    ring = [(float(x), float(y)) for x, y in outline]

    def door_at(p):
        """The door whose gap `p` lies in (the nearest, where two gaps meet near a corner), or None."""
        found = []
        for index, door in enumerate(room.doors):
            ax, ay = ALONG[door.side]
            along = (p[0] - door.x) * ax + (p[1] - door.y) * ay
            across = (p[0] - door.x) * ay - (p[1] - door.y) * ax
            if abs(along) <= HALF + 1e-9 and abs(across) < DOOR_ZONE:
                found.append((math.hypot(p[0] - door.x, p[1] - door.y), index))
        return min(found)[1] if found else None

    def near_end(door, p):
        ends = door_gap(room.doors[door])
        near = min(ends, key=lambda e: math.hypot(e[0] - p[0], e[1] - p[1]))
        return near, ends[1] if near == ends[0] else ends[0]

    start = next((i for i, p in enumerate(ring) if door_at(p) is None), None)
    if start is None or not room.doors:
        return [ring + ring[:1]]
    ring = ring[start:] + ring[:start]
    ring.append(ring[0])  # from a point in no gap, round to it again
    lines, current, inside = [], [ring[0]], None  # inside: (door, the gap end the wall goes on from)
    for p in ring[1:]:
        door = door_at(p)
        if door is not None and inside is None:  # entering a gap: the wall ends at its nearer end
            near, far = near_end(door, current[-1])
            current.append(near)
            lines.append(current)
            current, inside = [], (door, far)
        elif door is not None and inside is not None and door != inside[0]:
            # from one gap straight into the next (two doors either side of a corner): a wall between them
            near, far = near_end(door, inside[1])
            lines.append([inside[1], near])
            inside = (door, far)
        elif door is None and inside is not None:  # leaving it: the wall starts again at its far end
            current, inside = [inside[1], p], None
        elif door is None:
            current.append(p)
    if lines and current and current[-1] == lines[0][0]:
        lines[0] = current[:-1] + lines[0]
    elif current:
        lines.append(current)
    return lines


def corridor_walls(corridor) -> list:
    """Both sides of a passage (orthogonal polyline, PASSAGE wide), and a wall across a dead or outside end."""
    points = corridor.points
    left, right = [], []
    for i, (x, y) in enumerate(points):
        normals = []
        if i > 0:
            normals.append(_normal(points[i - 1], points[i]))
        if i < len(points) - 1:
            normals.append(_normal(points[i], points[i + 1]))
        # At a right-angle bend the offset corner is the sum of both normals (the mitre of a square turn).
        nx, ny = (sum(n[0] for n in normals), sum(n[1] for n in normals)) if len(normals) == 2 else normals[0]
        left.append((x + nx * HALF, y + ny * HALF))
        right.append((x - nx * HALF, y - ny * HALF))
    lines = [left, right]
    if corridor.end is None or corridor.end == OUTSIDE:
        lines.append([left[-1], right[-1]])  # rubble at a dead end; the map's edge past the entrance
    return lines


def _normal(a, b) -> tuple:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    return (-dy / length, dx / length)


def _simplify(line) -> list:
    out = []
    for p in line:
        if out and out[-1] == p:
            continue
        if len(out) >= 2 and ((out[-2][0] == out[-1][0] == p[0]) or (out[-2][1] == out[-1][1] == p[1])):
            out[-1] = p
            continue
        out.append(p)
    return out


def portals(plan: FloorPlan, barred: set, kinds: dict | None = None) -> list:
    """A portal at every exit: centre, the gap's ends, rotation (radians), and what it leads to.

    `kinds` maps (room, exit index) to how the map draws it ("open", "barred", "locked", "broken"):
    a door the key states (barred, locked) is a closed portal, an opening or a hole an open one.
    Without `kinds` every portal is closed.
    """
    out = []
    kinds = kinds or {}
    for room in plan.rooms:
        for index, door in enumerate(room.doors):
            kind = kinds.get((room.number, index), "barred" if (room.number, index) in barred else "door")
            a, b = door_gap(door)
            out.append({
                "position": _point(door.x, door.y),
                "bounds": [_point(*a), _point(*b)],
                "rotation": 0.0 if door.side in ("N", "S") else _round(math.pi / 2),
                "closed": kind not in ("open", "broken"),
                "freestanding": False,
                # Not part of the format (importers ignore it): which door this is and whether it is barred.
                "dungeonpress": {"room": room.number, "side": door.side,
                                 "leads_to": ("outside" if door.to == OUTSIDE else
                                              "dead end" if door.to is None else door.to),
                                 "barred": (room.number, index) in barred, "kind": kind},
            })
    return out


def walls(plan: FloorPlan, outlines: dict | None = None) -> list:
    """Every line-of-sight wall of the plan: rooms' edges, then passages' sides, as polylines.

    `outlines` maps a room number to its drawn outline (caves); other rooms are walled on their rectangle.
    """
    outlines = outlines or {}
    lines = [line for room in plan.rooms
             for line in (outline_walls(room, outlines[room.number]) if room.number in outlines else room_walls(room))]
    lines += [line for corridor in plan.corridors for line in corridor_walls(corridor)]
    return lines


def entrance(plan: FloorPlan) -> dict | None:
    """Where the entrance passage meets the map's edge (grid units)."""
    for corridor in plan.corridors:
        if corridor.end == OUTSIDE:
            return _point(*corridor.points[-1])
    return None


def uvtt(plan: FloorPlan, *, png: bytes, barred: set, name: str, seed: int, outlines: dict | None = None,
         pixels_per_grid: int = PIXELS_PER_GRID, kinds: dict | None = None) -> dict:
    """The .dd2vtt document: `png` is the map drawn at `pixels_per_grid` (plan.width × plan.height squares);
    `outlines` are drawn room outlines to wall instead of rectangles (caves)."""
    return {
        "format": FORMAT,
        "resolution": {"map_origin": _point(0, 0), "map_size": _point(plan.width, plan.height),
                       "pixels_per_grid": pixels_per_grid},
        "line_of_sight": [[_point(*p) for p in line] for line in walls(plan, outlines)],
        "objects_line_of_sight": [],
        "portals": portals(plan, barred, kinds),
        "environment": {"baked_lighting": True, "ambient_light": "ffffffff"},
        "lights": [],
        "image": base64.b64encode(png).decode("ascii"),
        "dungeonpress": {"name": name, "seed": seed, "entrance": entrance(plan), "entrance_room": plan.entrance,
                         "stairs_room": plan.stairs},
    }
