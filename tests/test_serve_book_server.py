"""serve.book_server: the rulebook built book after book in one process, with the same bytes as the CLI's."""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from dungeonpress.serve import jobs
from dungeonpress.serve.book_server import BookServer
from tests.conftest import SMALL_PACK, processes_where

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def server():
    made = BookServer(cwd=ROOT)
    yield made
    made.close()


def _descendants(pid: int) -> set:
    """Every live process under `pid` (its fork server and what that forked: the part workers)."""
    found, todo = set(), [pid]
    while todo:
        children = processes_where(1, todo.pop())
        found.update(children)
        todo.extend(children)
    return found


@pytest.mark.slow  # the server starts its part workers, which import WeasyPrint
def test_the_book_server_answers_each_command_line_as_the_cli_would_in_one_process(server):
    code, out, err = server.run(["build", "rulebook", "--paper", "a3"], timeout=300)
    assert (code, out) == (2, "")
    assert len(err.splitlines()) == 1 and "--paper" in err and "a3" in err
    pid = server.pid
    code, out, err = server.run(["validate"], timeout=300)  # the same process, again
    assert (code, err) == (0, "") and out.startswith("content ok: ")
    assert server.usable and server.pid == pid


@pytest.mark.slow  # the server starts its part workers, which import WeasyPrint
def test_a_book_past_its_time_limit_stops_the_server_and_fails_alone(server, tmp_path):
    code, out, err = server.run(["build", "rulebook", "--quiet", "--out", str(tmp_path / "out")], timeout=0.5)
    assert (code, err) == (1, "error: the build took longer than 0.5 s and was stopped")
    assert not server.usable and server.process.returncode == -signal.SIGKILL
    code, out, err = server.run(["validate"], timeout=300)
    assert (code, err) == (1, "error: the build stopped: its process was killed (SIGKILL)")


@pytest.mark.slow  # the server starts its part workers, which import WeasyPrint
def test_a_book_server_outlives_the_thread_that_started_it(tmp_path):
    # serve starts it from a build's thread, which ends with that build: the server must stay for the next one
    # (a parent-death signal follows the thread, and killed every server as its first build's thread ended).
    import threading
    made = []
    thread = threading.Thread(target=lambda: made.append(BookServer(cwd=ROOT)))
    thread.start()
    thread.join()
    try:
        pid = made[0].pid
        assert made[0].run(["validate"], timeout=300)[0] == 0
        time.sleep(0.5)
        assert made[0].run(["validate"], timeout=300)[0] == 0
        assert made[0].usable and made[0].pid == pid
    finally:
        made[0].close()


@pytest.mark.slow  # the server starts its part workers, which import WeasyPrint
def test_a_book_server_ends_with_the_serve_that_started_it_even_killed_mid_build(tmp_path):
    # Killed, serve runs no clean-up: the server, busy with a cold rulebook (seconds more), must end now, not when
    # the build is done and it finds its input closed.
    script = ("import json, sys, time\n"
              "from dungeonpress.serve.book_server import BookServer\n"
              "server = BookServer()\n"
              "argv = ['build', 'rulebook', '--layout', 'pages', '--quiet', '--out', sys.argv[1]]\n"
              "server.process.stdin.write((json.dumps(argv) + '\\n').encode())\n"
              "print(server.pid, flush=True)\n"
              "time.sleep(120)\n")
    serve = subprocess.Popen([sys.executable, "-c", script, str(tmp_path / "out")], stdout=subprocess.PIPE, text=True,
                             cwd=ROOT)
    pid = int(serve.stdout.readline())
    assert processes_where(1, serve.pid) == [pid]
    time.sleep(1)  # the build under way
    serve.kill()
    serve.wait()
    deadline = time.monotonic() + 5  # a cold rulebook takes longer than this; the server looks every 0.5 s
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _alive(pid)
    assert not (tmp_path / "out" / "dungeoneer-rulebook.pdf").exists()


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except FileNotFoundError:
        return False


def _pack(folder: Path, title: str) -> Path:
    """The small fixture pack (its own 16-page book) in `folder`, a row of its weather table edited: an author's edit."""
    if not folder.exists():
        shutil.copytree(SMALL_PACK, folder)
    table = folder / "tables" / "fixture_weather.yaml"
    table.write_text((SMALL_PACK / "tables" / "fixture_weather.yaml").read_text().replace(
        "1: Dripping ceiling", f"1: Dripping ceiling {title}", 1))
    return folder


@pytest.mark.slow  # four small books
def test_the_book_server_builds_the_cli_s_bytes_and_keeps_its_workers_for_the_next_edit(server, tmp_path):
    pack = _pack(tmp_path / "pack", "(first)")
    argv = ["build", "rulebook", "--layout", "pages", "--quiet", "--content", str(pack), "--out"]
    served, alone = tmp_path / "served", tmp_path / "alone"
    name = "dungeoneer-rulebook-pack.pdf"  # named for the pack it was built with

    def by_cli():
        subprocess.run([sys.executable, "-m", "dungeonpress", *argv, str(alone)], check=True, cwd=ROOT)
        return (alone / name).read_bytes()

    assert server.run(argv + [str(served)], timeout=600)[:1] == (0,)
    assert (served / name).read_bytes() == by_cli()
    workers = _descendants(server.pid)
    assert len(workers) >= 3  # the fork server and the two part workers it forked

    _pack(pack, "(edited)")  # the edit: its chapter and the cover laid out again, in the kept workers
    code, out, err = server.run(argv + [str(served)], timeout=600)
    assert (code, err) == (0, "")
    assert (served / name).read_bytes() == by_cli()
    assert "(edited)" in _text(served / name)
    assert _descendants(server.pid) == workers


def _text(pdf: Path) -> str:
    import pypdfium2
    document = pypdfium2.PdfDocument(pdf)
    try:
        return "\n".join(page.get_textpage().get_text_range() for page in document)
    finally:
        document.close()


class FakeServer:
    """Stands in for BookServer in the runner: records its builds; `usable` until killed."""

    made: list = []

    def __init__(self, cwd=None):
        self.runs, self.usable, self.closed = [], True, False
        FakeServer.made.append(self)

    def run(self, argv, timeout):
        self.runs.append(argv)
        return 0, "", ""

    def kill(self):
        self.usable = False

    def close(self):
        self.closed = True


class IdleWorker:
    def __init__(self, *args):
        self.usable = True

    def close(self):
        pass


def test_the_runner_builds_every_rulebook_in_one_book_server_and_starts_another_after_one_stopped(tmp_path, monkeypatch):
    from dungeonpress.serve import book_server
    monkeypatch.setattr(book_server, "BookServer", FakeServer)
    monkeypatch.setattr(jobs, "WarmWorker", IdleWorker)
    monkeypatch.setattr(FakeServer, "made", [])
    runner = jobs.Runner(tmp_path / "build", [], timeout=60, on_change=lambda: None)
    try:
        for _ in range(2):
            job = runner.book()
            _wait_for(lambda: job.finished)
            assert job.state == "done"
        assert len(FakeServer.made) == 1 and len(FakeServer.made[0].runs) == 2
        assert FakeServer.made[0].runs[0][:4] == ["build", "rulebook", "--layout", "pages"]
        FakeServer.made[0].kill()  # a build superseded, timed out or killed: that server is let go
        job = runner.book()
        _wait_for(lambda: job.finished)
        assert len(FakeServer.made) == 2 and FakeServer.made[0].closed and len(FakeServer.made[1].runs) == 1
    finally:
        runner.close()
    assert FakeServer.made[1].closed


def _wait_for(condition, rounds=6000):
    for _ in range(rounds):
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError("gave up waiting")
