"""JSON and CSV exports round-trip to the content, carry their licence, and bad input fails in one line."""

from __future__ import annotations

import csv
import io
import json

import pytest

from dungeonpress import build, export
from dungeonpress.export import licences
from dungeonpress.export.files import FORMATS, export_files
from dungeonpress.products import exports
from tests.conftest import run_cli as run
from tests.conftest import slow_fixture


@pytest.fixture(scope="module")
@slow_fixture
def outputs(content):
    ctx = build.context_for(content)
    return {fmt: {o.name: o.data for o in exports.build_exports(ctx, exports.ExportOptions(format=fmt))} for fmt in FORMATS}


@pytest.mark.slow
def test_one_file_per_rolled_table(content, outputs):
    rolled = [t.id for t in content.tables.values() if t.rolled]
    assert sorted(n for n in outputs["json"] if not n.endswith(("index.json", "bestiary.json"))) \
        == sorted(f"exports/json/{i}.json" for i in rolled)
    assert sorted(n for n in outputs["csv"] if n.endswith(".csv")) == sorted(f"exports/csv/{i}.csv" for i in rolled)
    assert sorted(n for n in outputs["foundry"] if n.count("/") == 2) \
        == sorted(f"exports/foundry/{i}.json" for i in rolled)


def test_json_round_trips(content, outputs):
    for table in export.rolled_tables(content):
        data = json.loads(outputs["json"][f"exports/json/{table.id}.json"])
        assert data["id"] == table.id and data["die"] == table.die and data["title"] == table.title
        assert [c["key"] for c in data["columns"]] == [k for k, _ in table.columns]
        assert [(r["low"], r["high"], r["values"]) for r in data["rows"]] == \
               [(row.low, row.high, dict(row.values)) for row in table.rows]
        assert [r.get("creature") for r in data["rows"]] == [row.creature for row in table.rows]
    bestiary = json.loads(outputs["json"]["exports/json/bestiary.json"])
    assert [c["key"] for c in bestiary["creatures"]] == [c.key for c in content.creatures]
    index = json.loads(outputs["json"]["exports/json/index.json"])
    assert [t["id"] for t in index["tables"]] == [t.id for t in export.rolled_tables(content)]


def test_every_json_file_names_its_licence_and_authors(content, outputs):
    for table in export.rolled_tables(content):
        licence = json.loads(outputs["json"][f"exports/json/{table.id}.json"])["licence"]
        if table.origin == "dunginoes":
            assert "non-commercial" in licence["licence"] and licence["licence_url"] is None
            assert "loveandlossgames.com" in licence["credit"]
        elif table.origin in ("core", "dungeoneer", "dungeonpress"):
            assert licence["licence"] == "CC BY-SA 4.0" and licence["licence_url"] == licences.CC_BY_SA
            assert "Roberto Bisceglie" in licence["authors"]
        elif table.origin == "solo-turns":  # written for Basic/Expert play, drawing on nothing of Loner
            assert licence["licence"] == "CC BY-SA 4.0" and licence["licence_url"] == licences.CC_BY_SA
            assert licence["authors"] == ["the dungeonpress project"] and "Solo D&D Play" in licence["credit"]
        else:
            assert table.origin == "paperogue" and "Paperogue" in licence["credit"]
    bestiary = json.loads(outputs["json"]["exports/json/bestiary.json"])
    assert bestiary["licence"]["licence"] == "CC BY-SA 4.0"
    index = json.loads(outputs["json"]["exports/json/index.json"])
    assert set(index["licences"]) == {t.origin for t in export.rolled_tables(content)}


def test_csv_has_a_die_column_and_ranges_no_spreadsheet_reads_as_dates(content, outputs):
    table = content.table("treasure_check")
    rows = list(csv.reader(io.StringIO(outputs["csv"]["exports/csv/treasure_check.csv"].decode())))
    assert rows[0][:4] == ["die", "roll", "low", "high"] and rows[0][-2:] == ["licence", "source"]
    assert rows[0][4:-2] == [title for _, title in table.columns]
    assert {r[0] for r in rows[1:]} == {"2d6"}
    assert [r[1] for r in rows[1:]] == [str(r.low) if r.low == r.high else f"{r.low}\u2013{r.high}" for r in table.rows]
    assert [(int(r[2]), int(r[3])) for r in rows[1:]] == [(r.low, r.high) for r in table.rows]
    for name, data in outputs["csv"].items():
        if name.endswith(".csv"):
            for line in list(csv.reader(io.StringIO(data.decode())))[1:]:
                # `1-3`, `1/3` and `1.3` are what spreadsheets turn into dates; an en dash is left as text
                assert "-" not in line[1] and "/" not in line[1] and "." not in line[1], (name, line[1])
                assert line[-2] and line[-1]  # every row names its licence and source work


@pytest.mark.slow
@pytest.mark.parametrize("argv, message", [
    (("export", "tables", "--table", "no_such_table"),
     "dungeonpress export tables: error: --table: no table 'no_such_table' in the content"),
    (("export", "tables", "--table", "solo_light"),
     "dungeonpress export tables: error: --table: table 'solo_light' is read, not rolled"),
])
def test_bad_table_is_one_line_and_writes_nothing(tmp_path, argv, message):
    code, out, err = run(*argv, "--out", str(tmp_path / "out"), "--quiet")
    assert code == 2 and out == ""  # a usage mistake, though only the content can tell
    assert err.startswith(message) and err.count("\n") == 1 and "Traceback" not in err
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").rglob("*.*"))


def test_unknown_format_is_a_usage_error(tmp_path):
    code, _, err = run("export", "tables", "--format", "xml", "--out", str(tmp_path))
    assert code == 2
    assert err == "dungeonpress export tables: error: --format must be one of json, csv, foundry, datasworn (got xml)\n"
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(Exception, match="unknown export format 'xml'"):
        export_files(None, "xml")


@pytest.mark.slow
def test_an_unwritable_output_folder_leaves_no_half_bundle(tmp_path):
    # a file where the module folder should go: the per-table files would fit, the module would not
    out = tmp_path / "out"
    (out / "exports" / "foundry").mkdir(parents=True)
    (out / "exports" / "foundry" / "module").write_text("in the way")
    code, _, err = run("export", "tables", "--format", "foundry", "--out", str(out), "--quiet")
    assert code == 1 and err.startswith("error: ") and err.count("\n") == 1
    assert sorted(p.name for p in (out / "exports" / "foundry").iterdir()) == ["module"]
    # an output path that is a file
    blocker = tmp_path / "file"
    blocker.write_text("x")
    code, _, err = run("export", "tables", "--format", "csv", "--out", str(blocker), "--quiet")
    assert (code, err) == (2, f"dungeonpress: error: --out {blocker} is a file, not a folder\n")  # a usage mistake


def test_build_all_builds_every_export_format():
    assert {job.options["format"] for job in exports.COMMANDS[0].build_all} == set(FORMATS)


def test_licence_terms_cover_every_source_a_table_may_name():
    from dungeonpress.validate import ORIGINS
    assert set(licences.TERMS) == set(ORIGINS)
