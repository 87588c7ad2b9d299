"""Supervised workers: items (command, options, seed) → outputs, each made in a worker process with a time limit and a memory cap."""

from __future__ import annotations

import contextlib
import multiprocessing
import signal
import threading
import time
from dataclasses import dataclass, field
from multiprocessing.connection import wait

from dungeonpress.forks import die_with_parent, no_spare_core, start_fork_server, start_worker, worker_context

# Like manifest.py, light on imports: the parent only hands out items and writes what comes back;
# the workers import the products (and WeasyPrint) once each and keep them warm across items.

WORKERS = 2  # the machine this is made for has two cores
ITEM_TIMEOUT = 600.0  # seconds; the rulebook takes well under a minute on a loaded two-core machine
ITEM_MEMORY_MB = 2048  # address space per worker (RLIMIT_AS); a zine worker peaks far below this
# The least --item-memory a worker can work in. Measured (VmPeak, one item in a fresh process): a zine
# 313 MiB, an A5 booklet 356 MiB, the rulebook 585 MiB. Under about 360 MiB Pango's own allocations
# fail inside GLib, which aborts the worker with SIGTRAP (g_error) rather than raising MemoryError:
# at 256 MiB one zine in four died that way. 512 MiB leaves a zine or booklet room to spare; the
# rulebook there fails cleanly ("memory limit (512 MiB) exceeded") and builds at 640.
MIN_ITEM_MEMORY_MB = 512
STARTUP = 120.0  # seconds a fresh worker may take to start (imports) before its first item's clock runs


@dataclass(frozen=True)
class Settings:
    """What every item of one run shares (picklable: it travels to the workers)."""

    user_packs: tuple = ()
    strict: bool = False
    theme: str = "standard"
    out_dir: str = "build"
    max_pages: int | None = None  # pages one document may lay out (--max-pages); None: pdf.MAX_PAGES


@dataclass(frozen=True)
class Item:
    """One thing to make: a command by its full name, its options by field name, its seed."""

    label: str
    command: str
    options: dict = field(default_factory=dict)
    seed: int | None = None
    key: str = ""  # the hash of its inputs (manifest.item_key), "" when not tracked


@dataclass
class Result:
    """How one item ended: built (with outputs), failed (with a one-line reason) or skipped (up to date)."""

    item: Item
    status: str
    outputs: list = field(default_factory=list)
    warnings: list = field(default_factory=list)
    error: str = ""
    seconds: float = 0.0
    pages: dict = field(default_factory=dict)  # PDF name → page count
    peak_mib: float = 0.0  # the worker's peak resident memory once this item was made
    worker: int = 0  # which worker made it (1, 2, ...; a replacement gets the next number)
    native: dict = field(default_factory=dict)  # versions only a worker knows (Pango)


def event(kind: str, item: Item, *, done: int, total: int, result: Result | None = None):
    """What happened to an item, as every display of a run is told it (products.common.Event)."""
    from dungeonpress.products.common import Event
    if result is None:
        return Event(kind, item.label, done=done, total=total)
    return Event(kind, item.label, pages=sum(result.pages.values()), bytes=sum(len(o.data) for o in result.outputs),
                 message=result.error, done=done, total=total, result=result)


def make_item(settings: Settings, item: Item):
    """The real work, run inside a worker: (outputs, warnings, {pdf name: pages}, native versions).

    Content is read once per worker and kept for its next items.
    """
    from dungeonpress import build, pdf
    from dungeonpress.products import options as option_types
    content = _content(settings.user_packs, settings.out_dir)
    command = next(c for c in build.commands() if c.full_name == item.command)
    opts = option_types.parse(command.options, item.options)
    ctx = build.context_for(content, seed=item.seed, user_packs=list(settings.user_packs), strict=settings.strict,
                            theme=settings.theme, out_dir=settings.out_dir, max_pages=settings.max_pages)
    # The same run as a single product's in the CLI (build.make): outputs named for the run's look and packs.
    return (*build.make(command, ctx, opts, count_pages=True), pdf.native_versions())


_CONTENT: dict = {}


def _content(user_packs: tuple, out_dir: str = "build"):
    from pathlib import Path

    from dungeonpress import build
    if user_packs not in _CONTENT:  # the model the run checked first is in the build folder's cache
        _CONTENT[user_packs] = build.load_content(list(user_packs), Path(out_dir) / build.CONTENT_CACHE)
    return _CONTENT[user_packs]


def _worker(conn, runner, settings: Settings, memory_mb: int, environ: dict | None = None) -> None:
    """A worker's loop: take an item, make it, send back ("ok", outputs, warnings) or ("error", reason).

    Ctrl-C and SIGTERM are the supervisor's to handle: it stops the workers itself. A worker whose
    supervisor is gone (its pipe broken) ends quietly: there is no one left to tell. `environ` is the
    supervisor's environment now (a fork server keeps the one it started with).
    """
    import os
    import resource
    if environ is not None:
        os.environ.clear()
        os.environ.update(environ)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    die_with_parent()
    no_spare_core()  # its fellow workers keep the other cores busy
    if memory_mb:
        limit = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    from dungeonpress import collect
    collect.ready_to_lay_out()  # what the fork server imported is never walked by this worker's collections
    try:
        while True:
            item = conn.recv()
            if item is None:
                return
            conn.send(("started",))  # the clock starts now, not while a fresh worker was still importing
            try:
                made = runner(settings, item)
                peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # MiB so far: flat over a healthy batch
                answer = ("ok", made[0], made[1], made[2] if len(made) > 2 else {}, round(peak, 1),
                          made[3] if len(made) > 3 else {})
            except MemoryError:
                answer = ("error", f"memory limit ({memory_mb} MiB) exceeded")
            except BaseException as exc:  # noqa: BLE001 - one bad item must never take the worker's others down
                answer = ("error", _reason(exc))
            conn.send(answer)
            collect.collect_between_items()
    except (EOFError, OSError):
        return  # the supervisor is gone


def _reason(exc: BaseException) -> str:
    from dungeonpress.errors import ContentErrors, RenderError
    if isinstance(exc, (ContentErrors, RenderError)):
        return str(exc)
    text = str(exc).splitlines()[0] if str(exc) else ""
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


class _Slot:
    """One worker process and the item it is on."""

    started_workers = 0

    def __init__(self, context, runner, settings, memory_mb):
        _Slot.started_workers += 1
        self.number = _Slot.started_workers
        parent, child = context.Pipe()
        import os
        self.process = start_worker(_worker, (child, runner, settings, memory_mb, dict(os.environ)))
        child.close()
        self.conn = parent
        self.item = None
        self.started = 0.0
        self.running = False  # the worker has said it started the item

    def give(self, item: Item) -> None:
        self.item, self.started, self.running = item, time.monotonic(), False
        try:
            self.conn.send(item)
        except OSError:  # it died while idle: its sentinel fails this item and it is replaced
            pass

    def deadline(self, timeout: float) -> float:
        return self.started + timeout + (0.0 if self.running else STARTUP)

    def stop(self, kill: bool = False) -> None:
        if kill:
            self.process.kill()
        else:
            try:
                self.conn.send(None)
            except OSError:
                pass
        self.process.join(timeout=5)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self.conn.close()


def run(items, settings: Settings, *, on_result=None, on_event=None, runner=make_item, workers: int = WORKERS,
        timeout: float = ITEM_TIMEOUT, memory_mb: int = ITEM_MEMORY_MB) -> list[Result]:
    """Make every item in supervised workers; each result goes to `on_result` (in this process) as it ends.

    A worker that dies, runs out of memory or passes `timeout` seconds fails its one item and is
    replaced; the others go on. On Ctrl-C the workers are stopped and KeyboardInterrupt propagates;
    every item that finished before it has been handed to `on_result`. `runner(settings, item)` is the
    work (tests pass their own); it must be importable by name in a fresh interpreter.
    """
    items = list(items)
    total = len(items)
    results: list[Result] = []
    if not items:
        return results
    with _terminate_as_interrupt():
        return _run(items, settings, results, on_result=on_result, on_event=on_event, runner=runner,
                    workers=workers, timeout=timeout, memory_mb=memory_mb)


@contextlib.contextmanager
def _terminate_as_interrupt():
    """While a run lasts, SIGTERM (`kill`, a closing terminal's session) stops it as Ctrl-C does: workers
    stopped, finished items kept. Only the main thread can take signals; elsewhere nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum, frame):
        raise KeyboardInterrupt

    before = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


def _run(items, settings, results, *, on_result, on_event, runner, workers, timeout, memory_mb) -> list[Result]:
    total = len(items)
    context = worker_context()
    _Slot.started_workers = 0
    pending = list(reversed(items))
    slots = [_Slot(context, runner, settings, memory_mb) for _ in range(min(workers, total))]

    def tell(kind, item, result=None):
        if on_event:
            on_event(event(kind, item, done=len(results), total=total, result=result))

    def finish(slot, status, outputs=(), warnings=(), error="", pages=None, peak=0.0, native=None):
        result = Result(slot.item, status, list(outputs), list(warnings), error, time.monotonic() - slot.started,
                        dict(pages or {}), peak, slot.number, dict(native or {}))
        slot.item = None
        results.append(result)
        if on_result:
            on_result(result)
        tell("finished" if status == "built" else "failed", result.item, result)

    def feed(slot):
        if pending and slot.item is None:
            item = pending.pop()
            slot.give(item)
            tell("started", item)

    try:
        for slot in slots:
            feed(slot)
        while any(slot.item is not None for slot in slots):
            busy = [slot for slot in slots if slot.item is not None]
            now = time.monotonic()
            wait_for = max(0.0, min(slot.deadline(timeout) - now for slot in busy))
            ready = wait([slot.conn for slot in busy] + [slot.process.sentinel for slot in busy], timeout=wait_for)
            for index, slot in enumerate(slots):
                if slot.item is None:
                    continue
                replace = False
                if slot.conn in ready:
                    try:
                        message = slot.conn.recv()
                    except (EOFError, OSError):
                        message = None
                    if message is None:
                        finish(slot, "failed", error=_death(slot, memory_mb))
                        replace = True
                    elif message[0] == "started":
                        slot.started, slot.running = time.monotonic(), True
                        continue
                    elif message[0] == "ok":
                        finish(slot, "built", message[1], message[2], pages=message[3], peak=message[4],
                               native=message[5])
                    else:
                        finish(slot, "failed", error=message[1])
                elif slot.process.sentinel in ready:
                    finish(slot, "failed", error=_death(slot, memory_mb))
                    replace = True
                elif time.monotonic() >= slot.deadline(timeout):
                    slot.stop(kill=True)
                    finish(slot, "failed", error=f"took longer than {timeout:g} s (stopped)")
                    if pending:
                        slots[index] = _Slot(context, runner, settings, memory_mb)
                    feed(slots[index])
                    continue
                if replace:
                    slot.stop(kill=True)
                    if pending:
                        slots[index] = _Slot(context, runner, settings, memory_mb)
                feed(slots[index])
    finally:
        for slot in slots:
            if slot.process.is_alive() or not slot.conn.closed:
                slot.stop(kill=slot.item is not None)
    return results


def _death(slot: _Slot, memory_mb: int = 0) -> str:
    slot.process.join(timeout=5)
    code = slot.process.exitcode
    if code is not None and code < 0:
        name = signal.Signals(-code).name if -code in signal.Signals._value2member_map_ else str(-code)
        if memory_mb and -code in (signal.SIGTRAP, signal.SIGABRT, signal.SIGSEGV):
            # GLib aborts (SIGTRAP) when Pango cannot allocate under the cap, instead of a MemoryError.
            return f"worker was killed ({name}): most likely out of its {memory_mb} MiB memory cap (--item-memory)"
        return f"worker was killed ({name}; out of memory?)"
    return f"worker died (exit code {code})"


@dataclass
class Summary:
    """What a supervised run did: counts, what it wrote, each failure, and its warnings."""

    built: int = 0
    failed: int = 0
    skipped: int = 0
    written: list = field(default_factory=list)
    failures: list = field(default_factory=list)  # (label, reason)
    warnings: list = field(default_factory=list)
    seconds: float = 0.0
    manifest: object = None  # the manifest's path when it was written, None when nothing changed
    interrupted: bool = False  # Ctrl-C: what finished is written and recorded, the rest was not made

    def line(self) -> str:
        text = f"{self.built} built, {self.failed} failed, {self.skipped} up to date in {self.seconds:.1f} s"
        text = ("interrupted: " + text) if self.interrupted else text
        return text + (f"; manifest {self.manifest}" if self.manifest else "; nothing written")


def build_and_record(items, settings: Settings, out_dir, *, on_event=None, before=None, **supervision) -> Summary:
    """Skip the items whose inputs match the manifest; make the rest in workers; write each as it ends.

    Every finished item's outputs are written atomically and the manifest rewritten at once, so
    Ctrl-C (KeyboardInterrupt) keeps what finished with a manifest that matches it; the summary
    then says `interrupted`.
    Each item's `key` is its inputs' hash (manifest.item_key); `before()` runs once when anything is
    to be made (the CLI checks the content there, so a content mistake is reported once).
    """
    from pathlib import Path

    from dungeonpress import build, manifest
    out_dir = Path(out_dir)
    started = time.monotonic()
    summary = Summary()
    entries = dict(manifest.read(out_dir).get("items", {}))
    todo = []
    for item in items:
        if manifest.up_to_date(entries.get(item.label), item.key, out_dir):
            summary.skipped += 1
            if on_event:
                on_event(event("skipped", item, done=summary.skipped, total=len(items)))
        else:
            todo.append(item)

    if todo:
        start_fork_server()  # its imports and `before` run side by side
    if todo and before:
        before()
    made: dict = {}  # this run's entries: written over whatever the manifest holds when each is recorded

    def record(result: Result) -> None:
        status, error = result.status, result.error
        if status == "built":
            try:
                summary.written.extend(build.write_outputs(out_dir, result.outputs))
            except (OSError, RuntimeError) as exc:
                status, error = "failed", f"could not write: {exc}"
                result.status, result.error = status, error
        if status == "built":
            summary.built += 1
            summary.warnings.extend(f"{result.item.label}: {w}" for w in result.warnings)
        else:
            summary.failed += 1
            summary.failures.append((result.item.label, error))
        item = result.item
        entries[item.label] = manifest.entry(key=item.key, command=item.command, options=item.options, seed=item.seed,
                                             status=status, outputs=result.outputs if status == "built" else (),
                                             error=error, seconds=result.seconds, peak_mib=result.peak_mib,
                                             worker=result.worker, native=result.native)
        made[item.label] = entries[item.label]
        with build.folder_lock(out_dir):  # other parts of a --shard run may write this folder's manifest too
            merged = dict(manifest.read(out_dir).get("items", {})) | made
            build.write_outputs(out_dir, [_manifest_output(manifest, merged)])
        summary.manifest = out_dir / manifest.NAME

    try:
        run(todo, settings, on_result=record, on_event=on_event, **supervision)
    except KeyboardInterrupt:
        summary.interrupted = True
    finally:
        summary.seconds = time.monotonic() - started
    return summary


def _manifest_output(manifest, entries):
    from dungeonpress.products.common import Output
    return Output(manifest.NAME, manifest.encode(entries))
