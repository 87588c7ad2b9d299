"""export.files: content → every export file of one format as (path, bytes), or one line naming the mistake."""

from __future__ import annotations

import csv
import io
import json

import pytest

from dungeonpress import export
from dungeonpress.errors import RenderError, UsageError
from dungeonpress.export.files import FORMATS, export_files


@pytest.fixture(scope="module")
def rolled(content):
    return [t.id for t in export.rolled_tables(content)]


def test_json_has_one_file_per_rolled_table_then_the_index_and_the_bestiary(content, rolled):
    names = [n for n, _ in export_files(content, "json")]
    assert names == [f"exports/json/{t}.json" for t in rolled] + ["exports/json/index.json",
                                                                 "exports/json/bestiary.json"]
    files = dict(export_files(content, "json"))
    index = json.loads(files["exports/json/index.json"])
    assert index["format"] == "dungeonpress-tables/1"
    assert [entry["file"] for entry in index["tables"]] == [f"{t}.json" for t in rolled]
    assert json.loads(files["exports/json/bestiary.json"])["creatures"]


def test_csv_has_one_file_per_rolled_table_and_the_credits(content, rolled):
    files = export_files(content, "csv")
    assert [n for n, _ in files] == [f"exports/csv/{t}.csv" for t in rolled] + ["exports/csv/CREDITS.txt"]
    table = content.table(rolled[0])
    header = next(csv.reader(io.StringIO(files[0][1].decode())))
    assert header == ["die", "roll", "low", "high", *[h for _, h in table.columns], "licence", "source"]


def test_foundry_has_the_tables_then_the_module(content, rolled):
    names = [n for n, _ in export_files(content, "foundry", version="1.0.0")]
    assert names[:len(rolled)] == [f"exports/foundry/{t}.json" for t in rolled]
    assert all(n.startswith("exports/foundry/module/") for n in names[len(rolled):])
    assert "exports/foundry/module/dungeonpress/module.json" in names


def test_every_format_is_bytes_and_the_same_twice(content):
    for fmt in FORMATS:
        first = export_files(content, fmt, version="1.0.0")
        assert first == export_files(content, fmt, version="1.0.0")
        assert all(isinstance(data, bytes) and data for _, data in first)
        assert len({name for name, _ in first}) == len(first)  # no file is made twice


def test_csv_byte_order_mark_only_when_asked(content):
    plain = dict(export_files(content, "csv"))
    marked = dict(export_files(content, "csv", bom=True))
    name = "exports/csv/traps.csv"
    assert not plain[name].startswith(b"\xef\xbb\xbf")
    assert marked[name] == b"\xef\xbb\xbf" + plain[name]
    assert marked[name].decode("utf-8-sig") == plain[name].decode("utf-8")


def test_one_table_alone(content):
    assert [n for n, _ in export_files(content, "json", only="traps")] == ["exports/json/traps.json"]
    assert [n for n, _ in export_files(content, "foundry", only="traps")] == ["exports/foundry/traps.json"]
    assert [n for n, _ in export_files(content, "csv", only="traps")] == ["exports/csv/traps.csv",
                                                                          "exports/csv/CREDITS.txt"]
    (name, data), = export_files(content, "datasworn", only="traps")
    package = json.loads(data)
    assert [list(c["contents"]) for c in package["oracles"].values()] == [["traps"]]


@pytest.mark.parametrize("fmt, only, error, message", [
    ("xml", None, RenderError, "unknown export format 'xml' (expected json, csv, foundry, datasworn)"),
    ("json", "no_such_table", UsageError,
     "--table: no table 'no_such_table' in the content (`dungeonpress tables` lists the ids)"),
    ("csv", "harm", UsageError, "--table: table 'harm' is read, not rolled (die: none), so it has no export"),
])
def test_a_bad_format_or_table_is_one_line(content, fmt, only, error, message):
    with pytest.raises(error) as caught:
        export_files(content, fmt, only=only)
    assert str(caught.value) == message
