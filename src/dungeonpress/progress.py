"""What a run shows: item events in, one progress bar on a terminal's stderr and a closing summary out (the only tqdm import)."""

from __future__ import annotations

import functools
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from dungeonpress.products.common import Event

QUIET, NORMAL, VERBOSE = "quiet", "normal", "verbose"


@dataclass
class Tally:
    """What the summary counts."""

    files: int = 0
    pages: int = 0
    bytes: int = 0
    done: int = 0
    failed: int = 0
    skipped: int = 0
    warnings: list = field(default_factory=list)


class Display:
    """The whole run's progress: item k of n, elapsed and time left, drawn only when stderr is a terminal.

    Feed it events (`event`, the callback a build context carries), sub-steps of the item under way
    (`step`, the `ctx.tick` signature), files written (`wrote`) and warnings; `close` prints the
    summary on stdout. Quiet shows nothing but errors (the CLI prints those, and the seed); verbose
    adds a `wrote PATH` line per file.
    """

    HEARTBEAT = 0.5  # seconds between redraws while nothing reports: a long layout never freezes the bar

    def __init__(self, stdout, stderr, *, level: str = NORMAL, interactive: bool | None = None, clock=time.monotonic,
                 history: dict | None = None):
        """`history`: seconds each item took last time, by label (the build folder's manifest), for the time left."""
        self.stdout, self.stderr, self.level, self.clock = stdout, stderr, level, clock
        self.history = dict(history or {})
        self._item, self._item_at, self._took = "", clock(), []  # the item under way, its start, finished items' times
        self._lock = threading.RLock()  # the heartbeat and the run's own events draw the same bar
        self._stop = threading.Event()
        self._heart = None
        if interactive is None:
            isatty = getattr(stderr, "isatty", None)
            interactive = bool(isatty and isatty())
        self.interactive = interactive and level != QUIET
        self.started_at = clock()
        self.total = 0
        self.tally = Tally()
        self._bar = None
        self._part = 0.0
        self._label = ""
        self._job = None  # the CLI's item under way, and whether items inside it took its place
        self._job_has_items = False

    # -- events -----------------------------------------------------------------------------
    def plan(self, count: int) -> None:
        self.event(Event("planned", "", count=count))

    def event(self, event: Event) -> None:
        """The callback: a producer reports an item; items inside a CLI job replace that job's one item."""
        if self._job is not None and event.name != self._job and not self._job_has_items:
            self._job_has_items = True
            self.total -= 1  # the job is now counted by its own items
        if event.kind == "planned":
            self.total += event.count
        elif event.kind == "started":
            self._part = 0.0
            self._item, self._item_at = event.name, self.clock()
            self.total = max(self.total, self._finished + 1)
            self._describe(event.name)
        elif event.kind == "finished":
            self._part = 0.0
            self._took.append(self.clock() - self._item_at)
            self.tally.done += 1
        elif event.kind == "failed":
            self.tally.failed += 1
            if self.level == VERBOSE:
                self._print_above(f"failed {event.name}: {event.message}")
        elif event.kind == "skipped":
            self.tally.skipped += 1
            if self.level == VERBOSE:
                self._print_above(f"unchanged {event.name}")
        self.total = max(self.total, self._finished)  # an item nobody announced still counts
        self._draw()

    def job(self, name: str) -> _Job:
        """`with display.job(name):` one CLI job, counted as one item unless it reports items of its own."""
        return _Job(self, name)

    def step(self, done: int, total: int, label: str) -> None:
        """What the item under way is doing (products call `ctx.tick(done, total, label)`)."""
        self._part = min(max(done / total, 0.0), 0.99) if total else 0.0  # of the item under way
        self._describe(label)
        self._draw()

    def wrote(self, path: Path, size: int, pages: int = 0) -> None:
        self.tally.files += 1
        self.tally.bytes += size
        self.tally.pages += pages
        if self.level == VERBOSE:
            self._print_above(f"wrote {path}", stream=self.stdout)

    def warning(self, text: str, *, error: bool = False) -> None:
        """A rendering warning; shown unless quiet, and always when it fails the run (`error`, from --strict)."""
        self.tally.warnings.append(text)
        if error:
            self._print_above(f"error: {text}")
        elif self.level != QUIET:
            self._print_above(f"warning: {text}")

    def note(self, line: str) -> None:
        """A line shown whatever the level (the seed of a run, so it can be made again)."""
        self._print_above(line)

    # -- the end ----------------------------------------------------------------------------
    def close(self, out_dir: str = "", *, summary_line: bool = True) -> None:
        """Take the bar down and print the summary (not when quiet, nor when the run stopped on an error)."""
        self._stop.set()
        if self._heart is not None:
            self._heart.join()
            self._heart = None
        with self._lock:
            if self._bar is not None:
                self._bar.close()
                self._bar = None
        if not summary_line or self.level == QUIET or not (self.tally.files or self.tally.failed or self.tally.skipped):
            return
        print(summary(self.tally, self.clock() - self.started_at, out_dir), file=self.stdout)

    # -- drawing ----------------------------------------------------------------------------
    @property
    def _finished(self) -> int:
        return self.tally.done + self.tally.failed + self.tally.skipped

    def _describe(self, label: str) -> None:
        self._label = label
        if self._bar is not None:
            self._bar.set_description_str(label, refresh=False)

    def time_left(self) -> float | None:
        """Seconds the run still needs, or None when nothing says yet (shown as "?", never a guess of 0).

        An item takes what it took last time (`history`), else what finished items took on average.
        The item under way counts what is left of its own estimate; once past it, nothing is known.
        """
        typical = sum(self._took) / len(self._took) if self._took else None
        under_way = self._item and self._finished < self.total
        expected = self.history.get(self._item, typical) if under_way else None
        if under_way and expected is None:
            return None
        left = max(expected - (self.clock() - self._item_at), 0.0) if under_way else 0.0
        if under_way and left == 0.0:
            return None  # slower than last time: say so rather than "0 s left"
        waiting = self.total - self._finished - (1 if under_way else 0)
        if waiting > 0:
            if typical is None and expected is None:
                return None
            left += waiting * (typical if typical is not None else expected)
        return left

    def _draw(self) -> None:
        if not self.interactive:
            return
        with self._lock:
            if self._bar is None:
                # Items done of all is shown as k/n; the bar moves within an item by its steps, or by
                # its time against what it took last time; the time left is ours (`time_left`).
                self._bar = _bar_type()(total=self.total, file=self.stderr, leave=False, dynamic_ncols=True,
                                        desc=self._label, bar_format="{desc:<30.30} {bar} {items} [{elapsed}<{left}]")
                self._heart = threading.Thread(target=self._beat, name="progress", daemon=True)
                self._heart.start()
            part = self._part
            expected = self.history.get(self._item)
            if expected and self._finished < self.total:
                part = max(part, min((self.clock() - self._item_at) / expected, 0.99))
            self._bar.total = self.total
            self._bar.n = self._finished + part
            self._bar.items = f"{self._finished}/{self.total}"
            left = self.time_left()
            self._bar.left = "?" if left is None else _bar_type().format_interval(left)
            self._bar.refresh()

    def _beat(self) -> None:
        while not self._stop.wait(self.HEARTBEAT):
            with self._lock:
                if self._bar is not None:
                    self._draw()

    def _print_above(self, line: str, stream=None) -> None:
        stream = stream or self.stderr
        with self._lock:
            if self._bar is not None:
                self._bar.write(line, file=stream)  # takes the bar down, writes the line, draws the bar again below
            else:
                print(line, file=stream)


@functools.cache
def _bar_type():
    """tqdm's bar with two more fields for its format: {items}, k/n while the bar itself moves by steps;
    {left}, the time left as `Display.time_left` reckons it."""
    from tqdm import tqdm  # only a terminal draws a bar

    class Bar(tqdm):
        items = ""
        left = "?"

        @property
        def format_dict(self):
            return {**super().format_dict, "items": self.items, "left": self.left}

    return Bar


class _Job:
    def __init__(self, display: Display, name: str):
        self.display, self.name = display, name

    def __enter__(self):
        d = self.display
        d._job, d._job_has_items = self.name, False
        d.event(Event("started", self.name))
        return self

    def __exit__(self, kind, error, tb):
        d = self.display
        if not d._job_has_items:
            d.event(Event("failed" if error else "finished", self.name, message=str(error or "")))
        d._job = None
        return False


def summary(tally: Tally, seconds: float, out_dir: str = "") -> str:
    """`wrote 12 files (86 pages, 4.2 MB) to build/ in 31.0 s; 2 warnings`."""
    parts = [f"wrote {tally.files} file{'s' * (tally.files != 1)}"]
    details = ([f"{tally.pages} page{'s' * (tally.pages != 1)}"] if tally.pages else []) + [size_text(tally.bytes)]
    parts.append(f"({', '.join(details)})")
    if out_dir:
        parts.append(f"to {out_dir}")
    line = " ".join(parts) + f" in {seconds:.1f} s"
    extra = []
    if tally.skipped:
        extra.append(f"{tally.skipped} unchanged")
    if tally.failed:
        extra.append(f"{tally.failed} failed")
    if tally.warnings:
        extra.append(f"{len(tally.warnings)} warning{'s' * (len(tally.warnings) != 1)}")
    return line + ("; " + ", ".join(extra) if extra else "")


def size_text(size: int) -> str:
    """Bytes as people read them: 812 B, 14 kB, 4.2 MB (powers of 1000, as file managers show)."""
    if size < 1000:
        return f"{size} B"
    for unit in ("kB", "MB", "GB"):
        size /= 1000
        if size < 999.5 or unit == "GB":
            return f"{size:.0f} {unit}" if size >= 100 or unit == "kB" else f"{size:.1f} {unit}"
    raise AssertionError("unreachable")
