"""draw.round_room: a shrine's (or a grand hall's) rectangle and door points → a round (or cut-cornered) outline, straight
and on the rectangle at each door."""

from __future__ import annotations

import itertools
import math

import pytest

from dungeonpress.draw.geometry import segment_distance, simple
from dungeonpress.draw.round_room import CUT, MOUTH, apsed_outline, chamfered_outline, collapsed_outline, round_outline


def _door_points(x, y, w, h):
    """Every door point a room of this size can have: the middle of each edge square."""
    return ([(x + i + 0.5, y) for i in range(w)] + [(x + i + 0.5, y + h) for i in range(w)]
            + [(x, y + j + 0.5) for j in range(h)] + [(x + w, y + j + 0.5) for j in range(h)])


def _on_outline(point, outline) -> bool:
    n = len(outline)
    return min(segment_distance(point, outline[i], outline[(i + 1) % n]) for i in range(n)) < 1e-6


def test_a_square_room_without_doors_is_nearly_a_circle():
    outline = round_outline(2, 3, 4, 4, [])
    radii = [math.hypot(x - 4, y - 5) for x, y in outline]
    assert min(radii) > 1.98 and max(radii) < 2.01


@pytest.mark.parametrize("size", [(3, 3), (3, 4), (4, 4), (5, 4), (2, 4)])
def test_every_door_meets_a_straight_wall_on_the_rectangle_and_the_outline_stays_convex(size):
    w, h = size
    points = _door_points(0, 0, w, h)
    for doors in itertools.chain(itertools.combinations(points, 1), itertools.combinations(points, 2)):
        outline = round_outline(0, 0, w, h, doors)
        assert simple(outline) and _convex(outline), doors
        assert all(-1e-9 <= x <= w + 1e-9 and -1e-9 <= y <= h + 1e-9 for x, y in outline)
        for dx, dy in doors:
            along = (1, 0) if dy in (0, h) else (0, 1)
            ends = [(dx - along[0] * MOUTH, dy - along[1] * MOUTH), (dx + along[0] * MOUTH, dy + along[1] * MOUTH)]
            for p in (ends[0], (dx, dy), ends[1]):  # the gap lies on the drawn wall: the VTT opens it there
                assert _on_outline(p, outline), (doors, p)
            assert all(min(math.dist(p, q) for q in outline) < 1e-6 for p in ends), doors  # a corner at each end


def test_a_door_keeps_its_corner_square_and_the_others_round():
    outline = round_outline(0, 0, 3, 3, [(0.5, 0)])  # a door in the top-left square
    assert (0.0, 0.0) in outline
    assert (3.0, 3.0) not in outline and (3.0, 0.0) not in outline and (0.0, 3.0) not in outline


def test_a_grand_halls_corners_are_cut_a_square_along_each_wall():
    outline = chamfered_outline(2, 3, 5, 4, [])
    assert outline == ((2.0, 4.0), (3.0, 3.0), (6.0, 3.0), (7.0, 4.0), (7.0, 6.0), (6.0, 7.0), (3.0, 7.0), (2.0, 6.0))
    assert CUT == 1.0


@pytest.mark.parametrize("size", [(4, 4), (5, 4), (5, 5), (6, 5)])
def test_a_grand_halls_doors_meet_straight_walls_and_its_cuts_stop_at_their_gaps(size):
    w, h = size
    points = _door_points(0, 0, w, h)
    for doors in itertools.chain(itertools.combinations(points, 1), itertools.combinations(points, 2)):
        outline = chamfered_outline(0, 0, w, h, doors)
        assert simple(outline) and _convex(outline), doors
        for dx, dy in doors:
            along = (1, 0) if dy in (0, h) else (0, 1)
            for t in (-MOUTH, 0.0, MOUTH):
                assert _on_outline((dx + along[0] * t, dy + along[1] * t), outline), (doors, t)
        # each cut is a straight piece between two points on the walls, as far from its corner along both
        for corner in ((0, 0), (w, 0), (w, h), (0, h)):
            near = [p for p in outline if math.dist(p, corner) < CUT + 1e-9]
            cut = min((math.dist(p, corner) for p in near), default=0.0)
            assert corner in outline or cut > 0, (doors, corner)
            assert all(abs(math.dist(p, corner) - cut) < 1e-9 or math.dist(p, corner) >= cut for p in near)


def test_a_door_by_a_corner_keeps_it_square_and_a_plain_square_room_is_not_a_circle():
    outline = chamfered_outline(0, 0, 4, 4, [(0.5, 0)])  # a door in the top-left square
    assert (0.0, 0.0) in outline and (3.0, 0.0) in outline and (4.0, 1.0) in outline
    assert len(chamfered_outline(0, 0, 4, 4, [])) == 8


def test_a_small_chambers_corner_farthest_from_its_way_in_falls_in():
    outline = collapsed_outline(0, 0, 3, 3, [(1.5, 3)], (1.5, 3))  # the way in from the south: a north corner
    assert outline == ((0.0, 1.0), (1.0, 0.0), (3.0, 0.0), (3.0, 3.0), (2.0, 3.0), (1.5, 3.0), (1.0, 3.0), (0.0, 3.0))
    # a door's gap beside the farthest corner keeps it: the next farthest falls in
    outline = collapsed_outline(0, 0, 4, 3, [(1.5, 3), (0.5, 0)], (1.5, 3))
    assert (0.0, 0.0) in outline and (4.0, 0.0) not in outline and (3.0, 0.0) in outline and (4.0, 1.0) in outline
    assert simple(outline) and _convex(outline)


def _convex(outline) -> bool:
    n = len(outline)
    turns = []
    for i in range(n):
        (ax, ay), (bx, by), (cx, cy) = outline[i - 1], outline[i], outline[(i + 1) % n]
        cross = (bx - ax) * (cy - by) - (by - ay) * (cx - bx)
        if abs(cross) > 1e-9:
            turns.append(cross > 0)
    return all(turns) or not any(turns)


def test_a_chapels_far_wall_ends_in_an_apse():
    """A 5 × 5 chapel entered from the south: its north corners rounded with radius 2.5 (a half circle), the south
    ones square; a door near a north corner moves the apse to the next wall round whose corners round fully."""
    outline = apsed_outline(0, 0, 5, 5, [(2.5, 5)], (2.5, 5))
    assert (0.0, 5.0) in outline and (5.0, 5.0) in outline and (0.0, 0.0) not in outline and (5.0, 0.0) not in outline
    assert max(abs(math.hypot(x - 2.5, y - 2.5) - 2.5) for x, y in outline if y < 2.5) < 1e-6
    assert apse_faults(0, 0, 5, 5, [(2.5, 5)], (2.5, 5), outline) == []
    moved = apsed_outline(0, 0, 5, 5, [(2.5, 5), (0.5, 0)], (2.5, 5))  # the east wall's corners round by 2, the most
    assert (0.0, 0.0) in moved and (0.0, 5.0) in moved and (5.0, 0.0) not in moved and (5.0, 5.0) not in moved
    assert apse_faults(0, 0, 5, 5, [(2.5, 5), (0.5, 0)], (2.5, 5), moved) == []
    # every wall's corners kept square by doors near them: no apse
    assert apsed_outline(0, 0, 5, 5, [(0.5, 0), (4.5, 5), (0, 4.5), (5, 0.5)], (0.5, 0)) is None


def apse_faults(x, y, w, h, doors, way_in, outline) -> list:
    """What is wrong with a chapel's apse: not exactly two neighbouring corners rounded by half the shorter side, the
    radius under a square, a door's gap off the rectangle or unmarked, the
    outline not convex or out of its rectangle."""
    if outline is None:
        return ["no apse"]
    faults = []
    corners = ((x, y), (x + w, y), (x + w, y + h), (x, y + h))
    rounded = [k for k, c in enumerate(corners) if not any(math.dist(c, p) < 1e-9 for p in outline)]
    if len(rounded) != 2 or (rounded[1] - rounded[0]) not in (1, 3):
        return [f"corners {rounded} rounded, not one wall's two"]
    # both corners round alike, by half the shorter side or up to the nearest door's gap, and by a square at least
    r = min([min(w, h) / 2] + [max(0.0, math.dist((dx, dy), corners[k]) - MOUTH) for k in rounded for dx, dy in doors
                               if (dx in (corners[k][0],) or dy in (corners[k][1],))])
    for k in rounded:
        cx, cy = corners[k]
        for along in ((cx + (r if cx == x else -r), cy), (cx, cy + (r if cy == y else -r))):
            if not any(math.dist(along, p) < 1e-6 for p in outline):
                faults.append(f"corner {k} not rounded by {r}")
    if r < min(1.0, min(w, h) / 2) - 1e-9:
        faults.append(f"rounded by {r}, under a square")
    if any(not (x - 1e-9 <= px <= x + w + 1e-9 and y - 1e-9 <= py <= y + h + 1e-9) for px, py in outline):
        faults.append("outside its rectangle")
    if not (simple(outline) and _convex(outline)):
        faults.append("not convex")
    for dx, dy in doors:
        across = (1, 0) if dy in (y, y + h) else (0, 1)
        gap = [(dx - across[0] * MOUTH, dy - across[1] * MOUTH), (dx, dy), (dx + across[0] * MOUTH, dy + across[1] * MOUTH)]
        if not all(any(math.dist(g, p) < 1e-9 for p in outline) for g in gap):
            faults.append(f"door {dx},{dy}: gap not on the straight wall")
    return faults


def test_every_chapel_of_two_hundred_seeds_ends_in_an_apse_mostly_across_from_its_way_in(content):
    """Seeds 1-200: every shrine whose altar stands at its far wall is drawn with an apse (or round, where every
    wall's corners are kept square by doors), its doors on straight walls, the rounded corners most often the ones
    farthest from the way in (where the key sets the altar)."""
    from dungeonpress.dice import sub_rng
    from dungeonpress.draw.dungeon_map import _way_in
    from dungeonpress.draw.map_reading import read_rooms
    from dungeonpress.generate.dungeon import generate_dungeon
    chapels = far = 0
    for seed in range(1, 201):
        dungeon = generate_dungeon(content, sub_rng(seed, "dungeon"), rooms=8)
        for look in read_rooms(dungeon):
            if look.shape != "apse":
                continue
            room = dungeon.plan.room(look.number)
            doors = [(d.x, d.y) for d in room.doors]
            outline = apsed_outline(room.x, room.y, room.w, room.h, doors, _way_in(room))
            if outline is None:
                continue
            chapels += 1
            assert apse_faults(room.x, room.y, room.w, room.h, doors, _way_in(room), outline) == [], (seed, room.number)
            corners = ((room.x, room.y), (room.x + room.w, room.y), (room.x + room.w, room.y + room.h),
                       (room.x, room.y + room.h))
            kept = [c for c in corners if c in outline]
            far += max(math.dist(c, _way_in(room)) for c in corners) > max(math.dist(c, _way_in(room)) for c in kept)
    assert chapels >= 30, chapels
    assert far >= chapels * 3 // 4, (far, chapels)


def test_the_apses_checks_can_fail():
    """A chapel left square, one rounded all round (a shrine's circle), and an apse too shallow are caught."""
    square = ((0, 0), (5, 0), (5, 5), (3, 5), (2.5, 5), (2, 5), (0, 5))
    assert apse_faults(0, 0, 5, 5, [(2.5, 5)], (2.5, 5), square)
    assert apse_faults(0, 0, 5, 5, [(2.5, 5)], (2.5, 5), round_outline(0, 0, 5, 5, [(2.5, 5)]))
    shallow = round_outline(0, 0, 5, 5, [(2.5, 5)], largest=(1.0, 1.0, 0.0, 0.0))
    assert "corner 0 not rounded by 2.5" in apse_faults(0, 0, 5, 5, [(2.5, 5)], (2.5, 5), shallow)
