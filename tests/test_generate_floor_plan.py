"""The dungeon layout and map: connected, exits honoured, no overlaps, corridors clear of rooms, boss deepest."""

from __future__ import annotations

import random
from collections import deque

import pytest

from dungeonpress.dice import d
from dungeonpress.generate.dungeon import generate_dungeon
from dungeonpress.generate.floor_plan import STEP, plan_floor
from dungeonpress.model.plan import OUTSIDE, RoomSpec
from tests.conftest import slow_fixture


def random_specs(seed: int) -> list:
    """Rooms with any mix of exit counts (including all dead ends) and sometimes a boss."""
    rng = random.Random(f"specs/{seed}")
    count = 2 + d(rng, 18)
    boss_at = d(rng, count) - 1 if d(rng, 2) == 1 else None
    return [RoomSpec(exits=d(rng, 3), width=1 + d(rng, 5), height=1 + d(rng, 5), boss=i == boss_at)
            for i in range(count)]


@pytest.fixture(scope="module")
@slow_fixture
def layouts(content):
    """1,000 layouts of generated dungeons and 1,000 of arbitrary room specs, made once."""
    out = []
    for seed in range(1000):
        dungeon = generate_dungeon(content, random.Random(seed), rooms=3 + seed % 14)
        specs = [RoomSpec(r.exit_count, 1, 1, r.boss) for r in dungeon.rooms]  # exits by key number
        out.append((dungeon.plan, specs, True))
    for seed in range(1000):
        specs = random_specs(seed)
        out.append((plan_floor(specs, random.Random(seed)), specs, False))
    return out


def rolled_exits(layout, specs, numbered: bool):
    """Each placed room's rolled exit count (specs from a dungeon are already in key order)."""
    return {room.number: specs[room.number - 1 if numbered else room.spec].exits for room in layout.rooms}


def depths(layout) -> dict:
    seen = {layout.entrance: 0}
    queue = deque([layout.entrance])
    while queue:
        here = queue.popleft()
        for a, b in layout.connections:
            for x, y in ((a, b), (b, a)):
                if x == here and y not in seen:
                    seen[y] = seen[here] + 1
                    queue.append(y)
    return seen


@pytest.mark.slow
def test_every_room_is_reachable_from_the_entrance(layouts):
    for layout, _, _ in layouts:
        assert layout.entrance == 1
        assert set(depths(layout)) == {room.number for room in layout.rooms}


def test_doors_are_the_rolled_exits_plus_documented_break_throughs(layouts):
    for layout, specs, numbered in layouts:
        exits = rolled_exits(layout, specs, numbered)
        for room in layout.rooms:
            assert len(room.doors) == exits[room.number] + room.extra_doors, room
            assert len({door.side for door in room.doors}) == len(room.doors)  # one door a wall
        outside = [(room.number, door) for room in layout.rooms for door in room.doors if door.to == OUTSIDE]
        assert [number for number, _ in outside] == [1]  # one way in, in room 1
        assert outside[0][1].side == "S"


def test_every_door_is_accounted_for(layouts):
    """Rolled exits + break-throughs = both ends of every connection + dead ends + the way in."""
    for layout, specs, numbered in layouts:
        exits = sum(rolled_exits(layout, specs, numbered).values())
        extra = sum(room.extra_doors for room in layout.rooms)
        dead = sum(1 for room in layout.rooms for door in room.doors if door.to is None)
        assert exits + extra == 2 * len(layout.connections) + dead + 1


def test_break_throughs_are_rare_beyond_what_the_dice_force(layouts):
    """Most boss-less dungeons break through exactly as many doors as the dice fall short of a tree."""
    exact = total = 0
    for layout, specs, numbered in layouts:
        if layout.boss is not None:
            continue
        exits = sum(rolled_exits(layout, specs, numbered).values())
        shortfall = max(0, 2 * (len(layout.rooms) - 1) + 1 - exits)
        extra = sum(room.extra_doors for room in layout.rooms)
        assert extra >= shortfall
        exact += extra == shortfall
        total += 1
    assert exact > 0.7 * total


def test_doors_connections_and_directions_agree(layouts):
    for layout, _, _ in layouts:
        pairs = set()
        for room in layout.rooms:
            for door in room.doors:
                if door.to in (None, OUTSIDE):
                    continue
                other = layout.room(door.to)
                back = [o for o in other.doors if o.to == room.number]
                assert len(back) == 1 and back[0].side == {"N": "S", "S": "N", "E": "W", "W": "E"}[door.side]
                dx, dy = STEP[door.side]  # the other room lies that way on the map
                if dx:
                    assert (other.x >= room.x + room.w) if dx > 0 else (other.x + other.w <= room.x)
                else:
                    assert (other.y >= room.y + room.h) if dy > 0 else (other.y + other.h <= room.y)
                pairs.add(tuple(sorted((room.number, door.to))))
        assert pairs == set(layout.connections)


def test_rooms_never_overlap_and_keep_a_gap(layouts):
    for layout, _, _ in layouts:
        rooms = layout.rooms
        for i, a in enumerate(rooms):
            assert 0 <= a.x and a.x + a.w <= layout.width and 0 <= a.y and a.y + a.h <= layout.height
            for b in rooms[i + 1:]:
                apart = (a.x + a.w + 2 <= b.x or b.x + b.w + 2 <= a.x or
                         a.y + a.h + 2 <= b.y or b.y + b.h + 2 <= a.y)
                assert apart, (a, b)


def segments(corridor):
    points = corridor.points
    return list(zip(points, points[1:]))


def inside(point, room) -> bool:
    x, y = point
    return room.x < x < room.x + room.w and room.y < y < room.y + room.h


@pytest.mark.slow
def test_corridors_are_orthogonal_and_never_pass_through_rooms(layouts):
    for layout, _, _ in layouts:
        for corridor in layout.corridors:
            for (x0, y0), (x1, y1) in segments(corridor):
                assert x0 == x1 or y0 == y1, corridor
                for step in range(41):  # sample each segment every 1/40 of its length
                    point = (x0 + (x1 - x0) * step / 40, y0 + (y1 - y0) * step / 40)
                    assert not any(inside(point, room) for room in layout.rooms), (corridor, point)


def test_corridors_never_cross_each_other(layouts):
    for layout, _, _ in layouts[::5]:
        cells = {}
        for n, corridor in enumerate(layout.corridors):
            for (x0, y0), (x1, y1) in segments(corridor):
                steps = int(max(abs(x1 - x0), abs(y1 - y0)) * 4)
                for step in range(steps + 1):
                    t = step / steps if steps else 0
                    key = (round((x0 + (x1 - x0) * t) * 4), round((y0 + (y1 - y0) * t) * 4))
                    assert cells.setdefault(key, n) == n, (layout.corridors[cells[key]], corridor)


def test_the_boss_is_strictly_deepest_and_there_is_one_stairs_room(layouts):
    for layout, _, _ in layouts:
        depth = depths(layout)
        assert all(room.depth == depth[room.number] for room in layout.rooms)
        if layout.boss is not None:
            others = [v for number, v in depth.items() if number != layout.boss]
            assert depth[layout.boss] > max(others)
            assert layout.stairs == layout.boss
        else:
            assert depth[layout.stairs] == max(depth.values())
        numbers = [room.number for room in layout.rooms]
        assert numbers == list(range(1, len(numbers) + 1))
        assert [depth[n] for n in numbers] == sorted(depth[n] for n in numbers)  # numbered outward


def test_loops_happen(layouts):
    loops = sum(1 for layout, _, _ in layouts if len(layout.connections) >= len(layout.rooms))
    assert loops > 20


def test_same_rng_same_layout():
    specs = random_specs(5)
    assert plan_floor(specs, random.Random(9)) == plan_floor(specs, random.Random(9))
