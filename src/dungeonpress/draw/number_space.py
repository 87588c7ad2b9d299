"""Give a room's number room where its figures fill a square: the number's box, the room's marks and floor → the
number on the clearest spot and the marks that still crowd it drawn smaller, away from it.

Large print on a small map (the A7 zine's 9 pt over squares 2.5 mm wide) sets a figure as tall as a
square, so a mark in the next square came within a fraction of a millimetre of it. The number first
moves to the spot of the room that leaves it most room (up to ROOM), nearest where it stood; what still
stands closer is drawn smaller (down to SMALLEST), shrunk toward its own far side, so it keeps its place
and every box stays inside the one the mark had (inside the floor, off the other marks).
"""

from __future__ import annotations

import math

from dungeonpress.draw.free_floor import Furnishing
from dungeonpress.draw.geometry import Region, num, segment_distance
from dungeonpress.draw.pen import UNIT

ROOM_MM = 0.6    # the printed gap a number is given from any mark, where the room has it
SMALLEST = 0.7   # a crowding mark is drawn no smaller than this share of its size
FIXED = ("columns", "cracks", "ritual")  # pillars stand on their crossings, cracks run along the wall, a ring is the
# number's to stand beside: none is moved or shrunk


def give_number_room(number_box: tuple, floor, items: list, doors: list, mm_per_cell: float) -> tuple:
    """(number box, items) with the number on the clearest spot and the marks still closer than ROOM_MM shrunk.

    `doors` are the threshold boxes inside the room's doors: a number keeps off them where it can.
    """
    room = ROOM_MM / mm_per_cell
    number_box = _clearest(number_box, floor, items, doors, room)
    return number_box, [_shrunk(item, number_box, room) for item in items]


def gap(a: tuple, b: tuple) -> float:
    """The distance between boxes `a` and `b` (0 where they touch or overlap)."""
    dx = max(b[0] - a[2], a[0] - b[2], 0.0)
    dy = max(b[1] - a[3], a[1] - b[3], 0.0)
    return math.hypot(dx, dy)


def _room_left(box, floor, items, room: float) -> float:
    """How much room `box` leaves round it, up to `room`: its gap to the nearest mark, or twice its gap to the wall."""
    corners = ((box[0], box[1]), (box[2], box[1]), (box[2], box[3]), (box[0], box[3]))
    marks = min((gap(box, item.box) for item in items if item.mark != "cracks"), default=room)
    return min(room, marks, 2 * min(_to_wall(c, floor) for c in corners))


def _to_wall(point, floor) -> float:
    n = len(floor)
    return min(segment_distance(point, floor[i], floor[(i + 1) % n]) for i in range(n))


def _clearest(number_box, floor, items, doors, room: float) -> tuple:
    """The spot (on a grid of eighths of a square) leaving the number the most room, off the thresholds where it can,
    nearest where it stood; the number stays put where it already has `room`."""
    if _room_left(number_box, floor, items, room) >= room:
        return number_box
    hx, hy = (number_box[2] - number_box[0]) / 2, (number_box[3] - number_box[1]) / 2
    cx, cy = (number_box[0] + number_box[2]) / 2, (number_box[1] + number_box[3]) / 2
    xs, ys = [p[0] for p in floor], [p[1] for p in floor]
    x0, y0, x1, y1 = min(xs), min(ys), max(xs), max(ys)
    region, marks = Region(floor), [item.box for item in items if item.mark != "cracks"]
    spots = []  # (the spot's rank with the most room it can leave: its room from the marks; its box)
    for i in range(int((x1 - x0) * 8) + 1):
        for j in range(int((y1 - y0) * 8) + 1):
            x, y = math.floor(x0) + i / 8, math.floor(y0) + j / 8
            box = (x - hx, y - hy, x + hx, y + hy)
            # a point lies inside the floor only within its bounds, the far sides left out (as ray casting counts)
            if not (x0 <= box[0] and box[2] < x1 and y0 <= box[1] and box[3] < y1):
                continue
            to_marks = min((gap(box, mark) for mark in marks), default=room)
            if to_marks > 0:
                spots.append(((-round(min(room, to_marks), 6), any(gap(box, d) == 0 for d in doors),
                               round(math.hypot(x - cx, y - cy), 9), y, x), box))
    # The room a spot leaves is at most its room from the marks (the bound its rank starts with). Spots are measured
    # in the order of their ranks with that bound: the first whose walls leave it its bound is the best of all, and
    # once the bound falls below the best room found the rest cannot reach it. Measuring the walls is the slow
    # part; the spot found is the one measuring every spot gives.
    best = None
    for (bound, *rest), box in sorted(spots):
        if best is not None and bound > best[0][0]:
            break
        if not all(region.contains(corner) for corner in ((box[0], box[1]), (box[2], box[1]), (box[2], box[3]),
                                                          (box[0], box[3]))):
            continue  # off the floor (a cave's bay, a round room's curve)
        rank = (-round(_room_left(box, floor, items, room), 6), *rest)
        if best is None or rank < best[0]:
            best = (rank, box)
        if rank[0] == bound:
            break
    here = (-round(_room_left(number_box, floor, items, room), 6), False)
    return best[1] if best is not None and best[0][:1] < here[:1] else number_box


def _shrunk(item: Furnishing, number_box: tuple, room: float) -> Furnishing:
    """`item` drawn smaller toward its far side from the number until it leaves the number `room` (or is SMALLEST)."""
    if item.mark in FIXED or gap(item.box, number_box) >= room:
        return item
    x0, y0, x1, y1 = item.box
    ncx, ncy = (number_box[0] + number_box[2]) / 2, (number_box[1] + number_box[3]) / 2
    # Along each axis, the far edge where the mark lies beyond the number that way, else its own middle.
    ax = x1 if x0 >= number_box[2] - 1e-9 else x0 if x1 <= number_box[0] + 1e-9 else (x0 + x1) / 2
    ay = y1 if y0 >= number_box[3] - 1e-9 else y0 if y1 <= number_box[1] + 1e-9 else (y0 + y1) / 2
    if (ax, ay) == ((x0 + x1) / 2, (y0 + y1) / 2):  # the mark stands over or under the number's whole width: no way
        ax = x1 if (x0 + x1) / 2 > ncx else x0  # to shrink it off; pull it toward the side it lies on
        ay = y1 if (y0 + y1) / 2 > ncy else y0
    scale = 1.0
    while scale > SMALLEST + 1e-9:
        scale = round(scale - 0.05, 2)
        box = (ax + (x0 - ax) * scale, ay + (y0 - ay) * scale, ax + (x1 - ax) * scale, ay + (y1 - ay) * scale)
        if gap(box, number_box) >= room:
            break
    box = (ax + (x0 - ax) * scale, ay + (y0 - ay) * scale, ax + (x1 - ax) * scale, ay + (y1 - ay) * scale)
    tx, ty = ax * UNIT * (1 - scale), ay * UNIT * (1 - scale)
    svg = f'<g transform="matrix({num(scale)} 0 0 {num(scale)} {num(tx)} {num(ty)})">{item.svg}</g>'
    return Furnishing(item.mark, box, svg)
