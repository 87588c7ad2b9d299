"""Roll requests → `python -m dungeonpress …` subprocesses with a timeout, each into its own folder under build/."""

from __future__ import annotations

import os
import re
import signal
import secrets
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from dungeonpress.products.common import THEMES  # the looks `--theme` offers (a plain tuple; no WeasyPrint)

WHATS = ("dungeon", "pack", "character")
LAYOUTS = ("zine", "booklet")
PAPERS = {"dungeon": ("a4", "letter"), "pack": ("a4", "letter"), "character": ("a4", "letter", "a5")}
ROOMS = (3, 30)
PACK_COUNT = 6
KEEP_JOBS = 12  # older roll folders are deleted: the page is for trying things, build/ is for keeping
JOBS_DIR = ".serve"  # under the build folder; hidden from the product list
PARALLEL = 2  # builds at once; more wait their turn (the machine, not the page, is the limit)

CONTENT_ERROR = re.compile(r"^(?P<file>[^\s:][^:]*):(?P<line>\d+): (?P<message>.+)$")


class BadRoll(ValueError):
    """A form value out of range: shown to the user, nothing is run."""


@dataclass(frozen=True)
class RollRequest:
    what: str = "dungeon"
    seed: int = 1234
    rooms: int = 8
    paper: str = "a4"
    layout: str = "zine"
    theme: str = "standard"

    @classmethod
    def from_form(cls, form: dict) -> "RollRequest":
        def one(key, default=""):
            return (form.get(key) or [default])[0].strip()

        what = one("what", "dungeon")
        if what not in WHATS:
            raise BadRoll(f"unknown product {what!r} (expected {', '.join(WHATS)})")
        seed_text = one("seed")
        seed = secrets.randbelow(10**6) if not seed_text else _int(seed_text, "seed", 0, 10**9)
        rooms = _int(one("rooms", "8"), "rooms", *ROOMS)
        paper = one("paper", "a4")
        if paper not in PAPERS[what]:
            raise BadRoll(f"paper {paper!r}: a {what} prints on {', '.join(PAPERS[what])}")
        layout = one("layout", "zine")
        if layout not in LAYOUTS:
            raise BadRoll(f"layout {layout!r} (expected {', '.join(LAYOUTS)})")
        theme = one("theme", "standard")
        if theme not in THEMES:
            raise BadRoll(f"theme {theme!r} (expected {', '.join(THEMES)})")
        return cls(what, seed, rooms, paper, layout, theme)

    def argv(self) -> list[str]:
        """The command line (after `dungeonpress`) that makes this roll."""
        if self.what == "character":
            args = ["character", "--seed", str(self.seed), "--paper", self.paper]
        elif self.what == "pack":
            args = ["dungeon", "--seed", str(self.seed), "--count", str(PACK_COUNT), "--rooms", str(self.rooms),
                    "--paper", self.paper]
        else:
            args = ["dungeon", "--seed", str(self.seed), "--rooms", str(self.rooms), "--layout", self.layout,
                    "--paper", self.paper]
        if self.theme != "standard":
            args += ["--theme", self.theme]
        return args


def _int(text: str, name: str, low: int, high: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise BadRoll(f"{name} {text!r} is not a whole number") from None
    if not low <= value <= high:
        raise BadRoll(f"{name} {value} is out of range ({low}-{high})")
    return value


@dataclass
class Job:
    id: int
    label: str  # what the page calls it: the command line, or "content check"
    argv: list
    folder: Path | None  # where its outputs go (None for a check that writes nothing)
    reason: str = "rolled"
    state: str = "queued"  # queued, running, done, failed
    errors: list = field(default_factory=list)  # (file, line, message) from `file:line: message` lines
    messages: list = field(default_factory=list)  # other stderr lines worth showing
    outputs: list = field(default_factory=list)  # files written, relative to the build folder
    roll: RollRequest | None = None  # what to make again when the content changes
    started: float = 0.0
    seconds: float = 0.0

    @property
    def finished(self) -> bool:
        return self.state in ("done", "failed")


class Runner:
    """Starts builds in threads, each a subprocess with a timeout; calls `on_change` when a job moves."""

    def __init__(self, out_dir: Path, packs: list, *, timeout: float, on_change, python: str = sys.executable,
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
        self._procs: set = set()
        self._closing = False
        self._next = 1

    # -- starting

    def roll(self, roll: RollRequest, reason: str = "rolled") -> Job:
        jobs_root = self.out_dir / JOBS_DIR
        jobs_root.mkdir(parents=True, exist_ok=True)
        folder = Path(tempfile.mkdtemp(prefix="roll-", dir=jobs_root))
        return self._start(" ".join(["dungeonpress", *roll.argv()]), roll.argv(), folder, reason, roll)

    def check(self, reason: str) -> Job:
        """`dungeonpress validate`: what a content change is checked with when nothing was rolled yet."""
        return self._start("dungeonpress validate", ["validate"], None, reason, None)

    def _start(self, label, argv, folder, reason, roll) -> Job:
        with self._lock:
            job = Job(self._next, label, list(argv), folder, reason, roll=roll)
            self._next += 1
            self.jobs.append(job)
            stale = self._trim()
        for old in stale:
            shutil.rmtree(old, ignore_errors=True)
        threading.Thread(target=self._run, args=(job,), name=f"build-{job.id}", daemon=True).start()
        self.on_change()
        return job

    def _trim(self) -> list:
        rolls = [j for j in self.jobs if j.folder is not None]
        stale = [j for j in rolls[:-KEEP_JOBS] if j.finished]
        self.jobs = [j for j in self.jobs if j not in stale and (j.folder is not None or j is self._last_check())]
        return [j.folder for j in stale]

    def _last_check(self):
        checks = [j for j in self.jobs if j.folder is None]
        return checks[-1] if checks else None

    # -- running

    def _run(self, job: Job) -> None:
        with self._slots:
            if self._closing:
                return
            job.state, job.started = "running", time.monotonic()
            self.on_change()
            command = [self.python, "-m", "dungeonpress", *job.argv]
            if job.folder is not None:
                command += ["--quiet", "--out", str(job.folder)]
            for pack in self.packs:
                command += ["--content", str(pack)]
            try:
                proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                        cwd=self.cwd, start_new_session=True)
            except OSError as exc:
                self._finish(job, 1, "", f"error: could not start the build: {exc}")
                return
            self._procs.add(proc)
            try:
                out, err = proc.communicate(timeout=self.timeout)
                code = proc.returncode
            except subprocess.TimeoutExpired:
                _kill(proc)
                out, err = proc.communicate()
                code, err = 1, err + f"\nerror: the build took longer than {self.timeout:g} s and was stopped"
            finally:
                self._procs.discard(proc)
            self._finish(job, code, out, err)

    def _finish(self, job: Job, code: int, out: str, err: str) -> None:
        for line in err.splitlines():
            line = line.strip()
            match = CONTENT_ERROR.match(line)
            if match:
                job.errors.append((match["file"], int(match["line"]), match["message"]))
            elif line and not line.startswith(("seed:", "usage:")):
                job.messages.append(line)
        if job.folder is not None and job.folder.is_dir():
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
            rolls = [j for j in self.jobs if j.folder is not None]
            return rolls[-1] if rolls else None

    def latest_check(self) -> Job | None:
        with self._lock:
            return self._last_check()

    def rolls(self) -> list[Job]:
        with self._lock:
            return [j for j in self.jobs if j.folder is not None]

    def find(self, job_id: int) -> Job | None:
        with self._lock:
            return next((j for j in self.jobs if j.id == job_id), None)

    def close(self) -> None:
        """Stop running builds and delete the roll folders this server made."""
        self._closing = True
        for proc in list(self._procs):
            _kill(proc)
        with self._lock:
            folders = [j.folder for j in self.jobs if j.folder is not None]
        for folder in folders:
            shutil.rmtree(folder, ignore_errors=True)
        try:
            (self.out_dir / JOBS_DIR).rmdir()
        except OSError:
            pass  # not empty (another server's rolls) or already gone


def _kill(proc: subprocess.Popen) -> None:
    """Stop a build and anything it started (it runs in its own session, so its group is its own)."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass  # already gone
