"""Furnish one room: a RoomLook, the placed room and a seeded Random → Furnishings (name, box in cells, SVG) in it.

Marks take whole free cells, so they never sit on the room number, the stairs, or a door's
threshold; columns stand on grid crossings. Every mark's box lies inside the room's floor.
Every mark the key states is drawn: columns go last (they fill a hall), and a mark that finds
no whole cell free is drawn smaller in a gap between the others (the generator gives a room
with many marks floor enough for that).
"""

from __future__ import annotations

import math

from dungeonpress.draw import small_marks
from dungeonpress.draw.free_floor import INWARD, KEEP_OFF, FreeFloor, Furnishing, overlaps
from dungeonpress.draw.pen import u
from dungeonpress.draw.room_middle import NAVE, RINGS, columns, in_nave, ritual


def furnish(room: FreeFloor, look) -> list:
    """Items for every mark of the room: at full size where whole cells are free, else smaller between the others.

    A mark that finds no spot at all is missing from the list: the map check (tests) counts those.
    """
    items = []
    # Columns last: a row of them takes every crossing they stand on, and they can thin out for the others.
    marks = sorted(look.marks, key=lambda mark: (mark not in ("altar", "ritual"), mark == "columns"))
    room.alone = len(marks) == 1  # the room's only mark may take more of its floor (a storeroom's crates)
    # A ritual space's altar stands in the middle with its ring round it, before anything else; the number then
    # takes the clear spot nearest the middle.
    if marks[:1] == ["ritual"]:
        marks.pop(0)
        room.clear_middle()
        for radius in RINGS:  # the widest ring that leaves the number a spot beside it
            kept = (list(room.boxes), list(room.free))
            ring = ritual(room, radius)
            if ring and (room.place_number(ring) or not radius):
                break
            room.boxes, room.free = kept
        items.extend(ring)
        room.drawn.extend(item.box for item in ring)
        if room.number not in room.boxes:  # no spot clear even beside the slab alone: just over it
            nx, ny = room.number_half
            cx, top = room.centre[0], ring[0].box[1] - 0.05
            room.number = (cx - nx, top - 2 * ny, cx + nx, top)
            room.block(*room.number)
    # The stairs, then the lair, then the marks; but in a room with an altar the lair, the altar, then the stairs:
    # the key sets the altar at one wall, whose only free square the stairs took (the stairs always find a spot).
    altar = marks[:1] == ["altar"]
    if look.boss and altar:
        _lair(room, items)
    if altar:
        marks.pop(0)
        kept = (list(room.boxes), list(room.free))
        slab = _altar(room, far_only=True)
        if not slab:  # the number (as printed, in a narrow shrine) keeps the far wall's squares: it moves off the middle
            room.boxes, room.free = kept
            room.clear_middle()
            slab = _altar(room, far_only=True)
            if not (slab and room.place_number(slab)):
                room.boxes, room.free = kept
                slab = _altar(room)
        items.extend(slab)
        room.drawn.extend(item.box for item in slab)
    if look.stairs:
        items.append(_stairs(room))
        room.drawn.append(items[-1].box)
    if look.boss and not altar:
        _lair(room, items)
    # In a pillared hall the other things stand in the nave between its two rows of pillars, so both rows stand.
    hall = "columns" in marks
    for mark in marks:
        if not (hall and mark in NAVE and in_nave(room, mark, items)):
            _place(room, mark, items)
    return items


def _lair(room: FreeFloor, items: list) -> None:
    """The boss's skull in the free cell nearest the middle, else any spot it fits."""
    cells = room.by_corner()
    if cells:
        items.append(_skull(room.take(cells[-1])))
        room.drawn.append(items[-1].box)
        return
    for size in (0.8, 0.6, 0.45):  # no whole square free: the largest spot left, the skull drawn to fit it
        at = room.spot(size)
        if at:
            k = size / 0.8
            items.append(_skull((at[0] + size / 2 - 0.5, at[1] + size / 2 - 0.45), k))
            room.drawn.append(items[-1].box)
            return


def _place(room: FreeFloor, mark: str, items: list) -> None:
    """Place one mark (smaller between the others when no whole square is free) and add what was drawn to `items`."""
    placed = PLACERS[mark](room)
    if not placed and mark in small_marks.SMALL:
        placed = _squeezed(room, mark)
    items.extend(placed)
    room.drawn.extend(item.box for item in placed)


SQUEEZE = (0.7, 0.55, 0.42)  # sizes (in cells) tried, largest first, for a mark with no whole cell free


def _squeezed(room: FreeFloor, mark: str) -> list:
    """One small mark in the first free spot off the cell grid, nearest a corner; [] when even the smallest fits nowhere."""
    for size in SQUEEZE:
        at = room.spot(size)
        if at is not None:
            return [Furnishing(mark, *small_marks.draw_small(mark, at[0], at[1], size, room.rng))]
    return []


def _statues(room: FreeFloor) -> list:
    """Two statues in the corners: a figure seen from above (a five-pointed star) on a round plinth."""
    items = []
    for cell in room.by_corner()[:2]:
        room.take(cell)
        x, y = cell[0] + 0.5, cell[1] + 0.5
        items.append(Furnishing("statues", (x - 0.34, y - 0.34, x + 0.34, y + 0.34), small_marks.statue(x, y, 0.34)))
    return items


CORNER_TURN = {("N", "W"): 0, ("N", "E"): 1, ("S", "E"): 2, ("S", "W"): 3}  # a fallen statue's plinth to its corner


def _broken_statues(room: FreeFloor) -> list:
    """Two statues toppled and broken in the corners: each plinth against the corner's walls, the figure fallen from
    it across the square toward the room (the dice turn it where its square has no corner)."""
    items = []
    for cell in room.by_corner()[:2]:
        room.take(cell)
        walls = room.walls(cell)
        ns = next((w for w in walls if w in "NS"), None)
        ew = next((w for w in walls if w in "EW"), None)
        turn = CORNER_TURN.get((ns or "N", ew or ("W" if room.rng.random() < 0.5 else "E")))
        if ns is None:  # against a side wall only: the plinth on it, top or bottom as the dice say
            turn = CORNER_TURN[("N" if room.rng.random() < 0.5 else "S", ew or "W")]
        x, y = cell[0] + 0.5, cell[1] + 0.5
        items.append(Furnishing("broken_statues", (x - 0.4, y - 0.4, x + 0.4, y + 0.4),
                                small_marks.broken_statue(x, y, 0.8, turn, room.rng)))
    return items


def _water(room: FreeFloor) -> list:
    for w, h in ((2, 2), (2, 1), (1, 2), (1, 1)):
        for cell in room.by_corner():
            block = [(cell[0] + i, cell[1] + j) for i in range(w) for j in range(h)]
            if all(c in room.free for c in block):
                for c in block:
                    room.take(c)
                return [Furnishing("water", *small_marks.pool(cell[0], cell[1], w, h, room.rng))]
    at = room.spot(0.9)  # no whole square free: a smaller pool between the other marks
    return [Furnishing("water", *small_marks.pool(at[0] - 0.05, at[1] - 0.05, 1, 1, room.rng))] if at else []


def _altar(room: FreeFloor, far_only: bool = False) -> list:
    """An altar: a stone slab against the wall across from the way in, two squares long where two are free there."""
    way_in = min(room.placed.doors, key=lambda door: door.to if door.to is not None else 99, default=None)
    far = {"N": "S", "S": "N", "E": "W", "W": "E"}.get(way_in.side if way_in else "S")
    along = 0 if far in ("N", "S") else 1  # the coordinate that runs along the far wall
    middle = room.centre[along] - 0.5
    on_far = sorted((c for c in room.free if far in room.walls(c)), key=lambda c: (abs(c[along] - middle), c))
    pairs = sorted(((a, b) for a in on_far for b in on_far if b[along] == a[along] + 1),
                   key=lambda pair: (abs(pair[0][along] + 0.5 - middle), pair))
    if pairs:
        cells = list(pairs[0])
    elif on_far:
        cells = on_far[:1]
    elif (curved := _against_the_curve(room, far)) is not None:
        return [curved]
    elif far_only:
        return []
    else:  # no free square against the far wall: the wall square nearest the middle, on whichever wall it touches
        walled = sorted((c for c in room.by_corner() if room.walls(c)), key=lambda c: -room._far(c))
        if not walled:
            return []
        cells = walled[:1]
        far = room.walls(cells[0])[0]
    for cell in cells:
        room.take(cell)
    return [Furnishing("altar", *small_marks.altar_slab(cells, far))]


CRATE_FLOOR = 5  # a room's only mark, crates stack a pile for every this many free squares (two piles at least)


def _against_the_curve(room: FreeFloor, far: str):
    """An altar a square long on the room's middle line, as near the far wall as the floor lets it: a round shrine's
    far wall may curve away from every square along it. None when the middle line has no room for it."""
    p, (cx, cy) = room.placed, room.centre
    half, depth = 0.4, small_marks.SLAB_DEPTH
    start = {"N": p.y, "S": p.y + p.h, "W": p.x, "E": p.x + p.w}[far]
    inward = sum(INWARD[far])  # +1 from a north or west wall, -1 from a south or east one
    for k in range(int(min(p.w, p.h) / 2 / 0.05)):
        edge = start + inward * (small_marks.SLAB_OFF + k * 0.05)  # the slab's side toward the wall
        near, back = sorted((edge, edge + inward * depth))
        box = (cx - half, near, cx + half, back) if far in ("N", "S") else (near, cy - half, back, cy + half)
        if room.holds(box) and not any(overlaps(box, b, KEEP_OFF) for b in room.boxes):
            room.block(*box)
            return Furnishing("altar", box, small_marks.altar_in(box, far))
    return None


def _crates(room: FreeFloor) -> list:
    """Piles of crates in the corners, then along the walls, each a few boxes stacked askew, the top ones over the
    ones below: two, or in a room with nothing else (a storeroom) one for every CRATE_FLOOR free squares, up to four."""
    items = []
    piles = min(4, max(2, len(room.free) // CRATE_FLOOR)) if room.alone else 2
    cells = room.by_corner()
    for cell in cells[:2] + [c for c in cells[2:] if room.walls(c)][:piles - 2]:
        room.take(cell)
        items.append(Furnishing("crates", *small_marks.crate_pile(cell[0] + 0.1, cell[1] + 0.1, 0.8, room.rng)))
    return items


def _forge(room: FreeFloor) -> list:
    cells = [c for c in room.by_corner() if room.walls(c)]
    if not cells:
        return []
    hearth = room.take(cells[0])
    x, y = hearth[0] + 0.5, hearth[1] + 0.5
    # The hearth: a ring of stones round the fire, seen from above (eight stones, the coals in the middle).
    stones = "".join(f'M{u(x + math.cos(a) * 0.3)} {u(y + math.sin(a) * 0.3)}'
                     f'L{u(x + math.cos(a) * 0.4)} {u(y + math.sin(a) * 0.4)}'
                     for a in (k * math.pi / 4 for k in range(8)))
    items = [Furnishing("forge", (x - 0.4, y - 0.4, x + 0.4, y + 0.4),
                        f'<circle class="furniture" cx="{u(x)}" cy="{u(y)}" r="{u(0.4)}"/>'
                        f'<path class="detail" d="{stones}"/>'
                        f'<circle class="hearth" cx="{u(x)}" cy="{u(y)}" r="{u(0.22)}"/>')]
    if room.free:
        cell = room.take(room.by_corner()[0])
        ax, ay = cell[0] + 0.5, cell[1] + 0.5
        d = (f"M{u(ax - 0.35)} {u(ay - 0.15)}H{u(ax + 0.35)}L{u(ax + 0.2)} {u(ay + 0.02)}H{u(ax + 0.12)}"
             f"V{u(ay + 0.22)}H{u(ax - 0.12)}V{u(ay + 0.02)}H{u(ax - 0.2)}Z")
        items.append(Furnishing("forge", (ax - 0.35, ay - 0.15, ax + 0.35, ay + 0.22),
                                f'<path class="anvil" d="{d}"/>'))
    return items


def _library(room: FreeFloor) -> list:
    """Bookshelves along the walls: each a square long, a quarter deep, its books drawn as ticks."""
    items = []
    for cell in [c for c in room.by_corner() if room.walls(c)][:3]:
        room.take(cell)
        side = room.walls(cell)[0]
        dx, dy = INWARD[side]
        x, y = cell[0] + 0.5 - dx * 0.34, cell[1] + 0.5 - dy * 0.34  # against the wall
        w, h = (0.94, 0.26) if side in ("N", "S") else (0.26, 0.94)
        ticks = "".join((f"M{u(x - w / 2 + k * w / 7)} {u(y - h / 2)}V{u(y + h / 2)}" if side in ("N", "S")
                         else f"M{u(x - w / 2)} {u(y - h / 2 + k * h / 7)}H{u(x + w / 2)}") for k in range(1, 7))
        items.append(Furnishing("library", (x - w / 2, y - h / 2, x + w / 2, y + h / 2),
                                f'<rect class="furniture" x="{u(x - w / 2)}" y="{u(y - h / 2)}" width="{u(w)}" '
                                f'height="{u(h)}"/><path class="detail" d="{ticks}"/>'))
    return items


def _rubble(room: FreeFloor) -> list:
    """Fallen stones: a few broken blocks of uneven size and shape, scattered over the square."""
    items = []
    for cell in room.by_corner()[:2]:
        room.take(cell)
        items.append(Furnishing("rubble", (cell[0] + 0.1, cell[1] + 0.1, cell[0] + 0.9, cell[1] + 0.9),
                                small_marks.rubble(cell[0] + 0.5, cell[1] + 0.5, 0.8, room.rng)))
    return items


def _cracks(room: FreeFloor) -> list:
    items = []
    for cell in [c for c in room.by_corner() if room.walls(c)][:2]:
        room.take(cell)
        side = room.walls(cell)[-1]
        dx, dy = INWARD[side]
        x, y = cell[0] + 0.5 - dx * 0.5, cell[1] + 0.5 - dy * 0.5  # on the wall
        pts = [(x, y)]
        for k in range(1, 4):
            jig = (room.rng.random() - 0.5) * 0.3
            pts.append((x + dx * 0.22 * k - dy * jig, y + dy * 0.22 * k - dx * jig))
        d = "M" + "L".join(f"{u(px)} {u(py)}" for px, py in pts)
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        items.append(Furnishing("cracks", (min(xs), min(ys), max(xs), max(ys)), f'<path class="crack" d="{d}"/>'))
    return items


def _skull(cell, k: float = 1.0) -> Furnishing:
    """The boss's mark: a small skull (`k` times its size in a square, about the same middle)."""
    x, y = cell[0] + 0.5, cell[1] + 0.45
    body = (f'<circle class="boss" cx="{u(x)}" cy="{u(y - 0.05 * k)}" r="{u(0.3 * k)}"/>'
            f'<rect class="boss" x="{u(x - 0.16 * k)}" y="{u(y + 0.15 * k)}" width="{u(0.32 * k)}" height="{u(0.2 * k)}"/>'
            f'<circle class="boss-eye" cx="{u(x - 0.12 * k)}" cy="{u(y - 0.04 * k)}" r="{u(0.08 * k)}"/>'
            f'<circle class="boss-eye" cx="{u(x + 0.12 * k)}" cy="{u(y - 0.04 * k)}" r="{u(0.08 * k)}"/>')
    return Furnishing("boss", (x - 0.3 * k, y - 0.35 * k, x + 0.3 * k, y + 0.35 * k), body)


def _stairs(room: FreeFloor) -> Furnishing:
    """Stairs down in the free cell nearest the top-right corner (the centre, if the room has no free cell).

    A flight seen from above: its two sides and the treads across it, the treads closer and shorter as
    they go down, away from the wall the flight starts at.
    """
    p = room.placed
    corner = (p.x + p.w, p.y)
    cells = sorted(room.free, key=lambda c: (abs(c[0] + 1 - corner[0]) + abs(c[1] - corner[1]), c))
    s = 0.8  # inside the square's inner 80%, all a free square promises (a cave's or round room's wall cuts the rest)
    if cells:
        cell = room.take(cells[0])
        x, y = cell[0] + 0.1, cell[1] + 0.1
        walls = room.walls(cell)
    else:  # no whole square free (a small cave): any spot it fits, smaller if need be, or beside the number
        at = None
        for size in (s, 0.6, 0.45):
            at = room.spot(size)
            if at:
                s = size
                break
        x, y = at if at else (room.number[2] + 0.05, room.centre[1] - 0.42)
        walls = []
    return Furnishing("stairs", (x, y, x + s, y + s), flight(x, y, s, walls[0] if walls else "N"))


def flight(x: float, y: float, s: float, top: str) -> str:
    """A flight of stairs in the `s` square at (x, y), going down away from its `top` side (N, S, E or W)."""
    treads = 6
    lines, sides = [], []
    for i in range(treads + 1):
        t = i / treads
        depth = 1 - (1 - t) ** 1.4  # treads crowd together toward the bottom: they go down
        inset = 0.12 * s * t  # and the flight narrows, as seen from above
        a, b = inset, s - inset
        if top in ("N", "S"):
            yy = y + (depth if top == "N" else 1 - depth) * s
            lines.append(((x + a, yy), (x + b, yy)))
        else:
            xx = x + (depth if top == "W" else 1 - depth) * s
            lines.append(((xx, y + a), (xx, y + b)))
    first, last = lines[0], lines[-1]
    sides = [(first[0], last[0]), (first[1], last[1])]
    tread_d = "".join(f"M{u(a[0])} {u(a[1])}L{u(b[0])} {u(b[1])}" for a, b in lines)
    side_d = "".join(f"M{u(a[0])} {u(a[1])}L{u(b[0])} {u(b[1])}" for a, b in sides)
    return f'<path class="stairs" d="{side_d}"/><path class="step" d="{tread_d}"/>'


def _vault(room: FreeFloor) -> list:
    """Strongboxes: two iron-banded chests against the walls."""
    items = []
    for cell in [c for c in room.by_corner() if room.walls(c)][:2]:
        room.take(cell)
        side = room.walls(cell)[0]
        dx, dy = INWARD[side]
        x, y = cell[0] + 0.5 - dx * 0.15, cell[1] + 0.5 - dy * 0.15
        w, h = (0.7, 0.45) if side in ("N", "S") else (0.45, 0.7)
        x0, y0 = x - w / 2, y - h / 2
        band = (f"M{u(x0)} {u(y)}H{u(x0 + w)}" if side in ("N", "S") else f"M{u(x)} {u(y0)}V{u(y0 + h)}")
        items.append(Furnishing("vault", (x0, y0, x0 + w, y0 + h),
                                f'<rect class="chest" x="{u(x0)}" y="{u(y0)}" width="{u(w)}" height="{u(h)}"/>'
                                f'<path class="band" d="{band}"/>'))
    return items


def _furniture(room: FreeFloor) -> list:
    """A table with a chair at each end, in the free cell nearest the middle."""
    cells = room.by_corner()
    if not cells:
        return []
    cell = room.take(cells[-1])
    x, y = cell[0] + 0.5, cell[1] + 0.5
    body = (f'<rect class="furniture" x="{u(x - 0.3)}" y="{u(y - 0.18)}" width="{u(0.6)}" height="{u(0.36)}"/>'
            f'<rect class="furniture" x="{u(x - 0.44)}" y="{u(y - 0.08)}" width="{u(0.12)}" height="{u(0.16)}"/>'
            f'<rect class="furniture" x="{u(x + 0.32)}" y="{u(y - 0.08)}" width="{u(0.12)}" height="{u(0.16)}"/>')
    return [Furnishing("furniture", (x - 0.44, y - 0.18, x + 0.44, y + 0.18), body)]


def _nothing(room: FreeFloor) -> list:
    return []


PLACERS = {"columns": columns, "statues": _statues, "broken_statues": _broken_statues, "water": _water, "altar": _altar, "ritual": lambda room: ritual(room, 0.0), "crates": _crates,
           "forge": _forge, "library": _library, "vault": _vault, "furniture": _furniture, "rubble": _rubble,
           "cracks": _cracks, "alcoves": _nothing}
