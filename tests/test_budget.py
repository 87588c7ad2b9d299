"""A budget for every run: time, memory and pages stop a build in one line; errors are capped; text off the page fails."""

from __future__ import annotations

import signal
import time

import pytest

from dungeonpress import budget, cli
from tests.conftest import MOOD_D6 as D6
from tests.conftest import run_cli as run


# -- the watch on this process

def test_a_block_past_its_time_is_stopped():
    with pytest.raises(budget.OverBudget, match=r"^the test took longer than 0.5 s \(time limit; raise it with "
                                                  r"--item-timeout\)$"):
        with budget.limited(seconds=0.5, memory_mb=None, what="the test"):
            while True:
                time.sleep(0.01)
    assert signal.getsignal(signal.SIGALRM) in (signal.SIG_DFL, None, signal.default_int_handler) or \
        signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_a_block_past_its_memory_is_stopped():
    limit = int(budget.resident_mib()) + 200
    held = []
    with pytest.raises(budget.OverBudget, match=rf"^the test needed more than {limit} MiB of memory \(memory limit; "
                                                rf"raise it with --item-memory\)$"):
        with budget.limited(seconds=None, memory_mb=limit, what="the test"):
            for _ in range(40):  # 40 x 16 MiB, each page written, so it is resident
                held.append(b"x" * (16 << 20))
                time.sleep(0.05)
            time.sleep(1)
    assert len(held) * 16 > 200  # it was stopped only once past the limit
    held.clear()


def test_a_block_within_its_budget_runs_and_leaves_no_timer():
    before = signal.getsignal(signal.SIGALRM)
    with budget.limited(seconds=30, memory_mb=65536, what="the test"):
        total = sum(range(1000))
    assert total == 499500
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0) and signal.getsignal(signal.SIGALRM) == before


@pytest.mark.parametrize("option, value, message", [
    ("--max-pages", "0", "argument --max-pages: must be a number from 1 to 100000 (got 0)"),
    ("--item-timeout", "-5", "argument --item-timeout: must be a number from 1 to 86400 (got -5)"),
    ("--item-memory", "abc", "argument --item-memory: must be a number from 512 to 65536 (got abc)"),
])
def test_limits_out_of_range_are_usage_errors(option, value, message):
    status, out, err = run("build", "rulebook", option, value)
    assert status == 2 and err == f"dungeonpress build rulebook: error: {message} (see dungeonpress build rulebook --help)\n"


# -- errors capped

def test_errors_are_capped_at_a_hundred_then_counted(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    tables = tmp_path / "pack" / "tables"
    tables.mkdir(parents=True)
    for n in range(150):  # each table has 5 rows for its d6: one error each
        (tables / f"t{n:03d}.yaml").write_text(D6.replace("mood", f"t{n:03d}").replace("  6: Wild\n", "")
                                                 .replace("source: core", "source: A tester (CC0)"))
    status, out, err = run("validate", "--content", "pack")
    lines = err.splitlines()
    assert status == 1 and len(lines) == 102
    assert lines[0].startswith("pack/tables/t000.yaml:") and lines[99].startswith("pack/tables/t099.yaml:")
    assert lines[100:] == ["… and 50 more content errors (the first 100 are shown)", "build failed: 150 content errors"]


def test_warnings_are_capped_at_a_hundred_then_counted():
    shown = []
    cli._show_capped([f"w{n}" for n in range(1234)], shown.append)
    assert shown[:2] == ["w0", "w1"] and len(shown) == 101 and shown[-1] == "… and 1,134 more"


# -- a product run: time and pages stop it in one line, text off the page fails it

def _book(root, text: str):
    (root / "rules").mkdir(parents=True)
    (root / "rules" / "one.md").write_text(text)
    (root / "book.yaml").write_text("title: T\nchapters:\n  - rules/one.md\n")
    return root


@pytest.mark.slow
def test_a_run_past_its_time_limit_stops_in_one_line(tmp_path):
    status, out, err = run("build", "rulebook", "--item-timeout", "1", "--out", tmp_path / "out", "--quiet")
    assert status == 1
    assert err == "error: build rulebook took longer than 1 s (time limit; raise it with --item-timeout)\n"
    assert not written(tmp_path / "out")


@pytest.mark.slow
def test_a_document_past_the_page_limit_stops_in_one_line(tmp_path):
    pack = _book(tmp_path / "pack", "# One\n\n" + "A line of rules text that fills the page.\n\n" * 400)
    status, out, err = run("build", "rulebook", "--content", pack, "--max-pages", "6", "--out", tmp_path / "out",
                           "--quiet")
    assert status == 1
    assert err == "error: the document runs past 6 pages (page limit; raise it with --max-pages)\n"
    assert not written(tmp_path / "out")


@pytest.mark.slow
def test_a_word_too_long_for_the_page_is_an_error(tmp_path):
    # the figure: a 199,000-character word printed 45 characters and exited 0
    pack = _book(tmp_path / "pack", "# One\n\nA word: " + "a" * 199_000 + "\n")
    status, out, err = run("build", "rulebook", "--content", pack, "--out", tmp_path / "out", "--quiet")
    assert status == 1 and len(err.splitlines()) == 1
    assert err.startswith("error: text that cannot fit: page ")
    assert "198,9" in err and "character(s) of text run off the page, from 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'" in err
    assert not written(tmp_path / "out")


@pytest.mark.slow
def test_a_word_too_long_for_a_zine_table_is_an_error(tmp_path):
    # the figure: a 1,000-character word in a zine table put 1,952 characters off the page, exit 0
    from dungeonpress.build import CONTENT_DIR
    source = (CONTENT_DIR / "dungeoneer" / "tables" / "environmental_conditions.yaml").read_text()
    tables = tmp_path / "pack" / "tables"
    tables.mkdir(parents=True)
    long = "\n".join(line.split("effect:")[0] + "effect: " + "w" * 1000 + "}" if line.startswith("  ") and "effect:" in line
                     else line for line in source.splitlines())
    long = long.replace("source: dungeoneer", "source: A tester (CC0)")  # a pack credits itself
    (tables / "environmental_conditions.yaml").write_text(long + "\n")
    status, out, err = run("dungeon", "--seed", "1234", "--content", tmp_path / "pack", "--out", tmp_path / "out",
                           "--quiet")
    assert status == 1 and len(err.splitlines()) == 1
    assert err.startswith("error: text that cannot fit: page 1: ") and "wwwwwwwwww" in err
    assert not written(tmp_path / "out")


def test_the_page_limit_the_help_names_is_the_one_layout_uses():
    from dungeonpress import pdf  # loads WeasyPrint: cli names the default without importing it
    assert cli.MAX_PAGES == pdf.MAX_PAGES


def written(out) -> list:
    """What a run left in its output folder, but for the laid-out book parts it keeps for the next run."""
    return [p for p in out.rglob("*") if p.is_file() and ".cache" not in p.relative_to(out).parts] if out.exists() else []
