"""draw.free_floor: a placed room, its floor and a seeded Random → its free cells, with the number and thresholds kept."""

from __future__ import annotations

import random

from dungeonpress.draw.free_floor import KEEP_OFF, NUMBER_HALF, FreeFloor, Furnishing, overlaps
from dungeonpress.draw.geometry import rect_polygon
from dungeonpress.model.plan import Door, PlacedRoom


def space(w=4, h=3, seed=1, number_half=NUMBER_HALF):
    placed = PlacedRoom(1, 0, 2, 3, w, h, 0, (Door("N", 3.5, 3, 2),))
    return FreeFloor(placed, rect_polygon(2, 3, w, h), random.Random(seed), number_half)


def test_boxes_that_touch_do_not_overlap_unless_a_gap_is_asked():
    assert not overlaps((0, 0, 1, 1), (1, 0, 2, 1))
    assert overlaps((0, 0, 1, 1), (1.02, 0, 2, 1), KEEP_OFF)
    assert overlaps((0, 0, 1, 1), (0.5, 0.5, 2, 2))


def test_the_number_and_each_threshold_are_reserved_and_their_cells_taken():
    floor = space()
    assert floor.number == (4 - 0.48, 4.5 - 0.48, 4 + 0.48, 4.5 + 0.48)  # the middle of a 4 x 3 room at (2, 3)
    assert (3, 3) not in floor.free  # the square inside the north door
    assert (3, 4) not in floor.free and (4, 4) not in floor.free  # under the number
    assert (2, 5) in floor.free and len(floor.cells) == 12


def test_a_number_larger_than_a_square_reserves_its_printed_size():
    assert space(number_half=(0.6, 0.55)).number == (4 - 0.6, 4.5 - 0.55, 4 + 0.6, 4.5 + 0.55)


def test_the_number_moves_to_the_clear_spot_nearest_the_middle():
    floor = space(5, 5)
    floor.clear_middle()
    altar = Furnishing("altar", (4.0, 5.0, 5.0, 6.0), "")
    floor.block(*altar.box)
    assert floor.place_number([altar])
    assert not overlaps(floor.number, altar.box, KEEP_OFF)
    assert floor.holds(floor.number)


def test_the_same_seed_gives_the_same_lots():
    assert space(seed=7).lot == space(seed=7).lot != space(seed=8).lot
