"""serve.jobs: rolls built as subprocesses into kept, whole roll folders; a capped queue; stale builds stopped."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pypdf
import pytest

from dungeonpress.serve.jobs import KEEP_JOBS, MAX_WAITING, RETRY_AFTER, ROLLS_DIR, STAGING, Busy, Runner
from dungeonpress.serve.rolls import RollRequest


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


def test_a_roll_is_kept_whole_in_its_own_folder_with_the_content_packs_passed(tmp_path):
    out = tmp_path / "build"
    script = 'echo "$@" > "$OUT/args.txt"; mkdir -p "$OUT/exports"; echo x > "$OUT/exports/t.json"; touch "$OUT/.hidden"'
    runner = Runner(out, [tmp_path / "mypack"], timeout=30, on_change=lambda: None,
                    python=fake_python(tmp_path, script))
    job = finished(runner.roll(RollRequest(seed=5, options=(("--rooms", "4"),))))
    assert job.state == "done" and job.errors == [] and job.messages == []
    assert job.folder == out / ROLLS_DIR / "dungeon-seed-5-rooms-4"
    assert job.outputs == [f"{ROLLS_DIR}/dungeon-seed-5-rooms-4/args.txt",
                           f"{ROLLS_DIR}/dungeon-seed-5-rooms-4/exports/t.json"]  # hidden files are not offered
    args = (job.folder / "args.txt").read_text().split()
    assert args[:6] == ["-m", "dungeonpress", "dungeon", "--seed", "5", "--rooms"]
    assert args[-2:] == ["--content", str(tmp_path / "mypack")] and "--quiet" in args
    assert Path(args[args.index("--out") + 1]).name.startswith(STAGING)  # built aside, renamed in when whole
    assert job.label == f"dungeonpress dungeon --seed 5 --rooms 4 --content {tmp_path / 'mypack'}"
    runner.close()
    assert sorted(p.name for p in (out / ROLLS_DIR).iterdir()) == ["dungeon-seed-5-rooms-4"]  # kept after stop


def test_the_command_shown_names_packs_as_the_user_would_type_them(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "my pack").mkdir()
    runner = Runner(tmp_path / "build", [tmp_path / "my pack"], timeout=30, on_change=lambda: None)
    assert runner.command_line(RollRequest(seed=9)) == "dungeonpress dungeon --seed 9 --content 'my pack'"


def test_a_failed_build_leaves_no_folder_and_a_rebuild_replaces_the_old_one(tmp_path):
    out = tmp_path / "build"
    runner = Runner(out, [], timeout=30, on_change=lambda: None,
                    python=fake_python(tmp_path, 'echo one > "$OUT/a.txt"; echo half > "$OUT/b.txt"; exit 1'))
    job = finished(runner.roll(RollRequest(seed=1)))
    assert job.state == "failed" and job.outputs == []
    assert list((out / ROLLS_DIR).iterdir()) == []  # neither the half roll nor its staging folder
    runner.python = fake_python(tmp_path, 'echo one > "$OUT/a.txt"')
    first = finished(runner.roll(RollRequest(seed=1), reason="again"))
    runner.python = fake_python(tmp_path, 'echo two > "$OUT/c.txt"')
    second = finished(runner.roll(RollRequest(seed=1), reason="changed"))
    assert first.folder == second.folder
    assert sorted(p.name for p in second.folder.iterdir()) == ["c.txt"]  # the new roll, whole, nothing of the old
    assert sorted(p.name for p in (out / ROLLS_DIR).iterdir()) == ["dungeon-seed-1"]
    runner.close()


def test_staging_folders_of_a_dead_server_are_removed_and_a_live_ones_kept(tmp_path):
    rolls = tmp_path / "build" / ROLLS_DIR
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    stale = rolls / f"{STAGING}{dead.stdout.strip()}-abc"
    live = rolls / f"{STAGING}{os.getpid()}-def"
    kept = rolls / "dungeon-seed-1"
    for folder in (stale, live, kept):
        folder.mkdir(parents=True)
        (folder / "x.pdf").write_bytes(b"%PDF-half")
    runner = Runner(tmp_path / "build", [], timeout=30, on_change=lambda: None)
    assert runner.remove_stale_staging() == [stale]
    assert not stale.exists() and live.exists() and kept.exists()


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


def test_the_queue_is_capped_and_the_same_waiting_roll_is_not_queued_twice(tmp_path):
    flag = tmp_path / "go"
    runner = Runner(tmp_path / "build", [], timeout=60, on_change=lambda: None,
                    python=fake_python(tmp_path, f'while [ ! -e "{flag}" ]; do sleep 0.05; done'))
    try:
        jobs = [runner.roll(RollRequest(seed=n)) for n in range(MAX_WAITING)]
        assert runner.roll(RollRequest(seed=MAX_WAITING - 1)) is jobs[-1]  # still queued: the same job
        with pytest.raises(Busy) as refused:
            runner.roll(RollRequest(seed=99))
        assert refused.value.retry_after == RETRY_AFTER
        assert str(refused.value) == f"{MAX_WAITING} rolls are already waiting; try again in {RETRY_AFTER} s"
        assert len(runner.rolls()) == MAX_WAITING
    finally:
        flag.touch()
        for job in jobs:
            finished(job, rounds=6000)
        runner.close()


def test_a_content_change_stops_the_stale_build_of_the_same_roll(tmp_path):
    flag = tmp_path / "go"
    runner = Runner(tmp_path / "build", [], timeout=60, on_change=lambda: None,
                    python=fake_python(tmp_path, f'while [ ! -e "{flag}" ]; do sleep 0.05; done; echo x > "$OUT/a.txt"'))
    first = runner.roll(RollRequest(seed=3))
    for _ in range(2000):
        if first.id in runner._procs:
            break
        threading.Event().wait(0.01)
    second = runner.roll(RollRequest(seed=3), reason="changed a.yaml", supersede=True)
    assert second is not first and first.superseded
    flag.touch()
    finished(second, rounds=6000)
    assert second.state == "done" and runner.rolls() == [second]  # the stopped build is forgotten
    runner.close()


def test_only_the_newest_rolls_are_remembered_and_every_folder_is_kept(tmp_path):
    changes = []
    out = tmp_path / "build"
    runner = Runner(out, [], timeout=30, on_change=lambda: changes.append(1),
                    python=fake_python(tmp_path, 'echo x > "$OUT/a.txt"'))
    first = finished(runner.roll(RollRequest(seed=1)))
    checks = [finished(runner.check("edit")) for _ in range(2)]
    later = [finished(runner.roll(RollRequest(seed=n))) for n in range(2, KEEP_JOBS + 2)]
    finished(runner.roll(RollRequest(seed=99)))  # trims as it starts
    assert runner.find(first.id) is None and runner.find(later[0].id) is None and runner.find(later[1].id) is later[1]
    assert len(runner.rolls()) == KEEP_JOBS and runner.latest_roll().roll == RollRequest(seed=99)
    assert runner.latest_check() is checks[-1] and runner.find(checks[0].id) is None
    assert first.folder.is_dir() and len(list((out / ROLLS_DIR).iterdir())) == KEEP_JOBS + 2
    assert runner.latest_of(RollRequest(seed=5)).roll == RollRequest(seed=5)
    assert runner.latest_of(RollRequest(seed=1)) is None  # forgotten (its folder stays)
    assert changes  # the page was told each time a job moved
    runner.close()


# -- the rulebook: built into the build folder itself (its part cache), never a roll

_BOOK_SCRIPT = ('echo "$@" > "$OUT/book-args.txt"; echo x > "$OUT/dungeoneer-rulebook.pdf"; '
                'echo x > "$OUT/dungeoneer-rulebook-booklet-a4.pdf"')


def test_the_rulebook_is_built_into_the_build_folder_and_is_not_a_roll(tmp_path):
    out = tmp_path / "build"
    out.mkdir()
    (out / "dungeoneer-rulebook-old.pdf").write_text("from before")
    os.utime(out / "dungeoneer-rulebook-old.pdf", (1, 1))
    runner = Runner(out, [tmp_path / "mypack"], timeout=30, on_change=lambda: None,
                    python=fake_python(tmp_path, _BOOK_SCRIPT))
    job = finished(runner.book())
    assert job.state == "done" and job.book and runner.latest_book() is job
    args = (out / "book-args.txt").read_text().split()
    assert args[2:6] == ["build", "rulebook", "--layout", "pages"]
    assert args[args.index("--out") + 1] == str(out)  # where OUT/.cache/parts is: an edit re-lays only its parts
    assert args[-2:] == ["--content", str(tmp_path / "mypack")]
    assert job.outputs == ["dungeoneer-rulebook.pdf"]  # the reading PDF it wrote; not a booklet, not an old file
    assert runner.rolls() == [] and runner.latest_roll() is None and not (out / ROLLS_DIR).exists()
    runner.close()


def test_a_content_change_stops_a_running_rulebook_and_a_waiting_one_is_reused(tmp_path):
    flag = tmp_path / "go"
    (tmp_path / "build").mkdir()
    runner = Runner(tmp_path / "build", [], timeout=60, on_change=lambda: None,
                    python=fake_python(tmp_path, f'while [ ! -e "{flag}" ]; do sleep 0.05; done; ' + _BOOK_SCRIPT))
    first = runner.book()
    for _ in range(2000):
        if first.id in runner._procs:
            break
        threading.Event().wait(0.01)
    second = runner.book("changed a.yaml", supersede=True)
    assert second is not first and first.superseded
    assert runner.book("pressed") is second and not second.superseded  # asked again: the build under way
    flag.touch()
    finished(second, rounds=6000)
    assert second.state == "done" and runner.latest_book() is second and second.reason == "pressed"
    runner.close()


@pytest.mark.slow  # lays the small book out twice
def test_a_saved_edit_re_lays_only_the_changed_chapter(tmp_path, monkeypatch):
    import shutil
    pack = tmp_path / "mine"
    shutil.copytree(Path(__file__).parent / "fixtures" / "small_pack", pack)
    out = tmp_path / "build"
    monkeypatch.chdir(tmp_path)
    runner = Runner(out, [pack], timeout=900, on_change=lambda: None, python=sys.executable,
                    cwd=Path(__file__).resolve().parents[1])
    first = finished(runner.book(), rounds=90_000)
    assert first.state == "done", first.messages
    parts = out / ".cache" / "parts"
    before = {p.name for p in parts.iterdir()}
    chapter = pack / "rules" / "02-weather.md"
    chapter.write_text(chapter.read_text() + "\nA line added by the test, in its own words.\n")
    second = finished(runner.book("changed mine/rules/02-weather.md", supersede=True), rounds=90_000)
    assert second.state == "done" and second.outputs == first.outputs == ["dungeoneer-rulebook-mine.pdf"]
    new = {p.name for p in parts.iterdir()} - before
    # the chapter, and at most the contents and the page furniture when page numbers moved; nothing else
    assert 1 <= len(new) <= 3 < len(before)
    runner.close()


@pytest.mark.slow  # builds the whole rulebook
def test_the_rulebook_button_builds_the_real_rulebook_with_its_two_part_workers(tmp_path):
    # Run in a warm worker (a daemon process), `build rulebook` could not start its part workers and failed
    # with "daemonic processes are not allowed to have children": the page's button never built a book.
    runner = Runner(tmp_path, [], timeout=600, on_change=lambda: None)
    job = runner.book("asked for")
    deadline = time.monotonic() + 600
    while not job.finished and time.monotonic() < deadline:
        time.sleep(0.5)
    runner.close()
    assert (job.state, job.messages) == ("done", []) and job.outputs == ["dungeoneer-rulebook.pdf"]
    assert len(pypdf.PdfReader(tmp_path / "dungeoneer-rulebook.pdf").pages) > 100
