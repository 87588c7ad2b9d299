"""views.dungeon: a generated dungeon → the values the zine and booklet print, formatted once."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dungeonpress.dice import sub_rng
from dungeonpress.draw.map_marks import LEGEND
from dungeonpress.generate.dungeon import generate_dungeon
from dungeonpress.model.dungeon import Chain, TableRoll
from dungeonpress.model.oracle import OracleRoll
from dungeonpress.model.plan import OUTSIDE
from dungeonpress.views import dungeon as views


def roll(table, dice, value, *fields, note=""):
    return TableRoll(table=table, dice=dice, value=value, fields=tuple(fields), note=note)


KIND = roll("encounter_type", "2d6", 6, ("kind", "Kind", "Hostile monster (moderate strength)"))
TRAP = roll("traps", "d66", 23, ("trap", "Trap", "Pit"), ("trigger", "Trigger", "Loose slab."), ("effect", "Effect", "Fall"))


@pytest.fixture(scope="module")
def rolled_dungeons(content):
    return [generate_dungeon(content, sub_rng(seed, "dungeon"), rooms=10) for seed in range(15)]


def test_the_regenerate_command_names_rooms_only_off_the_default():
    assert views.regenerate_command(42, views.DEFAULT_ROOMS) == "dungeonpress dungeon --seed 42"
    assert views.regenerate_command(42, 12) == "dungeonpress dungeon --seed 42 --rooms 12"


def test_the_command_breaks_only_before_an_option():
    assert views.command_parts("dungeonpress dungeon --seed 484514568 --rooms 5") == [
        "dungeonpress dungeon", "--seed 484514568", "--rooms 5"]
    assert views.command_parts("dungeonpress dungeon --seed 42") == ["dungeonpress dungeon", "--seed 42"]


def test_keep_last_words_joins_the_last_two_with_a_no_break_space():
    assert views.keep_last_words("The Ivel Mire") == "The Ivel\u00a0Mire"
    assert views.keep_last_words("Mire") == "Mire"


def test_plain_drops_the_bracketed_hints():
    assert views.plain("Functional room (e.g., forge, library)") == "Functional room"
    assert views.plain("Hostile monster (moderate strength) nearby") == "Hostile monster nearby"


def test_roll_label_and_condition_effect():
    assert views.roll_label(TRAP) == "d66 = 23:"
    assert views.condition_effect(TRAP) == "Loose slab."
    assert views.condition_effect(KIND) == ""


def test_told_names_the_kind_then_the_thing_with_one_stop_between_details():
    told = views.told(Chain(rolls=(KIND, TRAP)))
    assert told["kind"] == "Hostile monster" and told["text"] == "Pit"
    assert [(d["sep"], d["header"], d["text"]) for d in told["details"]] == [
        (". ", "Trigger", "Loose slab."), (" ", "Effect", "Fall")]  # no second stop after "slab."
    assert views.told(Chain(rolls=(TRAP,)))["kind"] == ""


def test_compact_steps_drop_the_examples_of_the_rolls_in_between():
    chain = Chain(rolls=(KIND, TRAP))
    assert views.chain_steps(chain)[0]["text"] == "Hostile monster (moderate strength)"
    assert views.chain_steps(chain, compact=True)[0]["text"] == "Hostile monster"
    assert views.chain_view(chain)["rolls"] == "2d6 = 6, d66 = 23"
    assert views.chain_view(None) is None


def test_an_oracle_cell_shows_chance_then_risk_dice():
    cell = views.oracle_cell(OracleRoll(chance=(2, 5), risk=(3,), answer="Yes", double=False))
    assert cell == {"answer": "Yes", "dice": "2/5 · 3", "double": False}


@pytest.mark.parametrize("count", range(1, 26))
def test_pick_die_gives_each_delve_an_equal_share_of_the_die(count):
    pick = views.pick_die(count)
    assert len(pick["ranges"]) == count
    if not pick["die"]:
        assert count > 20 and pick["ranges"] == [str(n) for n in range(1, count + 1)]
        return
    faces = int(pick["die"].removeprefix("1d"))
    covered = []
    for text in pick["ranges"]:
        low, _, high = text.partition("–")
        covered.append(range(int(low), int(high or low) + 1))
    assert len({len(r) for r in covered}) == 1  # every delve as likely as the next
    spare = faces - sum(len(r) for r in covered)
    assert (pick["reroll"] != "") == (spare > 0)
    assert faces >= count and (count > 6 or faces in (4, 6))


def test_legend_lines_wrap_the_entries_that_do_not_fit():
    marks = [mark for mark, _ in LEGEND]
    assert views.legend_lines(marks[:1], 200, False) == 1
    assert views.legend_lines(marks, 40, True) > views.legend_lines(marks, 120, True) >= 1


def test_room_doors_lead_to_rooms_the_way_out_or_a_dead_end(rolled_dungeons):
    for dungeon in rolled_dungeons:
        for room in dungeon.rooms:
            view = views.room_view(dungeon, room.number, "d1")
            compact = views.room_view(dungeon, room.number, "d1", compact=True)
            assert view["anchor"] == f"d1-room-{room.number}"
            for door, shown, short in zip(dungeon.plan.room(room.number).doors, view["doors"], compact["doors"]):
                expected = {OUTSIDE: "the way out", None: "dead end"}.get(door.to, f"room {door.to}")
                assert shown["to"] == expected and shown["direction"] == views.DIRECTIONS[door.side]
                assert short["direction"] == door.side
                assert shown["anchor"] == (f"d1-room-{door.to}" if door.to else "")
            count = room.exit_count
            assert view["exits"]["text"] == f"{count} exit" + ("" if count == 1 else "s")
            assert view["boss"] == (room.boss and room.encounter_check is None)


def test_the_dungeon_view_prints_what_was_rolled(rolled_dungeons):
    dungeon = rolled_dungeons[0]
    view = views.dungeon_view(dungeon, seed=0, rooms=10, prefix="p2", map_box=(120, 90), oracle_rows=5, twists=3, d6s=7,
                              map_rng=sub_rng(0, "map"))
    assert view["anchor"] == "p2-dungeon" and view["regenerate"] == "dungeonpress dungeon --seed 0 --rooms 10"
    assert [r["number"] for r in view["rooms"]] == [r.number for r in dungeon.rooms]
    assert len(view["oracle"]) == 5 and len(view["twists"]) == 3 and view["d6s"] == [str(v) for v in dungeon.d6s[:7]]
    assert [w["face"] for w in view["wandering"]] == list(range(1, len(dungeon.wandering) + 1))
    assert view["map"].startswith("<svg") and view["map_alt"].startswith(f"Map of {dungeon.name}")
    assert re.fullmatch(r"\S+ = \d+:", view["condition"]["roll"])


# The outline on a cover and in a pack's index: the player's map, spoiler-safe, with true alternative text.

@pytest.mark.parametrize("seed", [1, 7, 42, 1234])
def test_a_covers_outline_shows_walls_and_passages_but_no_number_nor_anything_in_a_room(content, seed):
    dungeon = generate_dungeon(content, sub_rng(seed, "dungeon"), rooms=8)
    outline = views.outline_view(dungeon, (60.0, 35.0), "clean", "", sub_rng(seed, "map"))
    svg = outline["svg"]
    assert svg.startswith("<svg") and 'class="floor"' in svg
    assert 'class="num"' not in svg and 'class="mark"' not in svg  # no room numbers, no stairs, lair or furniture
    assert not re.search(r"<text[^>]*>\d+</text>", svg)
    width, height = (float(v) for v in re.search(r'width="([\d.]+)mm" height="([\d.]+)mm"', svg).groups())
    assert width <= 60.0 + 1e-6 and height <= 35.0 + 1e-6 and max(width / 60.0, height / 35.0) > 0.99  # fills its box
    # the alternative text says what is drawn: this dungeon's name and room count, the way in, empty rooms
    title = (f"Outline of {dungeon.name}: its {len(dungeon.rooms)} rooms, passages and the way in, no room numbered "
             "and nothing in the rooms")
    assert views.outline_title(dungeon) == title and f"<title>{title}</title>" in svg  # the PDF's /Alt
    assert outline["alt"] == (f"{title}: {len(dungeon.rooms)} rooms joined by passages, the way in "
                              "at the bottom edge; nothing in the rooms is shown")
    assert svg.count("<title>") == 1
    assert svg.count('class="floor"') >= len(dungeon.rooms)
    assert views.outline_view(dungeon, (60.0, 35.0), "clean", "", sub_rng(seed, "map")) == outline  # same seed, same drawing


def test_a_dungeon_view_has_an_outline_only_when_asked(content):
    dungeon = generate_dungeon(content, sub_rng(5, "dungeon"), rooms=8)
    common = dict(seed=5, rooms=8, prefix="d1", map_box=(100.0, 120.0), oracle_rows=1, twists=1, d6s=1, map_rng=sub_rng(5, "map"))
    assert views.dungeon_view(dungeon, **common)["outline"] is None
    assert views.dungeon_view(dungeon, **common, outline_box=(26.0, 19.0))["outline"]["alt"].startswith("Outline of ")


def test_a_thumbnail_outline_hides_its_scale_and_north_a_cover_keeps_them(content):
    dungeon = generate_dungeon(content, sub_rng(9, "dungeon"), rooms=8)
    assert views.BARE_CSS in views.outline_view(dungeon, (26.0, 19.0), "clean", "", sub_rng(9, "map"))["svg"]
    assert views.BARE_CSS not in views.outline_view(dungeon, (60.0, 35.0), "clean", "", sub_rng(9, "map"))["svg"]


@pytest.mark.parametrize("style", ["clean", "sketch"])
def test_a_thumbnail_outline_drops_the_grid_and_draws_heavier_walls_a_cover_keeps_its_grid(content, style):
    """At a pack index's 26 x 19 mm the grid outweighed the walls: a thumbnail has no grid lines, and its walls are
    drawn heavier than a full map's (map.css's map-thumb rules); a cover's outline keeps its grid."""
    css = (Path(__file__).parents[1] / "templates" / "css" / "map.css").read_text(encoding="utf-8")
    widths = {rule: float(width) for rule, width in re.findall(r"^([.\w-]+ \.[\w-]+) \{[^}]*stroke-width: ([\d.]+)",
                                                              css, re.M)}
    thumb = ".dungeon-map.map-thumb "
    assert widths[thumb + ".wall"] > max(widths[".dungeon-map .wall"], widths[".map-sketch .wall"]) * 1.4
    assert (widths[thumb + ".passage-wall"] - widths[thumb + ".passage"]) / 2 >= widths[thumb + ".wall"]
    for seed in range(6):
        dungeon = generate_dungeon(content, sub_rng(seed, "dungeon"), rooms=8)
        thumb = views.outline_view(dungeon, (26.0, 19.0), style, "", sub_rng(seed, "map"))["svg"]
        cover = views.outline_view(dungeon, (60.0, 35.0), style, "", sub_rng(seed, "map"))["svg"]
        assert 'class="grid"' not in thumb and "map-thumb" in thumb.split(">", 1)[0]
        assert 'class="grid"' in cover and "map-thumb" not in cover
