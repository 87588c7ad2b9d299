"""serve.warm: rolls run as command lines in warm workers; a roll that hangs or kills its worker fails alone."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from dungeonpress.serve.jobs import ROLLS_DIR, Runner
from dungeonpress.serve.rolls import RollRequest
from dungeonpress.serve.warm import WarmWorker

ROOT = Path(__file__).resolve().parents[1]


def finished(job, seconds=600):
    deadline = time.monotonic() + seconds
    while not job.finished and time.monotonic() < deadline:
        time.sleep(0.05)
    assert job.finished, "the roll never finished"
    return job


@pytest.fixture
def worker(tmp_path):
    made = WarmWorker([], tmp_path / "build" / ".cache" / "content", ROOT)
    yield made
    made.close()


@pytest.mark.slow
def test_a_warm_worker_runs_the_command_line_as_the_cli_would(worker, tmp_path):
    code, out, err = worker.run(["dungeon", "--rooms", "99"], timeout=300)
    assert (code, out) == (2, "")
    assert len(err.splitlines()) == 1 and err.startswith("dungeonpress dungeon: error: --rooms must be a whole number")
    code, out, err = worker.run(["validate"], timeout=300)  # the same worker, again
    assert (code, err) == (0, "") and out.startswith("content ok: ")
    assert worker.usable


def test_a_roll_past_its_time_limit_stops_its_worker_and_fails_alone(worker, tmp_path):
    code, out, err = worker.run(["build", "rulebook", "--quiet", "--out", str(tmp_path / "out")], timeout=0.5)
    assert (code, err) == (1, "error: the build took longer than 0.5 s and was stopped")
    assert not worker.usable
    worker.process.join(timeout=30)
    assert worker.process.exitcode == -signal.SIGKILL


@pytest.mark.slow
def test_a_worker_killed_mid_roll_fails_that_roll_only(tmp_path):
    runner = Runner(tmp_path / "build", [], timeout=300, on_change=lambda: None, cwd=ROOT)
    try:
        job = runner.roll(RollRequest(seed=5))
        deadline = time.monotonic() + 120
        while job.id not in runner._procs and time.monotonic() < deadline:  # its worker has the roll
            time.sleep(0.01)
        worker = runner._procs[job.id]
        os.kill(worker.process.pid, signal.SIGKILL)  # what the OOM killer does
        finished(job)
        assert job.state == "failed" and job.outputs == []
        assert job.messages == ["error: the build stopped: its worker was killed (SIGKILL)"]
        assert not (tmp_path / "build" / ROLLS_DIR / "dungeon-seed-5").exists()  # no half roll
        again = finished(runner.check("a table was saved"))
        assert again.state == "done", again.messages  # a fresh worker took it
        assert worker not in runner._idle
    finally:
        runner.close()


@pytest.mark.slow
def test_a_content_mistake_in_a_warm_roll_is_shown_by_file_and_line(tmp_path):
    pack = tmp_path / "mine"
    (pack / "tables").mkdir(parents=True)
    (pack / "tables" / "mood.yaml").write_text("id: mood\ntitle: Mood\ndie: d7\nsource: me\ncolumns: {m: M}\n"
                                                "rows:\n  1: Grim\n")
    runner = Runner(tmp_path / "build", [pack], timeout=300, on_change=lambda: None, cwd=tmp_path)
    try:
        job = finished(runner.check("saved"))
    finally:
        runner.close()
    assert job.state == "failed"
    assert ("mine/tables/mood.yaml", 3, "unknown dice 'd7' (expected one of d4, d6, d8, d10, d12, d20, 2d6, d66, "
            "d100, none)") in job.errors


@pytest.mark.slow  # lays out two zines
def test_a_warm_roll_makes_the_bytes_the_command_it_shows_makes(tmp_path):
    out = tmp_path / "build"
    runner = Runner(out, [], timeout=600, on_change=lambda: None, cwd=ROOT)
    try:
        job = finished(runner.roll(RollRequest(seed=31, options=(("--rooms", "5"),))))
    finally:
        runner.close()
    assert job.state == "done", job.messages
    assert job.outputs == [f"{ROLLS_DIR}/dungeon-seed-31-rooms-5/{name}" for name in
                           ("dungeon-31-zine-a4.pdf", "dungeon-31-zine-reading.pdf", "dungeon-31.json")]
    assert not (job.folder / ".cache").exists()  # the worker's content model is kept in the build folder
    assert (out / ".cache" / "content").is_dir()
    cold = tmp_path / "cold"
    subprocess.run([sys.executable, "-m", "dungeonpress", *job.label.split()[1:], "--quiet", "--out", str(cold)],
                   check=True, cwd=ROOT)
    for name in ("dungeon-31-zine-a4.pdf", "dungeon-31-zine-reading.pdf", "dungeon-31.json"):
        assert (job.folder / name).read_bytes() == (cold / name).read_bytes(), name
