"""draw.number_space: a room's number moved to the clearest spot, and the marks still crowding it drawn smaller."""

from __future__ import annotations

from dungeonpress.draw.free_floor import Furnishing
from dungeonpress.draw.geometry import rect_polygon
from dungeonpress.draw.number_space import SMALLEST, gap, give_number_room

MM = 2.5  # millimetres a square: the large-print A7 zine's
ROOM = 0.6 / MM  # ROOM_MM in squares
FLOOR = rect_polygon(0, 0, 3, 3)
THRESHOLD = (1.05, 2.05, 1.95, 2.95)  # inside a door in the middle of the south wall


def middle(half=0.5):
    return (1.5 - half, 1.5 - half, 1.5 + half, 1.5 + half)


def test_a_number_with_room_stays_and_its_marks_are_untouched():
    crates = Furnishing("crates", (0.1, 0.1, 0.9, 0.9), "<path/>")
    box, items = give_number_room(middle(0.4), FLOOR, [crates], [THRESHOLD], MM)
    assert box == middle(0.4) and items == [crates]


def test_a_crowded_number_moves_to_the_clearest_spot_nearest_where_it_stood():
    # Crates fill the west column: the number steps east, off the threshold, with room on every side.
    crates = Furnishing("crates", (0.1, 0.1, 0.9, 2.9), "<path/>")
    box, items = give_number_room(middle(), FLOOR, [crates], [THRESHOLD], MM)
    assert box[0] - 0.9 >= ROOM and box[0] > middle()[0]
    assert gap(box, THRESHOLD) > 0
    assert items == [crates]


def test_a_mark_still_too_close_is_drawn_smaller_toward_its_far_side():
    # A room two squares by one: wherever its number stands, the pool beside it is closer than ROOM.
    floor = rect_polygon(0, 0, 2, 1)
    pool = Furnishing("water", (1.1, 0.1, 1.9, 0.9), '<path class="water" d="M1 1"/>')
    box, (item,) = give_number_room((0.45, 0.02, 1.05, 0.98), floor, [pool], [], MM)
    x0, y0, x1, y1 = item.box
    assert (x1, (y0 + y1) / 2) == (1.9, 0.5)  # anchored on its far (east) side, its middle kept
    assert 1.1 < x0 and x1 - x0 >= SMALLEST * 0.8 - 1e-9
    assert item.svg.startswith('<g transform="matrix(') and 'class="water"' in item.svg
    assert gap(box, item.box) > gap((0.45, 0.02, 1.05, 0.98), pool.box)


def test_pillars_cracks_and_a_ritual_ring_are_never_moved_or_shrunk():
    floor = rect_polygon(0, 0, 2, 1)
    fixed = [Furnishing(mark, (1.06, 0.1, 1.9, 0.9), "<path/>") for mark in ("columns", "cracks", "ritual")]
    for item in fixed:
        _, items = give_number_room((0.45, 0.02, 1.05, 0.98), floor, [item], [], MM)
        assert items == [item]


def test_the_same_input_gives_the_same_svg():
    floor = rect_polygon(0, 0, 2, 1)
    pool = Furnishing("water", (1.1, 0.1, 1.9, 0.9), "<path/>")
    first = give_number_room((0.45, 0.02, 1.05, 0.98), floor, [pool], [], MM)
    assert first == give_number_room((0.45, 0.02, 1.05, 0.98), floor, [pool], [], MM)
