"""views.tables: tables and creatures → rows, labels, boxes and column widths ready to print."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from dungeonpress import build
from dungeonpress.views import tables as views
from dungeonpress.views.tables import (CELL_PADDING_CHARS, MANY_COLUMNS, MAX_BOXES, MEASURE_CHARS, ROLL_WIDTH, TALL_ROW_CHARS, boxes_for,
                                       column_widths, roll_label, title_order, wrapped_lines)

SMALL_PACK = Path(__file__).parent / "fixtures" / "small_pack"


@pytest.fixture(scope="module")
def small():
    """The project's content with the small fixture pack's three tables added."""
    return build.load_content([SMALL_PACK])


def test_roll_label_is_one_number_or_a_range_with_an_en_dash():
    assert roll_label(7, 7) == "7"
    assert roll_label(1, 3) == "1–3"
    assert roll_label(11, 16) == "11–16"


def test_titles_sort_with_their_numbers_read_as_numbers():
    # the tables booklet listed Paperogue's "Table 10", "Table 11", "Table 12" before "Table 1": titles sorted as text
    titles = ["Table 10: Jewelry Effects", "Table 2: Gold", "Classic Monsters", "Table 1: Treasure", "Table 12: Scroll Effects"]
    assert sorted(titles, key=title_order) == ["Classic Monsters", "Table 1: Treasure", "Table 2: Gold",
                                               "Table 10: Jewelry Effects", "Table 12: Scroll Effects"]
    assert title_order("2d6 Traps") < title_order("d66 Traps") and title_order("Room 3b") < title_order("Room 3c")


@pytest.mark.parametrize("value, boxes", [
    ("3 uses", 3), (2, 2), ("1 use", 1), ("  4 draws", 4), (f"{MAX_BOXES} uses", MAX_BOXES),
    (f"{MAX_BOXES + 1} uses", 0), ("permanent", 0), ("", 0), ("uses: 3", 0), ("0 uses", 0),
])
def test_boxes_for_reads_the_leading_count_up_to_the_most_drawn(value, boxes):
    assert boxes_for(value) == boxes


def rows_of(*columns: list[str]) -> list:
    """Rows as table_view makes them, one cell per column, with no cross references."""
    return [{"cells": [{"text": text} for text in row], "see_title": "", "creature_key": ""} for row in zip(*columns)]


def test_column_widths_sum_to_the_measure_with_the_roll_column_first():
    rows = rows_of(["Pit", "Loose stones"], ["Lose a turn climbing out", "Noise draws a wanderer"])
    widths = column_widths(rows, ["Hazard", "Effect"], rolled=True)
    assert widths[0] == ROLL_WIDTH and len(widths) == 3 and sum(widths) == 100
    assert widths[2] > widths[1]  # the longer text takes the larger share
    unrolled = column_widths(rows, ["Hazard", "Effect"], rolled=False)
    assert len(unrolled) == 2 and sum(unrolled) == 100


def test_column_widths_never_fall_below_the_longest_word():
    # a column of one long word beside a column of much text: its share follows the word, not its average
    word = "Thaumaturgically"
    rows = rows_of([word, "a"], ["many short words in a long sentence that goes on " * 3] * 2)
    widths = column_widths(rows, ["Word", "Text"], rolled=False)
    assert widths[0] >= 100 * (len(word) + 2) / MEASURE_CHARS - 1
    assert sum(widths) == 100


def test_column_widths_floor_a_long_header_word():
    rows = rows_of(["x", "y"], ["some text here and there", "more text"])
    widths = column_widths(rows, ["Thaumaturgically", "Text"], rolled=True)
    assert widths[1] >= 100 * (len("Thaumaturgically") + 2) / MEASURE_CHARS - 1


def test_column_widths_stay_positive_when_the_longest_words_overfill_the_measure():
    # seven columns of 12-letter words need more than the measure: each still gets a share
    rows = rows_of(*[["abcdefghijkl"]] * 7)
    widths = column_widths(rows, ["H"] * 7, rolled=True)
    assert sum(widths) == 100 and min(widths[1:]) >= 12


def test_column_widths_of_no_columns_is_empty():
    assert column_widths([], [], rolled=True) == []


def test_column_widths_property_sums_to_a_hundred_and_floors_hold():
    rng = random.Random(12)
    letters = "abcdefghij"
    for _ in range(300):
        count = rng.randint(1, 7)
        rows = rows_of(*[[" ".join("".join(rng.choice(letters) for _ in range(rng.randint(1, 12)))
                                   for _ in range(rng.randint(1, 8))) for _ in range(6)] for _ in range(count)])
        headers = [f"H{i}" for i in range(count)]
        rolled = rng.random() < 0.5
        widths = column_widths(rows, headers, rolled)
        assert sum(widths) == 100 and len(widths) == count + rolled
        assert all(w > 0 for w in widths)


def test_table_view_rows_labels_and_durability_boxes(small):
    view = views.table_view(small.table("fixture_light"), small)
    assert view["id"] == "fixture_light" and view["anchor"] == "table-fixture_light"
    assert view["die"] == "d4" and view["headers"] == ["Light", "Durability"]
    assert [r["label"] for r in view["rows"]] == ["1", "2", "3", "4"]
    assert [len(r["cells"][1]["boxes"]) for r in view["rows"]] == [2, 3, 4, 1]
    assert all(r["cells"][0]["boxes"] == [] for r in view["rows"])  # only the durability column draws boxes
    assert [c["header"] for c in view["rows"][0]["cells"]] == ["Light", "Durability"]
    assert sum(view["widths"]) == 100 and view["widths"][0] == ROLL_WIDTH
    assert view["keep"] and not view["wide"] and not view["many"] and not view["flow"]


def test_table_view_ranges_note_and_kept_columns(small):
    hazards = views.table_view(small.table("fixture_hazards"), small)
    assert hazards["die"] == "2d6"
    assert [r["label"] for r in hazards["rows"]] == ["2", "3–4", "5–6", "7", "8–9", "10–11", "12"]
    weather = small.table("fixture_weather")
    assert views.table_view(weather, small)["note"] == "Roll once when a new day starts in the caves."
    assert views.table_view(weather, small, note=False)["note"] == ""
    effects = views.table_view(small.table("fixture_hazards"), small, columns=("effect",))
    assert effects["headers"] == ["Effect"]
    assert [c["text"] for c in effects["rows"][0]["cells"]] == ["Lose a turn climbing out"]


def test_a_table_of_many_columns_is_set_row_by_row(content):
    table = content.table("adventure_start")
    assert len(table.columns) >= MANY_COLUMNS
    view = views.table_view(table, content)
    assert view["many"] and view["wide"]
    assert len(view["widths"]) == len(table.columns) + 1 and sum(view["widths"]) == 100
    # every cell names its column, so a row set as a list can say what each value is
    assert [c["header"] for c in view["rows"][0]["cells"]] == [h for _, h in table.columns]
    short = views.table_view(table, content, columns=tuple(k for k, _ in table.columns[:MANY_COLUMNS - 1]))
    assert not short["many"] and short["wide"]


def test_a_short_d66_list_flows_in_pairs(content):
    flowing = [t for t in content.tables.values() if views.table_view(t, content)["flow"]]
    assert flowing, "some one-column d66 list flows"
    for table in flowing:
        view = views.table_view(table, content)
        assert table.die == "d66" and len(view["headers"]) == 1 and view["widths"] == []
        firsts = [left for left, _ in view["pairs"]]
        seconds = [right for _, right in view["pairs"] if right is not None]
        assert firsts + seconds == view["rows"]  # left half then right half, every row once


def test_a_two_up_list_whose_pairs_wrap_in_large_print_carries_itself_as_one_list_too(content):
    """Inspiration's Things and Oppositions and the Minor Treasures wrap ten or more of their 18 pairs at large print's
    14 pt (split evenly, each ran over two half-empty pages): their views ask for the one-list form large print shows.
    The character lists wrap five pairs at most and fit their page two-up."""
    long = {t.id for t in content.tables.values() if views.table_view(t, content)["long_entries"]}
    assert {"adventure_things_1", "adventure_things_2", "adventure_things_3", "adventure_oppositions",
            "minor_treasures"} <= long
    assert not long & {"concepts", "frailties", "stress_tags", "fatigue_tags", "name_regions", "skills"}
    things = views.table_view(content.table("adventure_things_1"), content)
    assert views.wrapped_pairs(things["rows"], len(things["pairs"])) > views.LARGE_WRAPPED_PAIRS
    assert all(views.table_view(t, content)["flow"] for t in content.tables.values()
               if views.table_view(t, content)["long_entries"])


def test_table_view_links_the_tables_and_creatures_rows_name(content):
    view = views.table_view(content.table("encounter_check"), content)
    linked = [r for r in view["rows"] if r["see_id"]]
    assert linked and all(r["see_title"] == content.table(r["see_id"]).title for r in linked)
    monsters = views.table_view(content.table("hostile_monsters"), content)
    named = [r for r in monsters["rows"] if r["creature_key"] != ""]
    assert named and all(r["creature_name"] == content.creature(r["creature_key"]).name for r in named)


def test_an_unread_table_has_no_roll_labels(content):
    table = next(t for t in content.tables.values() if not t.rolled)
    view = views.table_view(table, content)
    assert view["die"] == "" and {r["label"] for r in view["rows"]} == {""}
    assert len(view["widths"]) == len(view["headers"]) and sum(view["widths"]) == 100  # no roll column


def test_creature_view_capitalises_the_tier_and_joins_lists(content):
    creature = content.creature(next(r.creature for t in content.tables.values() for r in t.rows if r.creature))
    view = views.creature_view(creature)
    assert view["name"] == creature.name and view["tier"] == creature.tier.capitalize()
    assert view["skills"] == ", ".join(creature.skills) and view["gear"] == ", ".join(creature.gear)
    assert view["goal"] == (creature.goal or "")


# Designed widths by wrapped lines: a column of short phrases reads in one or two lines beside prose.

def chars(width: int) -> int:
    """Characters a column of `width` percent holds on a line, as the widths are designed."""
    return int(width * MEASURE_CHARS / 100) - CELL_PADDING_CHARS


@pytest.mark.parametrize("text, width, lines", [
    ("", 10, 1), ("one", 3, 1), ("one two", 7, 1), ("one two", 6, 2), ("one two three", 7, 2),
    ("a bb ccc dddd", 4, 3), ("Thaumaturgically", 5, 1),  # a word longer than the line stays one line
])
def test_wrapped_lines_wraps_at_spaces(text, width, lines):
    assert wrapped_lines(text, width) == lines


@pytest.mark.parametrize("table_id", ["traps", "major_traps", "minor_traps"])
def test_a_trap_tables_trigger_reads_in_one_or_two_lines(content, table_id):
    # the tables booklet set triggers three and four lines deep beside a two-line effect
    view = views.table_view(content.table(table_id), content)
    trigger = view["headers"].index("Trigger")
    width = view["widths"][1 + trigger]
    deepest = max(wrapped_lines(row["cells"][trigger]["text"], chars(width)) for row in view["rows"])
    assert deepest <= 2, f"{table_id}: a trigger wraps to {deepest} lines at {width}%"


def test_balancing_never_makes_a_content_table_taller_in_lines(content):
    # the shares by average length, then balanced: every table of two or three columns is no deeper
    # in lines than an even split, and its widths still fill the measure
    for table in content.tables.values():
        view = views.table_view(table, content)
        if view["flow"] or not 2 <= len(view["headers"]) <= 3:
            continue
        widths = view["widths"][1:] if table.rolled else view["widths"]
        assert sum(view["widths"]) == 100
        even = [sum(widths) // len(widths)] * len(widths)

        def height(ws):
            return sum(max(wrapped_lines(r["cells"][i]["text"], chars(w)) for i, w in enumerate(ws))
                       for r in view["rows"])
        assert height(widths) <= height(even), table.id


def test_a_phrase_column_beside_prose_is_widened_to_two_lines():
    phrases = ["Stepping onto the loose flagstone near the door", "Opening the lid", "Lifting the idol"] * 4
    prose = ["A long effect that runs on for a good many words and wraps over several lines of the cell "
             "whatever width it is given, as the effects of traps do."] * 12
    widths = column_widths(rows_of(["Pit"] * 12, phrases, prose), ["Type", "Trigger", "Effect"], rolled=True)
    assert sum(widths) == 100
    assert max(wrapped_lines(p, chars(widths[2])) for p in phrases) <= 2
    assert widths[3] > widths[2]  # the prose keeps the larger share


@pytest.mark.parametrize("title, lead, last", [
    ("Puzzles and Locked Mechanisms", "Puzzles and Locked", "Mechanisms"), ("Traps", "", "Traps"),
    ("Loner: Dungeoneer, filled tables", "Loner: Dungeoneer, filled", "tables"),
])
def test_a_contents_title_splits_off_its_last_word_for_the_leader(title, lead, last):
    assert views.title_parts(title) == {"lead": lead, "last": last}
    assert " ".join(filter(None, [lead, last])) == title


def test_a_table_of_sentences_is_tall_and_a_list_of_names_is_not(content):
    """Tall: rows of TALL_ROW_CHARS characters or more on average (the large themes let it turn the page sooner)."""
    def average(table):
        rows = views.table_view(table, content)["rows"]
        return sum(len(cell["text"]) for row in rows for cell in row["cells"]) / len(rows)
    for name, tall in (("solo_special", True), ("traps", True), ("solo_stairs", False), ("stress_tags", False)):
        table = content.table(name)
        assert views.table_view(table, content)["tall"] is tall, name
        assert (average(table) >= TALL_ROW_CHARS) is tall, name


def test_a_tall_table_is_deep_where_its_rows_run_three_lines_or_more_in_large_print(content):
    """Deep: large print lets three such rows turn the page, three rows of three lines being a quarter page; a d66 of
    two-line rows (Ambushes) keeps four on each side, its three last rows having sat alone as a stub (p127)."""
    for name, deep in (("major_traps", True), ("puzzles", True), ("ambushes", False), ("neutral_presences", False),
                       ("stress_tags", False)):
        assert views.table_view(content.table(name), content)["deep"] is deep, name
    rows = [{"cells": [{"text": "Trap"}, {"text": "word " * 30}]}]
    # 30 four-letter words in a 70% column of 49 characters (32 after padding): six to a line, five lines
    assert views.large_lines_per_row(rows, [8, 22, 70], rolled=True) == 5
    assert views.large_lines_per_row([], [], rolled=False) == 1.0
