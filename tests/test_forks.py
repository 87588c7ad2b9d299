"""Where workers come from (forks): the warm fork server, or a fresh interpreter when there is none or it cannot
start one."""

from __future__ import annotations

import multiprocessing
import os
import time

import pytest

from dungeonpress import forks


def test_without_pango_workers_are_spawned_so_an_item_can_say_so_in_one_line(monkeypatch):
    monkeypatch.setattr(forks, "_pango_loads", lambda: False)  # importing WeasyPrint would stop a fork server
    assert forks.worker_context().get_start_method() == "spawn"


def test_a_fork_server_that_cannot_start_a_worker_gives_way_to_a_fresh_interpreter(monkeypatch):
    class Broken:
        def Process(self, **kwargs):
            process = multiprocessing.get_context("spawn").Process(**kwargs)
            process.start = lambda: (_ for _ in ()).throw(EOFError("unexpected EOF"))  # its fork server died
            return process

    monkeypatch.setattr(forks, "worker_context", lambda: Broken())
    process = forks.start_worker(os.getpid, ())
    process.join(timeout=120)
    assert process.exitcode == 0


@pytest.fixture
def spare_core(monkeypatch):
    monkeypatch.setattr(forks, "_SPARE_CORE", True)  # the suite says it has none (conftest)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1})
    monkeypatch.setattr(forks, "_running", lambda: 1)  # this process alone at work


def _children() -> set:
    """The pids of this process's children that have not been reaped."""
    found = set()
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/stat") as stat:
                if int(stat.read().rsplit(")", 1)[1].split()[1]) == os.getpid():
                    found.add(int(entry))
        except (OSError, ValueError, IndexError):
            continue
    return found


def test_a_question_asked_ahead_is_answered_by_a_child_that_is_then_reaped(spare_core):
    before = _children()
    parent = os.getpid()
    yes, no = forks.ask_ahead(lambda: os.getpid() != parent), forks.ask_ahead(lambda: False)
    assert (yes.answer(), no.answer()) == (True, False)
    assert yes.answer() is None  # asked once
    assert _children() == before


def test_a_child_that_fails_gives_no_answer_and_one_not_wanted_is_stopped(spare_core):
    before = _children()
    assert forks.ask_ahead(lambda: 1 / 0).answer() is None  # the asker works it out itself
    slow = forks.ask_ahead(lambda: time.sleep(60))
    started = time.monotonic()
    slow.drop()
    assert time.monotonic() - started < 5 and _children() == before


def test_cores_are_counted_where_the_system_has_no_affinity_call(spare_core, monkeypatch):
    """macOS has no os.sched_getaffinity: its cores are counted with os.cpu_count (it was an AttributeError)."""
    monkeypatch.delattr(os, "sched_getaffinity")
    monkeypatch.setattr(os, "cpu_count", lambda: 1)
    assert forks.spare_core() is False
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    monkeypatch.setattr(forks, "_running", lambda: 1)
    assert forks.spare_core() is True and forks.ask_ahead(lambda: True).answer() is True


def test_nothing_is_asked_ahead_without_a_spare_core(spare_core, monkeypatch):
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0})
    assert forks.ask_ahead(lambda: True) is None
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1})
    monkeypatch.setattr(forks, "_running", lambda: 2)  # both cores at work already
    assert forks.ask_ahead(lambda: True) is None
    monkeypatch.setattr(forks, "_running", lambda: 1)
    assert forks.ask_ahead(lambda: True).answer() is True
    forks.no_spare_core()  # as a batch's worker says
    assert forks.ask_ahead(lambda: True) is None
