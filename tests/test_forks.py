"""Where workers come from (forks): the warm fork server, or a fresh interpreter when there is none or it cannot
start one."""

from __future__ import annotations

import multiprocessing
import os

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
