"""A PDF file and a job on it → the job's result, computed in a child process under a memory cap and a time limit.

PDFs from elsewhere are read the way a print shop's RIP reads them: in a process of their own,
measured first (impose.limits.check_limits: pages, page size, decoded streams, form nesting), then read
with a cap on memory (RLIMIT_AS) and a clock. A file over any limit is refused with one line naming
the file and the limit; the process that asked (the CLI, the preview server) is never at risk.
"""

from __future__ import annotations

import multiprocessing
import pickle
import signal
from dataclasses import dataclass, field
from multiprocessing.connection import wait
from pathlib import Path

from dungeonpress.impose.limits import ReadLimits, UnsafePDF, check_limits

_START = "spawn"  # a fresh interpreter: no threads or locks inherited from the server that asked


@dataclass(frozen=True)
class Budget:
    """What reading one PDF may cost: memory (MiB of address space), seconds, and the file's structural limits."""

    memory_mb: int = 1024
    seconds: float = 120.0
    limits: ReadLimits = field(default_factory=ReadLimits)


DEFAULT = Budget()


class Refused(Exception):
    """A PDF over a reading limit, or one that stopped its reader: `FILE: refused: the limit` (one line)."""


def read_pdf(path: Path, job, *args, budget: Budget = DEFAULT):
    """`job(path, media_boxes, *args)` run in a child process, after the file passed `budget.limits`.

    `media_boxes` is each page's MediaBox with inherited ones resolved (None when pikepdf could not
    open the file; the job's own reader then reports it). The job must be a module-level function
    and its result picklable; an exception it raises is raised here, as it was. Refused when the
    file is over a limit, or its reader passes the memory cap or the time limit, or dies.
    """
    with Reader(budget) as reader:
        return reader.read(path, job, *args)


class Reader:
    """A child process that reads one file after another (started once: imports cost more than a page).

    Each file gets the whole time limit; a file that stops the child (memory, time, a crash), or
    is refused, is followed by a fresh child, so what one file did never reaches the next.
    """

    def __init__(self, budget: Budget = DEFAULT):
        self.budget = budget
        self.process = self.conn = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _start(self) -> None:
        context = multiprocessing.get_context(_START)
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_child, args=(child, self.budget), daemon=True)
        self.process.start()
        child.close()

    def close(self) -> None:
        if self.process is None:
            return
        try:
            self.conn.send(None)
        except OSError:
            pass
        self.process.join(timeout=5)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(timeout=5)
        self.conn.close()
        self.process = self.conn = None

    def _kill(self) -> None:
        self.process.kill()
        self.process.join(timeout=5)
        self.conn.close()
        self.process = self.conn = None

    def read(self, path: Path, job, *args):
        """`job(path, media_boxes, *args)` in the child; see read_pdf."""
        if self.process is None or not self.process.is_alive():
            self._start()
        try:
            self.conn.send((str(path), job, args))
        except OSError:  # died while idle: start again once
            self._kill()
            self._start()
            self.conn.send((str(path), job, args))
        ready = wait([self.conn, self.process.sentinel], timeout=self.budget.seconds)
        message = None
        if self.conn in ready:
            try:
                message = self.conn.recv()
            except (EOFError, OSError):
                message = None
        if not ready:
            self._kill()
            raise Refused(f"{path}: refused: reading it took longer than {self.budget.seconds:g} s (time limit)")
        if message is None:
            self.process.join(timeout=5)
            code = self.process.exitcode
            self._kill()
            raise Refused(f"{path}: refused: {_death(code, self.budget)}")
        kind, value = message
        if kind == "ok":
            return value
        self._kill()  # whatever the file did to the child stays with it
        if kind == "refused":
            raise Refused(f"{path}: refused: {value}")
        raise value


READERS = 2  # children reading at once in read_each: the machine this is made for has two cores


def read_each(paths: list, job, *args, budget: Budget = DEFAULT, readers: int = READERS):
    """(path, outcome) for each of `paths` in their order, read by up to `readers` children at once (one per core).

    The outcome is what `reader.read(path, job, *args)` returned, or the exception it raised (Refused for a file over a
    limit, or the job's own). Each child reads file after file, biggest first, so one large book does not leave the
    other core idle at the end; a file that stops its child is followed by a fresh one, as with one Reader. Outcomes are
    given as soon as every file before them is read. Leaving early (an interrupt, a `break`) stops the children.
    """
    import os
    import threading
    paths = list(paths)
    # the cores this process may run on (macOS has no affinity call: all of them)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    count = max(1, min(readers, len(paths), cores))
    if count == 1:
        with Reader(budget) as reader:
            for path in paths:
                yield path, _outcome(reader, path, job, args)
        return
    queue = sorted(range(len(paths)), key=lambda i: _size(paths[i]))  # popped from the end: biggest first
    outcomes: dict = {}
    changed = threading.Condition()
    stopping = threading.Event()
    children = [Reader(budget) for _ in range(count)]

    def read_files(reader: Reader) -> None:
        try:
            while not stopping.is_set():
                with changed:
                    if not queue:
                        return
                    index = queue.pop()
                try:
                    outcome = _outcome(reader, paths[index], job, args)
                except BaseException as exc:  # noqa: BLE001 - whatever ends the thread, the file gets its outcome:
                    outcome = exc             # the loop below waits for every file's
                with changed:
                    outcomes[index] = outcome
                    changed.notify_all()
        finally:
            reader.close()

    threads = [threading.Thread(target=read_files, args=(reader,), daemon=True) for reader in children]
    for thread in threads:
        thread.start()
    given = 0
    try:
        for index, path in enumerate(paths):
            with changed:
                while index not in outcomes:
                    changed.wait()
                outcome = outcomes.pop(index)
            given += 1
            yield path, outcome
    finally:
        if given < len(paths):  # left early: stop the children still reading, so their threads' waits end now
            stopping.set()      # (each thread reaps its own child)
            for reader in children:
                process = reader.process
                if process is not None and process.pid:
                    try:
                        os.kill(process.pid, signal.SIGKILL)
                    except ProcessLookupError:
                        pass
        for thread in threads:
            thread.join()


def _outcome(reader: Reader, path: Path, job, args):
    try:
        return reader.read(path, job, *args)
    except Exception as exc:  # noqa: BLE001 - handed on to whoever asked, as read() would have raised it
        return exc


def _size(path) -> int:
    try:
        return Path(path).stat().st_size
    except OSError:
        return 0


def _child(conn, budget: Budget) -> None:
    import resource
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is for the process that asked
    limit = budget.memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    while True:
        try:
            request = conn.recv()
        except (EOFError, OSError):
            return
        if request is None:
            return
        path, job, args = request
        conn.send(_run(path, job, args, budget))


def _run(path: str, job, args, budget: Budget) -> tuple:
    try:
        boxes = check_limits(path, budget.limits)
        return ("ok", job(Path(path), boxes, *args))
    except UnsafePDF as exc:
        return ("refused", str(exc))
    except MemoryError:
        return ("refused", f"reading it needed more than {budget.memory_mb} MiB (memory limit)")
    except RecursionError:
        return ("refused", "objects nested too deeply to read")
    except Exception as exc:  # noqa: BLE001 - handed to the parent, which raises it as it was
        try:
            pickle.dumps(exc)
            return ("raise", exc)
        except Exception:  # noqa: BLE001 - an exception that cannot be pickled: its type and first line
            return ("raise", RuntimeError(f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"))


def _death(code, budget: Budget) -> str:
    if code is not None and code < 0:
        name = signal.Signals(-code).name if -code in signal.Signals._value2member_map_ else str(-code)
        # PDFium stops itself (SIGTRAP, SIGABRT) when an allocation fails under the cap
        return f"its reader was stopped ({name}), most likely at the memory limit ({budget.memory_mb} MiB)"
    return f"its reader died (exit code {code})"
