"""A book's parts run in worker processes (part_workers): results in the jobs' order, a worker's error raised here."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import time
from dataclasses import dataclass

import pytest

from dungeonpress.part_workers import PartWorkers


def _square(n: int) -> int:
    if n < 0:
        raise ValueError(f"no square for {n}")
    return n * n


def test_one_process_runs_the_jobs_here_in_order():
    assert PartWorkers(1)([3, 1, 2].__getitem__, [0, 1, 2]) == [3, 1, 2]
    assert PartWorkers(1).ask(lambda: "here") == "here"


@pytest.mark.slow  # starts two interpreters that import WeasyPrint
def test_two_workers_give_results_in_the_jobs_order_and_raise_a_jobs_error():
    workers = PartWorkers(2)
    try:
        assert workers(_square, [3, 1, 2, 5]) == [9, 1, 4, 25]
        with pytest.raises(ValueError, match="no square for -1"):
            workers(_square, [2, -1])
    finally:
        workers.close()


@dataclass(frozen=True)
class Sized:
    """A job whose HTML is `size` characters long (what PartWorkers weighs a job by)."""

    n: int
    size: int

    @property
    def html(self) -> str:
        return "x" * self.size


def _square_of(job: Sized) -> int:
    return job.n * job.n


@pytest.mark.slow  # starts two interpreters that import WeasyPrint
def test_a_cold_book_spreads_even_small_jobs_over_both_workers():
    workers = PartWorkers(2)
    try:
        assert workers(_square_of, [Sized(1, 10), Sized(2, 10)]) == [1, 4]
        assert len(workers._pool._processes) == 2
    finally:
        workers.close()


def _gone(pid: int) -> bool:
    """No such process, or only its exit status left (a zombie waiting for its new parent to reap it)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except FileNotFoundError:
        return True


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="reads /proc")
def test_a_worker_ends_when_the_build_that_started_it_is_killed(tmp_path):
    # A build killed outright runs no clean-up; its workers must not wait for work forever.
    # The parent's id is taken before the fork, as the pool passes it to its workers: a child asking os.getppid()
    # after a kill that came first would watch its new parent instead, and wait its whole minute.
    script = ("import os, sys, time\n"
              "from dungeonpress import part_workers\n"
              "parent = os.getpid()\n"
              "child = os.fork()\n"
              "if child == 0:\n"
              "    part_workers._end_with(parent, every=0.05)\n"
              "    time.sleep(60)\n"
              "    os._exit(0)\n"
              "print(child, flush=True)\n"
              "time.sleep(60)\n")
    build = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    worker = int(build.stdout.readline())
    assert not _gone(worker)
    build.kill()
    build.wait()
    for _ in range(200):  # up to 20 s on a loaded machine; the watch looks every 0.05 s
        if _gone(worker):
            break
        time.sleep(0.1)
    assert _gone(worker)


@pytest.mark.slow  # starts an interpreter that imports WeasyPrint, twice
def test_released_workers_end_on_their_own_and_a_later_job_starts_them_again():
    workers = PartWorkers(2)
    try:
        workers.start()
        assert workers.ask(os.getpid) != os.getpid()
        started = [process.pid for process in workers._pool._processes.values()]
        workers.release()  # a book laid out: its workers end while it is bound, nobody waits for them
        deadline = time.monotonic() + 60  # (the pool's own thread reaps them: look for the processes, not join them)
        while not all(_gone(pid) for pid in started) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert all(_gone(pid) for pid in started)
        assert workers.ask(os.getpid) not in (os.getpid(), *started)
    finally:
        workers.close()


def test_a_book_built_alone_starts_its_workers_before_the_content_is_read(tmp_path, monkeypatch):
    from dungeonpress import build, cli
    from dungeonpress.errors import ContentError, ContentErrors
    events: list = []

    class Workers:  # stands in for the part workers (nothing is laid out: reading the content fails)
        def start(self):
            events.append("workers started")

        def stop(self):
            events.append("workers stopped")

    def load_content(*args, **kwargs):
        events.append("content read")
        raise ContentErrors([ContentError("book.yaml", 1, "a mistake")])

    monkeypatch.setattr(build, "part_workers", lambda out: (events.append(f"workers for {out.name}"), Workers())[1])
    monkeypatch.setattr(build, "load_content", load_content)
    assert cli.main(["build", "rulebook", "--out", str(tmp_path / "book")], io.StringIO(), io.StringIO()) == 1
    assert events == ["workers for book", "workers started", "content read", "workers stopped"]
    events.clear()
    assert cli.main(["dungeon", "--seed", "1", "--out", str(tmp_path / "zine")], io.StringIO(), io.StringIO()) == 1
    assert events == ["content read"]  # a product that is no book starts none


def _environment_and_folder() -> tuple:
    return os.environ.get("DUNGEONPRESS_TEST_MARK"), os.getcwd()


@pytest.mark.slow  # starts the fork server (it imports WeasyPrint)
def test_workers_take_the_builds_environment_and_folder_not_the_fork_servers(tmp_path, monkeypatch):
    # The fork server keeps the environment and folder it started with; a book's workers work in the build's.
    from dungeonpress import forks
    forks.start_fork_server()
    monkeypatch.setenv("DUNGEONPRESS_TEST_MARK", "set after the fork server started")
    monkeypatch.chdir(tmp_path)
    workers = PartWorkers(2)
    try:
        assert workers.ask(_environment_and_folder) == ("set after the fork server started", str(tmp_path))
    finally:
        workers.close()


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="reads /proc")
@pytest.mark.slow  # starts a fork server that imports WeasyPrint
def test_workers_forked_from_the_fork_server_end_when_the_build_is_killed():
    # The workers' parent is the fork server, not the build: killed outright, the build takes the server with it
    # and its workers notice. Forked, a worker has no import of its own to wait for.
    script = ("import os, sys, time\n"
              "from dungeonpress.part_workers import PartWorkers\n"
              "workers = PartWorkers(2)\n"
              "worker, parent = workers.ask(os.getpid), workers.ask(os.getppid)\n"
              "print(worker, parent, os.getpid(), flush=True)\n"
              "time.sleep(60)\n")
    build = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    worker, parent, here = map(int, build.stdout.readline().split())
    assert parent != here  # forked by the fork server
    assert not _gone(worker)
    build.kill()
    build.wait()
    for _ in range(200):  # up to 20 s on a loaded machine
        if _gone(worker):
            break
        time.sleep(0.1)
    assert _gone(worker)


def test_stopping_workers_still_starting_does_not_wait_for_them(monkeypatch):
    # A content error found while the fork server still imports WeasyPrint is told at once; the pool ends later.
    import multiprocessing
    import threading

    from dungeonpress import part_workers
    ready, started = threading.Event(), []
    forking = multiprocessing.get_context("fork")

    class SlowToStart(forking.Process):  # from a fork server still making its imports: starting one waits for it
        def start(self):
            ready.wait(60)
            super().start()
            started.append(self)

    class Slow:
        def __getattr__(self, name):
            return getattr(forking, name)

        Process = SlowToStart

    monkeypatch.setattr(part_workers, "_context", lambda: Slow())
    workers = PartWorkers(2)
    workers.start()
    workers.stop()  # returns while the start is still waiting
    assert not ready.is_set() and started == [] and workers._pool is None
    ready.set()
    deadline = time.monotonic() + 60
    while not (started and all(not p.is_alive() for p in started)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert started and all(not p.is_alive() for p in started)  # and once started, they were ended


@pytest.mark.slow  # starts two interpreters that import WeasyPrint
def test_kept_workers_outlive_a_builds_release_stop_and_close_and_end_only_when_told():
    from dungeonpress.part_workers import KeptPartWorkers
    workers = KeptPartWorkers(2)
    try:
        workers.start()
        assert workers(_square_of, [Sized(1, 10), Sized(2, 10)]) == [1, 4]  # spread at once: both are started
        started = sorted(process.pid for process in workers._pool._processes.values())
        assert len(started) == 2
        workers.release()  # what a book does once laid out, a CLI run once ended, a failed run at once
        workers.stop()
        workers.close()
        assert workers(_square_of, [Sized(3, 10), Sized(4, 10)]) == [9, 16]  # the next book: the same two workers
        assert sorted(process.pid for process in workers._pool._processes.values()) == started
        assert not any(_gone(pid) for pid in started)
    finally:
        workers.end()
    deadline = time.monotonic() + 60
    while not all(_gone(pid) for pid in started) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert all(_gone(pid) for pid in started)


def test_a_process_that_keeps_its_workers_gives_every_book_the_same_ones(tmp_path, monkeypatch):
    from dungeonpress import build
    from dungeonpress.part_workers import KeptPartWorkers
    started = []
    monkeypatch.setattr(build, "_KEPT_WORKERS", [])
    monkeypatch.setattr(KeptPartWorkers, "start", lambda self: started.append(self))
    assert isinstance(build.part_workers(tmp_path), PartWorkers) and not started  # a CLI run: workers of its own
    kept = build.keep_part_workers()
    assert isinstance(kept, KeptPartWorkers) and not started  # the first book starts them (cli._dispatch)
    assert build.keep_part_workers() is kept
    assert build.part_workers(tmp_path) is kept and build.part_workers(tmp_path / "other") is kept


PROBE = "import sys\n\ndef loaded():\n    return sorted(m for m in sys.modules if m.startswith(('dungeonpress', 'weasyprint')))\n"


@pytest.mark.slow  # starts a fork server and two workers that import WeasyPrint
def test_a_fork_server_that_a_books_workers_start_imports_the_engine_and_no_product(tmp_path):
    """forks.PART_PRELOAD: a book built alone lays its first part out sooner than behind an import of every product."""
    (tmp_path / "probe.py").write_text(PROBE)
    script = ("import probe\nfrom dungeonpress.part_workers import PartWorkers\nworkers = PartWorkers(2)\n"
              "workers.start()\nprint(' '.join(workers.ask(probe.loaded)))\nworkers.close()\n")
    paths = [str(tmp_path), *(p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p)]
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, PYTHONPATH=os.pathsep.join(paths)))
    loaded = set(done.stdout.split())
    assert done.returncode == 0, done.stderr
    assert {"weasyprint", "dungeonpress.pdf", "dungeonpress.products.common"} <= loaded
    assert not {"dungeonpress.build", "dungeonpress.products.rulebook", "dungeonpress.products.foes"} & loaded
