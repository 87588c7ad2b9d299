"""Rolls → `dungeonpress …` runs in warm workers with a timeout, each kept whole in its own folder under build/rolls/."""

from __future__ import annotations

import os
import re
import signal
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from dungeonpress.forks import die_with_parent, ready_to_die_with_parent  # a killed server leaves no build running
from dungeonpress.serve.paths import shown
from dungeonpress.serve.rolls import RollRequest
from dungeonpress.serve.warm import WarmWorker

PARALLEL = 2  # builds at once; more wait their turn (the machine, not the page, is the limit)
MAX_WAITING = 4  # rolls queued or running at once; one more is refused (Busy) rather than piled up
RETRY_AFTER = 30  # seconds a refused roll is told to wait: about one zine build on a busy machine
KEEP_JOBS = 12  # rolls the page remembers (their folders stay in the build folder)
CONTENT_CACHE = Path(".cache") / "content"  # cache.content.CONTENT_CACHE (build is not imported by the server itself)
ROLLS_DIR = "rolls"  # under the build folder: one folder per roll, kept after the server stops
STAGING = ".staging-"  # a roll is built in rolls/.staging-PID-N/ and renamed into place only when whole
# The rulebook is built as `dungeonpress build rulebook` would build it, into the build folder itself, so it
# reuses the parts laid out before (OUT/.cache/parts) and lays them out in two part workers: after a saved edit only
# the chapters whose HTML changed are laid out again, in the book server (serve.book_server), which keeps its process
# and its part workers from one build to the next. Only the reading PDF: the page shows it.
BOOK_ARGV = ("build", "rulebook", "--layout", "pages")
BOOK_PDF = "dungeoneer-rulebook"  # products.rulebook.NAME: its reading PDF is NAME[-look].pdf in the build folder

CONTENT_ERROR = re.compile(r"^(?P<file>[^\s:][^:]*):(?P<line>\d+): (?P<message>.+)$")


class Busy(RuntimeError):
    """Too many rolls waiting: the client is told to come back in `retry_after` seconds."""

    def __init__(self, retry_after: int):
        super().__init__(f"{MAX_WAITING} rolls are already waiting; try again in {retry_after} s")
        self.retry_after = retry_after


@dataclass
class Job:
    id: int
    label: str  # what the page calls it: the command line, or "content check"
    argv: list
    folder: Path | None  # where its outputs end up (None for a check that writes nothing)
    reason: str = "rolled"
    state: str = "queued"  # queued, running, done, failed
    errors: list = field(default_factory=list)  # (file, line, message) from `file:line: message` lines
    messages: list = field(default_factory=list)  # other stderr lines worth showing
    outputs: list = field(default_factory=list)  # files written, relative to the build folder
    roll: RollRequest | None = None  # what to make again when the content changes
    started: float = 0.0
    wall_started: int = 0  # seconds since the epoch, whole (a file written since has an mtime at least this)
    seconds: float = 0.0
    superseded: bool = False  # stopped because the content changed again: a newer build replaces it
    book: bool = False  # the rulebook, built into the build folder itself (not a roll)

    @property
    def finished(self) -> bool:
        return self.state in ("done", "failed")


class Runner:
    """Starts builds in threads, each with a timeout; calls `on_change` when a job moves.

    A build runs in a warm worker (serve.warm: WeasyPrint, content and fonts loaded once; a worker
    that is stopped or dies is not used again), the rulebook in the book server (serve.book_server:
    one process and its part workers kept for every book), or, given `python`, each as a
    `python -m dungeonpress` subprocess of that interpreter. A roll is built into a staging folder
    and renamed to rolls/NAME/ only when it succeeded, so a roll folder is always whole; staging
    folders of a server that was killed are removed by the next.
    """

    def __init__(self, out_dir: Path, packs: list, *, timeout: float, on_change, python: str | None = None,
                 cwd: Path | None = None):
        self.out_dir = out_dir
        self.packs = [Path(p) for p in packs]
        self.timeout = timeout
        self.on_change = on_change
        self.python = python
        self.cwd = cwd
        self.jobs: list[Job] = []
        self._lock = threading.Lock()
        self._slots = threading.Semaphore(PARALLEL)
        self._procs: dict = {}  # job id → its running build
        self._staging: set = set()  # staging folders of builds under way
        self._closing = False
        self._next = 1
        self._idle: list = []  # warm workers waiting for a roll
        self._book_server = None  # where the rulebook is built (serve.book_server), once it was asked for
        ready_to_die_with_parent()
        if python is None:  # the first worker warms up while the page loads
            self._idle.append(self._new_worker())

    @property
    def rolls_dir(self) -> Path:
        return self.out_dir / ROLLS_DIR

    # -- starting

    def roll(self, roll: RollRequest, reason: str = "rolled", *, supersede: bool = False) -> Job:
        """Start a roll (Busy when MAX_WAITING are already waiting); the same roll already queued is reused.

        With `supersede` (the content changed), a build of the same roll still running is stopped:
        its result would be stale, and a burst of saves makes one build, not one per save.
        """
        with self._lock:
            waiting = [j for j in self.jobs if j.folder is not None and not j.finished]
            queued = next((j for j in waiting if j.roll == roll and j.state == "queued"), None)
            if queued is not None:
                queued.reason = reason
                return queued
            if supersede:
                for job in waiting:
                    if job.roll == roll and job.state == "running":
                        job.superseded = True
                        proc = self._procs.get(job.id)
                        if proc is not None:
                            _kill(proc)
                waiting = [j for j in waiting if not j.superseded]
            if len(waiting) >= MAX_WAITING:
                raise Busy(RETRY_AFTER)
        return self._start(self.command_line(roll), roll.argv(), self.rolls_dir / roll.folder_name(), reason, roll)

    def command_line(self, roll: RollRequest) -> str:
        """The command a user types to make this roll's bytes: its options and every --content pack."""
        return " ".join(["dungeonpress", *roll.argv(), *self._pack_words()])

    def _pack_words(self) -> list:
        """Every --content pack as the command line shows it (quoted for a shell)."""
        return [word for pack in self.packs for word in ("--content", shlex.quote(shown(pack)))]

    def book(self, reason: str = "asked for", *, supersede: bool = False) -> Job:
        """Build the rulebook into the build folder: one build at a time (asked again, the one under way answers).

        With `supersede` (the content changed), a book build still running is stopped, its result would be
        stale, and a new one started (or the one still queued reused). Each build lays out only the parts the
        build folder's part cache lacks.
        """
        with self._lock:
            waiting = [j for j in self.jobs if j.book and not j.finished and not j.superseded]
            queued = next((j for j in waiting if j.state == "queued"), None)
            if queued is not None or (waiting and not supersede):
                (queued or waiting[0]).reason = reason
                return queued or waiting[0]
            for job in waiting:
                job.superseded = True
                proc = self._procs.get(job.id)
                if proc is not None:
                    _kill(proc)
        return self._start(" ".join(["dungeonpress", *BOOK_ARGV, *self._pack_words()]), list(BOOK_ARGV), self.out_dir, reason,
                           None, book=True)

    def check(self, reason: str) -> Job:
        """`dungeonpress validate`: what a content change is checked with when nothing was rolled yet."""
        with self._lock:
            queued = next((j for j in self.jobs if j.folder is None and j.state == "queued"), None)
            if queued is not None:  # one waiting check covers every change made before it runs
                queued.reason = reason
                return queued
        return self._start("dungeonpress validate", ["validate"], None, reason, None)

    def _start(self, label, argv, folder, reason, roll, *, book: bool = False) -> Job:
        with self._lock:
            job = Job(self._next, label, list(argv), folder, reason, roll=roll, book=book)
            self._next += 1
            self.jobs.append(job)
            self._trim()
        threading.Thread(target=self._run, args=(job,), name=f"build-{job.id}", daemon=True).start()
        self.on_change()
        return job

    def _trim(self) -> None:
        """Forget the oldest finished rolls past KEEP_JOBS (their folders stay) and every check but the last."""
        rolls = [j for j in self.jobs if j.folder is not None]
        stale = [j for j in rolls[:-KEEP_JOBS] if j.finished]
        self.jobs = [j for j in self.jobs if j not in stale and (j.folder is not None or j is self._last_check())]

    def _last_check(self):
        checks = [j for j in self.jobs if j.folder is None]
        return checks[-1] if checks else None

    def remove_stale_staging(self) -> list:
        """Staging folders left by a server that was killed (its process is gone): removed, never shown."""
        removed = []
        try:
            names = [n for n in os.listdir(self.rolls_dir) if n.startswith(STAGING)]
        except OSError:
            return removed
        for name in names:
            pid = name[len(STAGING):].split("-", 1)[0]
            if not pid.isdigit() or _alive(int(pid)):
                continue
            folder = self.rolls_dir / name
            if folder.is_dir() and not folder.is_symlink():
                shutil.rmtree(folder, ignore_errors=True)
                removed.append(folder)
        return removed

    # -- running

    def _run(self, job: Job) -> None:
        with self._slots:
            if self._closing or job.superseded:
                return
            job.state, job.started, job.wall_started = "running", time.monotonic(), int(time.time()) - 1
            self.on_change()
            command = list(job.argv)
            staging = None
            if job.book:  # into the build folder itself, where its parts are kept (written atomically, file by file)
                command += ["--quiet", "--out", str(self.out_dir)]
            elif job.folder is not None:
                self.rolls_dir.mkdir(parents=True, exist_ok=True)
                staging = Path(tempfile.mkdtemp(prefix=f"{STAGING}{os.getpid()}-", dir=self.rolls_dir))
                staging.chmod(0o777 & ~_umask())  # mkdtemp makes 0700; a kept roll is an ordinary folder
                self._staging.add(staging)
                command += ["--quiet", "--out", str(staging)]
            for pack in self.packs:
                command += ["--content", str(pack)]
            # The rulebook is laid out part by part in two worker processes, which a warm worker (a daemon process)
            # may not start: it is built in the book server, a process of its own kept for the next build.
            if self.python is None and not job.book:
                code, out, err = self._run_warm(job, command)
            elif self.python is None:
                code, out, err = self._run_book(job, command)
            else:
                try:
                    code, out, err = self._run_subprocess(job, command)
                except OSError as exc:
                    self._finish(job, 1, "", f"error: could not start the build: {exc}", staging)
                    return
            self._finish(job, code, out, err, staging)

    def _new_worker(self) -> WarmWorker:
        return WarmWorker(self.packs, self.out_dir / CONTENT_CACHE, self.cwd)

    def _run_warm(self, job: Job, argv: list) -> tuple:
        """(exit status, stdout, stderr) of the build in a warm worker; one that did not end well is let go."""
        with self._lock:
            while self._idle and not self._idle[0].usable:
                self._idle.pop(0).close()
            worker = self._idle.pop(0) if self._idle else None
        worker = worker or self._new_worker()
        try:
            return self._tracked(job, worker, lambda: worker.run(argv, self.timeout))
        finally:
            with self._lock:
                keep = worker.usable and not self._closing
                if keep:
                    self._idle.append(worker)
            if not keep:
                worker.close()

    def _run_book(self, job: Job, argv: list) -> tuple:
        """(exit status, stdout, stderr) of the rulebook's build in the book server (started for the first book,
        kept for the next); one stopped, timed out or dead is let go, and the next build starts another."""
        with self._lock:
            if self._book_server is None or not self._book_server.usable:
                if self._book_server is not None:
                    self._book_server.close()
                from dungeonpress.serve.book_server import BookServer  # not at the top: it runs as a module too
                self._book_server = BookServer(cwd=self.cwd)
            server = self._book_server
        return self._tracked(job, server, lambda: server.run(argv, self.timeout))

    def _tracked(self, job: Job, runner, run) -> tuple:
        """run(), with `runner` (a warm worker or the book server) known as the job's build while it runs, so the job
        can be stopped (superseded, or the server closing); one superseded while it was starting is stopped at once."""
        with self._lock:
            self._procs[job.id] = runner
        if job.superseded:
            runner.kill()
        try:
            return run()
        finally:
            with self._lock:
                self._procs.pop(job.id, None)

    def _run_subprocess(self, job: Job, argv: list) -> tuple:
        proc = subprocess.Popen([self.python or sys.executable, "-m", "dungeonpress", *argv], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, cwd=self.cwd, start_new_session=True,
                                preexec_fn=die_with_parent)
        with self._lock:
            self._procs[job.id] = proc
        if job.superseded:  # stopped while it was starting
            _kill(proc)
        try:
            out, err = proc.communicate(timeout=self.timeout)
            return proc.returncode, out, err
        except subprocess.TimeoutExpired:
            _kill(proc)
            out, err = proc.communicate()
            return 1, out, err + f"\nerror: the build took longer than {self.timeout:g} s and was stopped"
        finally:
            with self._lock:
                self._procs.pop(job.id, None)

    def _finish(self, job: Job, code: int, out: str, err: str, staging: Path | None = None) -> None:
        for line in err.splitlines():
            line = line.strip()
            match = CONTENT_ERROR.match(line)
            if match:
                job.errors.append((match["file"], int(match["line"]), match["message"]))
            elif line and not line.startswith(("seed:", "usage:")):
                job.messages.append(line)
        if job.superseded:
            if staging is not None:
                shutil.rmtree(staging, ignore_errors=True)
                self._staging.discard(staging)
            with self._lock:
                self.jobs = [j for j in self.jobs if j is not job]
            self.on_change()
            return
        if staging is not None:
            if code == 0 and not self._closing:
                try:
                    _put_in_place(staging, job.folder)
                except OSError as exc:
                    code = 1
                    job.messages.append(f"error: could not keep the roll in {job.folder}: {exc.strerror or exc}")
            shutil.rmtree(staging, ignore_errors=True)
            self._staging.discard(staging)
        if code == 0 and job.book:
            job.outputs = sorted(p.name for p in self.out_dir.glob(f"{BOOK_PDF}*.pdf")
                                 if "-booklet-" not in p.name and p.stat().st_mtime >= job.wall_started)
        elif code == 0 and job.folder is not None and job.folder.is_dir():
            job.outputs = sorted(p.relative_to(self.out_dir).as_posix() for p in job.folder.rglob("*")
                                 if p.is_file() and not p.name.startswith("."))
        job.seconds = time.monotonic() - job.started
        job.state = "done" if code == 0 else "failed"
        if code != 0 and not job.errors and not job.messages:
            job.messages.append(f"the build stopped with exit status {code}")
        self.on_change()

    # -- reading

    def latest_roll(self) -> Job | None:
        with self._lock:
            rolls = [j for j in self.jobs if j.folder is not None and not j.book]
            return rolls[-1] if rolls else None

    def latest_book(self) -> Job | None:
        with self._lock:
            books = [j for j in self.jobs if j.book]
            return books[-1] if books else None

    def latest_of(self, roll: RollRequest) -> Job | None:
        """The newest job of this roll this server remembers, or None."""
        with self._lock:
            return next((j for j in reversed(self.jobs) if j.roll == roll), None)

    def latest_check(self) -> Job | None:
        with self._lock:
            return self._last_check()

    def rolls(self) -> list[Job]:
        with self._lock:
            return [j for j in self.jobs if j.folder is not None and not j.book]

    def find(self, job_id: int) -> Job | None:
        with self._lock:
            return next((j for j in self.jobs if j.id == job_id), None)

    def close(self) -> None:
        """Stop running builds; their staging folders go, every finished roll stays in the build folder."""
        self._closing = True
        with self._lock:
            procs = list(self._procs.values())
            idle, self._idle = self._idle, []
        for proc in procs:
            _kill(proc)
        for worker in idle:
            worker.close()
        if self._book_server is not None:
            self._book_server.close()
        for staging in list(self._staging):
            shutil.rmtree(staging, ignore_errors=True)


def _put_in_place(staging: Path, folder: Path) -> None:
    """Replace `folder` by the whole new roll in `staging` (the old one, if any, is moved aside first)."""
    old = None
    if folder.exists():
        old = Path(tempfile.mkdtemp(prefix=f"{STAGING}{os.getpid()}-old-", dir=folder.parent))
        os.replace(folder, old / "roll")
    os.replace(staging, folder)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process: alive, and not ours to judge
    return True


def _kill(proc) -> None:
    """Stop a build and anything it started (a subprocess runs in its own session, so its group is its own)."""
    if not isinstance(proc, subprocess.Popen):  # a WarmWorker or the BookServer: it stops its own
        proc.kill()
        return
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass  # already gone
