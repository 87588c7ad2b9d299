"""Where worker processes come from (`build all`, --batch, serve's rolls, a book's parts), and how one ends with the
process that started it."""

from __future__ import annotations

import functools
import multiprocessing
import os
import signal
from pathlib import Path

# Workers are forked from a fork server: a fresh, single-threaded interpreter (no locks or threads of the
# parent's) that has imported everything an item needs once, so each worker starts warm and a dead one is
# replaced in a moment. Where there is no fork server (Windows) each worker is a fresh interpreter.
_START = "forkserver"
# What the fork server imports: the products (each imports its generators, views and templates code), the
# one door to WeasyPrint, and the parts of WeasyPrint and fontTools it imports only at its first render. Every worker
# is forked from it: `build all`'s and --batch's, serve's, and a book's part workers (part_workers).
_PRELOAD = ("dungeonpress.build", "dungeonpress.pdf", "dungeonpress.impose", "dungeonpress.model.plain",
            "dungeonpress.preflight.readback", "weasyprint.css", "weasyprint.layout", "weasyprint.draw",
            "weasyprint.pdf", "weasyprint.text.fonts", "fontTools.subset")


# What a book's part workers import (part_workers): the engine and the code a part's job names; not every product, as
# the fork server that starts with a book built alone or in serve's book server forks part workers only. A worker
# imports what else a job of its names (a rulebook's tailpiece, its delve's rolls) at that job, as any would.
PART_PRELOAD = ("dungeonpress.pdf", "dungeonpress.paginate.book", "dungeonpress.products.common", "weasyprint.css",
                "weasyprint.layout", "weasyprint.draw", "weasyprint.pdf", "weasyprint.text.fonts", "fontTools.subset")


def worker_context(preload: tuple | None = None):
    """The multiprocessing context workers start from: the warm fork server (see _START), or spawn without one.
    `preload`: what the fork server imports if this call starts it (None: _PRELOAD and every product)."""
    if _START not in multiprocessing.get_all_start_methods() or not _pango_loads():
        # Without Pango, importing WeasyPrint would stop the fork server itself; a spawned worker instead
        # fails its item with the one line pdf.MISSING_PANGO says.
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context(_START)
    if preload is None:
        from dungeonpress import products
        preload = (*_PRELOAD, *(f"dungeonpress.products.{m}" for m, _, _ in products.index()))
    # Taken when the fork server starts (once a process); later calls change nothing.
    context.set_forkserver_preload(list(preload))
    return context


def start_fork_server() -> None:
    """Start the fork server without waiting for it: it imports WeasyPrint and the products (about a second)
    while this process does something else first (the CLI checks the content, about as long). The workers are
    forked from it once it is ready, as before; without a fork server, nothing starts early."""
    if worker_context().get_start_method() == _START:
        from multiprocessing import forkserver
        forkserver.ensure_running()


@functools.lru_cache(maxsize=1)
def _pango_loads() -> bool:
    """Whether the system has Pango, found as the system's loader would find it: neither loaded here (the
    preview server must stay free of it) nor WeasyPrint imported. Not found: workers are spawned (slower, safe)."""
    import ctypes.util
    return any(ctypes.util.find_library(name) for name in ("pango-1.0", "pango-1.0-0"))


def start_worker(target, args):
    """A started daemon worker process: forked from the warm fork server, or spawned if that cannot start one."""
    for context in (worker_context(), multiprocessing.get_context("spawn")):
        process = context.Process(target=target, args=args, daemon=True)
        try:
            process.start()
            return process
        except (EOFError, ConnectionError):  # the fork server stopped (its imports failed): a fresh interpreter
            continue
    raise RuntimeError("could not start a worker process")


def die_with_parent() -> None:
    """In a child process (Linux): be killed when the process that started it dies, even by SIGKILL.

    Elsewhere it does nothing: the child then notices when it next talks to its parent. Safe to call
    between fork and exec once `ready_to_die_with_parent()` has run in the parent.
    """
    prctl = ready_to_die_with_parent()
    if prctl is not None:
        prctl(1, signal.SIGKILL)  # 1 = PR_SET_PDEATHSIG


@functools.lru_cache(maxsize=1)
def ready_to_die_with_parent():
    """libc's prctl, loaded once (in the parent: a child between fork and exec must not load a library)."""
    try:
        import ctypes
        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None


# A process may ask one question ahead in a forked child while it works on another (paginate.zine: a roomier fit
# probed beside the fit guessed), where a core would otherwise stand idle: a serve roll, a single product from the
# CLI. A batch's workers (`build all`, --batch) already keep every core busy and say so (no_spare_core).
_SPARE_CORE = True


def no_spare_core() -> None:
    """This process shares the machine's cores with workers like it: it asks nothing ahead."""
    global _SPARE_CORE
    _SPARE_CORE = False


def spare_core() -> bool:
    """Whether this process may ask a question ahead (ask_ahead): it can fork, and has a core that would be idle."""
    return _SPARE_CORE and hasattr(os, "fork") and _cores() >= 2


def _busy() -> bool:
    """Whether the machine's cores are all at work now, this process among them: a child would only slow it down."""
    return _running() >= _cores()


def _cores() -> int:
    """The cores this process may run on (all of them where the system has no affinity call: macOS)."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def _running() -> float:
    """How many processes are running or ready to run this moment, this one among them (Linux's /proc/loadavg);
    elsewhere the last minute's load average, which also counts what ran a moment ago."""
    try:
        return int(Path("/proc/loadavg").read_text().split()[3].split("/")[0])
    except (OSError, ValueError, IndexError):
        return os.getloadavg()[0] + 0.5


class Ahead:
    """A yes-or-no question answered in a forked child: `answer()` waits for it, `drop()` stops the child."""

    def __init__(self, pid: int, reading: int):
        self.pid, self.reading, self.done = pid, reading, False

    def answer(self) -> bool | None:
        """The child's answer, or None where it ended without one (the asker then works it out itself)."""
        if self.done:
            return None
        try:
            said = os.read(self.reading, 1)
        finally:
            self._end(kill=False)
        return {b"1": True, b"0": False}.get(said)

    def drop(self) -> None:
        """Stop the child, if it is still at work, and reap it: its answer is not wanted."""
        if not self.done:
            self._end(kill=True)

    def _end(self, kill: bool) -> None:
        self.done = True
        if kill:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        os.close(self.reading)
        os.waitpid(self.pid, 0)


def ask_ahead(question) -> Ahead | None:
    """`question()` (True or False) worked out in a forked child while this process goes on; None where this
    process has no core to spare or cannot fork (then the caller asks it itself, when it needs the answer).

    The child shares this process's memory as it was (copy on write) and gives back one byte; it never writes a
    file, and ends with os._exit (no clean-up of this process's objects runs in it), or with its parent.
    """
    if not spare_core() or _busy():
        return None
    ready_to_die_with_parent()  # loaded here: the child must not load a library
    reading, writing = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        try:
            os.close(reading)
            die_with_parent()
            os.write(writing, b"1" if question() else b"0")
        finally:
            os._exit(0)
    os.close(writing)
    return Ahead(pid, reading)
