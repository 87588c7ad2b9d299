"""draw.ell_room: a workroom's rectangle, door points and way in → an L-shaped outline on the grid, straight and on the
rectangle at every door, with wall between every door's gap and the cut; a room no corner allows that stays square;
over the workrooms of seeds 1-200, and the same rooms drawn and walled for the VTT."""

from __future__ import annotations

import math

import pytest

from dungeonpress.dice import sub_rng
from dungeonpress.draw.dungeon_map import _way_in, draw_dungeon_map
from dungeonpress.draw.ell_room import ell_outline, with_gaps
from dungeonpress.draw.geometry import segment_distance, simple
from dungeonpress.draw.map_reading import read_rooms
from dungeonpress.export.uvtt import door_gap, outline_walls
from dungeonpress.generate.dungeon import generate_dungeon
from tests.conftest import slow_fixture

SEEDS = range(1, 201)


def _doors(room) -> list:
    return [(door.x, door.y) for door in room.doors]


@pytest.fixture(scope="module")
@slow_fixture
def workrooms(content):
    """(seed, placed room, outline) for every workroom of seeds 1-200 (eight rooms each)."""
    out = []
    for seed in SEEDS:
        dungeon = generate_dungeon(content, sub_rng(seed, "dungeon"), rooms=8)
        for look in read_rooms(dungeon):
            if look.shape == "ell":
                room = dungeon.plan.room(look.number)
                out.append((seed, room, ell_outline(room.x, room.y, room.w, room.h, _doors(room), _way_in(room))))
    return out


def _on(point, outline) -> bool:
    n = len(outline)
    return min(segment_distance(point, outline[i], outline[(i + 1) % n]) for i in range(n)) < 1e-9


def _turns(outline) -> list:
    """The points where the wall turns (a door gap's points lie on a straight stretch)."""
    n = len(outline)
    return [p for i, p in enumerate(outline)
            if (outline[i - 1][0] - p[0]) * (outline[(i + 1) % n][1] - p[1])
            != (outline[i - 1][1] - p[1]) * (outline[(i + 1) % n][0] - p[0])]


def _rect(room) -> tuple:
    return ((room.x, room.y), (room.x + room.w, room.y), (room.x + room.w, room.y + room.h), (room.x, room.y + room.h))


def _apart(gap, block) -> float:
    """How far a door's gap (two points on a wall) lies from a block (x0, y0, x1, y1), both upright boxes."""
    (ax, ay), (bx, by) = gap
    gx0, gx1, gy0, gy1 = min(ax, bx), max(ax, bx), min(ay, by), max(ay, by)
    return math.hypot(max(0.0, block[0] - gx1, gx0 - block[2]), max(0.0, block[1] - gy1, gy0 - block[3]))


def _cut_block(room, outline) -> tuple:
    """The block an L leaves as rock: between the rectangle's corner it lacks and the L's one inner corner."""
    (corner,) = [c for c in _rect(room) if c not in outline]
    (inner,) = [p for p in _turns(outline)
                if room.x < p[0] < room.x + room.w and room.y < p[1] < room.y + room.h]
    return (min(corner[0], inner[0]), min(corner[1], inner[1]), max(corner[0], inner[0]), max(corner[1], inner[1]))


def _corner_blocks(room) -> list:
    """Every corner's block by the rule the L follows: half the long side by a third of the short, a square at least."""
    cw, ch = (room.w // 2, max(1, room.h // 3)) if room.w >= room.h else (max(1, room.w // 3), room.h // 2)
    blocks = []
    for cx, cy in _rect(room):
        x0 = cx if cx == room.x else cx - cw
        y0 = cy if cy == room.y else cy - ch
        blocks.append((x0, y0, x0 + cw, y0 + ch))
    return blocks


def ell_faults(room, outline) -> list:
    """What is wrong with a workroom's L: not an L of whole squares inside its rectangle with one corner's block cut
    out, a door whose gap does not lie on a straight stretch of the rectangle's wall, or a gap that touches the cut
    (the passage would run on along the block's inner wall)."""
    if outline is None:
        return ["no L"]
    faults = []
    corners = _turns(outline)
    if len(corners) != 6:
        faults.append(f"{len(corners)} corners, not an L's six")
    if any(x != int(x) or y != int(y) for x, y in corners):
        faults.append("a corner off the grid")
    if any(not (room.x <= x <= room.x + room.w and room.y <= y <= room.y + room.h) for x, y in outline):
        faults.append("outside its rectangle")
    if not simple(outline):
        faults.append("crosses itself")
    rect = ((room.x, room.y), (room.x + room.w, room.y), (room.x + room.w, room.y + room.h), (room.x, room.y + room.h))
    kept = [c for c in rect if c in corners]
    if len(kept) != 3:
        faults.append(f"{4 - len(kept)} corners cut, not one")
    for door in room.doors:
        a, b = door_gap(door)
        if not all(any(math.dist(p, q) < 1e-9 for q in outline) for p in (a, (door.x, door.y), b)):
            faults.append(f"door {door.side} {door.x},{door.y}: its gap is not marked on the wall")
        elif not all(_on(p, rect) for p in (a, b)):
            faults.append(f"door {door.side}: its gap is off the rectangle")
        elif len(kept) == 3 and len(corners) == 6 and _apart((a, b), _cut_block(room, outline)) < 1e-9:
            faults.append(f"door {door.side} {door.x},{door.y}: its gap touches the cut")
    return faults


def test_every_workroom_is_an_l_of_whole_squares_with_its_doors_on_straight_walls(workrooms):
    ells = [(seed, room, outline) for seed, room, outline in workrooms if outline is not None]
    assert len(workrooms) >= 200 and len(ells) >= 100, (len(workrooms), len(ells))
    bad = [(seed, room.number, ell_faults(room, outline)) for seed, room, outline in ells if ell_faults(room, outline)]
    assert bad == []


def test_a_workroom_stays_square_exactly_when_no_corner_leaves_wall_beside_every_gap(workrooms):
    """Checked from the rule, not the code: a room three squares or more each way gets an L when some corner's block
    keeps clear of every door's gap, and stays square when each corner's block touches one (seed 1 room 5)."""
    squares = 0
    for seed, room, outline in workrooms:
        gaps = [door_gap(door) for door in room.doors]
        clean = min(room.w, room.h) >= 3 and any(all(_apart(gap, block) > 1e-9 for gap in gaps)
                                                 for block in _corner_blocks(room))
        assert (outline is not None) == clean, (seed, room.number)
        squares += outline is None
    assert 0 < squares < len(workrooms), squares
    assert [room.number for seed, room, outline in workrooms if seed == 1 and outline is None] == [5]


def test_the_l_cuts_the_corner_farthest_from_the_way_in_where_the_doors_leave_it_wall(workrooms):
    """The block cut out is the farthest corner's from the way in that leaves wall beside every door's gap."""
    farthest = 0
    ells = [(seed, room, outline) for seed, room, outline in workrooms if outline is not None]
    for seed, room, outline in ells:
        rect = _rect(room)
        (cut,) = [c for c in rect if c not in outline]
        way_in = _way_in(room)
        farthest += math.dist(cut, way_in) == max(math.dist(c, way_in) for c in rect)
        for door in room.doors:  # a stretch of wall, or at least the block's edge, between the block and each gap
            a, b = door_gap(door)
            assert min(math.dist(a, cut), math.dist(b, cut)) >= 1.0 - 1e-9, (seed, room.number)
    assert farthest >= len(ells) // 2, farthest


def test_the_ls_checks_can_fail():
    """A rectangle, a block that swallows a door's gap, a corner off the grid and a gap left unmarked are caught."""
    from dungeonpress.model.plan import Door, PlacedRoom
    room = PlacedRoom(number=1, spec=0, x=2, y=3, w=3, h=4, depth=0,
                      doors=(Door(side="S", x=3.5, y=7, to=0), Door(side="N", x=2.5, y=3, to=None)))
    good = ell_outline(2, 3, 3, 4, _doors(room), (3.5, 7))
    assert ell_faults(room, good) == []
    square = with_gaps(((2, 3), (5, 3), (5, 7), (2, 7)), _doors(room))
    assert "4 corners, not an L's six" in ell_faults(room, square)
    swallowed = with_gaps(((3, 3), (5, 3), (5, 7), (2, 7), (2, 5), (3, 5)), _doors(room))  # the N door's gap in the cut
    assert any("gap" in fault for fault in ell_faults(room, swallowed))
    off = with_gaps(((2, 3), (4.5, 3), (4.5, 5), (5, 5), (5, 7), (2, 7)), _doors(room))
    assert "a corner off the grid" in ell_faults(room, off)
    bare = ((2, 3), (4, 3), (4, 5), (5, 5), (5, 7), (2, 7))
    assert any("not marked" in fault for fault in ell_faults(room, bare))
    # the fallback the L once took (seed 2024 room 7): doors in the middle of both short walls, a block whose edge the
    # N door's gap ends at, so the passage runs on along the block's inner wall
    middles = PlacedRoom(number=2, spec=0, x=2, y=3, w=3, h=4, depth=0,
                         doors=(Door(side="S", x=3.5, y=7, to=0), Door(side="N", x=3.5, y=3, to=None)))
    flush = with_gaps(((3, 3), (5, 3), (5, 7), (2, 7), (2, 5), (3, 5)), _doors(middles))
    assert [fault for fault in ell_faults(middles, flush) if "touches the cut" in fault] == [
        "door N 3.5,3: its gap touches the cut"]


def test_no_corner_leaves_the_doors_wall_so_the_room_stays_square():
    """A room under three squares across, or one whose every corner's block a door's gap reaches into, gets no L."""
    assert ell_outline(0, 0, 2, 4, [(1, 0)], (1, 4)) is None
    doors = [(1.5, 0), (1.5, 4), (0, 1.5), (3, 2.5)]  # gaps in the middle of every wall of a 3 × 4 room
    assert ell_outline(0, 0, 3, 4, doors, (1.5, 4)) is None  # the short walls' gaps end at each block's edge
    assert ell_outline(0, 0, 3, 4, [(1.5, 0), (1.5, 4)], (1.5, 4)) is None  # seed 2024 room 7: both short walls
    assert ell_outline(0, 0, 3, 4, [(2.5, 0), (1.5, 4)], (1.5, 4)) is not None  # a gap in a corner leaves the other
    assert ell_outline(0, 0, 3, 4, [(0.5, 0), (2.5, 0), (0.5, 4), (2.5, 4)], (0.5, 4)) is None


@pytest.mark.slow
def test_a_drawn_workroom_is_walled_on_its_l_for_the_vtt(content):
    """The map draws each workroom's L, and the VTT walls run round it: every corner of the L is on a wall, and no wall
    crosses a door's gap."""
    drawn = 0
    for seed in range(1, 61):
        dungeon = generate_dungeon(content, sub_rng(seed, "dungeon"), rooms=8)
        drawing = draw_dungeon_map(dungeon, width_mm=64.2, height_mm=79, rng=sub_rng(seed, "map"))
        shaped = dict(drawing.outlines)
        for look in read_rooms(dungeon):
            if look.shape != "ell":
                continue
            room = dungeon.plan.room(look.number)
            ell = ell_outline(room.x, room.y, room.w, room.h, _doors(room), _way_in(room))
            if ell is None:  # drawn square, and the words do not promise an L
                assert room.number not in shaped and f"Room {room.number}, a workroom in an L" not in drawing.alt
                continue
            assert shaped[room.number] == ell
            assert f"Room {room.number}, a workroom in an L" in drawing.alt
            drawn += 1
            lines = outline_walls(room, shaped[room.number])
            points = {p for line in lines for p in line}
            assert set(_turns(shaped[room.number])) <= points, (seed, room.number)
            for door in room.doors:
                a, b = door_gap(door)
                middle = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
                assert not any(segment_distance(middle, p, q) < 1e-6 for line in lines for p, q in zip(line, line[1:]))
    assert drawn >= 40, drawn
