"""The run's display: items counted across jobs and batches, a bar only on a terminal, one summary line."""

from __future__ import annotations

import io
import threading

import pytest

from dungeonpress import progress
from dungeonpress.products.common import Event


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def test_jobs_count_as_items_until_a_batch_reports_its_own():
    out, err = io.StringIO(), io.StringIO()
    display = progress.Display(out, err, interactive=False, clock=Clock())
    display.plan(2)
    with display.job("sheet"):
        pass
    assert (display.total, display.tally.done) == (2, 1)
    with display.job("dungeon --count 3"):  # a batch: its three zines take the place of the job
        display.event(Event("planned", "zines", count=3))
        for n in range(3):
            display.event(Event("started", f"zine {n}"))
            display.event(Event("failed" if n == 1 else "finished", f"zine {n}", pages=8, bytes=10))
    assert (display.total, display.tally.done, display.tally.failed) == (4, 3, 1)
    display.event(Event("skipped", "tables"))
    assert display.tally.skipped == 1 and display.total == 5


def test_a_failed_job_is_counted_and_the_error_goes_on():
    display = progress.Display(io.StringIO(), io.StringIO(), interactive=False)
    display.plan(1)
    with pytest.raises(RuntimeError):
        with display.job("rulebook"):
            raise RuntimeError("boom")
    assert display.tally.failed == 1


def test_the_bar_shows_item_k_of_n_and_time_left_on_a_terminal_only():
    err = io.StringIO()
    display = progress.Display(io.StringIO(), err, interactive=True)
    display.plan(3)
    with display.job("rulebook"):
        display.step(1, 3, "laying out the rulebook")
    assert "1/3" in err.getvalue() and "laying out the rulebook" in err.getvalue() and "<" in err.getvalue()
    display.close()
    quiet_err = io.StringIO()
    display = progress.Display(io.StringIO(), quiet_err, level=progress.QUIET, interactive=True)
    display.plan(1)
    with display.job("rulebook"):
        display.warning("a font fell back")
    display.note("seed: 5")
    display.close("build/")
    assert quiet_err.getvalue() == "seed: 5\n"


def test_summary_names_files_pages_sizes_time_and_warnings():
    clock = Clock()
    out, err = io.StringIO(), io.StringIO()
    display = progress.Display(out, err, level=progress.VERBOSE, interactive=False, clock=clock)
    display.wrote("build/a.pdf", 1_250_000, 12)
    display.wrote("build/a.json", 3_000)
    display.warning("overfull line")
    clock.now += 4.26
    display.close("build/")
    assert out.getvalue().splitlines() == [
        "wrote build/a.pdf", "wrote build/a.json",
        "wrote 2 files (12 pages, 1.3 MB) to build/ in 4.3 s; 1 warning"]
    assert err.getvalue() == "warning: overfull line\n"


@pytest.mark.parametrize("size, text", [(0, "0 B"), (999, "999 B"), (1000, "1 kB"), (14_400, "14 kB"),
                                        (999_400, "999 kB"), (4_200_000, "4.2 MB"), (123_000_000, "123 MB")])
def test_sizes_read_as_people_read_them(size, text):
    assert progress.size_text(size) == text


def test_an_unknown_event_kind_is_a_bug():
    with pytest.raises(ValueError, match="unknown event kind 'done'"):
        Event("done", "x")


def test_time_left_is_unknown_until_something_says_and_never_a_false_zero():
    clock = Clock()
    display = progress.Display(io.StringIO(), io.StringIO(), interactive=False, clock=clock)
    display.plan(3)
    display.event(Event("started", "a"))
    clock.now += 10
    assert display.time_left() is None  # no history, nothing finished: "?"
    display.event(Event("finished", "a"))
    display.event(Event("started", "b"))
    clock.now += 4
    assert display.time_left() == pytest.approx(6 + 10)  # b: 10 s like a, 4 gone; c: 10 s
    clock.now += 20
    assert display.time_left() is None  # b is slower than a was: unknown, not "0 s"


def test_time_left_of_a_single_item_comes_from_the_last_build():
    clock = Clock()
    display = progress.Display(io.StringIO(), io.StringIO(), interactive=False, clock=clock,
                               history={"build tables": 25.0})
    display.plan(1)
    display.event(Event("started", "build tables"))
    clock.now += 5
    assert display.time_left() == pytest.approx(20)


def test_the_bar_is_redrawn_while_a_long_step_reports_nothing():
    err = io.StringIO()
    err.isatty = lambda: True
    display = progress.Display(io.StringIO(), err, history={"build tables": 25.0})
    display.HEARTBEAT = 0.01
    display.plan(1)
    display.event(Event("started", "build tables"))
    drawn = len(err.getvalue())
    for _ in range(500):  # the heartbeat thread redraws the elapsed time with no event at all
        if len(err.getvalue()) > drawn:
            break
        threading.Event().wait(0.01)
    display.close()
    assert len(err.getvalue()) > drawn
    assert "build tables" in err.getvalue() and "<" in err.getvalue()
    assert not display._heart  # the thread is gone after close
