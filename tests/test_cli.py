"""The command line: exit codes, error output without tracebacks, help everywhere."""

from __future__ import annotations

import argparse
import dataclasses
import re
import subprocess
import sys

import pytest

from dungeonpress import __version__, build, progress
from dungeonpress.errors import UsageError
from dungeonpress.products import options
from tests.conftest import run_cli as run


@pytest.mark.slow
def test_validate_the_project_content():
    code, out, err = run("validate")
    assert code == 0, err
    assert out.startswith("content ok: ")


@pytest.mark.slow
def test_broken_content_exits_one_with_every_error(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    pack = tmp_path / "mypack" / "tables"
    pack.mkdir(parents=True)
    (pack / "loot.yaml").write_text("id: loot\ntitle: Loot\ndie: d7\nsource: core\ncolumns: {a: A}\nrows: {1: x}\n")
    (pack / "bad.yaml").write_text("id: bad\ntitle: [\n")
    code, out, err = run("validate", "--content", "mypack")
    assert code == 1
    assert err.splitlines() == [
        "mypack/tables/bad.yaml:3: YAML syntax error: expected the node content, but found '<stream end>'",
        "mypack/tables/loot.yaml:3: unknown dice 'd7' (expected one of d4, d6, d8, d10, d12, d20, 2d6, d66, d100, none)",
        "build failed: 2 content errors",
    ]
    assert "Traceback" not in err


@pytest.mark.slow
def test_a_user_pack_replaces_a_table_by_id(tmp_path):
    pack = tmp_path / "tables"
    pack.mkdir()
    (pack / "scene_mood.yaml").write_text(
        "id: scene_mood\ntitle: My Mood\ndie: d6\nsource: me\ncolumns: {mood: Mood}\nrows: {1-6: Always grim}\n")
    code, out, err = run("validate", "--content", str(tmp_path))
    assert code == 0, err


def test_usage_errors_exit_two():
    assert run("build", "rulebook", "--paper", "a3")[0] == 2
    assert run("no-such-command")[0] == 2
    assert run()[0] == 2


def test_version_and_help():
    code, out, _ = run("--version")
    assert code == 0 and out.strip() == f"dungeonpress {__version__}"
    for argv in (["--help"], ["build", "--help"], ["build", "rulebook", "--help"], ["export", "tables", "--help"]):
        code, out, _ = run(*argv)
        assert code == 0 and "usage:" in out


def _bad_values(spec):
    """Values just outside what an option allows, and one that is not a value at all."""
    if spec.choices:
        return ["no-such-value"]
    if not spec.whole:
        return []  # free text (a table id): checked against the content, later
    bad = ["many"]
    if spec.min is not None:
        bad.append(str(spec.min - 1))
    if spec.max is not None:
        bad.append(str(spec.max + 1))
    return bad


@pytest.mark.slow
def test_every_bad_option_value_of_every_command_is_one_line_exit_two(tmp_path):
    """Walk all commands' options: each bad value names the option and what it allows, before content loads."""
    walked = 0
    for command in build.commands():
        for field, spec in options.specs(command.options):
            if spec.switch:
                continue
            flag = options.flag_of(field)
            for value in _bad_values(spec):
                argv = [*command.full_name.split(), flag, value, "--out", str(tmp_path / "out")]
                code, out, err = run(*argv)
                assert code == 2, argv
                assert out == "" and err.count("\n") == 1, (argv, err)
                assert err == f"dungeonpress {command.full_name}: error: {flag} must be {spec.allowed()} " \
                              f"(got {value})\n", argv
                walked += 1
    assert walked >= 20
    assert not (tmp_path / "out").exists()


def test_options_are_frozen_and_checked_in_code_too():
    from dungeonpress.products.delve import DelveOptions
    with pytest.raises(UsageError, match="--turns must be a whole number from 1 to 200"):
        DelveOptions(turns=0)
    opts = DelveOptions()
    with pytest.raises(dataclasses.FrozenInstanceError):
        opts.turns = 3


def test_build_all_runs_what_each_product_registers():
    jobs = [(c.full_name, job) for c in build.commands() for job in c.build_all]
    names = [name for name, _ in jobs]
    assert names[:3] == ["build rulebook", "build tables", "export tables"]
    assert {"dungeon", "sheet", "character", "paper", "paperogue", "dunginoes", "delve"} <= set(names)
    for command in build.commands():  # every registered default is itself a valid set of options
        for job in command.build_all:
            options.parse(command.options, job.options)
            assert (job.seed is not None) == command.seeded, command.full_name


@pytest.mark.slow
def test_python_dash_m_works():
    result = subprocess.run([sys.executable, "-m", "dungeonpress", "--version"], capture_output=True, text=True)
    assert result.returncode == 0 and result.stdout.strip() == f"dungeonpress {__version__}"


def test_a_failed_build_leaves_no_half_file(tmp_path, monkeypatch):
    from dungeonpress import build
    from dungeonpress.products.common import Output
    target = tmp_path / "out"
    build.write_outputs(target, [Output("a.pdf", b"%PDF-1.7\nold\n%%EOF\n")])
    with pytest.raises(RuntimeError, match="incomplete"):
        build.write_outputs(target, [Output("a.pdf", b"%PDF-1.7\ntruncated")])
    assert (target / "a.pdf").read_bytes() == b"%PDF-1.7\nold\n%%EOF\n"
    assert [p.name for p in target.iterdir()] == ["a.pdf"]


HEAVY = ("weasyprint", "jinja2", "yaml", "pikepdf", "markdown_it", "tqdm")


@pytest.mark.parametrize("argv", [["--help"], ["--version"], ["dungeon", "--help"], ["build", "rulebook", "--help"],
                                  ["export", "tables", "--help"], ["validate", "--help"], ["dungen"],
                                  ["dungeon", "--sed", "4"]])
@pytest.mark.slow
def test_help_version_and_usage_errors_load_no_heavy_library(argv):
    """The whole process, as a user starts it: help, version and usage errors read no YAML and lay out nothing."""
    script = ("import sys, runpy\nsys.argv = ['dungeonpress', *sys.argv[1:]]\n"
              "try:\n    runpy.run_module('dungeonpress', run_name='__main__')\nexcept SystemExit:\n    pass\n"
              f"print(sorted(m for m in {HEAVY!r} if m in sys.modules), file=sys.stderr)")
    result = subprocess.run([sys.executable, "-c", script, *argv], capture_output=True, text=True)
    assert result.stderr.splitlines()[-1] == "[]", result.stderr


@pytest.mark.parametrize("argv, line", [
    (["dungen"], "dungeonpress: error: unknown command 'dungen' (did you mean dungeon?)"),
    (["build", "rulbook"], "dungeonpress build: error: unknown product 'rulbook' (did you mean rulebook?)"),
    (["export", "tabels"], "dungeonpress export: error: unknown export 'tabels' (did you mean tables?)"),
    (["dungeon", "--sed", "4"], "dungeonpress dungeon: error: unknown option --sed (did you mean --seed?)"),
    (["build", "rulebook", "--qiuet"], "dungeonpress build rulebook: error: unknown option --qiuet (did you mean --quiet?)"),
    (["validate", "--contnet=x"], "dungeonpress validate: error: unknown option --contnet (did you mean --content?)"),
    (["dungeon", "--seed"], "dungeonpress dungeon: error: argument --seed: expected one argument (see dungeonpress dungeon --help)"),
    (["dungeon", "zine"], "dungeonpress dungeon: error: unexpected argument: zine (see dungeonpress dungeon --help)"),
    (["sheet", "--quiet", "--verbose"], "dungeonpress sheet: error: argument --verbose: not allowed with argument --quiet (see dungeonpress sheet --help)"),
    ([], "dungeonpress: error: a command is needed (see dungeonpress --help)"),
    (["xyzzy"], "dungeonpress: error: unknown command 'xyzzy' (see dungeonpress --help)"),
    (["paper", "--zzz"], "dungeonpress paper: error: unknown option --zzz (see dungeonpress paper --help)"),
    (["build"], "dungeonpress build: error: the following arguments are required: PRODUCT (see dungeonpress build --help)"),
    # A seed is part of every file name: `dungeon--1.json` and "File name too long" after 12 s were the old answers.
    (["dungeon", "--seed=-1"], "dungeonpress dungeon: error: --seed must be a whole number from 0 to 999999999999999999 (got -1)"),
    (["dungeon", "--seed", "12x"], "dungeonpress dungeon: error: --seed must be a whole number from 0 to 999999999999999999 (got 12x)"),
    (["dungeon", "--seed", "9" * 250], "dungeonpress dungeon: error: --seed must be a whole number of at most 18 "
                                       "digits (got one of 250 digits)"),
])
def test_every_usage_error_is_one_line_with_what_was_meant(argv, line):
    code, out, err = run(*argv)
    assert (code, out, err) == (2, "", line + "\n")


def test_validate_takes_the_common_options(tmp_path):
    every = set.intersection(*(_option_strings(c.full_name.split()) for c in build.commands()))
    assert {"--content", "--out", "--quiet", "--verbose", "--strict", "--debug", "--theme"} <= every
    assert every <= _option_strings(["validate"])
    code, out, err = run("validate", "--quiet", "--out", str(tmp_path), "--theme", "standard")
    assert (code, out, err) == (0, "", "")


@pytest.mark.slow  # three whole exports
def test_a_run_ends_with_one_summary_and_names_files_only_when_verbose(tmp_path):
    code, out, err = run("export", "tables", "--format", "csv", "--out", str(tmp_path / "a"))
    files = sorted(p for p in (tmp_path / "a").rglob("*") if p.is_file())
    size = sum(p.stat().st_size for p in files)
    assert code == 0 and err == ""  # stderr is no terminal here: no bar
    assert re.fullmatch(rf"wrote {len(files)} files \({progress.size_text(size)}\) to \S+/ in \d+\.\d s\n", out), out
    code, out, err = run("export", "tables", "--format", "csv", "--out", str(tmp_path / "b"), "--verbose")
    assert code == 0 and sorted(line.split("/")[-1] for line in out.splitlines()[:-1]) == sorted(p.name for p in files)
    assert out.splitlines()[-1].startswith(f"wrote {len(files)} files (")
    assert run("export", "tables", "--format", "csv", "--out", str(tmp_path / "c"), "--quiet") == (0, "", "")


def _option_strings(words) -> set:
    from dungeonpress.cli import _parser
    parser = _parser(build.commands())
    for word in words:
        parser = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices[word]
    return {flag for action in parser._actions for flag in action.option_strings}


def test_preflight_of_a_file_that_is_not_a_pdf_counts_it_and_fails(tmp_path):
    (tmp_path / "notes.pdf").write_text("hello")
    code, out, err = run("preflight", str(tmp_path / "notes.pdf"))
    assert (code, out) == (1, "")
    assert err.splitlines() == [f"error: {tmp_path / 'notes.pdf'}: not a PDF (no %PDF- header)",
                                "preflight: 1 file(s), 1 refused, 0 error(s), 0 warning(s)"]
