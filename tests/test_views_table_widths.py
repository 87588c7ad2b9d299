"""views.tables column widths: a column of short phrases reads in one or two lines beside a column of prose."""

from __future__ import annotations

import pytest

from dungeonpress.views import tables as views
from dungeonpress.views.tables import CELL_PADDING_CHARS, MEASURE_CHARS, column_widths, wrapped_lines


def chars(width: int) -> int:
    """Characters a column of `width` percent holds on a line, as the widths are designed."""
    return int(width * MEASURE_CHARS / 100) - CELL_PADDING_CHARS


def rows_of(*columns: list[str]) -> list:
    return [{"cells": [{"text": text} for text in row], "see_title": "", "creature_key": ""} for row in zip(*columns)]


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
