"""Exports round-trip to the content, and Foundry files have the RollTable shape Foundry imports."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest

from dungeonpress import build, export
from dungeonpress.products import exports


@pytest.fixture(scope="module")
def outputs(content):
    ctx = build.context_for(content)
    return {fmt: {o.name: o.data for o in exports.build_exports(ctx, exports.ExportOptions(format=fmt))} for fmt in exports.FORMATS}


def test_one_file_per_rolled_table(content, outputs):
    rolled = [t.id for t in content.tables.values() if t.rolled]
    assert sorted(n for n in outputs["json"] if n.count("/") == 2 and not n.endswith(("index.json", "bestiary.json"))) \
        == sorted(f"exports/json/{i}.json" for i in rolled)
    assert len(outputs["csv"]) == len(rolled) == len(outputs["foundry"])


def test_json_round_trips(content, outputs):
    for table in export.rolled_tables(content):
        data = json.loads(outputs["json"][f"exports/json/{table.id}.json"])
        assert data["id"] == table.id and data["die"] == table.die and data["title"] == table.title
        assert [c["key"] for c in data["columns"]] == [k for k, _ in table.columns]
        assert [(r["low"], r["high"], r["values"]) for r in data["rows"]] == \
               [(row.low, row.high, dict(row.values)) for row in table.rows]
        assert [r.get("creature") for r in data["rows"]] == [row.creature for row in table.rows]
    bestiary = json.loads(outputs["json"]["exports/json/bestiary.json"])
    assert [c["key"] for c in bestiary] == [c.key for c in content.creatures]


def test_csv_round_trips(content, outputs):
    table = content.table("traps")
    rows = list(csv.reader(io.StringIO(outputs["csv"]["exports/csv/traps.csv"].decode())))
    assert rows[0] == ["roll", "Type", "Trigger", "Effect"]
    assert [r[0] for r in rows[1:]] == [row.label for row in table.rows]
    assert rows[1][1:] == [str(v) for _, v in table.rows[0].values]


def _foundry_roll_odds(formula: str) -> dict:
    """Evaluate the few formula shapes we write, as Foundry would, into exact result counts."""
    counts = {}
    if formula == "1d6 * 10 + 1d6":
        for a in range(1, 7):
            for b in range(1, 7):
                counts[10 * a + b] = counts.get(10 * a + b, 0) + 1
    elif formula == "2d6":
        for a in range(1, 7):
            for b in range(1, 7):
                counts[a + b] = counts.get(a + b, 0) + 1
    else:
        sides = int(re.fullmatch(r"1d(\d+)", formula).group(1))
        counts = {n: 1 for n in range(1, sides + 1)}
    return counts


def test_foundry_roll_tables(content, outputs):
    for table in export.rolled_tables(content):
        data = json.loads(outputs["foundry"][f"exports/foundry/{table.id}.json"])
        assert set(data) >= {"name", "formula", "results", "replacement", "displayRoll", "description"}
        rolls = _foundry_roll_odds(data["formula"])
        covered = {}
        for result in data["results"]:
            assert result["type"] == "text"
            assert result["name"] and result["description"] and result["text"] == result["description"]  # v13 + v12
            low, high = result["range"]
            assert low <= high and isinstance(result["weight"], int) and result["drawn"] is False
            for value in range(low, high + 1):
                covered[value] = covered.get(value, 0) + 1
        # every possible roll lands on exactly one result, so Foundry gives the printed odds
        assert {v for v in rolls} <= set(covered) and all(covered[v] == 1 for v in rolls), table.id
