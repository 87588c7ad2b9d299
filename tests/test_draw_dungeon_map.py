"""The drawn dungeon map, over many seeds: doors match the key, marks inside rooms, hatching off the floor, fits its box."""

from __future__ import annotations

import math
import os
import random
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from dungeonpress.dice import sub_rng
from dungeonpress.draw.cave import cave_outline, smooth
from dungeonpress.draw.dungeon_map import ALCOVE, STYLES, _way_in, draw_dungeon_map, turned
from dungeonpress.draw.ell_room import ell_outline
from dungeonpress.draw.geometry import distance, inside, segment_distance, simple
from dungeonpress.draw.hatching import frame_cells
from dungeonpress.draw.map_marks import LEGEND, legend_icon
from dungeonpress.draw.map_reading import TYPE_WORDS, WORDS
from dungeonpress.generate.dungeon import generate_dungeon
from dungeonpress.views import dungeon as dungeon_views
from dungeonpress.products.dungeon import MAP_BOX
from tests.conftest import slow_fixture

SVG = "{http://www.w3.org/2000/svg}"
GOLDEN = Path(__file__).parent / "golden"
SEEDS = range(30)
# Each legend mark and a class only that mark's drawing uses, so the legend can be checked against the SVG.
MARK_CLASS = {"open": "door opening", "barred": "door barred", "locked": "door locked", "broken": "door broken", "dead": "dead",
              "stairs": "stairs", "boss": "boss", "columns": "column", "statues": "statue", "water": "water",
              "altar": "altar", "forge": "hearth", "vault": "chest", "library": "furniture", "crates": "furniture",
              "furniture": "furniture", "rubble": "rubble", "cracks": "crack"}
FURNITURE_BOXES = ("library", "crates", "furniture", "forge")  # they share the furniture class
SLABS = ("altar", "ritual", "statues", "broken_statues", "rubble")  # slabs, plinths, figures, stones: shared classes
ARCHITECTURE = {mark for mark, _ in LEGEND}


def dungeon_for(content, seed: int, rooms: int = 10):
    return generate_dungeon(content, sub_rng(seed, "dungeon"), rooms=rooms)


def draw(dungeon, seed: int, style: str = "sketch", box=(64.2, 79.0)):
    return draw_dungeon_map(dungeon, width_mm=box[0], height_mm=box[1], style=style,
                            rng=random.Random(f"{seed}/map"), title="Map")


@pytest.fixture(scope="module")
@slow_fixture
def drawn(content):
    """(dungeon, sketch drawing, clean drawing) for many seeds, drawn once."""
    out = []
    for seed in SEEDS:
        dungeon = dungeon_for(content, seed, rooms=3 + seed % 12)
        out.append((seed, dungeon, draw(dungeon, seed, "sketch"), draw(dungeon, seed, "clean")))
    return out


def room_floor(drawing, dungeon, number):
    return drawing.floors[number - 1]  # rooms come first, in key order


def test_drawn_doors_are_the_keys_exits(drawn):
    for _, dungeon, sketch, clean in drawn:
        for drawing in (sketch, clean):
            expected = [(room.number, i) for room in dungeon.plan.rooms for i in range(len(room.doors))]
            assert [(n, i) for n, i, *_ in drawing.doors] == expected
            svg = ET.fromstring(drawing.svg)
            assert sum(1 for r in svg.iter() if r.get("class", "").startswith("door")) == len(expected)
            assert sum(1 for r in svg.iter() if r.get("data-kind")) == len(expected)
            for room in dungeon.plan.rooms:
                for door in room.doors:  # every door sits on its room's wall, straight or cave
                    assert distance((door.x, door.y), room_floor(drawing, dungeon, room.number)) < 1e-6
                    assert _on_edge((door.x, door.y), room_floor(drawing, dungeon, room.number))


def _on_edge(point, polygon) -> bool:
    n = len(polygon)
    return min(segment_distance(point, polygon[i], polygon[(i + 1) % n]) for i in range(n)) < 1e-6


def test_barred_and_locked_doors_only_where_the_key_says(drawn):
    for _, dungeon, sketch, _ in drawn:
        for room in dungeon.rooms:
            for kind in ("barred", "locked"):
                shut = [i for n, i, _, k in sketch.doors if n == room.number and k == kind]
                assert len(shut) == (1 if kind in room.marks else 0)
            broken = [i for n, i, _, k in sketch.doors if n == room.number and k == "broken"]
            assert broken == [i for i, door in enumerate(dungeon.plan.room(room.number).doors) if door.extra]


def test_marks_lie_inside_their_room(drawn):
    for _, dungeon, sketch, clean in drawn:
        for drawing in (sketch, clean):
            for number, item in drawing.items:
                floor = room_floor(drawing, dungeon, number)
                x0, y0, x1, y1 = item.box
                for corner in ((x0, y0), (x1, y0), (x1, y1), (x0, y1)):
                    assert inside(corner, floor) or _on_edge(corner, floor), (number, item.mark, item.box)


def test_marks_are_the_ones_the_key_states(drawn):
    seen = set()
    for _, dungeon, sketch, _ in drawn:
        for room in dungeon.rooms:
            marks = {item.mark for n, item in sketch.items if n == room.number}
            seen |= marks
            assert marks - {"stairs", "boss"} == set(room.marks) - {"barred", "locked", "alcoves"}, room
            if room.type.value == 8:
                assert not room.type.marks  # a trapped room looks like any other room
            assert ("stairs" in marks) == (room.number == dungeon.plan.stairs)
            assert ("boss" in marks) == (room.number == dungeon.plan.boss)
    assert {"columns", "water", "altar", "rubble", "statues"} <= seen


@pytest.mark.slow
def test_caves_are_irregular_and_never_cross_themselves():
    rng = random.Random("caves")
    for _ in range(300):
        w, h = rng.randint(2, 6), rng.randint(2, 6)
        doors = [(3 + rng.randint(0, w - 1) + 0.5, 5.0), (3.0 + w, 5 + rng.randint(0, h - 1) + 0.5)]
        control = cave_outline(3, 5, w, h, doors, rng)
        assert simple(control) and simple(smooth(control))
        angles = [math.atan2(y - (5 + h / 2), x - (3 + w / 2)) for x, y in control]
        turns = sum(1 for a, b in zip(angles, angles[1:]) if b < a)
        assert turns <= 1  # star-shaped: the angle round the centre only wraps once
        assert all(3 <= x <= 3 + w and 5 <= y <= 5 + h for x, y in control)
        for door in doors:
            assert _on_edge(door, smooth(control))


def test_hatching_is_one_pattern_filling_bands_the_floors_are_painted_over(drawn):
    """The sketch's rock: one tiling pattern, one path of bands filled with it, under every floor and passage;
    every floor lies inside a band, so the hatching reaches each wall. The clean style has none."""
    for _, _, sketch, clean in drawn:
        assert not clean.hatch and "<pattern" not in clean.svg
        assert len(sketch.hatch) == len(sketch.floors)
        root = ET.fromstring(sketch.svg)
        patterns = list(root.iter(f"{SVG}pattern"))
        assert len(patterns) == 1 and len(patterns[0]) == 1
        pattern_id = patterns[0].get("id")
        order = [el for el in root if el.tag != f"{SVG}defs"]
        classes = [el.get("class") for el in order]
        assert classes.count("hatch-band") == 1
        band = classes.index("hatch-band")
        assert order[band].get("fill") == f"url(#{pattern_id})"
        assert band < classes.index("passage") and band < classes.index("floor")
        w, h = sketch.view
        edge = frame_cells(sketch.size[0] / w) + 0.05  # the margin the hatching keeps clear of the map's edge
        for floor in sketch.floors:  # (the entrance passage runs on off the map's edge: its corners are taken there)
            on_map = [(min(max(x, edge), w - edge), min(max(y, edge), h - edge)) for x, y in floor]
            assert any(all(inside(p, area) for p in on_map) for area in sketch.hatch), floor


def test_nothing_is_drawn_outside_the_view_box(drawn):
    for _, dungeon, sketch, clean in drawn:
        for drawing in (sketch, clean):
            w, h = (v * 10 for v in drawing.view)
            for x, y in _coordinates(drawing.svg):
                assert -0.01 <= x <= w + 0.01 and -0.01 <= y <= h + 0.01, (x, y)


def _coordinates(svg: str):
    """Every (x, y) an SVG of ours draws at: path points, rect corners, circle extremes, text anchors."""
    root = ET.fromstring(svg)
    for el in root.iter():
        tag = el.tag.removeprefix(SVG)
        if tag == "path":
            yield from _path_points(el.get("d"))
        elif tag == "rect" and el.get("transform") is None:
            x, y, w, h = (float(el.get(k)) for k in ("x", "y", "width", "height"))
            yield from ((x, y), (x + w, y + h))
        elif tag == "circle":
            cx, cy, r = (float(el.get(k)) for k in ("cx", "cy", "r"))
            yield from ((cx - r, cy - r), (cx + r, cy + r))
        elif tag == "text":
            yield float(el.get("x")), float(el.get("y"))


def _path_points(d: str):
    x = y = 0.0
    for command, args in re.findall(r"([MLHVQZ])([^MLHVQZ]*)", d):
        values = [float(v) for v in re.findall(r"-?[\d.]+", args)]
        if command == "H":
            x = values[0]
        elif command == "V":
            y = values[0]
        elif command in "MLQ":
            for i in range(0, len(values), 2):
                x, y = values[i], values[i + 1]
                yield x, y
            continue
        else:
            continue
        yield x, y


@pytest.mark.parametrize("box", sorted(MAP_BOX))
@pytest.mark.slow
def test_the_map_fills_its_box(content, box):
    width, height = MAP_BOX[box]
    for seed in range(12):
        for rooms in (3, 8, 12, 20, 30):
            dungeon = dungeon_for(content, seed, rooms)
            drawing = draw(dungeon, seed, "clean", (width, height))
            w, h = drawing.size
            assert w <= width + 0.01 and h <= height + 0.01
            assert w >= 0.7 * width or h >= 0.7 * height


@pytest.mark.parametrize("box", ["zine-a4", "zine-letter"])
@pytest.mark.slow
def test_the_printed_map_fills_the_zine_box_with_its_legend(content, box):
    """The product shrinks the map for a long legend, or sets the legend beside a tall map; it still fills
    at least 70% of its box, and a tall map beside its legend prints its squares larger than above it."""
    width, height = MAP_BOX[box]
    beside = 0
    for seed in range(12):
        for rooms in (8, 10, 11, 12):
            view = dungeon_views.dungeon_view(dungeon_for(content, seed, rooms), seed=seed, rooms=rooms, prefix="d1",
                                              map_box=(width, height), oracle_rows=1, twists=1, d6s=1, compact=True,
                                              map_rng=sub_rng(seed, "map"))
            svg = ET.fromstring(view["map"])
            w, h = (float(svg.get(k).removesuffix("mm")) for k in ("width", "height"))
            assert w >= 0.7 * width or h >= 0.7 * height
            if view["map_legend_side"]:
                beside += 1
                assert w + dungeon_views.side_legend_width([m for m, _ in LEGEND if any(
                    e["label"] == dict(LEGEND)[m] for e in view["map_legend"])]) <= width + 0.01
    assert beside  # tall maps happen


def _printed_words(svg: str):
    """(text, printed size in pt) for every word on a map SVG: its own font size times the SVG's scale."""
    root = ET.fromstring(svg)
    mm_per_unit = float(root.get("width").removesuffix("mm")) / float(root.get("viewBox").split()[2])
    for el in root.iter(f"{SVG}text"):
        size = re.search(r"font-size:([\d.]+)px", el.get("style") or "")
        assert size, f"{el.text!r} has no size of its own"
        yield el, float(size.group(1)) * mm_per_unit * 72 / 25.4


@pytest.mark.parametrize("box", sorted(MAP_BOX))
@pytest.mark.slow
def test_every_word_on_the_printed_map_is_six_points_or_more(content, box):
    """Room numbers, the scale bar's label and the north mark, at their printed size on every layout and paper."""
    compact = box.startswith("zine")
    for seed in range(8):
        for rooms in ((3, 8, 11, 12) if compact else (3, 12, 30)):
            dungeon = dungeon_for(content, seed, rooms)
            view = dungeon_views.dungeon_view(dungeon, seed=seed, rooms=rooms, prefix="d1", map_box=MAP_BOX[box],
                                              oracle_rows=1, twists=1, d6s=1, compact=compact,
                                              map_rng=sub_rng(seed, "map"))
            words = list(_printed_words(view["map"]))
            assert sorted(el.text for el, _ in words) == sorted([str(n) for n in range(1, rooms + 1)] + ["30 ft", "N"])
            small = [(el.text, round(pt, 2)) for el, pt in words if pt < 6.0]
            assert not small, (seed, rooms, small)
            # A room's number stays inside its room (figures about 0.7 em wide, 0.7 em tall).
            for el, _ in words:
                if el.text.isdigit():
                    room = dungeon.plan.rooms[int(el.text) - 1]
                    size = float(re.search(r"font-size:([\d.]+)px", el.get("style")).group(1)) / 10
                    x, y = float(el.get("x")) / 10, float(el.get("y")) / 10
                    half = 0.35 * size * len(el.text)
                    assert room.x <= x - half and x + half <= room.x + room.w, (seed, rooms, el.text)
                    assert room.y <= y - 0.7 * size and y <= room.y + room.h, (seed, rooms, el.text)


def test_twelve_rooms_read_on_an_a7_panel(content):
    """On the zine's A7 page a square stays at least 1.4 mm, so a room number is over 1.3 mm tall."""
    for seed in range(20):
        drawing = draw(dungeon_for(content, seed, 12), seed, "clean", MAP_BOX["zine-a4"])
        assert drawing.size[0] / drawing.view[0] >= 1.4


def test_the_map_gives_nothing_away(drawn):
    for _, dungeon, sketch, clean in drawn:
        for drawing in (sketch, clean):
            assert {item.mark for _, item in drawing.items} <= ARCHITECTURE
            root = ET.fromstring(drawing.svg)
            texts = [t.text for t in root.iter(f"{SVG}text")]
            rooms = [str(n) for n in range(1, len(dungeon.rooms) + 1)]
            assert sorted(texts) == sorted(rooms + ["30 ft", "N"])
            words = {w.lower() for room in dungeon.rooms for chain in (room.encounter, room.trap, room.treasure)
                     if chain for roll in chain.rolls for w in re.findall(r"[a-z]{5,}", roll.text.lower())}
            words -= {w for text in [*WORDS.values(), *TYPE_WORDS.values(), *(label for _, label in LEGEND)]
                      for w in re.findall(r"[a-z]{5,}", text)} | {"alcoves", "north", "south", "stairs", "chamber", "square", "comes", "feet", "exits"}  # the alt text's fixed sentences
            shown = " ".join([*texts, drawing.alt, root.find(f"{SVG}title").text]).lower()  # all the words it shows
            assert not [w for w in words if re.search(rf"\b{w}\b", shown)]


def test_legend_lists_exactly_the_marks_used(drawn):
    for _, _, sketch, _ in drawn:
        classes = set(re.findall(r'class="([^"]+)"', sketch.svg))
        for mark, css_class in MARK_CLASS.items():
            if mark in FURNITURE_BOXES + SLABS:
                continue  # they draw furniture boxes or slabs; checked through the items
            assert (mark in sketch.legend) == (css_class in classes), mark
        boxes = set(FURNITURE_BOXES + SLABS)
        assert boxes & set(sketch.legend) == {i.mark for _, i in sketch.items} & boxes
        alcoves = [f for f in sketch.floors if sorted(round(v, 2) for v in _size(f)) == sorted(ALCOVE)]
        assert ("alcoves" in sketch.legend) == bool(alcoves)
        for mark in sketch.legend:
            assert legend_icon(mark).startswith("<svg")


def drawing_alcoves(drawing):
    """(room number, niche floor) for each alcove drawn, read from the SVG's alcove floors."""
    root = ET.fromstring(drawing.svg)
    return [(int(el.get("data-room")), el.get("d")) for el in root.iter(f"{SVG}path") if el.get("data-mark") == "alcoves"]


def _size(polygon):
    xs, ys = [p[0] for p in polygon], [p[1] for p in polygon]
    return max(xs) - min(xs), max(ys) - min(ys)


def test_alt_text_describes_every_room(drawn):
    for _, dungeon, sketch, _ in drawn:
        for room in dungeon.plan.rooms:
            assert f"Room {room.number}, " in sketch.alt
        root = ET.fromstring(sketch.svg)
        assert root.get("role") == "img" and root.get("aria-label") == sketch.alt
        assert root.find(f"{SVG}desc").text == sketch.alt
        assert "trap" not in sketch.alt.lower() and "treasure" not in sketch.alt.lower()


@pytest.mark.parametrize("style", STYLES)
def test_same_seed_same_bytes_and_same_rooms_in_both_styles(content, style):
    dungeon = dungeon_for(content, 4242)
    first, again = draw(dungeon, 4242, style), draw(dungeon_for(content, 4242), 4242, style)
    assert first.svg == again.svg
    other = draw(dungeon, 4242, "clean" if style == "sketch" else "sketch")
    assert [(n, i.mark, i.box) for n, i in first.items] == [(n, i.mark, i.box) for n, i in other.items]


@pytest.mark.parametrize("seed,style", [(1, "clean"), (7, "clean"), (23, "clean"), (7, "sketch")])
def test_golden_svg(content, seed, style):
    """The SVG text for a few seeds; a change to the drawing shows up here in review.

    Regenerate after an intended change with UPDATE_GOLDEN=1.
    """
    svg = draw(dungeon_for(content, seed, 10), seed, style).svg
    path = GOLDEN / f"map-{seed}-{style}.svg"
    if os.environ.get("UPDATE_GOLDEN"):
        path.parent.mkdir(exist_ok=True)
        path.write_text(svg + "\n", encoding="utf-8")
    assert svg + "\n" == path.read_text(encoding="utf-8")


def test_shrines_are_drawn_round_caves_rough_and_the_rest_square(drawn):
    """Room shapes follow the room type; the drawing lists every room walled off its rectangle (a hallway's
    niches are cut into its wall), and the alt text calls a round room round."""
    from dungeonpress.draw.map_reading import read_rooms
    rounds = 0
    for _, dungeon, sketch, clean in drawn:
        looks = read_rooms(dungeon)
        for drawing in (sketch, clean):
            shaped = dict(drawing.outlines)
            for room, look in zip(dungeon.plan.rooms, looks):
                floor = drawing.floors[room.number - 1]
                square = (room.x, room.y), (room.x + room.w, room.y), (room.x + room.w, room.y + room.h), (room.x, room.y + room.h)
                niched = any(n == room.number for n, _ in drawing_alcoves(drawing))
                # a workroom is drawn in an L unless no corner's block keeps clear of every door's gap
                walled = look.shape != "rect" and look.shape != "ell" or look.shape == "ell" and ell_outline(
                    room.x, room.y, room.w, room.h, [(d.x, d.y) for d in room.doors], _way_in(room)) is not None
                assert (room.number in shaped) == (walled or niched) == (tuple(floor) != square), room.number
                if look.shape == "round":
                    rounds += 1
                    assert look.words == "a shrine" and f"Room {room.number}, a round shrine" in drawing.alt
    assert rounds >= 4


def test_a_turned_map_prints_on_its_side_with_the_same_drawing(content):
    """Turned a quarter to the left: printed size and view box swapped, all it draws in one group turned about the
    view's corner, its title and description first; its marks, numbers and cells are the map's own."""
    drawing = draw(dungeon_for(content, 24, 8), 24, "clean", (84.0, 59.8))
    side = turned(drawing)
    root = ET.fromstring(side.svg)
    (w, h), (cells_w, cells_h) = drawing.size, drawing.view
    assert side.size == (h, w) and side.view == drawing.view and side.items == drawing.items
    assert [float(root.get(k).removesuffix("mm")) for k in ("width", "height")] == pytest.approx([h, w], abs=0.01)
    assert root.get("viewBox") == f"0 0 {cells_h * 10} {cells_w * 10}" and "map-turned" in root.get("class")
    assert [child.tag.removeprefix(SVG) for child in root][:2] == ["title", "desc"]
    group = root.find(f"{SVG}g")
    assert group.get("transform") == f"translate(0 {cells_w * 10}) rotate(-90)"
    assert group[0].get("class") == "paper" and len(list(group.iter())) == len(list(ET.fromstring(drawing.svg).iter())) - 2


@pytest.mark.slow
def test_a_wide_map_on_a_zine_page_is_turned_only_where_that_prints_its_squares_larger(content):
    """A zine's tall page: a map turned on its side prints its squares TURN_GAIN larger than upright in the same box
    (legend under it either way); a booklet's map is never turned."""
    width, height = MAP_BOX["zine-letter"]
    turned_seeds = []
    for seed in range(40):
        dungeon = dungeon_for(content, seed, 8)
        view = dungeon_views.dungeon_view(dungeon, seed=seed, rooms=8, prefix="d1", map_box=(width, height),
                                          oracle_rows=1, twists=1, d6s=1, compact=True, map_rng=sub_rng(seed, "map"))
        root = ET.fromstring(view["map"])
        assert view["map_turned"] == ("map-turned" in root.get("class"))  # the zine says so over the map
        if "map-turned" not in root.get("class"):
            continue
        turned_seeds.append(seed)
        printed = float(root.get("height").removesuffix("mm")) / float(root.get("viewBox").split()[3])
        upright = draw_dungeon_map(dungeon, width_mm=width, height_mm=height, rng=sub_rng(seed, "map"))
        assert printed >= upright.size[0] / (upright.view[0] * 10) * dungeon_views.TURN_GAIN, seed
        booklet = dungeon_views.dungeon_view(dungeon, seed=seed, rooms=8, prefix="d1", map_box=MAP_BOX["a5"],
                                             oracle_rows=1, twists=1, d6s=1, compact=False, map_rng=sub_rng(seed, "map"))
        assert "map-turned" not in booklet["map"] and not booklet["map_turned"]
    assert 1 <= len(turned_seeds) <= 8, turned_seeds  # wide maps happen, and most maps stand upright
