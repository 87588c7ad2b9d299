"""Universal VTT walls and portals checked against the floor plan over many seeds: every door a portal,
no wall across a door, every room closed by its walls and doors, nothing outside the map."""

from __future__ import annotations

import base64
import json
import random

import pytest

from dungeonpress.dice import sub_rng
from dungeonpress.draw.dungeon_map import ALCOVE, draw_dungeon_map
from dungeonpress.export import uvtt
from dungeonpress.generate.dungeon import generate_dungeon

SEEDS = range(1, 61)
EPS = 1e-6


@pytest.fixture(scope="module")
def drawn(content):
    """(plan, outlines of the rooms drawn off their rectangle: caves and round shrines) for each seed: the walls
    the product writes."""
    out = []
    for seed in SEEDS:
        dungeon = generate_dungeon(content, sub_rng(seed, "dungeon"), rooms=3 + seed % 10)
        drawing = draw_dungeon_map(dungeon, width_mm=120, height_mm=140, rng=random.Random(f"{seed}/map"))
        shaped = dict(drawing.outlines)
        assert all(shaped[n] == drawing.floors[n - 1] for n in shaped)  # the very outline drawn as its floor
        out.append((dungeon.plan, shaped))
    return out


@pytest.fixture(scope="module")
def plans(drawn):
    return [plan for plan, _ in drawn]


def test_the_seeds_hold_caves_and_round_rooms(drawn):
    # so the walls of both shapes below are really checked
    assert sum(1 for plan, shaped in drawn for n in shaped if plan.room(n).shape == "cave") >= 10
    assert sum(1 for plan, shaped in drawn for n in shaped if plan.room(n).shape != "cave") >= 5


def _segments(lines):
    for line in lines:
        for a, b in zip(line, line[1:]):
            yield a, b


def _on_segment(p, a, b) -> bool:
    cross = (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])
    return abs(cross) < EPS and min(a[0], b[0]) - EPS <= p[0] <= max(a[0], b[0]) + EPS \
        and min(a[1], b[1]) - EPS <= p[1] <= max(a[1], b[1]) + EPS


def _overlap(a, b, c, d) -> float:
    """Length shared by two axis-parallel segments on the same line (0 if not on one line)."""
    if a[0] == b[0] == c[0] == d[0]:
        lo, hi = max(min(a[1], b[1]), min(c[1], d[1])), min(max(a[1], b[1]), max(c[1], d[1]))
    elif a[1] == b[1] == c[1] == d[1]:
        lo, hi = max(min(a[0], b[0]), min(c[0], d[0])), min(max(a[0], b[0]), max(c[0], d[0]))
    else:
        return 0.0
    return max(0.0, hi - lo)


def _crosses(a, b, c, d) -> bool:
    """Do segments ab and cd meet anywhere but at an end of cd (the door gap)?"""
    if _overlap(a, b, c, d) > EPS:
        return True
    def orient(p, q, r):
        v = (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
        return 0 if abs(v) < EPS else (1 if v > 0 else -1)
    o1, o2, o3, o4 = orient(a, b, c), orient(a, b, d), orient(c, d, a), orient(c, d, b)
    if o1 * o2 < 0 and o3 * o4 < 0:
        return True
    # touching: allowed only at the gap's own ends (the wall stops there)
    for p in (a, b):
        if _on_segment(p, c, d) and p not in (c, d) and min(abs(p[0] - c[0]) + abs(p[1] - c[1]),
                                                          abs(p[0] - d[0]) + abs(p[1] - d[1])) > EPS:
            return True
    return False


def test_every_door_is_a_portal_spanning_its_gap(plans):
    for plan in plans:
        found = uvtt.portals(plan, barred=set())
        doors = [(room.number, door) for room in plan.rooms for door in room.doors]
        assert len(found) == len(doors) > 0
        for portal, (number, door) in zip(found, doors):
            assert (portal["position"]["x"], portal["position"]["y"]) == (door.x, door.y)
            assert portal["closed"] is True and portal["freestanding"] is False
            a, b = portal["bounds"]
            assert abs(abs(a["x"] - b["x"]) + abs(a["y"] - b["y"]) - uvtt.PASSAGE) < 1e-3
            assert portal["dungeonpress"]["room"] == number


def test_no_wall_crosses_a_door(drawn):
    for plan, caves in drawn:
        segments = list(_segments(uvtt.walls(plan, caves)))
        for room in plan.rooms:
            for door in room.doors:
                gap = uvtt.door_gap(door)
                bad = [(a, b) for a, b in segments if _crosses(a, b, *gap)]
                assert bad == [], (room.number, door)


def test_walls_and_doors_close_every_room(drawn):
    for plan, caves in drawn:
        segments = list(_segments(uvtt.walls(plan, caves)))
        for room in plan.rooms:
            if room.number in caves:
                continue  # below
            gaps = [uvtt.door_gap(door) for door in room.doors]
            x0, y0, x1, y1 = room.x, room.y, room.x + room.w, room.y + room.h
            for side in (((x0, y0), (x1, y0)), ((x1, y0), (x1, y1)), ((x0, y1), (x1, y1)), ((x0, y0), (x0, y1))):
                covered = sum(_overlap(a, b, *side) for a, b in segments) + sum(_overlap(a, b, *side) for a, b in gaps)
                length = abs(side[1][0] - side[0][0]) + abs(side[1][1] - side[0][1])
                assert abs(covered - length) < 1e-6, (room.number, side, covered, length)


def test_cave_walls_run_from_door_gap_to_door_gap_round_the_cave(drawn):
    for plan, caves in drawn:
        for number, outline in caves.items():
            room = plan.room(number)
            lines = uvtt.outline_walls(room, outline)
            ends = sorted(p for door in room.doors for p in uvtt.door_gap(door))
            # one wall between each pair of neighbouring doors, each ending at gap ends: a closed ring with the doors
            assert len(lines) == len(room.doors), number
            assert sorted(p for line in lines for p in (line[0], line[-1])) == ends, number
            # and it stays inside the room's rectangle, where the cave is drawn (a hallway's niches cut into the rock)
            out = ALCOVE[1] if room.shape == "rect" else 0
            for line in lines:
                assert all(room.x - out - EPS <= x <= room.x + room.w + out + EPS and
                           room.y - out - EPS <= y <= room.y + room.h + out + EPS for x, y in line)


def test_no_wall_runs_through_a_room_or_off_the_map(drawn):
    for plan, caves in drawn:
        owned = [(room.number, line) for room in plan.rooms
                 for line in (uvtt.outline_walls(room, caves[room.number]) if room.number in caves
                              else uvtt.room_walls(room))]
        owned += [(None, line) for corridor in plan.corridors for line in uvtt.corridor_walls(corridor)]
        for owner, line in owned:
            for a, b in _segments([line]):
                assert 0 <= min(a[0], b[0]) and max(a[0], b[0]) <= plan.width
                assert 0 <= min(a[1], b[1]) and max(a[1], b[1]) <= plan.height
                mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
                for room in plan.rooms:
                    if room.number == owner:
                        continue  # a cave's own wall lies inside its rectangle
                    inside = room.x + EPS < mid[0] < room.x + room.w - EPS and room.y + EPS < mid[1] < room.y + room.h - EPS
                    assert not inside, (room.number, a, b)


def test_passages_are_walled_on_both_sides_and_closed_at_dead_ends(plans):
    for plan in plans:
        for corridor in plan.corridors:
            lines = uvtt.corridor_walls(corridor)
            assert len(lines) == (3 if corridor.end in (None, uvtt.OUTSIDE) else 2)
            left, right = lines[0], lines[1]
            for (lx, ly), (rx, ry) in zip(left, right):  # the two sides stay a passage's width apart
                assert abs(lx - rx) + abs(ly - ry) >= uvtt.PASSAGE - EPS


def test_document_shape_and_extras(plans):
    plan = plans[0]
    doc = uvtt.uvtt(plan, png=b"\x89PNG fake", barred={(1, 0)}, name="Test", seed=1)
    assert doc["format"] == 0.3
    assert doc["resolution"] == {"map_origin": {"x": 0.0, "y": 0.0}, "map_size": {"x": plan.width, "y": plan.height},
                                 "pixels_per_grid": 100}
    assert base64.b64decode(doc["image"]) == b"\x89PNG fake"
    assert doc["portals"][0]["dungeonpress"]["barred"] is True
    assert sum(p["dungeonpress"]["barred"] for p in doc["portals"]) == 1
    assert doc["dungeonpress"]["entrance"]["y"] == plan.height
    json.dumps(doc, allow_nan=False)
