"""views.delve: rolled delves and the blank turn log → printed rows, marks, words and a summary."""

from __future__ import annotations

import random

import pytest

from dungeonpress.generate import delve
from dungeonpress.model.delve import Passage
from dungeonpress.views.delve import LOG_PAGES, LOG_ROWS, LOG_SPARES, _passage_mark, delve_view, log_pages_view
from dungeonpress.views.notes import SPARE_ID


def test_the_blank_log_has_its_pages_of_numbered_turns_and_spares_last():
    pages = log_pages_view()
    count = LOG_PAGES + LOG_SPARES
    assert len(pages) == count
    assert [(p["first"], p["last"]) for p in pages] == [(n * LOG_ROWS + 1, (n + 1) * LOG_ROWS) for n in range(count)]
    assert [row["turn"] for p in pages for row in p["rows"]] == list(range(1, count * LOG_ROWS + 1))
    # the booklet drops the last spare pages it does not need, so the turns it keeps run on unbroken
    assert [p["id"].startswith(SPARE_ID) for p in pages] == [False] * LOG_PAGES + [True] * LOG_SPARES


def test_the_blank_log_marks_the_checks_the_generator_makes():
    for row in (row for page in log_pages_view() for row in page["rows"]):
        n = row["turn"]
        assert row["wander_map"] == delve.wandering_due(n, True) and row["wander_nomap"] == delve.wandering_due(n, False)
        assert row["rest"] == delve.rest_due(n) and row["leave"] == (n - 1) // 2


def test_the_blank_log_burns_each_light_as_long_as_the_light_table_says(content):
    rows = [row for page in log_pages_view() for row in page["rows"]]
    for light in delve.LIGHTS:
        lasts = delve.light_duration(content, light)
        assert [r["turn"] for r in rows if r[f"{light}_out"]] == [n for n in range(1, len(rows) + 1) if n % lasts == 0]


@pytest.fixture(scope="module")
def views(content):
    out = []
    for seed in range(12):
        for mapping in (True, False):
            rolled = delve.generate_delve(random.Random(seed), content, turns=30, light=delve.LIGHTS[seed % 3],
                                          mapping=mapping)
            out.append((rolled, delve_view(rolled, seed)))
    return out


def test_one_row_per_turn_with_its_rolls_in_order(views):
    for rolled, view in views:
        assert [row["turn"] for row in view["rows"]] == [t.number for t in rolled.turns]
        for turn, row in zip(rolled.turns, view["rows"]):
            expected = [f"{tag} {roll}" for tag, roll in (("W", turn.wandering_roll), ("E", turn.encounter_roll),
                                                          ("O", turn.passage.roll if turn.passage else None),
                                                          ("S", turn.search_roll), ("L", turn.lost_roll))
                        if roll is not None]
            assert row["rolls"] == expected
            assert row["leave"] == ("lost" if turn.leave_checks is None else str(turn.leave_checks))
            assert row["light_out"] == turn.light_out and row["light"] == str(turn.light_left)
            assert any(m.startswith("Rest turn") for m in row["marks"]) == turn.rest
            assert row["level"] == str(turn.level)
            assert any(m.startswith("Backtracking") for m in row["marks"]) == (turn.activity == "backtrack")
            assert any(m.startswith("Getting past") for m in row["marks"]) == (turn.activity == "work")


def test_a_light_going_out_is_named_by_its_ordinal(views):
    outs = [(rolled, turn, row) for rolled, view in views for turn, row in zip(rolled.turns, view["rows"])
            if turn.light_out]
    assert outs
    for rolled, turn, row in outs:
        ordinal = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
                   "tenth")[turn.light_number - 1]
        assert f"Your {ordinal} {rolled.light} goes out: light another or go blind" in row["marks"]


def test_the_summary_counts_what_the_rows_show(views):
    for rolled, view in views:
        summary = view["summary"]
        assert summary["rests"] == sum(row["rest"] for row in view["rows"])
        assert summary["wandering_checks"] == sum(any(r.startswith("W ") for r in row["rolls"]) for row in view["rows"])
        assert summary["monsters"] == sum(f["tag"].startswith("A") for row in view["rows"] for e in row["events"]
                                          for f in e["finds"])
        assert view["exit_count"] == len(rolled.turns) // 2 == len(view["exits"])
        assert view["still_lost_count"] == len(view["still_lost"])


@pytest.mark.parametrize("light, used, word", [("torch", 1, "torch"), ("torch", 2, "torches"),
                                               ("candle", 3, "candles"), ("lantern", 1, "lantern")])
def test_lights_are_counted_in_words(content, light, used, word):
    lasts = delve.light_duration(content, light)
    rolled = delve.generate_delve(random.Random(1), content, turns=lasts * used, light=light)
    view = delve_view(rolled, 1)
    assert (view["lights_used"], view["lights_word"]) == (used, word)


def test_the_command_rolls_the_same_delve_again(views):
    for rolled, view in views:
        command = view["command"].split()
        assert command[:2] == ["dungeonpress", "delve"]
        assert ("--no-map" in command) == (not rolled.mapping)
        assert command[command.index("--turns") + 1] == str(len(rolled.turns))
        assert command[command.index("--light") + 1] == rolled.light


def test_backtracking_stairs_and_obstacles_say_what_follows(content):
    marks = []
    for seed in range(60):
        rolled = delve.generate_delve(random.Random(seed), content, turns=36)
        view = delve_view(rolled, seed)
        for turn, row in zip(rolled.turns, view["rows"]):
            marks += row["marks"]
            if turn.activity == "backtrack":
                assert ("Backtracking: no encounter check; a new area to explore (1-2 on the d6)" in row["marks"]) \
                    == turn.found_area
            if turn.stairs_to == delve.OUT:
                assert any(m.startswith("From level 1 these lead out of the dungeon") for m in row["marks"])
            elif turn.stairs_to is not None:
                assert f"The log takes them: level {turn.stairs_to} from the next turn" in row["marks"]
            if turn.passage and turn.passage.blocking and not turn.passage.passed:
                assert any(m.endswith("backtrack from the next turn") for m in row["marks"])
    assert any("leave the treasure and explore on" in m for m in marks)
    assert any("more turn of work" in m or "more turns of work" in m for m in marks)


def test_appendices_print_every_table_they_name_and_monsters_as_stat_lines(content):
    from dungeonpress.views import tables as table_views
    from dungeonpress.views.delve import appendices_view
    appendices = appendices_view(content, lambda table: table_views.table_view(table, content))
    assert [a["letter"] for a in appendices] == list("ABCDEF")
    printed = [t["id"] if "id" in t else t["anchor"] for a in appendices for t in a["tables"]]
    assert len(printed) == sum(len(ids) for ids in delve.APPENDIX_TABLES.values())
    lines = next(t for t in appendices[0]["tables"] if "monster_lines" in t)["monster_lines"]
    assert len(lines) == len(content.table(delve.STATS_TABLE).rows)
    for line in lines:
        labels = [f["label"] for f in line["fields"]]
        assert labels == ["No.", "AC", "HD", "MV", "Att", "Save", "ML", "TT", "XP", "Carries"]
        assert all(f["value"].strip() for f in line["fields"])


@pytest.mark.parametrize("passage, mark", [
    (Passage("2 in 6", 1, True, 0, True), "Tried at 2 in 6, rolled 1: it gives: through at once"),
    (Passage("1 in 6", 5, False, 1, True), "Tried at 1 in 6, rolled 5: it holds: backtrack from the next turn"),
    (Passage("always", None, True, 2, False), "A way past: 2 more turns of work, then the treasure is yours"),
    (Passage("never", None, False, 0, False), "No way past for this delver: leave the treasure and explore on"),
])
def test_an_obstacle_try_says_what_follows(passage, mark):
    assert _passage_mark(passage) == mark
