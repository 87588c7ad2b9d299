"""The drawn map's properties over many seeds (the map SVG only, no PDF; it checks the floor plan and the drawing
together, so it mirrors no one module): every mark inside its room and off
every door's mouth, every door on a wall where its passage meets it, pillars standing inside their hall in
rows, every passage ruled with the floor grid a square apart, the player's map without a key secret, and
the same bytes for the same seed."""

from __future__ import annotations

import dataclasses
import math
import re
import xml.etree.ElementTree as ET

import pytest

from dungeonpress.dice import sub_rng
from dungeonpress.draw.dungeon_map import LABEL_PT, LARGE_LABEL_PT, draw_dungeon_map
from dungeonpress.draw.free_floor import NUMBER_HALF, Furnishing
from dungeonpress.draw.geometry import inside, segment_distance
from dungeonpress.draw.map_reading import read_rooms
from dungeonpress.draw.number_space import FIXED, ROOM_MM
from dungeonpress.draw.round_room import CUT
from dungeonpress.draw.number_space import gap as space_gap
from dungeonpress.draw.small_marks import PILLAR, statue
from dungeonpress.generate.dungeon import generate_dungeon
from dungeonpress.model.plan import OUTSIDE
from dungeonpress.products.dungeon import (BOOKLET_COVER_MAP, LARGE_PRINT_COVER_MAP, LARGE_PRINT_MAP_BOX, MAP_BOX,
                                           PACK_THUMB, ZINE_COVER_MAP, ZINE_LARGE_LABEL_PT)
from tests.conftest import slow_fixture

SVG = "{http://www.w3.org/2000/svg}"
SEEDS = range(200, 320)
EPS = 1e-6
INWARD = {"N": (0, 1), "S": (0, -1), "E": (-1, 0), "W": (1, 0)}
LABELS = {"standard": LABEL_PT, "large": LARGE_LABEL_PT}  # the map's least label sizes, and large print's
MOUTH = (0.5, 0.35)  # a door's mouth inside the room: half its width along the wall, its depth into the room


@pytest.fixture(scope="module")
def maps(content):
    """(seed, dungeon, clean drawing) for many seeds and room counts: the zine's A7 map box."""
    out = []
    for seed in SEEDS:
        dungeon = generate_dungeon(content, sub_rng(seed, "dungeon"), rooms=4 + seed % 9)
        out.append((seed, dungeon, draw_dungeon_map(dungeon, width_mm=MAP_BOX["zine-a4"][0], height_mm=MAP_BOX["zine-a4"][1],
                                                    rng=sub_rng(seed, "map"), title="Map")))
    return out


def _edge_distance(point, polygon) -> float:
    n = len(polygon)
    return min(segment_distance(point, polygon[i], polygon[(i + 1) % n]) for i in range(n))


def _within(point, polygon) -> bool:
    return inside(point, polygon) or _edge_distance(point, polygon) < EPS


def _mouth(door) -> tuple:
    """The box a door's mouth keeps clear just inside the room: the passage's width, a third of a square deep."""
    dx, dy = INWARD[door.side]
    half, depth = MOUTH
    if dx == 0:
        y0, y1 = sorted((door.y, door.y + dy * depth))
        return door.x - half, y0, door.x + half, y1
    x0, x1 = sorted((door.x, door.x + dx * depth))
    return x0, door.y - half, x1, door.y + half


def _overlap(a, b) -> bool:
    return a[0] < b[2] - EPS and b[0] < a[2] - EPS and a[1] < b[3] - EPS and b[1] < a[3] - EPS


def test_every_mark_lies_inside_its_room_and_off_every_doors_mouth(maps):
    marks = 0
    for seed, dungeon, drawing in maps:
        for number, item in drawing.items:
            room = dungeon.plan.room(number)
            floor = drawing.floors[number - 1]
            x0, y0, x1, y1 = item.box
            assert all(_within(p, floor) for p in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))), (seed, number, item.mark)
            for other in dungeon.plan.rooms:  # a door of any room: marks never spill into a passage either
                for door in other.doors:
                    assert not _overlap(item.box, _mouth(door)), (seed, number, item.mark, other.number, door)
            marks += 1
    assert marks >= 600


def test_every_door_sits_on_its_rooms_wall_where_its_passage_meets_it(maps):
    """The door's point and both ends of its gap lie on the drawn wall (straight across the gap, round room
    or cave), and a passage ends at the door, leaving the wall square to it."""
    rounds = 0
    for seed, dungeon, drawing in maps:
        ends = {}
        for corridor in dungeon.plan.corridors:
            ends.setdefault(corridor.points[0], []).append(corridor.points[1])
            ends.setdefault(corridor.points[-1], []).append(corridor.points[-2])
        looks = read_rooms(dungeon)
        for room, look in zip(dungeon.plan.rooms, looks):
            floor = drawing.floors[room.number - 1]
            rounds += look.shape == "round"
            for door in room.doors:
                along = (1, 0) if door.side in ("N", "S") else (0, 1)
                for t in ((-0.5, 0.0, 0.5) if look.shape != "cave" else (0.0,)):
                    point = (door.x + along[0] * t, door.y + along[1] * t)
                    assert _edge_distance(point, floor) < EPS, (seed, room.number, door, t)
                (nxt,) = ends[(door.x, door.y)]  # exactly one passage leaves the door, straight out of the wall
                dx, dy = INWARD[door.side]
                out = (nxt[0] - door.x, nxt[1] - door.y)
                assert out[0] * dy - out[1] * dx == 0 and out[0] * dx + out[1] * dy < 0, (seed, room.number, door)
    assert rounds >= 10


def test_a_round_shrines_doors_keep_off_its_curved_corners(maps):
    for seed, dungeon, drawing in maps:
        for room, look in zip(dungeon.plan.rooms, read_rooms(dungeon)):
            if look.shape != "round":
                continue
            for door in room.doors:
                offset = (door.x - room.x) if door.side in ("N", "S") else (door.y - room.y)
                length = room.w if door.side in ("N", "S") else room.h
                if length >= 3:
                    assert 1 < offset < length - 1, (seed, room.number, door)


def _pillars(svg: str) -> dict:
    """Each room's pillar centres and radii, read from the SVG's column marks."""
    out = {}
    for group in ET.fromstring(svg).iter(f"{SVG}g"):
        if group.get("data-mark") == "columns":
            for circle in group.iter(f"{SVG}circle"):
                if circle.get("class") == "column-base":
                    out.setdefault(int(group.get("data-room")), []).append(
                        (float(circle.get("cx")) / 10, float(circle.get("cy")) / 10, float(circle.get("r")) / 10))
    return out


def test_pillars_stand_inside_their_hall_in_rows(maps):
    halls = 0
    for seed, dungeon, drawing in maps:
        for number, pillars in _pillars(drawing.svg).items():
            halls += 1
            floor = drawing.floors[number - 1]
            for x, y, r in pillars:
                assert inside((x, y), floor) and _edge_distance((x, y), floor) >= r + 0.25, (seed, number, x, y)
                assert r <= PILLAR[1] + EPS
            room = dungeon.plan.room(number)
            if len(pillars) >= 4:  # a colonnade: every pillar has a neighbour in its row along the hall
                long_x = room.w >= room.h
                rows = {}
                for x, y, _ in pillars:
                    rows.setdefault(round(y if long_x else x, 6), []).append(x if long_x else y)
                assert all(len(row) >= 2 for row in rows.values()), (seed, number, rows)
    assert halls >= 10


def test_every_passage_is_ruled_a_square_apart(maps):
    """The floor grid runs across every passage: a line at each whole coordinate along each straight run."""
    for seed, dungeon, drawing in maps:
        root = ET.fromstring(drawing.svg)
        ticks = set()
        for path in root.iter(f"{SVG}path"):
            if path.get("class") == "grid":
                for x0, y0, cmd, v in re.findall(r"M([\d.]+) ([\d.]+)([VH])([\d.]+)", path.get("d")):
                    ticks.add((cmd, round(float(x0) / 10, 2), round(float(y0) / 10, 2)))
        runs = 0
        for corridor in dungeon.plan.corridors:
            for (x0, y0), (x1, y1) in zip(corridor.points, corridor.points[1:]):
                if y0 == y1:
                    wanted = {("V", float(k), round(y0 - 0.42, 2)) for k in range(math.floor(min(x0, x1)) + 1,
                                                                                   math.ceil(max(x0, x1)))}
                else:
                    wanted = {("H", round(x0 - 0.42, 2), float(k)) for k in range(math.floor(min(y0, y1)) + 1,
                                                                                  math.ceil(max(y0, y1)))}
                assert wanted <= ticks, (seed, corridor.start, corridor.end, sorted(wanted - ticks)[:3])
                runs += bool(wanted)
        assert runs >= len([c for c in dungeon.plan.corridors if c.end not in (None,)]) // 2


def test_doors_drawn_only_where_the_key_has_one(maps):
    """An exit the key gives as a plain passage is a gap in the wall; a leaf is drawn only for a barred or
    locked door the key states, and a ragged hole only where a room broke through."""
    for seed, dungeon, drawing in maps:
        root = ET.fromstring(drawing.svg)
        drawn = {(int(el.get("data-room")), el.get("data-side")): el.get("data-kind")
                 for el in root.iter() if el.get("data-kind")}
        for room in dungeon.rooms:
            placed = dungeon.plan.room(room.number)
            for door in placed.doors:
                kind = drawn[(room.number, door.side)]
                if door.extra:
                    assert kind == "broken"
                elif door.side == room.shut_door and room.shut_door and kind in ("barred", "locked"):
                    assert kind in room.marks, (seed, room.number)
                else:
                    assert kind == "open", (seed, room.number, door.side, kind)
        leaves = [el for el in root.iter(f"{SVG}rect") if re.search(r"\bdoor (barred|locked)\b", el.get("class", ""))]
        stated = sum(1 for room in dungeon.rooms for mark in room.marks if mark in ("barred", "locked"))
        assert len(leaves) == stated, seed


def test_the_players_map_shows_walls_and_doors_and_no_key_secret(content):
    for seed in range(40, 60):
        dungeon = generate_dungeon(content, sub_rng(seed, "dungeon"), rooms=8)
        keyed = draw_dungeon_map(dungeon, width_mm=64, height_mm=79, rng=sub_rng(seed, "map"), style="sketch")
        players = draw_dungeon_map(dungeon, width_mm=64, height_mm=79, rng=sub_rng(seed, "map"), style="sketch",
                                   players=True)
        root = ET.fromstring(players.svg)
        assert not players.items and not players.legend
        # no furnishing, pool, altar, stairs or lair (a niche's floor is wall, and shown)
        assert not [el for el in root.iter() if el.get("data-mark") not in (None, "alcoves")]
        assert sorted(t.text for t in root.iter(f"{SVG}text")) == ["30 ft", "N"]  # no room numbers
        walls = [el.get("d") for el in root.iter(f"{SVG}path") if el.get("class") == "wall"]
        keyed_walls = [el.get("d") for el in ET.fromstring(keyed.svg).iter(f"{SVG}path") if el.get("class") == "wall"]
        assert walls == keyed_walls and players.floors == keyed.floors
        assert players.doors == keyed.doors
        # its words for screen readers say how many rooms and where the way in is, and nothing of the key
        assert players.alt == (f"Dungeon map: {len(dungeon.rooms)} rooms joined by passages, the way in at the "
                               "bottom edge; nothing in the rooms is shown"), seed
        assert root.find(f"{SVG}desc").text == players.alt


@pytest.mark.parametrize("style", ["clean", "sketch"])
def test_the_same_seed_rebuilds_the_same_svg_bytes(content, style):
    for seed in (1234, 42, 2024, 7, 13, 66):
        svgs = {draw_dungeon_map(generate_dungeon(content, sub_rng(seed, "dungeon"), rooms=8), width_mm=64.2,
                                 height_mm=79, rng=sub_rng(seed, "map"), style=style).svg for _ in range(2)}
        assert len(svgs) == 1, seed


def test_marks_read_at_a7(maps):
    """On the zine's A7 panel every furnishing prints at least 0.4 mm across (cracks are lines along a wall; a
    half-pillar set in a wall is measured along it, and stands out at least 0.3 mm)."""
    for seed, _, drawing in maps:
        mm = drawing.size[0] / drawing.view[0]
        for number, item in drawing.items:
            if item.mark == "cracks":
                continue
            x0, y0, x1, y1 = item.box
            if 'class="column" d=' in item.svg:  # a pilaster
                assert max(x1 - x0, y1 - y0) * mm >= 0.4 and min(x1 - x0, y1 - y0) * mm >= 0.3, (seed, number)
                continue
            assert min(x1 - x0, y1 - y0) * mm >= 0.4, (seed, number, item.mark, item.box)


def test_property_checks_can_fail(maps):
    """A mark moved onto a door's mouth and a pillar pushed into the wall are both caught."""
    seed, dungeon, drawing = next(m for m in maps if _pillars(m[2].svg))
    room = dungeon.plan.rooms[0]
    door = room.doors[0]
    assert _overlap(_mouth(door), (door.x - 0.2, door.y - 0.2, door.x + 0.2, door.y + 0.2))
    number, pillars = next(iter(_pillars(drawing.svg).items()))
    floor = drawing.floors[number - 1]
    placed = dungeon.plan.room(number)
    assert _edge_distance((placed.x + 0.1, placed.y + 1), floor) < pillars[0][2] + 0.25


@pytest.mark.parametrize("labels", ["standard", "large"])
@pytest.mark.parametrize("box", [(60.0, 35.0), (92.0, 72.0), (64.2, 79.0)])  # the zine's cover, the A5 cover, A7
@pytest.mark.slow
def test_the_scale_label_keeps_clear_of_the_north_mark_on_a_small_map(content, box, labels):
    """On a cover's small outline the words keep 6 pt and outgrow the three-square bar: "30 ft" (about two ems
    wide, centred) still ends before the N begins (under one em, centred) wherever the two share the bottom strip."""
    for seed in range(40):
        dungeon = generate_dungeon(content, sub_rng(seed, "dungeon"), rooms=8 + seed % 5)
        root = ET.fromstring(draw_dungeon_map(dungeon, width_mm=box[0], height_mm=box[1], rng=sub_rng(seed, "map"),
                                              players=True, label_pt=LABELS[labels]).svg)
        texts = {t.text: t for t in root.iter(f"{SVG}text")}
        label, north = texts["30 ft"], texts["N"]
        size = {k: float(re.search(r"font-size:([\d.]+)px", t.get("style")).group(1)) for k, t in texts.items()}
        if abs(float(label.get("y")) - float(north.get("y"))) > size["N"]:
            continue  # the N stands in the top corner of a narrow map
        right = float(label.get("x")) + size["30 ft"]  # half of two ems
        left = float(north.get("x")) - 0.45 * size["N"]
        assert right < left, (seed, right, left)


def test_a_pillared_halls_rows_end_in_half_pillars_set_in_its_end_walls(maps):
    """Where a hall's rows end against walls with no door in the way, each row ends in a half-pillar at both
    walls, set on the wall line in line with the row; never one alone."""
    halls = 0
    for seed, dungeon, drawing in maps:
        by_room = {}
        for number, item in drawing.items:
            if 'class="column" d=' in item.svg:
                by_room.setdefault(number, []).append(item.box)
        for number, boxes in by_room.items():
            halls += 1
            room = dungeon.plan.room(number)
            rows = {round(y if room.w >= room.h else x, 6) for x, y, _ in _pillars(drawing.svg)[number]}
            assert len(boxes) == 2 * len(rows), (seed, number)
            for x0, y0, x1, y1 in boxes:
                if room.w >= room.h:  # rows run east-west: half-pillars on the west and east walls
                    assert x0 == room.x or x1 == room.x + room.w, (seed, number)
                    assert round((y0 + y1) / 2, 6) in rows
                else:
                    assert y0 == room.y or y1 == room.y + room.h, (seed, number)
                    assert round((x0 + x1) / 2, 6) in rows
    assert halls >= 3


def _door_square(door) -> tuple:
    """The square just inside a door: the way through, where no mark may stand."""
    dx, dy = INWARD[door.side]
    cx, cy = door.x + dx * 0.5, door.y + dy * 0.5
    return cx - 0.5, cy - 0.5, cx + 0.5, cy + 0.5


def _faces_a_centred_end(dungeon, room, door) -> bool:
    """Whether `door`'s passage runs straight to the middle of a hallway's two-square end."""
    if not isinstance(door.to, int) or door.to == OUTSIDE:
        return False
    other = dungeon.plan.room(door.to)
    back = next(d for d in other.doors if d.to == room.number)
    along = "x" if door.side in ("N", "S") else "y"
    return _end_offset(other, back) == 1.0 and getattr(back, along) == getattr(door, along)


def _corner_doors(dungeon) -> list:
    """(room, door) for each door in a corner square of a wall three or more squares long: one off its wall's
    squares is allowed half a square of wall to the nearer corner only across from a hallway's centred end."""
    out = []
    for room in dungeon.plan.rooms:
        for door in room.doors:
            length = room.w if door.side in ("N", "S") else room.h
            offset = (door.x - room.x) if door.side in ("N", "S") else (door.y - room.y)
            if length < 3 or 1 < offset < length - 1:
                continue
            if offset in (1, length - 1) and _faces_a_centred_end(dungeon, room, door):
                continue
            out.append((room.number, door))
    return out


def test_no_door_sits_in_a_corner_square(maps):
    """A door keeps off the corner squares of any wall three or more long, so its passage leaves the wall
    straight out and never runs flush along the next wall (a two-square wall has only corner squares). Across
    from a hallway's centred end, a door may stand on the grid line a square from the corner (half a square of
    wall beside it), so that the passage runs straight from the end's middle."""
    walls = 0
    for seed, dungeon, _ in maps:
        assert _corner_doors(dungeon) == [], seed
        walls += sum(1 for room in dungeon.plan.rooms for door in room.doors
                     if (room.w if door.side in ("N", "S") else room.h) >= 3)
    assert walls >= 1000


def _flanks(item, door) -> bool:
    """Whether `item` is a pillar standing on one of the two inner corners of the door's square (a colonnade's
    crossing one square in from the wall): it flanks the way in, a square apart from its twin, and is not in it."""
    if item.mark != "columns" or 'class="column" d=' in item.svg:
        return False
    x0, y0, x1, y1 = _door_square(door)
    dx, dy = INWARD[door.side]
    inner = [(x1 if dx > 0 else x0, y) for y in (y0, y1)] if dx else [(x, y1 if dy > 0 else y0) for x in (x0, x1)]
    centre = ((item.box[0] + item.box[2]) / 2, (item.box[1] + item.box[3]) / 2)
    return any(math.dist(centre, corner) < EPS for corner in inner)


def test_no_mark_stands_in_a_doors_square_or_on_another_mark(maps):
    """Whatever is drawn in a room (altar, crates, pools, stairs, statues) leaves the square inside every door
    free, but for a colonnade's pillars flanking the way in at its inner corners; no mark covers the room's number
    (cracks run along the wall) and no two marks of a room overlap."""
    marks = 0
    for seed, dungeon, drawing in maps:
        by_room = {}
        for number, item in drawing.items:
            by_room.setdefault(number, []).append(item)
        numbers = dict(drawing.numbers)
        for number, items in by_room.items():
            room = dungeon.plan.room(number)
            doors = room.doors
            figure = numbers[number]  # the middle, or beside a ritual space's altar
            for k, item in enumerate(items):
                marks += 1
                assert item.mark == "cracks" or not _overlap(item.box, figure), (seed, number, item.mark)  # the number
                assert not any(_overlap(item.box, _door_square(door)) and not _flanks(item, door) for door in doors), \
                    (seed, number, item.mark)
                for other in items[k + 1:]:
                    assert not _overlap(item.box, other.box), (seed, number, item.mark, other.mark)
    assert marks >= 600


def test_a_shrines_altar_stands_at_the_wall_across_from_its_way_in(maps):
    """The key's shrine has "an altar at its far wall": the altar's slab lies against the wall opposite the door a
    delver comes in by (the entrance, else the door from the lowest-numbered room), however many doors it has."""
    altars = 0
    for seed, dungeon, drawing in maps:
        for number, item in drawing.items:
            if item.mark == "altar":
                assert _at_far_wall(dungeon.plan.room(number), item.box), (seed, number, item.box)
                altars += 1
    assert altars >= 12  # (the ritual spaces' altars stand in the middle: the test below)


def _ritual_clear(room, ring, others, figure) -> bool:
    """Whether a ritual altar stands in the middle of its room with floor all round it: its ring's box centred on the
    room's middle, nothing else drawn inside it, and the room's number off it."""
    x0, y0, x1, y1 = ring.box
    centred = math.dist(((x0 + x1) / 2, (y0 + y1) / 2), (room.x + room.w / 2, room.y + room.h / 2)) < EPS
    return centred and not any(_overlap(ring.box, box) for box in [*(o.box for o in others), figure])


def test_a_ritual_spaces_altar_stands_in_the_middle_with_floor_round_it(maps):
    """"Ritual space around a stone altar": the altar stands in the room's middle inside its ring, clear of the walls,
    nothing else drawn inside the ring, the room's number moved beside it and still inside the room."""
    rituals = 0
    for seed, dungeon, drawing in maps:
        numbers = dict(drawing.numbers)
        for number, item in drawing.items:
            if item.mark != "ritual":
                continue
            room = dungeon.plan.room(number)
            others = [other for n, other in drawing.items if n == number and other is not item]
            assert _ritual_clear(room, item, others, numbers[number]), (seed, number)
            assert item.box[2] - item.box[0] >= 1.5, (seed, number)  # a ring one and a half squares across at least
            assert not _at_far_wall(room, item.box), (seed, number)
            fx0, fy0, fx1, fy1 = numbers[number]
            assert room.x <= fx0 and fx1 <= room.x + room.w and room.y <= fy0 and fy1 <= room.y + room.h
            rituals += 1
    assert rituals >= 8


def _two_colonnades(room, pillars) -> bool:
    """Whether a hall's pillars (x, y, r) stand in two rows down its length, one square in from each long wall."""
    long_x = room.w >= room.h
    span, start = (room.h, room.y) if long_x else (room.w, room.x)
    rows = {round((y if long_x else x) - start, 6) for x, y, _ in pillars}
    return rows == {1.0, float(span - 1)}


@pytest.mark.slow
def test_a_pillared_hall_keeps_both_colonnades_with_a_pool_or_crates_in_its_nave(maps, content):
    """A straight-walled pillared hall with a nave (four squares across or more) that also holds a pool, crates, a
    table, statues or rubble keeps both rows of pillars: those stand between the rows, not where a row would go."""
    halls = 0
    sweep = [*maps, *((seed, *_drawn(content, seed)) for seed in range(400, 460))]
    for seed, dungeon, drawing in sweep:
        pillars = _pillars(drawing.svg)
        for look in read_rooms(dungeon):
            room = dungeon.plan.room(look.number)
            if "columns" not in look.marks or not set(look.marks) & {"water", "crates", "furniture", "statues",
                                                                    "broken_statues", "rubble"}:
                continue
            if room.shape != "rect" or min(room.w, room.h) < 4 or "alcoves" in look.marks:
                continue
            assert _two_colonnades(room, pillars[look.number]), (seed, look.number, look.marks)
            halls += 1
    assert halls >= 10


def _drawn(content, seed):
    dungeon = generate_dungeon(content, sub_rng(seed, "dungeon"), rooms=4 + seed % 9)
    return dungeon, draw_dungeon_map(dungeon, width_mm=MAP_BOX["zine-a4"][0], height_mm=MAP_BOX["zine-a4"][1],
                                     rng=sub_rng(seed, "map"), title="Map")


def _hatch_margin_mm(drawing) -> float:
    """How near the sketch's hatching comes to the map's edge, in mm as printed."""
    w, h = drawing.view
    scale = drawing.size[0] / w
    return min(min(x, y, w - x, h - y) for band in drawing.hatch for x, y in band) * scale


@pytest.mark.parametrize("box", [*ZINE_COVER_MAP.values(), BOOKLET_COVER_MAP["a5"], LARGE_PRINT_COVER_MAP, PACK_THUMB])
@pytest.mark.slow
def test_a_sketched_outline_keeps_its_hatching_a_millimetre_inside_the_covers_frame(content, box):
    """The cover draws a frame round the map's edge: the hatching stops a millimetre short of it at least."""
    for seed in range(12):
        dungeon = generate_dungeon(content, sub_rng(seed, "dungeon"), rooms=8 + seed % 5)
        drawing = draw_dungeon_map(dungeon, width_mm=box[0], height_mm=box[1], rng=sub_rng(seed, "map"),
                                   style="sketch", players=True)
        assert _hatch_margin_mm(drawing) >= 1.0 - 1e-6, (seed, box)


def _end_offset(room, door):
    """How far along a two-square wall its door sits (1.0: the middle), or None for a longer wall."""
    length = room.w if door.side in ("N", "S") else room.h
    return None if length != 2 else (door.x - room.x if door.side in ("N", "S") else door.y - room.y)


def _kinked(corridor) -> bool:
    """Whether a passage jogs less than a square between its bends (a half-square kink)."""
    legs = [math.dist(a, b) for a, b in zip(corridor.points, corridor.points[1:])]
    return any(leg < 1 - EPS for leg in legs[1:-1])


def test_a_passage_leaves_a_hallways_two_square_end_centred(maps):
    """A passage a square wide through a hallway's two-square end leaves it from the middle, not flush with one of its
    walls: a dead end, the way out and every join, the room across meeting it straight or a square and a half off
    (its door on the grid line half a square off its wall's middle where it must). Only a round shrine, whose wall
    curves there, keeps the hallway's door in its cell, flush rather than kinked: no passage jogs less than a square."""
    ends = centred = 0
    for seed, dungeon, _ in maps:
        plan = dungeon.plan
        assert not any(_kinked(corridor) for corridor in plan.corridors), seed
        for room in plan.rooms:
            for door in room.doors:
                offset = _end_offset(room, door)
                if offset is None:
                    continue
                ends += 1
                centred += abs(offset - 1.0) < EPS
                assert abs(offset - 1.0) < EPS or _across_is_a_shrine(dungeon, door), (seed, room.number, door)
    assert ends >= 40 and centred >= 0.95 * ends, (ends, centred)  # 87 of 89 (before: 54 of 89; main: none)


def _across_is_a_shrine(dungeon, door) -> bool:
    """Whether `door` joins a round shrine."""
    return isinstance(door.to, int) and door.to != OUTSIDE and dungeon.plan.room(door.to).shape == "round"


def _grid_segments(svg: str) -> list:
    """Every straight line of the rooms' floor grid, in cells: ((x0, y0), (x1, y1))."""
    out = []
    for el in ET.fromstring(svg).iter(f"{SVG}path"):
        if el.get("class") == "grid":
            for m in re.finditer(r"M([\d.]+) ([\d.]+)L([\d.]+) ([\d.]+)", el.get("d")):
                x0, y0, x1, y1 = (float(v) / 10 for v in m.groups())
                out.append(((x0, y0), (x1, y1)))
    return out


def _lines_into_mouths(plan, segments) -> list:
    """(room, door) for each door whose mouth a grid line runs into: a line on the door's own axis reaching into the
    square inside it."""
    out = []
    for room in plan.rooms:
        for door in room.doors:
            dx, dy = INWARD[door.side]
            inner = (door.x + dx * 0.5, door.y + dy * 0.5)  # the middle of the square inside the door
            for (x0, y0), (x1, y1) in segments:
                on_axis = x0 == x1 == door.x if dy else y0 == y1 == door.y
                if on_axis and min(x0, x1) - EPS <= inner[0] <= max(x0, x1) + EPS and \
                        min(y0, y1) - EPS <= inner[1] <= max(y0, y1) + EPS:
                    out.append((room.number, door))
    return out


def test_no_grid_line_runs_into_a_doors_mouth(maps):
    """A passage centred on a grid line (through a hallway's end, or the door across from it) opens onto a square's
    width of floor: the room's grid line on its axis stops at the cross line a square in, not in the mouth."""
    on_lines = 0
    for seed, dungeon, drawing in maps:
        assert _lines_into_mouths(dungeon.plan, _grid_segments(drawing.svg)) == [], seed
        on_lines += sum(1 for room in dungeon.plan.rooms for door in room.doors
                        if float(door.x if door.side in ("N", "S") else door.y).is_integer())
    assert on_lines >= 80, on_lines


def _label_boxes(svg: str) -> list:
    """(text, printed pt, box in cells) of every word on a map: figures and letters about 0.7 em wide, 0.7 em tall
    over the baseline (room numbers are centred on x; "30 ft" and the N too)."""
    root = ET.fromstring(svg)
    mm_per_unit = float(root.get("width").removesuffix("mm")) / float(root.get("viewBox").split()[2])
    out = []
    for el in root.iter(f"{SVG}text"):
        size = float(re.search(r"font-size:([\d.]+)px", el.get("style")).group(1))
        x, y, em = float(el.get("x")) / 10, float(el.get("y")) / 10, size / 10
        half = 0.35 * em * len(el.text.replace(" ", ""))
        out.append((el.text, size * mm_per_unit * 72 / 25.4, (x - half, y - 0.7 * em, x + half, y)))
    return out


def _labels_clear(room, number_box, marks) -> bool:
    """Whether a room's number lies inside its room and off every mark in it (cracks run along the wall)."""
    x0, y0, x1, y1 = number_box
    inside_room = room.x - EPS <= x0 and x1 <= room.x + room.w + EPS and room.y - EPS <= y0 and y1 <= room.y + room.h + EPS
    return inside_room and not any(_overlap(number_box, item.box) for item in marks if item.mark != "cracks")


@pytest.mark.parametrize("box, labels", [(LARGE_PRINT_MAP_BOX["a5"], LARGE_LABEL_PT),
                                         (LARGE_PRINT_MAP_BOX["half-letter"], LARGE_LABEL_PT),
                                         (MAP_BOX["zine-a4"], ZINE_LARGE_LABEL_PT), (MAP_BOX["zine-a4"], LABEL_PT)])
@pytest.mark.slow
def test_large_print_sets_the_maps_labels_larger_and_they_keep_clear_of_the_marks(content, box, labels):
    """In large print a room number prints at 11 pt or more (9 on the zine's A7 map; smaller only where it must, to
    fit across its room, and never under 6 pt), "30 ft" and the N at 9 pt or more (8); each number lies inside its
    room and off every mark. The standard sizes keep the same rule."""
    larger = 0
    for seed in range(24):
        dungeon = generate_dungeon(content, sub_rng(seed, "dungeon"), rooms=4 + seed % 9)
        drawing = draw_dungeon_map(dungeon, width_mm=box[0], height_mm=box[1], rng=sub_rng(seed, "map"),
                                   label_pt=labels)
        for text, pt, where in _label_boxes(drawing.svg):
            if not text.isdigit():
                assert pt >= labels[1] - 0.01, (seed, text, pt)
                continue
            room = dungeon.plan.room(int(text))
            fits = (room.w - 0.1) * drawing.size[0] / drawing.view[0] * 72 / 25.4 / (0.7 * len(text))
            assert pt >= min(labels[0], fits) - 0.01 and pt >= 6.0, (seed, text, pt)  # (sizes print rounded)
            larger += pt >= labels[0] - 0.01
            marks = [item for n, item in drawing.items if n == room.number]
            assert _labels_clear(room, where, marks), (seed, text)
    assert larger >= 100


def _number_crowding(drawing, dungeon) -> list:
    """(room, mark, printed gap in mm) for each mark that a room's printed number stands closer to than ROOM_MM
    (pillars stand on their crossings, cracks along the wall, and a ritual ring is the number's to stand beside)."""
    mm = drawing.size[0] / drawing.view[0]
    out = []
    for text, _, where in _label_boxes(drawing.svg):
        if not text.isdigit():
            continue
        for n, item in drawing.items:
            if n == int(text) and item.mark not in FIXED and space_gap(where, item.box) * mm < ROOM_MM - 0.01:
                out.append((n, item.mark, round(space_gap(where, item.box) * mm, 2)))
    return out


@pytest.fixture(scope="module")
@slow_fixture
def large_print_zine_maps(content):
    """(seed, dungeon, drawing) of the large-print A7 zine's map: 9 pt numbers over squares about 2.5 mm wide."""
    out = []
    for seed in range(60):
        dungeon = generate_dungeon(content, sub_rng(seed, "dungeon"), rooms=8)
        out.append((seed, dungeon, draw_dungeon_map(dungeon, width_mm=MAP_BOX["zine-a4"][0],
                                                    height_mm=MAP_BOX["zine-a4"][1], rng=sub_rng(seed, "map"),
                                                    label_pt=ZINE_LARGE_LABEL_PT)))
    return out


def test_the_large_print_zines_room_numbers_have_room(large_print_zine_maps):
    """On the large-print A7 zine a number is as tall as a square: it moves to the clearest spot of its room and the
    marks still beside it are drawn smaller, so each number leaves ROOM_MM (0.6 mm) of paper round it to every mark
    (before: 85 of 960 rooms, seeds 1-120, closer than 0.4 mm); the marks keep to their floor, off each other and the doors' squares."""
    shrunk = 0
    for seed, dungeon, drawing in large_print_zine_maps:
        assert _number_crowding(drawing, dungeon) == [], seed
        for k, (number, item) in enumerate(drawing.items):
            room, floor = dungeon.plan.room(number), drawing.floors[number - 1]
            x0, y0, x1, y1 = item.box
            assert all(_within(p, floor) for p in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))), (seed, number, item.mark)
            assert not any(_overlap(item.box, _door_square(door)) and not _flanks(item, door) for door in room.doors)
            assert not any(n == number and _overlap(item.box, other.box) for n, other in drawing.items[k + 1:])
            shrunk += item.svg.startswith('<g transform="matrix(')
        for text, _, where in _label_boxes(drawing.svg):
            if text.isdigit():
                room = dungeon.plan.room(int(text))
                assert _labels_clear(room, where, [item for n, item in drawing.items if n == room.number]), (seed, text)
    assert shrunk >= 5, shrunk  # 8: most numbers find room by moving


def _uncut_corners(room, floor) -> list:
    """The corners of a room's rectangle its drawn floor keeps square though no door's gap is within CUT of them."""
    out = []
    for corner in ((room.x, room.y), (room.x + room.w, room.y), (room.x + room.w, room.y + room.h),
                   (room.x, room.y + room.h)):
        gap_near = any(math.dist((door.x, door.y), corner) < CUT + 0.5 + EPS for door in room.doors)
        if not gap_near and any(math.dist(p, corner) < EPS for p in floor):
            out.append(corner)
    return out


def test_a_grand_hall_is_drawn_with_its_corners_cut(maps):
    """The key's grand hall is drawn eight-sided: each corner cut straight across a square along both walls, but
    where a door's gap comes nearer (the wall stays straight across every gap); every other rectangle stays square."""
    halls = 0
    for seed, dungeon, drawing in maps:
        looks = read_rooms(dungeon)
        for room, look in zip(dungeon.plan.rooms, looks):
            floor = drawing.floors[room.number - 1]
            if look.shape != "hall":
                continue
            halls += 1
            assert look.words == "a grand hall", (seed, room.number)
            assert _uncut_corners(room, floor) == [], (seed, room.number)
    assert halls >= 20, halls


def _cut_corners(room, floor) -> list:
    """The corners of a room's rectangle that its drawn floor leaves out (cut across)."""
    corners = ((room.x, room.y), (room.x + room.w, room.y), (room.x + room.w, room.y + room.h), (room.x, room.y + room.h))
    return [c for c in corners if not any(math.dist(p, c) < EPS for p in floor)]


def test_a_small_chamber_with_debris_has_one_corner_fallen_in(maps):
    """The key's small chamber with debris is drawn with exactly one corner fallen in (cut straight across a square
    along both walls), the one farthest from its way in that no door's gap comes near."""
    chambers = 0
    for seed, dungeon, drawing in maps:
        for room, look in zip(dungeon.plan.rooms, read_rooms(dungeon)):
            if look.shape != "collapsed":
                continue
            chambers += 1
            floor = drawing.floors[room.number - 1]
            assert look.words == "a small chamber", (seed, room.number)
            (corner,) = _cut_corners(room, floor)
            assert all(any(math.dist(p, q) < EPS for p in floor)
                       for q in ((corner[0] + (1 if corner[0] == room.x else -1) * CUT, corner[1]),
                                 (corner[0], corner[1] + (1 if corner[1] == room.y else -1) * CUT))), (seed, room.number)
            way_in = min(room.doors, key=lambda door: door.to if door.to is not None else 99)
            free = [c for c in ((room.x, room.y), (room.x + room.w, room.y), (room.x + room.w, room.y + room.h),
                                (room.x, room.y + room.h))
                    if not any(math.dist((door.x, door.y), c) < CUT + 0.5 - EPS for door in room.doors)]
            far = max(math.dist(c, (way_in.x, way_in.y)) for c in free)
            assert abs(math.dist(corner, (way_in.x, way_in.y)) - far) < EPS, (seed, room.number)
    assert chambers >= 8, chambers


def _fallen(svg: str) -> bool:
    """Whether a statue's drawing shows it toppled and broken: most of its figure's points lie off its plinth, the
    figure in more than one piece, and chips of stone beside it (a whole statue's star stands inside its plinth)."""
    plinth = re.search(r'class="plinth" cx="([\d.-]+)" cy="([\d.-]+)" r="([\d.-]+)"', svg)
    figure = re.search(r'<path class="statue" d="([^"]+)"', svg)
    if not plinth or not figure:
        return False
    cx, cy, r = (float(v) for v in plinth.groups())
    points = [(float(x), float(y)) for x, y in re.findall(r"([\d.-]+) ([\d.-]+)", figure.group(1))]
    off = sum(1 for x, y in points if math.dist((x, y), (cx, cy)) > r)
    return off > len(points) / 2 and figure.group(1).count("M") >= 3 and 'class="rubble"' in svg


def test_a_broken_statue_is_drawn_fallen_from_its_plinth(maps):
    """"Broken statues": each is drawn toppled (the figure lying off its empty plinth in pieces, chips beside it) and
    inside its room, and a room whose key states only broken statues has no whole statue standing."""
    broken = 0
    for seed, dungeon, drawing in maps:
        looks = {look.number: look for look in read_rooms(dungeon)}
        for number, item in drawing.items:
            if item.mark == "broken_statues":
                assert _fallen(item.svg), (seed, number)
                broken += 1
            if item.mark == "statues":
                assert "statues" in looks[number].marks and not _fallen(item.svg), (seed, number)
    assert broken >= 10


def _at_far_wall(room, box) -> bool:
    """Whether `box` lies against the wall across from the room's way in."""
    far = {"N": "S", "S": "N", "E": "W", "W": "E"}
    way_in = min((door for door in room.doors if door.to is not None), key=lambda door: door.to)
    x0, y0, x1, y1 = box
    gap = {"N": y0 - room.y, "S": room.y + room.h - y1, "W": x0 - room.x, "E": room.x + room.w - x1}
    return gap[far[way_in.side]] < 0.3


def test_the_new_property_checks_can_fail(maps):
    """A door moved into a corner square, a mark moved onto a door's square, and an altar on a side wall are caught."""
    seed, dungeon, _ = maps[0]
    room = next(room for room in dungeon.plan.rooms if room.w >= 3 and room.h >= 3)
    door = room.doors[0]
    cornered = dataclasses.replace(door, x=room.x + 0.5) if door.side in ("N", "S") else \
        dataclasses.replace(door, y=room.y + 0.5)
    rooms = tuple(dataclasses.replace(r, doors=(cornered,)) if r is room else r for r in dungeon.plan.rooms)
    moved = dataclasses.replace(dungeon.plan, rooms=rooms)
    assert _corner_doors(dataclasses.replace(dungeon, plan=moved))
    square = _door_square(door)
    assert _overlap((square[2] - 0.1, square[3] - 0.1, square[2] + 0.2, square[3] + 0.2), square)  # a mark at its corner
    cx, cy = (square[0] + square[2]) / 2, (square[1] + square[3]) / 2
    in_the_way = Furnishing("columns", (cx - 0.27, cy - 0.27, cx + 0.27, cy + 0.27), "")
    assert _overlap(in_the_way.box, square) and not _flanks(in_the_way, door)  # a pillar in the mouth is caught
    way_in = min((door for door in room.doors if door.to is not None), key=lambda door: door.to)
    beside = "W" if way_in.side in ("N", "S") else "N"  # a side wall: a slab against it
    slab = (room.x + 0.1, room.y + 1, room.x + 0.5, room.y + 2) if beside == "W" else \
        (room.x + 1, room.y + 0.1, room.x + 2, room.y + 0.5)
    assert not _at_far_wall(room, slab)
    # One colonnade (or a row off its place) is not two.
    hall = dataclasses.replace(room, w=5, h=4)
    assert _two_colonnades(hall, [(hall.x + a, hall.y + b, 0.27) for a in (1, 2) for b in (1, 3)])
    assert not _two_colonnades(hall, [(hall.x + a, hall.y + 1, 0.27) for a in (1, 2, 3, 4)])
    assert not _two_colonnades(hall, [(hall.x + a, hall.y + b, 0.27) for a in (1, 2) for b in (1, 2)])
    # Hatching that runs to the map's edge is caught.
    near = dataclasses.replace(maps[0][2], hatch=(((0.05, 1.0), (2.0, 1.0), (2.0, 2.0)),), size=(30.0, 30.0), view=(10, 10))
    assert _hatch_margin_mm(near) < 1.0
    # A door flush in a hallway's end, and a half-square kink, are caught.
    hallway = dataclasses.replace(room, w=2, h=4)
    assert _end_offset(hallway, dataclasses.replace(door, side="N", x=hallway.x + 0.5, y=hallway.y)) == 0.5
    assert _end_offset(hallway, dataclasses.replace(door, side="W", x=hallway.x, y=hallway.y + 1.5)) is None
    assert not _across_is_a_shrine(dungeon, dataclasses.replace(door, to=None))
    # A door half a square from its corner that faces no hallway's centred end is caught.
    joined = next((r, d) for r in dungeon.plan.rooms for d in r.doors
                  if isinstance(d.to, int) and d.to != OUTSIDE and (r.w if d.side in ("N", "S") else r.h) >= 4)
    off = dataclasses.replace(joined[1], x=joined[0].x + 1.0) if joined[1].side in ("N", "S") else \
        dataclasses.replace(joined[1], y=joined[0].y + 1.0)
    assert not _faces_a_centred_end(dungeon, joined[0], off)
    rooms = tuple(dataclasses.replace(r, doors=tuple(off if d is joined[1] else d for d in r.doors))
                  if r is joined[0] else r for r in dungeon.plan.rooms)
    assert _corner_doors(dataclasses.replace(dungeon, plan=dataclasses.replace(dungeon.plan, rooms=rooms)))
    kink = dataclasses.replace(dungeon.plan.corridors[0], points=((0.0, 3.0), (2.0, 3.0), (2.0, 3.5), (5.0, 3.5)))
    assert _kinked(kink) and not _kinked(dataclasses.replace(kink, points=((0.0, 3.0), (2.0, 3.0), (2.0, 5.0))))
    # A grid line running on into a centred door's mouth is caught.
    end = next(r for _, dg, _ in maps for r in dg.plan.rooms if any(_end_offset(r, d) == 1.0 for d in r.doors))
    mouth = next(d for d in end.doors if _end_offset(end, d) == 1.0)
    dx, dy = INWARD[mouth.side]
    line = ((mouth.x, mouth.y), (mouth.x + dx * 2, mouth.y + dy * 2))
    plan_of = next(dg.plan for _, dg, _ in maps if end in dg.plan.rooms)
    assert (end.number, mouth) in _lines_into_mouths(plan_of, [line])
    cut = ((mouth.x + dx, mouth.y + dy), line[1])
    assert (end.number, mouth) not in _lines_into_mouths(plan_of, [cut])
    # A grand hall left square is caught.
    hall = dataclasses.replace(room, w=5, h=4, doors=())
    assert len(_uncut_corners(hall, ((hall.x, hall.y), (hall.x + 5, hall.y), (hall.x + 5, hall.y + 4),
                                     (hall.x, hall.y + 4)))) == 4
    # A chamber with no corner fallen in, or with two, is caught.
    assert _cut_corners(hall, ((hall.x, hall.y), (hall.x + 5, hall.y), (hall.x + 5, hall.y + 4), (hall.x, hall.y + 4))) == []
    assert len(_cut_corners(hall, ((hall.x + 1, hall.y), (hall.x + 5, hall.y), (hall.x + 5, hall.y + 3),
                                   (hall.x + 4, hall.y + 4), (hall.x, hall.y + 4), (hall.x, hall.y + 1)))) == 2
    # A mark a hair off a room's number is caught as crowding it.
    crowded = dataclasses.replace(draw_dungeon_map(dungeon, width_mm=MAP_BOX["zine-a4"][0], height_mm=MAP_BOX["zine-a4"][1],
                                                   rng=sub_rng(seed, "map"), label_pt=ZINE_LARGE_LABEL_PT), items=())
    number, _, where = next(label for label in _label_boxes(crowded.svg) if label[0].isdigit())
    beside = Furnishing("crates", (where[2] + 0.05, where[1], where[2] + 0.8, where[3]), "")
    crowded = dataclasses.replace(crowded, items=((int(number), beside),))
    assert _number_crowding(crowded, None) == [(int(number), "crates", round(0.05 * crowded.size[0] / crowded.view[0], 2))]
    # A number off its room, or on a mark, is caught.
    mark = Furnishing("crates", (room.x + 0.1, room.y + 0.1, room.x + 0.9, room.y + 0.9), "")
    assert _labels_clear(room, (room.x + 1.1, room.y + 1.1, room.x + 1.9, room.y + 1.9), [mark])
    assert not _labels_clear(room, (room.x + 0.5, room.y + 0.5, room.x + 1.5, room.y + 1.5), [mark])
    assert not _labels_clear(room, (room.x - 0.5, room.y + 1.1, room.x + 0.5, room.y + 1.9), [])
    # A whole statue is not a fallen one.
    assert not _fallen(statue(5, 5, 0.34).replace("<path", '<path class="rubble" d=""/><path', 1))
    # A ritual altar off the middle, or with the number (or a mark) inside its ring, is caught.
    cx, cy = room.x + room.w / 2, room.y + room.h / 2
    ring = Furnishing("ritual", (cx - 1.08, cy - 1.08, cx + 1.08, cy + 1.08), "")
    far = (cx + 2, cy + 2, cx + 3, cy + 3)
    assert _ritual_clear(room, ring, [], far)
    assert not _ritual_clear(room, dataclasses.replace(ring, box=(cx - 1.08, cy - 0.5, cx + 1.08, cy + 1.66)), [], far)
    assert not _ritual_clear(room, ring, [], (cx - 0.48, cy - 0.48, cx + 0.48, cy + 0.48))
    assert not _ritual_clear(room, ring, [Furnishing("crates", (cx + 0.5, cy, cx + 1.3, cy + 0.8), "")], far)


# the zine's cover, the A5 cover, a thumbnail (which hides its scale and N: large print keeps the standard sizes there)
@pytest.mark.parametrize("box, labels", [((60.0, 35.0), "standard"), ((92.0, 72.0), "standard"),
                                         ((26.0, 19.0), "standard"), ((60.0, 35.0), "large"), ((92.0, 72.0), "large")])
@pytest.mark.slow
def test_on_a_small_outline_the_scale_words_clear_the_bar_and_the_n_clears_the_edges(content, box, labels):
    """The words keep their printed size as the squares shrink: "30 ft" stands a third of its size over the bar
    (the old-style 3 hangs below the line), and the N keeps off the map's right and bottom edges, where a cover
    draws its frame."""
    for seed in range(30):
        dungeon = generate_dungeon(content, sub_rng(seed, "dungeon"), rooms=8 + seed % 5)
        drawing = draw_dungeon_map(dungeon, width_mm=box[0], height_mm=box[1], rng=sub_rng(seed, "map"), players=True,
                                   label_pt=LABELS[labels])
        root = ET.fromstring(drawing.svg)
        texts = {t.text: t for t in root.iter(f"{SVG}text")}
        size = {k: float(re.search(r"font-size:([\d.]+)px", t.get("style")).group(1)) for k, t in texts.items()}
        bar_top = min(float(r.get("y")) for r in root.iter(f"{SVG}rect") if "scale" in r.get("class", "").split())
        assert bar_top - float(texts["30 ft"].get("y")) >= 0.3 * size["30 ft"], seed
        width, height = (v * 10 for v in drawing.view)
        north = texts["N"]
        assert width - (float(north.get("x")) + 0.4 * size["N"]) >= 0.1 * size["N"], seed
        assert height - float(north.get("y")) >= 0.25 * size["N"], seed


def test_corner_marks_go_to_corners_the_dice_choose(maps):
    """Statues, crates and rubble go to corners, and which corners the dice choose: a pair lands in the two top
    corners about one time in six (sorted by place alone, when the ties went to the first cells, 41% did)."""
    pairs = top = 0
    for seed, dungeon, drawing in maps:
        by_room = {}
        for number, item in drawing.items:
            if item.mark in ("statues", "crates", "rubble"):
                by_room.setdefault((number, item.mark), []).append(item.box)
        for (number, _), boxes in by_room.items():
            room = dungeon.plan.room(number)
            if len(boxes) >= 2 and room.shape == "rect":
                pairs += 1
                top += all(box[1] < room.y + 1 for box in boxes)
    assert pairs >= 40
    assert top / pairs < 0.3, (top, pairs)


def test_a_large_room_with_only_crates_is_stacked_with_them(maps):
    """A storeroom (crates its only mark) of sixteen squares or more holds at least three piles, against its walls
    (drawn a rectangle: a grand hall's cut corners take four of its squares, and its number and doors more)."""
    stores = 0
    for seed, dungeon, drawing in maps:
        looks = read_rooms(dungeon)
        for room, look in zip(dungeon.plan.rooms, looks):
            if tuple(look.marks) != ("crates",) or look.shape != "rect" or room.w * room.h < 16 or look.stairs or look.boss:
                continue
            piles = [item.box for number, item in drawing.items if number == room.number and item.mark == "crates"]
            assert len(piles) >= 3, (seed, room.number)
            stores += 1
    assert stores >= 1  # (the grand halls that had crates alone are cut-cornered now)


@pytest.mark.slow
def test_every_altar_stands_at_the_far_wall_over_a_wider_sweep(content):
    """Over 300 more seeds: the altar is placed before the stairs and the lair (which took the far wall's only
    free square, seed 1108), and in a round shrine whose far wall curves away from every square it stands on the
    middle line against the curve (seed 1156's boss shrine)."""
    altars = 0
    for seed in range(1000, 1300):
        dungeon = generate_dungeon(content, sub_rng(seed, "dungeon"), rooms=4 + seed % 9)
        drawing = draw_dungeon_map(dungeon, width_mm=64, height_mm=79, rng=sub_rng(seed, "map"), title="Map")
        for number, item in drawing.items:
            if item.mark == "altar":
                assert _at_far_wall(dungeon.plan.room(number), item.box), (seed, number, item.box)
                altars += 1
    assert altars >= 50  # (half the shrines are ritual spaces, their altars in the middle)
