"""What stands down a room's middle: a FreeFloor → Furnishings for a pillared hall's colonnades (pillars on the
grid's crossings, half-pillars where each row meets the end walls) and the marks in the nave between them, and a
ritual space's altar in its ring."""

from __future__ import annotations

from dungeonpress.draw import small_marks
from dungeonpress.draw.free_floor import INWARD, KEEP_OFF, FreeFloor, Furnishing, overlaps

NAVE = {"water": 1, "crates": 2, "furniture": 1, "statues": 2, "broken_statues": 2, "rubble": 2}  # how many of each
NAVE_POOL = (1.6, 0.7)  # a pool in the nave: along it, across it (in cells), clear of the pillars either side


def in_nave(room: FreeFloor, mark: str, items: list) -> bool:
    """Put `mark` on the nave's middle line, its ends first, clear of the number, the doors and what stands there.

    The nave is the floor between a pillared hall's two rows (one square in from each long wall), two squares wide or
    more: a pool lies along it, the others take a square's width each. False when the hall has no such nave or no
    spot in it is clear (the mark then goes where it would in any room)."""
    p = room.placed
    long_x = p.w >= p.h
    length, span = (p.w, p.h) if long_x else (p.h, p.w)
    if span < 4 or room.floor != _rectangle(p):
        return False
    start, mid = (p.x, p.y + span / 2) if long_x else (p.y, p.x + span / 2)
    middle = start + length / 2
    halves = [start + k + 0.5 for k in range(length)]  # a square's middle along the nave
    tries = [(NAVE_POOL, [start + a for a in range(1, length)]), ((0.8, NAVE_POOL[1]), halves)] if mark == "water" \
        else [((0.8, 0.8), halves)]
    placed = []
    for (long, wide), spots in tries:
        for at in sorted(spots, key=lambda a: (-abs(a - middle), a)):
            lo = (at - long / 2, mid - wide / 2, at + long / 2, mid + wide / 2)
            box = lo if long_x else (lo[1], lo[0], lo[3], lo[2])
            if any(overlaps(box, b, KEEP_OFF) for b in room.boxes):
                continue
            before = set(room.free)
            room.block(*box)
            room.nave |= before - set(room.free)
            if mark == "water":  # the pool's bank fills the box: pool keeps 0.12 inside the block it is given
                placed.append(Furnishing("water", *small_marks.pool(box[0] - 0.12, box[1] - 0.12, box[2] - box[0] + 0.24,
                                                                   box[3] - box[1] + 0.24, room.rng)))
            else:
                placed.append(Furnishing(mark, *small_marks.draw_small(mark, box[0], box[1], 0.8, room.rng)))
            if len(placed) == NAVE[mark]:
                break
        if placed:
            break
    items.extend(placed)
    room.drawn.extend(item.box for item in placed)
    return bool(placed)


def columns(room: FreeFloor) -> list:
    p = room.placed
    long_x = p.w >= p.h
    length, span = (p.w, p.h) if long_x else (p.h, p.w)
    if span < 2 or length < 2:
        return []
    points = []
    for a in range(1, length):  # a pillar at every crossing along the row: a colonnade
        for b in sorted({1, span - 1}):  # a narrow room (span 2): one row down its middle
            points.append((p.x + a, p.y + b) if long_x else (p.x + b, p.y + a))
    def clear(px, py):  # the four cells round a crossing are free floor: not number, stairs or threshold
        around = [(px - 1, py - 1), (px, py - 1), (px - 1, py), (px, py)]
        r = small_marks.PILLAR[1] + 0.04  # a pillar's base and a hair: it never touches a mark drawn before it
        return sum(1 for c in around if c in room.free or c in room.nave) >= 2 and not any(  # nor the room's number
            overlaps((px - r, py - r, px + r, py + r), b) for b in room.drawn + [room.number])

    def column(px, py):
        r = small_marks.PILLAR[1]
        return Furnishing("columns", (px - r, py - r, px + r, py + r), small_marks.pillar(px, py))

    # Columns come in symmetric sets: one stands only if its mirror images could stand too.
    items = [column(px, py) for px, py in points
             if all(clear(qx, qy) for qx, qy in ((px, py), (2 * p.x + p.w - px, py), (px, 2 * p.y + p.h - py),
                                                 (2 * p.x + p.w - px, 2 * p.y + p.h - py)))]
    if items and room.floor == _rectangle(p):  # whole rows in a straight-walled hall: each row ends in the walls
        items += _pilasters(room, items, long_x)
    if not items:  # the other marks broke every symmetric set: the row with most crossings still clear
        rows = {}
        for px, py in points:
            if clear(px, py):
                rows.setdefault(py if long_x else px, []).append(column(px, py))
        items = max(rows.values(), key=len, default=[])
    for item in items:
        x0, y0, x1, y1 = item.box
        room.block(x0, y0, x1, y1)
    return items


def _rectangle(p) -> tuple:
    return ((p.x, p.y), (p.x + p.w, p.y), (p.x + p.w, p.y + p.h), (p.x, p.y + p.h))


PILASTER_CLEAR = 0.85  # a pilaster's middle keeps this far along the wall from a door's middle (off its mouth)


def _pilasters(room: FreeFloor, pillars, long_x: bool) -> list:
    """Half-pillars set in the two end walls where each row of pillars meets them, when no door or mark is in the way."""
    p = room.placed
    r = small_marks.PILASTER
    rows = sorted({(item.box[1] + item.box[3]) / 2 if long_x else (item.box[0] + item.box[2]) / 2 for item in pillars})
    ends = (("W", p.x), ("E", p.x + p.w)) if long_x else (("N", p.y), ("S", p.y + p.h))
    out = []
    for side, at in ends:
        for row in rows:
            x, y = (at, row) if long_x else (row, at)
            if any(door.side == side and abs((door.y if long_x else door.x) - row) < PILASTER_CLEAR for door in p.doors):
                continue
            dx, dy = INWARD[side]
            box = (min(x, x + dx * r), y - r, max(x, x + dx * r), y + r) if long_x else \
                (x - r, min(y, y + dy * r), x + r, max(y, y + dy * r))
            if any(overlaps(box, b) for b in room.drawn):
                continue
            out.append(Furnishing("columns", box, small_marks.pilaster(x, y, side)))
    return out if len(out) == 2 * len(rows) else []  # every row ends in both walls, or none does: no stray bump


RINGS = (1.0, 0.85, 0.7, 0.0)  # a ritual ring's radii round its altar, in cells, tried widest first (0: the slab alone)
RING_CANDLES = 5


def ritual(room: FreeFloor, radius: float) -> list:
    """A ritual space: a stone altar in the middle of the room, a ring of `radius` cut in the floor round it with
    candles on it, and floor all round (nothing else stands inside the ring); [] when the ring does not fit there.
    The slab's long side faces the way in."""
    way_in = min(room.placed.doors, key=lambda door: door.to if door.to is not None else 99, default=None)
    across = way_in is None or way_in.side in ("N", "S")
    box, svg = small_marks.ritual(*room.centre, radius, across, RING_CANDLES)
    if radius and not (room.holds(box) and not any(overlaps(box, b) for b in room.boxes)):
        return []
    room.block(*box)
    return [Furnishing("ritual", box, svg)]
