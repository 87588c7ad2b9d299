"""model: validated content as frozen data; rows and their labels, tables by roll, creatures by key, missing tables."""

from __future__ import annotations

import pytest

from dungeonpress.errors import Source
from dungeonpress.model import Content, Creature, Row, Table

ROWS = (Row(1, 2, (("mood", "Grim"),)), Row(3, 3, (("mood", "Tense"), ("note", "x"))), Row(4, 6, (("mood", "Calm"),)))


def table(die="d6", columns=(("mood", "Mood"),), table_id="mood") -> Table:
    return Table(id=table_id, title="Mood", die=die, columns=columns, rows=ROWS, source_pack="p", origin="core",
                 source=Source("pack/tables/mood.yaml", 1))


def content(*tables) -> Content:
    return Content(tables={t.id: t for t in tables}, creatures=(), media=(), book=None)


def test_a_row_labels_its_roll_and_reads_its_columns():
    assert [row.label for row in ROWS] == ["1-2", "3", "4-6"]
    assert ROWS[1].get("note") == "x" and ROWS[1].text == "Tense / x"
    with pytest.raises(KeyError):
        ROWS[0].get("note")


@pytest.mark.parametrize("result, mood", [(1, "Grim"), (2, "Grim"), (3, "Tense"), (6, "Calm")])
def test_row_for_finds_the_row_a_result_lands_on(result, mood):
    assert table().row_for(result).get("mood") == mood


def test_row_for_a_result_past_the_rows_names_the_table():
    with pytest.raises(KeyError, match="table 'mood' has no row for 7"):
        table().row_for(7)


def test_a_table_is_rolled_unless_its_die_is_none():
    assert table().rolled and not table(die="none").rolled


def test_table_problems_name_each_missing_unrolled_or_short_table_at_once():
    made = content(table(die="none"), table(table_id="light", columns=(("light", "Light"),)))
    problems = [str(p) for p in made.table_problems({"mood": (), "light": ("light", "turns"), "weather": ()},
                                                    needer="the delve needs", purpose="for the delve")]
    assert problems == [
        "pack/tables/mood.yaml:1: table 'mood' must have a die to roll for the delve (got die: none)",
        "pack/tables/mood.yaml:1: table 'light' needs the column(s) turns for the delve",
        "the delve needs table 'weather', which no content pack defines (expected <pack>/tables/weather.yaml)",
    ]
    assert made.table_problems(["mood"], needer="n", purpose="p", rolled=False) == []


def test_creatures_are_found_by_key():
    rat = Creature(key=11, name="Rat", tier="minion", living=True, concept="c", skills=(), frailty="f", gear=(),
                   goal=None, motive=None, nemesis=None)
    made = Content(tables={}, creatures=(rat,), media=(), book=None)
    assert made.creature(11) is rat
    with pytest.raises(KeyError, match="no creature 12 in the bestiary"):
        made.creature(12)
