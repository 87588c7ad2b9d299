"""draw.room_middle: a room's free floor → a pillared hall's colonnades and what stands in its nave, and a ritual
space's ring round its altar."""

from __future__ import annotations

import random

from dungeonpress.draw.free_floor import FreeFloor, overlaps
from dungeonpress.draw.geometry import rect_polygon
from dungeonpress.draw.room_middle import NAVE, RINGS, columns, in_nave, ritual
from dungeonpress.model.plan import Door, PlacedRoom


def space(w, h, seed=1, doors=None):
    x, y = 2, 3
    doors = doors if doors is not None else (Door("S", x + w // 2 + 0.5, y + h, 2),)
    placed = PlacedRoom(1, 0, x, y, w, h, 0, doors)
    return FreeFloor(placed, rect_polygon(x, y, w, h), random.Random(seed))


def test_a_hall_stands_two_mirrored_rows_of_pillars_ending_in_half_pillars_in_its_end_walls():
    floor = space(6, 4, doors=())
    items = columns(floor)
    pillars = [i for i in items if i.box[2] - i.box[0] > 0.5]
    centres = sorted(((b[0] + b[2]) / 2, (b[1] + b[3]) / 2) for b in (i.box for i in pillars))
    rows = sorted({y for _, y in centres})
    assert rows == [4.0, 6.0]  # one square in from each long wall
    assert all((2 * 2 + 6 - x, y) in centres for x, y in centres)  # mirrored end to end
    assert len(items) - len(pillars) == 4  # a half-pillar where each row meets each end wall


def test_a_pool_lies_along_the_nave_between_the_rows():
    floor = space(6, 5, doors=())
    items = []
    assert in_nave(floor, "water", items)
    (pool,) = items
    x0, y0, x1, y1 = pool.box
    assert pool.mark == "water" and x1 - x0 > y1 - y0 and abs((y0 + y1) / 2 - 5.5) < 0.05  # on the middle line
    assert len(items) == NAVE["water"]


def test_a_narrow_room_has_no_nave():
    assert not in_nave(space(6, 3), "crates", [])


def test_a_ritual_ring_stands_in_the_middle_or_not_at_all():
    floor = space(5, 5)
    floor.clear_middle()
    (ring,) = ritual(floor, RINGS[0])
    assert ((ring.box[0] + ring.box[2]) / 2, (ring.box[1] + ring.box[3]) / 2) == (4.5, 5.5)
    assert all(not overlaps(ring.box, b) for b in floor.boxes[:-1])
    assert ritual(space(3, 3), RINGS[0]) == []  # the widest ring does not fit a small room with its number
