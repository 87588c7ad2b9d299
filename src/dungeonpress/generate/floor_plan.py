"""Lay rooms out on a grid: room specs (exits, size) and a seeded Random → a FloorPlan with doors and corridors.

How the plan grows (the rule for exits, printed in the README):

1. Every room sits in its own *slot* of a coarse grid, and passages only join rooms in
   orthogonally neighbouring slots. That keeps the map planar: corridors never cross each
   other or pass through a room, and each wall has at most one door.
2. A room's rolled exits are its doors, and the way in counts as one of them (the seed:
   "count the way you came in"). The entrance room's way in is the dungeon entrance.
3. Rooms are placed as a delver would find them: an open door whose far slot is free gets a
   room. That room is the first one (in rolled order) with exits enough to join every open
   door facing its slot, plus one onward if those are the last open doors; failing that, the
   room with the most exits. Two open doors that face each other join (a loop). A door that
   faces nothing usable when the rooms run out becomes a **dead end** (rubble), so every
   rolled exit is still drawn.
4. When every open door is used up but rooms remain, the dice cannot make a connected
   dungeon: the room with the fewest doors (the latest placed on a tie) **breaks through**
   one extra door. This is the only way a room gets more doors than it rolled, and the key
   says so.
5. The boss room goes last, behind an open door of a room at the greatest depth (one breaks
   through if none is open), so it is strictly the deepest room; it only loops back to rooms
   at that same depth.
6. Rooms are numbered breadth-first from the entrance, so numbers grow with depth.
"""

from __future__ import annotations

import math
import random
from collections import deque

from dungeonpress.dice import d, pick, shuffled
from dungeonpress.model.plan import OUTSIDE, Corridor, Door, FloorPlan, PlacedRoom

SIDES = ("N", "E", "S", "W")
STEP = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}
ENTRANCE_SIDE = "S"  # the way in comes up from the bottom edge of the map

# Free cells around a room inside its slot. Rooms of neighbouring slots are at least
# BEFORE + AFTER = 3 cells apart, so a corridor bending in the gap has a free cell on both sides.
BEFORE, AFTER = 1, 2
PAD, ENTRY_PAD = 1, 3  # cells around the whole map; the bottom leaves room for the entrance arrow
STUB = 1.2  # a dead end's length in cells: two facing dead ends still stop 0.6 cells apart
ATTEMPTS = 200  # fresh tries when the boss cannot be made strictly deepest (rare)

_OPEN, _DEAD, _OUT = "open", "dead", "outside"


def plan_floor(specs: list, rng: random.Random) -> FloorPlan:
    """Place `specs` (at most one with boss=True) on a grid; same specs and rng state → same FloorPlan."""
    if len(specs) < 2:
        raise ValueError(f"a dungeon needs at least 2 rooms (got {len(specs)})")
    if sum(1 for s in specs if s.boss) > 1:
        raise ValueError("a dungeon has at most one boss room")
    cols, rows = grid_size(len(specs))
    for _ in range(ATTEMPTS):
        plan = _grow(specs, rng, cols, rows)
        if plan is not None:
            return _geometry(plan, specs, rng)
    raise RuntimeError(f"could not lay out {len(specs)} rooms with the boss deepest")  # a bug, not content


def grid_size(count: int) -> tuple[int, int]:
    """Slots across and down for `count` rooms: a little taller than wide, like the page it prints on."""
    cols = math.ceil(math.sqrt(count)) + 1
    return cols, cols + 1


class _Plan:
    """Rooms in slots and what each of their doors leads to, while the dungeon grows."""

    def __init__(self, specs, cols: int, rows: int):
        self.specs, self.cols, self.rows = specs, cols, rows
        self.slot = {}   # spec index → (col, row)
        self.at = {}     # (col, row) → spec index
        self.doors = {}  # spec index → {side: spec index | _OPEN | _DEAD | _OUT}
        self.extra = {}  # spec index → sides added by breaking through
        self.order = []  # spec indices in the order they were placed

    def neighbour(self, index: int, side: str):
        """The slot beyond `side` of room `index`, or None when it lies outside the grid."""
        col, row = self.slot[index]
        dc, dr = STEP[side]
        target = (col + dc, row + dr)
        return target if 0 <= target[0] < self.cols and 0 <= target[1] < self.rows else None

    def _rank(self, index: int, side: str, may_loop) -> int:
        """0: a neighbour's open door faces this side; 1: a free slot lies beyond; 2: nothing usable."""
        target = self.neighbour(index, side)
        if target is None:
            return 2
        other = self.at.get(target)
        if other is None:
            return 1
        return 0 if self.doors[other].get(OPPOSITE[side]) == _OPEN and may_loop(other) else 2

    def place(self, index: int, slot, entry_side: str, came_from, rng, may_loop=lambda other: True) -> None:
        """Put room `index` in `slot`, entered through `entry_side`; its other rolled exits become open doors."""
        self.slot[index] = slot
        self.at[slot] = index
        self.doors[index] = {entry_side: came_from}
        self.extra[index] = set()
        self.order.append(index)
        others = [side for side in SIDES if side != entry_side]
        # Doors first where a neighbour's open door already faces us (a loop, so neither is wasted),
        # then toward free slots, then the rest; random among equals so maps vary.
        ranked = sorted(shuffled(rng, others), key=lambda side: self._rank(index, side, may_loop))
        wanted = max(0, min(self.specs[index].exits, 4) - 1)
        for side in ranked[:wanted]:
            self.doors[index][side] = _OPEN
            target = self.neighbour(index, side)
            other = self.at.get(target) if target else None
            if other is not None and self.doors[other].get(OPPOSITE[side]) == _OPEN and may_loop(other):
                self.doors[index][side] = other  # two open doors face each other: a loop
                self.doors[other][OPPOSITE[side]] = index

    def facing(self, slot) -> list:
        """Open doors of placed rooms that face the free `slot`: (room, side)."""
        return [(index, side) for index, side in self.frontier() if self.neighbour(index, side) == slot]

    def frontier(self, rooms=None) -> list:
        """Open doors whose far slot is free: (room, side), in placement order."""
        out = []
        for index in rooms if rooms is not None else self.order:
            for side in SIDES:
                target = self.neighbour(index, side) if self.doors[index].get(side) == _OPEN else None
                if target is not None and target not in self.at:
                    out.append((index, side))
        return out

    def break_through(self, rooms):
        """Open one extra door toward a free slot: fewest doors first, then the latest placed. None if boxed in."""
        best = None
        for position, index in enumerate(self.order):
            if index not in rooms:
                continue
            for side in SIDES:
                target = self.neighbour(index, side)
                if side in self.doors[index] or target is None or target in self.at:
                    continue
                rank = (len(self.doors[index]), -position)
                if best is None or rank < best[0]:
                    best = (rank, index, side)
        if best is None:
            return None
        _, index, side = best
        self.doors[index][side] = _OPEN
        self.extra[index].add(side)
        return index, side

    def depths(self) -> dict:
        """Steps from the entrance room to every room, through doors that join rooms."""
        start = self.order[0]
        depth = {start: 0}
        queue = deque([start])
        while queue:
            index = queue.popleft()
            for side in SIDES:
                other = self.doors[index].get(side)
                if isinstance(other, int) and other not in depth:
                    depth[other] = depth[index] + 1
                    queue.append(other)
        return depth

    def grow_into(self, index: int, side: str, new: int, rng, may_loop=lambda other: True) -> None:
        """Place room `new` beyond the open door `side` of room `index`."""
        self.place(new, self.neighbour(index, side), OPPOSITE[side], index, rng, may_loop)
        self.doors[index][side] = new


def _grow(specs, rng, cols: int, rows: int):
    """Grow the slot plan room by room; None when the boss could not be put strictly deepest."""
    plan = _Plan(specs, cols, rows)
    boss = [i for i, spec in enumerate(specs) if spec.boss]
    others = [i for i in range(len(specs)) if i not in boss]
    # The entrance is the first rolled room with a way onward; its way in is one of its exits.
    first = next((i for i in others if specs[i].exits >= 2), others[0])
    others.remove(first)
    plan.place(first, (cols // 2, rows - 1), ENTRANCE_SIDE, _OUT, rng)

    while others:
        frontier = plan.frontier() or [plan.break_through(plan.order)]
        index, side = pick(rng, frontier)
        # Which room goes there: the first (in rolled order) with exits enough to take every
        # open door facing the slot, plus one onward if those are the last open doors; else the
        # room with the most exits. A door left facing a room without one becomes a dead end.
        facing = plan.facing(plan.neighbour(index, side))
        wanted = len(facing) + (1 if len(frontier) == len(facing) and len(others) > 1 else 0)
        new = next((i for i in others if specs[i].exits >= wanted), max(others, key=lambda i: specs[i].exits))
        others.remove(new)
        plan.grow_into(index, side, new, rng)

    if boss:
        depth = plan.depths()
        deepest = max(depth.values())
        at_bottom = [i for i in plan.order if depth[i] == deepest]
        frontier = plan.frontier(at_bottom)
        if not frontier:
            opened = plan.break_through(at_bottom)
            if opened is None:
                return None
            frontier = [opened]
        index, side = pick(rng, frontier)
        # Loops from the boss room only to rooms as deep as its way in, so none is a shortcut.
        plan.grow_into(index, side, boss[0], rng, may_loop=lambda other: depth[other] == deepest)

    for doors in plan.doors.values():
        for side, target in doors.items():
            if target == _OPEN:
                doors[side] = _DEAD  # rooms ran out before this passage found one
    return plan


def _numbering(plan: _Plan) -> list:
    """Spec indices in key order: breadth-first from the entrance, neighbours clockwise from north."""
    order, seen = [], {plan.order[0]}
    queue = deque([plan.order[0]])
    while queue:
        index = queue.popleft()
        order.append(index)
        for side in SIDES:
            other = plan.doors[index].get(side)
            if isinstance(other, int) and other not in seen:
                seen.add(other)
                queue.append(other)
    return order


def _geometry(plan: _Plan, specs, rng) -> FloorPlan:
    """Turn the slot plan into cell rectangles, door points and corridor polylines."""
    # 1. Room sizes (long rooms may lie either way), then column widths and row heights from them.
    numbers = {index: n for n, index in enumerate(_numbering(plan), start=1)}
    size = {}
    for index in plan.order:
        w, h = specs[index].width, specs[index].height
        size[index] = (h, w) if w != h and d(rng, 2) == 2 else (w, h)
        if specs[index].shape == "round" and w != h:
            # A shrine's altar stands at the wall across from its way in: that wall is the long one, so a
            # door through it (kept off the rounded corners) still leaves the altar a square of it.
            long, short = max(w, h), min(w, h)
            size[index] = (long, short) if _way_in(plan, index, numbers) in ("N", "S") else (short, long)
        elif min(w, h) == 2 and w != h:
            # A hallway two squares wide turns its long walls to its doors where it can: a passage a square wide
            # through a two-square end runs flush with one of its walls.
            sides = plan.doors[index]
            across = sum(1 for side in sides if side in ("N", "S")) - sum(1 for side in sides if side in ("E", "W"))
            long, short = max(w, h), min(w, h)
            if across:
                size[index] = (long, short) if across > 0 else (short, long)
    cols = sorted({c for c, _ in plan.at})
    rows = sorted({r for _, r in plan.at})
    col_w = {c: max(size[i][0] for (cc, _), i in plan.at.items() if cc == c) + BEFORE + AFTER for c in cols}
    row_h = {r: max(size[i][1] for (_, rr), i in plan.at.items() if rr == r) + BEFORE + AFTER for r in rows}
    col_x, x = {}, PAD
    for c in cols:
        col_x[c], x = x, x + col_w[c]
    row_y, y = {}, PAD
    for r in rows:
        row_y[r], y = y, y + row_h[r]
    width, height = x + PAD, y + ENTRY_PAD

    # 2. Each room somewhere inside its slot, keeping the margins free for corridors.
    rect = {}
    for index in plan.order:
        c, r = plan.slot[index]
        w, h = size[index]
        ox = BEFORE + int(rng.random() * (col_w[c] - w - BEFORE - AFTER + 1))
        oy = BEFORE + int(rng.random() * (row_h[r] - h - BEFORE - AFTER + 1))
        rect[index] = (col_x[c] + ox, row_y[r] + oy, w, h)

    # 3. Doors and corridors: neighbours share one door cell when their walls overlap (a straight corridor).
    door_at, corridors = {}, []
    for index in plan.order:
        for side in SIDES:
            target = plan.doors[index].get(side)
            if isinstance(target, int) and side in ("E", "S"):
                corridors.append(_join(index, side, target, rect, door_at, numbers, col_x, row_y, plan, rng))
            elif target in (_DEAD, _OUT):
                corridors.append(_stub(index, side, target, rect, door_at, numbers, height, rng))

    # 4. Rooms in key order, with depth and doors.
    depth = plan.depths()
    placed = []
    for index in sorted(numbers, key=numbers.get):
        doors = []
        for side in SIDES:
            if side not in plan.doors[index]:
                continue
            target = plan.doors[index][side]
            to = numbers[target] if isinstance(target, int) else OUTSIDE if target == _OUT else None
            px, py = door_at[(index, side)]
            doors.append(Door(side, px, py, to, extra=side in plan.extra[index]))
        x0, y0, w, h = rect[index]
        placed.append(PlacedRoom(numbers[index], index, x0, y0, w, h, depth[index], tuple(doors), specs[index].shape))
    connections = sorted({tuple(sorted((c.start, c.end))) for c in corridors if c.end})
    boss = next((numbers[i] for i, spec in enumerate(specs) if spec.boss), None)
    # The stairs down: behind the boss when there is one (it guards the way on), else the deepest room.
    stairs = boss if boss is not None else max(placed, key=lambda room: (room.depth, room.number)).number
    corridors.sort(key=lambda c: (c.start, c.end if c.end is not None else -1, c.points))
    return FloorPlan(tuple(placed), tuple(connections), tuple(corridors), entrance=1, stairs=stairs, boss=boss,
                  width=width, height=height)


def _way_in(plan: _Plan, index: int, numbers: dict) -> str:
    """The side of room `index` a delver comes in by: the entrance, else its door to the lowest-numbered room."""
    def rank(side):
        target = plan.doors[index][side]
        return 0 if target == _OUT else numbers[target] if isinstance(target, int) else len(numbers) + 1
    return min(plan.doors[index], key=rank)


def _cells(rect, side: str) -> range:
    """The cell offsets along the wall on `side` a door may take: never a corner cell where the wall has three or more.

    A door in a corner cell puts its passage flush with the next wall, so the passage reads as that
    wall running on (and a round room's wall curves away there): doors sit mid-wall, and each passage
    leaves its wall straight out, a square clear of the corner. A two-cell wall has only corner cells.
    """
    _, _, w, h = rect
    length = w if side in ("N", "S") else h
    return range(1, length - 1) if length >= 3 else range(length)


def _door_point(rect, side: str, cell: float, centred: bool = True) -> tuple:
    """The middle of the door's cell on the wall; on a wall two squares long (a hallway's end), the wall's middle:
    a passage a square wide leaves it centred, not flush with one of its walls (`centred` False: the cell's)."""
    x, y, w, h = rect
    if centred and (w if side in ("N", "S") else h) == 2:
        cell = 0.5
    return {"N": (x + cell + 0.5, y), "S": (x + cell + 0.5, y + h),
            "W": (x, y + cell + 0.5), "E": (x + w, y + cell + 0.5)}[side]


def _join(a, side, b, rect, door_at, numbers, col_x, row_y, plan, rng) -> Corridor:
    """Corridor from room a's east (or south) wall to room b: straight when the walls overlap, else one jog."""
    ra, rb = rect[a], rect[b]
    axis = 1 if side == "E" else 0  # the coordinate along the wall
    lo = max(ra[axis], rb[axis])
    hi = min(ra[axis] + ra[axis + 2], rb[axis] + rb[axis + 2])
    cells_a, cells_b = _cells(ra, side), _cells(rb, OPPOSITE[side])
    shared = [c for c in range(lo, hi) if c - ra[axis] in cells_a and c - rb[axis] in cells_b]
    if shared:  # a cell both walls may open: a straight passage
        at = pick(rng, shared)
        ca, cb = at - ra[axis], at - rb[axis]
    else:
        ca, cb = pick(rng, cells_a), pick(rng, cells_b)
    pa, pb = _door_point(ra, side, ca), _door_point(rb, OPPOSITE[side], cb)
    if shared and pa[axis] != pb[axis]:  # a hallway's centred end: the passage runs on straight from it when the
        for p, r, q, other_side in ((pa, rb, "b", OPPOSITE[side]), (pb, ra, "a", side)):  # other wall has room
            if r[axis] + 1 <= p[axis] - 0.5 and p[axis] + 0.5 <= r[axis] + r[axis + 2] - 1:
                moved = _door_point(r, other_side, p[axis] - r[axis] - 0.5)
                pa, pb = (pa, moved) if q == "b" else (moved, pb)
                break
    if 0 < abs(pa[axis] - pb[axis]) < 1:  # a jog of half a square: the other door a square further off, if it may
        pa, pb = _wider_jog(pa, pb, ra, rb, side, axis)
    if shared and 0 < abs(pa[axis] - pb[axis]) < 1:  # else the other door half a square off its wall's middle
        pa, pb = _meet_centred_end(pa, pb, ra, rb, side, axis, plan, a, b)
    if 0 < abs(pa[axis] - pb[axis]) < 1:  # else (a shrine's curved wall) the hallway's door in its cell: flush, no kink
        pa, pb = _door_point(ra, side, ca, centred=False), _door_point(rb, OPPOSITE[side], cb, centred=False)
    door_at[(a, side)], door_at[(b, OPPOSITE[side])] = pa, pb
    if pa[axis] == pb[axis]:  # straight across
        points = [pa, pb]
    elif side == "E":  # the jog runs down the middle cell of the gap before b's column
        bend = col_x[plan.slot[b][0]] - 0.5
        points = [pa, (bend, pa[1]), (bend, pb[1]), pb]
    else:
        bend = row_y[plan.slot[b][1]] - 0.5
        points = [pa, (pa[0], bend), (pb[0], bend), pb]
    start, end = sorted((numbers[a], numbers[b]))
    if numbers[a] > numbers[b]:
        points.reverse()
    return Corridor(start, end, _simplify(points))


def _wider_jog(pa, pb, ra, rb, side, axis) -> tuple:
    """(pa, pb) with the door that is not a hallway's centred end moved a square further from the other, when its wall
    allows that cell: a passage's jog of half a square reads as a kink, one and a half as a bend."""
    for p, q, r, wall in ((pb, pa, rb, OPPOSITE[side]), (pa, pb, ra, side)):
        if (r[2] if wall in ("N", "S") else r[3]) == 2:
            continue
        cell = p[axis] - r[axis] - 0.5 + (1 if p[axis] > q[axis] else -1)
        if cell in _cells(r, wall):
            moved = _door_point(r, wall, cell)
            return (pa, moved) if p is pb else (moved, pb)
    return pa, pb


def _meet_centred_end(pa, pb, ra, rb, side, axis, plan, a, b) -> tuple:
    """(pa, pb) with the door across from a hallway's centred end moved onto the grid line half a square from where
    it stood, so the passage runs straight from the end's middle: the door keeps half a square of wall to its nearer
    corner (on a wall three long its middle cell is the only one a square clear of both). A shrine's wall curves
    there, so its door stays put."""
    for p, q, r, wall, index in ((pb, pa, rb, OPPOSITE[side], b), (pa, pb, ra, side, a)):
        length = r[2] if wall in ("N", "S") else r[3]
        if length == 2 or plan.specs[index].shape == "round":
            continue
        if r[axis] + 0.5 <= q[axis] - 0.5 and q[axis] + 0.5 <= r[axis] + length - 0.5:
            moved = _door_point(r, wall, q[axis] - r[axis] - 0.5)
            return (pa, moved) if p is pb else (moved, pb)
    return pa, pb


def _stub(index, side, target, rect, door_at, numbers, height, rng) -> Corridor:
    """A dead-end passage one cell long, or the entrance passage running to the bottom edge."""
    cell = pick(rng, _cells(rect[index], side))
    point = _door_point(rect[index], side, cell)
    door_at[(index, side)] = point
    if target == _OUT:
        return Corridor(numbers[index], OUTSIDE, (point, (point[0], float(height))))
    dx, dy = STEP[side]
    return Corridor(numbers[index], None, (point, (point[0] + dx * STUB, point[1] + dy * STUB)))


def _simplify(points) -> tuple:
    """Drop repeated points and points in the middle of a straight run."""
    out = []
    for point in points:
        point = (float(point[0]), float(point[1]))
        if out and out[-1] == point:
            continue
        if len(out) >= 2 and (out[-2][0] == out[-1][0] == point[0] or out[-2][1] == out[-1][1] == point[1]):
            out[-1] = point
            continue
        out.append(point)
    return tuple(out)
