"""serve.jobs: roll forms → command lines, and builds run as subprocesses whose errors and outputs are read back."""

from __future__ import annotations

import re
import threading
from pathlib import Path

import pytest

from dungeonpress.serve.jobs import JOBS_DIR, KEEP_JOBS, BadRoll, RollRequest, Runner


def test_a_form_becomes_a_command_line():
    form = {"what": ["dungeon"], "seed": ["42"], "rooms": ["6"], "paper": ["letter"], "layout": ["booklet"],
            "theme": ["standard"]}
    assert RollRequest.from_form(form).argv() == ["dungeon", "--seed", "42", "--rooms", "6", "--layout", "booklet",
                                           "--paper", "letter"]
    assert RollRequest.from_form(form | {"what": ["pack"]}).argv() == ["dungeon", "--seed", "42", "--count", "6",
                                                                "--rooms", "6", "--paper", "letter"]
    assert RollRequest.from_form(form | {"what": ["character"], "paper": ["a5"]}).argv() == [
        "character", "--seed", "42", "--paper", "a5"]
    assert 0 <= RollRequest.from_form(form | {"seed": [""]}).seed < 10**6


@pytest.mark.parametrize("change, message", [
    ({"what": ["rulebook"]}, "unknown product 'rulebook'"), ({"seed": ["1; rm -rf /"]}, "is not a whole number"),
    ({"seed": ["-1"]}, "out of range"), ({"rooms": ["99"]}, "rooms 99 is out of range (3-30)"),
    ({"paper": ["a5"]}, "a dungeon prints on a4, letter"), ({"layout": ["scroll"]}, "layout 'scroll'"),
    ({"theme": ["neon"]}, "theme 'neon'"),
])
def test_bad_form_values_are_refused(change, message):
    form = {"what": ["dungeon"], "seed": ["42"], "rooms": ["6"], "paper": ["a4"], "layout": ["zine"]}
    with pytest.raises(BadRoll, match=re.escape(message)):
        RollRequest.from_form(form | change)


def test_a_theme_other_than_the_standard_is_passed_on():
    assert RollRequest.from_form({"theme": ["ink-saver"]}).argv()[-2:] == ["--theme", "ink-saver"]
    assert "--theme" not in RollRequest().argv()


# -- builds, with a stand-in for `python -m dungeonpress …` (a build is only ever a subprocess)

def fake_python(tmp_path: Path, script: str) -> str:
    """A shell script standing in for Python; `$OUT` is the folder after --out, if any."""
    fake = tmp_path / "fake-python"
    fake.write_text('#!/bin/sh\nOUT=""\nprev=""\nfor a in "$@"; do [ "$prev" = "--out" ] && OUT="$a"; prev="$a"; done\n'
                    + script + "\n")
    fake.chmod(0o755)
    return str(fake)


def finished(job, rounds=2000):
    event = threading.Event()
    for _ in range(rounds):
        if job.finished:
            return job
        event.wait(0.01)
    raise AssertionError("the fake build never finished")


def test_a_build_lists_what_it_wrote_and_passes_the_content_packs(tmp_path):
    out = tmp_path / "build"
    script = 'echo "$@" > "$OUT/args.txt"; mkdir -p "$OUT/exports"; echo x > "$OUT/exports/t.json"; touch "$OUT/.hidden"'
    runner = Runner(out, [tmp_path / "mypack"], timeout=30, on_change=lambda: None,
                    python=fake_python(tmp_path, script))
    job = finished(runner.roll(RollRequest(seed=5, rooms=4)))
    assert job.state == "done" and job.errors == [] and job.messages == []
    folder = job.folder.relative_to(out).as_posix()
    assert folder.startswith(f"{JOBS_DIR}/roll-")
    assert job.outputs == [f"{folder}/args.txt", f"{folder}/exports/t.json"]  # hidden files are not offered
    args = (job.folder / "args.txt").read_text().split()
    assert args[:6] == ["-m", "dungeonpress", "dungeon", "--seed", "5", "--rooms"]
    assert args[-2:] == ["--content", str(tmp_path / "mypack")] and "--quiet" in args
    runner.close()
    assert not (out / JOBS_DIR).exists()


def test_content_errors_are_read_by_file_and_line_and_other_lines_kept(tmp_path):
    script = ('echo "seed: 5" >&2; echo "pack/tables/a.yaml:3: row 7 is past the die (expected 1-6)" >&2; '
              'echo "usage: dungeonpress ..." >&2; echo "build failed: 1 content error" >&2; exit 1')
    runner = Runner(tmp_path, [], timeout=30, on_change=lambda: None, python=fake_python(tmp_path, script))
    job = finished(runner.check("content changed"))
    assert job.folder is None and job.label == "dungeonpress validate" and job.reason == "content changed"
    assert job.state == "failed"
    assert job.errors == [("pack/tables/a.yaml", 3, "row 7 is past the die (expected 1-6)")]
    assert job.messages == ["build failed: 1 content error"]
    runner.close()


def test_a_silent_failure_still_says_how_it_stopped(tmp_path):
    runner = Runner(tmp_path, [], timeout=30, on_change=lambda: None, python=fake_python(tmp_path, "exit 3"))
    job = finished(runner.roll(RollRequest()))
    assert job.state == "failed" and job.messages == ["the build stopped with exit status 3"]
    runner.close()


def test_a_build_that_cannot_start_fails_with_one_message(tmp_path):
    runner = Runner(tmp_path, [], timeout=30, on_change=lambda: None, python=str(tmp_path / "no-such-python"))
    job = finished(runner.roll(RollRequest()))
    assert job.state == "failed" and len(job.messages) == 1
    assert job.messages[0].startswith("error: could not start the build: ")
    runner.close()


def test_only_the_newest_rolls_and_the_last_check_are_kept(tmp_path):
    changes = []
    runner = Runner(tmp_path, [], timeout=30, on_change=lambda: changes.append(1),
                    python=fake_python(tmp_path, "true"))
    first = finished(runner.roll(RollRequest(seed=1)))
    checks = [finished(runner.check("edit")) for _ in range(2)]
    later = [finished(runner.roll(RollRequest(seed=n))) for n in range(2, KEEP_JOBS + 2)]
    runner.roll(RollRequest(seed=99))  # trims as it starts
    assert first.folder is not None and not first.folder.exists()  # the oldest finished roll's folder is gone
    # thirteen rolls were started after the first: the first and the next went, the newest twelve stay
    assert runner.find(first.id) is None and runner.find(later[0].id) is None and runner.find(later[1].id) is later[1]
    assert len(runner.rolls()) == KEEP_JOBS and runner.latest_roll().roll == RollRequest(seed=99)
    assert runner.latest_check() is checks[-1] and runner.find(checks[0].id) is None
    assert changes  # the page was told each time a job moved
    finished(runner.latest_roll())
    runner.close()
