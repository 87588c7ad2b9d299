"""draw.map_marks: the marks a map draws → its legend, icons, alt text, scale bar and north arrow."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest

from dungeonpress.draw.map_marks import (LEGEND, SCALE_CELLS, TEXT_PT, describe, legend_icon, legend_label,
                                         legend_marks, scale_and_north)
from dungeonpress.draw.map_reading import RoomLook
from dungeonpress.draw.pen import UNIT
from dungeonpress.model.plan import OUTSIDE, Corridor, Door, FloorPlan, PlacedRoom


def look(number, *, marks=(), barred=(), boss=False, stairs=False, cave=False, words="a room"):
    return RoomLook(number=number, cave=cave, marks=marks, barred=barred, boss=boss, stairs=stairs,
                    entrance=number == 1, words=words)


def plan(width=20, corridors=None) -> FloorPlan:
    rooms = (
        PlacedRoom(1, 0, 8, 10, 4, 3, 0, (Door("N", 10, 10, 2), Door("E", 12, 11, 3), Door("S", 10, 13, OUTSIDE))),
        PlacedRoom(2, 1, 8, 2, 4, 4, 1, (Door("S", 10, 6, 1),)),
        PlacedRoom(3, 2, 14, 10, 3, 3, 1, (Door("W", 14, 11, 1), Door("N", 15, 10, None))),
    )
    if corridors is None:
        corridors = (Corridor(1, 2, ((10, 10), (10, 6))), Corridor(1, OUTSIDE, ((10, 13), (10, 15))))
    return FloorPlan(rooms=rooms, connections=((1, 2), (1, 3)), corridors=corridors, entrance=1, stairs=3, boss=2,
                     width=width, height=16)


LOOKS = (look(1, words="a grand hall", marks=("columns",)), look(2, boss=True, marks=("altar", "water")),
         look(3, stairs=True, barred=(1,), cave=True))


def test_legend_marks_lists_only_what_the_map_draws_in_legend_order():
    items = [((0, 0), SimpleNamespace(mark="water")), ((1, 1), SimpleNamespace(mark="columns"))]
    doors = [(1, 0, False, "open")]
    assert legend_marks(plan(), LOOKS[:2], items, alcoves=False, doors=doors) == ("entrance", "open", "columns", "water")
    dead = plan(corridors=(Corridor(3, None, ((15, 10), (15, 8))),))
    assert legend_marks(dead, LOOKS, [], alcoves=True, doors=[(3, 1, True, "barred"), (3, 0, False, "locked")]) == (
        "entrance", "barred", "locked", "dead", "alcoves")


def test_every_legend_mark_has_a_label_and_an_icon():
    assert legend_label("boss") == "boss's lair" and legend_label("stairs") == "stairs down"
    for mark, _ in LEGEND:
        icon = legend_icon(mark)
        assert icon.startswith("<svg") and icon.endswith("</svg>") and 'viewBox="0 0 16 16"' in icon
        assert "<style>" not in icon
    assert "<style>.door{fill:red}</style>" in legend_icon("barred", ".door{fill:red}")
    with pytest.raises(KeyError):
        legend_icon("dragon")


DRAWN = [(1, SimpleNamespace(mark="columns")), (2, SimpleNamespace(mark="boss")), (2, SimpleNamespace(mark="altar")),
         (2, SimpleNamespace(mark="water")), (2, SimpleNamespace(mark="altar")), (3, SimpleNamespace(mark="stairs"))]
DOORS = [(1, 0, False, "open"), (1, 1, False, "broken"), (1, 2, False, "open"), (2, 0, False, "locked"),
         (3, 0, False, "open"), (3, 1, True, "barred")]


def test_describe_reads_each_room_what_was_drawn_and_where_its_exits_lead():
    dungeon = SimpleNamespace(plan=plan())
    text = describe(dungeon, LOOKS, "Level 1", DRAWN, [(1, "alcove polygon")], DOORS)
    assert text.startswith("Level 1, north up, one square ten feet. The way in comes from the south into room 1. ")
    assert ("Room 1, a grand hall with columns and alcoves; exits north to room 2, a hole broken east to room 3 "
            "and south to the way out.") in text
    assert "Room 2, a room, the boss's lair with an altar and a pool; exit a locked door south to room 1." in text
    assert "Room 3, a cave; exits west to room 1 and a barred door north to a dead end; stairs down." in text


def test_describe_names_no_mark_that_was_not_drawn():
    # the looks ask for columns, an altar, water, a barred door, the boss and stairs: nothing was drawn
    text = describe(SimpleNamespace(plan=plan()), LOOKS, "Level 1")
    assert "Room 1, a grand hall; exits north to room 2, east to room 3 and south to the way out." in text
    assert "Room 2, a room; exit south to room 1." in text
    assert "Room 3, a cave; exits west to room 1 and north to a dead end." in text
    for word in ("column", "altar", "pool", "barred", "boss", "stairs"):
        assert word not in text


def scale_text_size(svg: str) -> float:
    return float(re.search(r'class="scale-text"[^>]*font-size:([\d.]+)px', svg).group(1))


def test_scale_bar_has_three_squares_labelled_thirty_feet_and_a_north_arrow():
    svg = scale_and_north(plan(), scale_mm=5.0)
    assert svg.count('class="scale') - svg.count('class="scale-text') == SCALE_CELLS
    assert svg.count("scale-fill") == 2 and ">30 ft</text>" in svg and ">N</text>" in svg


@pytest.mark.parametrize("scale_mm", [2.0, 3.0, 5.0, 8.0])
def test_scale_words_never_print_under_the_least_size(scale_mm):
    size_units = scale_text_size(scale_and_north(plan(), scale_mm=scale_mm))
    printed_pt = size_units * scale_mm / UNIT * 72 / 25.4
    assert printed_pt >= TEXT_PT - 1e-9


def test_scale_bar_keeps_clear_of_the_way_in():
    for width in (12, 20, 30):
        svg = scale_and_north(plan(width=width), scale_mm=5.0)
        xs = [float(x) / UNIT for x in re.findall(r'<rect class="scale[^"]*" x="([\d.]+)"', svg)]
        way_in = 10
        assert all(x + 1 <= way_in - 0.5 or x >= way_in + 0.5 for x in xs), (width, xs)
        assert all(0 <= x and x + 1 <= width for x in xs)
