"""export: content tables → JSON and CSV data (no files), dice formulas with exact odds, one-line rows."""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from itertools import product

import pytest

from dungeonpress import export
from dungeonpress.export import files
from dungeonpress.dice import DICE_NAMES, DiceSpec
from dungeonpress.model import Row, Table


def table(die: str, rows, columns=(("x", "X"),), origin="core") -> Table:
    return Table(id="t", title="T", die=die, columns=columns, rows=tuple(rows), source_pack="core", origin=origin)


@pytest.mark.parametrize("die, expected", [("d66", "1d6 * 10 + 1d6"), ("2d6", "2d6"), ("d20", "1d20"), ("d6", "1d6")])
def test_formula_is_a_dice_expression_for_the_die(die, expected):
    assert export.formula(table(die, [])) == expected


def test_die_odds_of_2d6_count_the_ways_and_d66_is_flat():
    odds = export.die_odds("2d6")
    assert odds == dict(Counter(a + b for a, b in product(range(1, 7), repeat=2)))
    assert odds[7] == 6 and odds[2] == odds[12] == 1 and sum(odds.values()) == 36
    assert export.die_odds("d66") == {r: 1 for r in DiceSpec("d66").results}


@pytest.mark.parametrize("die", [d for d in DICE_NAMES if d != "none"])
def test_row_weights_cover_the_whole_die(die):
    results = sorted(export.die_odds(die))
    rows = [Row(low=r, high=r, values=(("x", str(r)),)) for r in results]
    assert sum(export.row_weight(table(die, rows), row) for row in rows) == sum(export.die_odds(die).values())


def test_a_range_row_weighs_every_outcome_it_covers():
    row = Row(low=6, high=8, values=(("x", "middle"),))
    assert export.row_weight(table("2d6", [row]), row) == 5 + 6 + 5


def test_roll_label_uses_an_en_dash_spreadsheets_leave_alone():
    assert export.roll_label(Row(low=1, high=3, values=())) == "1\u20133"
    assert export.roll_label(Row(low=4, high=4, values=())) == "4"


def test_row_text_is_the_value_alone_or_header_value_pairs():
    two = table("d6", [], columns=(("light", "Light"), ("turns", "Turns")))
    assert export.row_text(two, Row(low=1, high=1, values=(("light", "Torch"), ("turns", 6)))) == "Light: Torch; Turns: 6"
    assert export.row_text(table("d6", []), Row(low=1, high=1, values=(("x", "Alone"),))) == "Alone"


def test_exports_write_json_in_the_one_encoding_of_every_product():
    assert files._dump({"b": "…", "a": 1}) == '{\n  "b": "…",\n  "a": 1\n}\n'.encode()


def test_table_json_carries_rows_links_and_the_licence(content):
    traps = content.table("traps")
    data = export.table_json(traps)
    assert (data["id"], data["die"], data["source"]) == ("traps", traps.die, traps.origin)
    assert [r["low"] for r in data["rows"]] == [r.low for r in traps.rows]
    assert data["licence"] == export.terms_for(traps.origin).as_json()
    linked = export.table_json(content.table("encounter_check"))
    assert any("see" in r for r in linked["rows"])
    assert json.loads(files._dump(data)) == data


def test_table_csv_has_a_header_then_a_row_per_table_row(content):
    traps = content.table("traps")
    lines = list(csv.reader(io.StringIO(export.table_csv(traps))))
    assert lines[0] == ["die", "roll", "low", "high", *[t for _, t in traps.columns], "licence", "source"]
    assert len(lines) == len(traps.rows) + 1
    assert all(line[0] == traps.die for line in lines[1:])
    assert export.table_csv(traps, bom=True) == "\ufeff" + export.table_csv(traps)


def test_credits_text_has_one_paragraph_per_source_in_a_fixed_order():
    text = export.credits_text(["dunginoes", "core", "core"])
    paragraphs = text.rstrip("\n").split("\n\n")
    assert len(paragraphs) == 2 and paragraphs[0].startswith("Loner – Core Rules v2.3 (core)")
    assert paragraphs[1].startswith("Dunginoes (dunginoes)") and "Licence text:" not in paragraphs[1]
    assert text.endswith("\n") and export.credits_text(["core", "dunginoes"]) == text


def test_the_bestiary_keeps_goals_for_the_living_only(content):
    creatures = export.bestiary_json(content)
    assert len(creatures) == len(content.creatures)
    for item, creature in zip(creatures, content.creatures):
        assert ("goal" in item) == creature.living and item["name"] == creature.name
        assert list(item)[-1] == "description"


def test_rolled_tables_leave_out_the_tables_that_are_read(content):
    rolled = export.rolled_tables(content)
    assert rolled and all(t.rolled for t in rolled)
    assert len(rolled) == sum(1 for t in content.tables.values() if t.die != "none")
