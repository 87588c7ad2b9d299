"""views.paperogue: rolled levels and the Paperogue tables → level sheets, the reference card and blank sheets."""

from __future__ import annotations

import re

import pytest

from dungeonpress.dice import sub_rng
from dungeonpress.draw import paperogue_grid as grid
from dungeonpress.generate import paperogue
from dungeonpress.views import paperogue as views


@pytest.fixture(scope="module")
def rolled(content):
    return [paperogue.generate_paperogue(content, sub_rng(seed, "paperogue"), levels=2) for seed in range(15)]


def test_a_level_sheet_keys_every_room_in_two_columns(rolled):
    for dungeon in rolled:
        for level in dungeon.levels:
            view = views.level_view(level, dungeon, 9, "a4")
            left, right = view["room_columns"]
            assert [r["number"] for r in left + right] == list(range(1, level.room_count + 1))
            assert len(left) - len(right) in (0, 1)
            assert (view["number"], view["of"], view["last"]) == (level.number, 2, level.last)
            assert view["svg"].startswith("<svg")


def test_locked_rooms_name_their_key_and_keys_name_their_door(rolled):
    seen = 0
    for dungeon in rolled:
        for level in dungeon.levels:
            rows = {r["number"]: r for column in views.level_view(level, dungeon, 1, "a4")["room_columns"]
                    for r in column}
            for lock in level.locks:
                seen += 1
                if lock.stub:
                    assert f"{lock.direction} door locked, key in {lock.key_room}" in rows[lock.room]["notes"]
                    assert rows[lock.key_room]["treasure"].endswith(f", opens the {lock.direction} door of {lock.room}")
                else:
                    assert f"locked, key in {lock.key_room}" in rows[lock.room]["notes"]
                    assert rows[lock.key_room]["treasure"].endswith(f", opens {lock.room}")
                assert "spare" not in rows[lock.key_room]["treasure"]
            stairs = rows[level.stairs_room]["notes"]
            assert ("way out" if level.last else "stairs down") in stairs
    assert seen


def test_the_facts_line_gives_the_rolls_behind_rooms_and_stairs(rolled):
    dungeon = rolled[0]
    level = dungeon.levels[-1]
    facts = views.level_view(level, dungeon, 1, "letter")["facts"]
    assert facts.startswith(f"{level.room_count} rooms ({dungeon.rooms_die}: ")
    assert f"stairs out in room {level.stairs_room}" in facts and facts.endswith(f"hit rolls {level.hit_dice}")


def test_the_monster_list_runs_from_none_to_roll_again(rolled):
    level = rolled[0].levels[1]
    rows = views.monster_rows(level)
    assert [r["slot"] for r in rows] == [1, 2, 3, 4, 5, 6]
    assert (rows[0]["name"], rows[-1]["name"]) == ("none", "roll again")
    for row, monster in zip(rows[1:5], level.monsters):
        assert row["roll"] == str(monster.roll) and row["dice"] == " + ".join(str(x) for x in monster.dice)


def test_the_about_page_command_names_only_options_off_their_default(content):
    plain = paperogue.generate_paperogue(content, sub_rng(1, "p"))
    assert views.about_view(plain, 4)["command"] == "dungeonpress paperogue --seed 4"
    other = paperogue.generate_paperogue(content, sub_rng(1, "p"), levels=1, rooms_die="d8")
    about = views.about_view(other, 4)
    assert about["command"] == "dungeonpress paperogue --seed 4 --levels 1 --rooms-die d8"
    assert about["levels_text"] == "1 level" and len(about["readings"]) == len(paperogue.READINGS)


def test_the_card_merges_tables_of_a_die_and_leaves_cells_past_a_shorter_die_empty(content):
    card = views.card_view(content)
    assert len(card["table_one"]) == len(content.table("paperogue_treasure_type").rows)
    assert all(re.fullmatch(r"(Table \d+)?", row["see"]) for row in card["table_one"])
    for (heading, ids), made in zip(views.CARD_GRIDS, card["grids"]):
        tables = [content.table(i) for i in ids]
        assert made["heading"] == heading and len(made["headers"]) == len(ids)
        assert len(made["rows"]) == max(t.rows[-1].high for t in tables)
        for row in made["rows"]:
            for table, cell in zip(tables, row["cells"]):
                assert (cell == {"mark": "", "text": ""}) == (int(row["roll"]) > table.rows[-1].high)
    assert len(card["spells"]) == len(content.table("paperogue_spells").rows)


@pytest.mark.parametrize("paper, cell, kind", [("a4", "5mm", "square"), ("letter", "quarter-inch", "dot")])
def test_a_blank_sheet_caption_counts_the_squares_it_draws(paper, cell, kind):
    view = views.blank_sheet_view(kind, paper, cell)
    cols, rows = grid.fit_grid(paper, cell, grid.SHEET_RESERVED_MM)
    assert view["caption"] == f"{cols} \u00d7 {rows} squares \u00b7 {views.PAPER_LABEL[paper]}"
    assert view["kind"] == ("Dot grid" if kind == "dot" else "Graph paper") + f" \u00b7 {views.CELL_LABEL[cell]}"


def test_the_legend_shows_the_symbols_asked_for():
    legend = views.legend_view(("lock", "up"))
    assert [s["label"] for s in legend["symbols"]] == ["locked door", "stairs up"]
    assert legend["room"].startswith("<svg")


# ---------------------------------------------------------------- the card's second page (issue 27: it was 41% full)

def test_the_monster_grid_reads_down_each_column_in_roll_order(content):
    grid = views.monster_grid(content.tables["paperogue_monsters"])
    assert grid["die"] == "d20" and len(grid["rows"]) == 5 and all(len(row) == 4 for row in grid["rows"])
    read_down = [grid["rows"][r][c]["roll"] for c in range(4) for r in range(5)]
    assert read_down == [str(n) for n in range(1, 21)]
    assert grid["rows"][0][0] == {"roll": "1", "initial": "R", "name": "Giant rat"}


def test_the_card_view_carries_the_level_steps_in_order(content):
    card = views.card_view(content)
    assert [step["step"] for step in card["level_steps"]] == ["Rooms", "Stairs", "Exits", "Monsters", "Treasure"]
