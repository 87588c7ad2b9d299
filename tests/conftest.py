"""Shared fixtures: the project's content (loaded once) and a way to write small content packs."""

from __future__ import annotations

import io
import textwrap
from pathlib import Path

import pytest

from dungeonpress import build, cli, collect, forks, load, validate
from dungeonpress.errors import ContentErrors

# The fast tier (`make test-fast`, `pytest -m "not slow"`) leaves out every test that lays out a PDF, rolls
# hundreds of seeds, or starts processes that import WeasyPrint or wait out a time limit (the one small book laid
# out once per worker is the exception: a dozen checks of the book's parts read it). Slowness is marked where it
# lives: a test with @pytest.mark.slow, a fixture
# with @slow_fixture (every test that uses it, directly or through other fixtures, is slow), and tests
# reading shared builds (@pytest.mark.builds). `make test` runs everything.
SLOW_AFTER_S = 1.0  # an unmarked test slower than this in the fast tier is listed at the end of the run


def slow_fixture(function):
    """Mark a fixture slow: put it under @pytest.fixture. Tests that use it are in the slow tier."""
    function.slow = True
    return function


def _uses_slow_fixture(item) -> bool:
    definitions = getattr(getattr(item, "_fixtureinfo", None), "name2fixturedefs", {})
    return any(getattr(getattr(d, "func", None), "slow", False) for defs in definitions.values() for d in defs)


def pytest_collection_modifyitems(items):
    for item in items:
        if _uses_slow_fixture(item) or item.get_closest_marker("builds"):
            item.add_marker(pytest.mark.slow)
    # Tests reading shared builds (every product in every theme) run first: the builds are most of the run's
    # work, and begun first they keep both workers busy instead of leaving them to the last minutes.
    items.sort(key=lambda item: item.get_closest_marker("builds") is None)


_UNMARKED_SLOW: list = []


def pytest_runtest_logfinish(nodeid, location):
    """Collect what the test left and freeze what outlived it, as a warm worker does between items (collect.py).

    A test process holds WeasyPrint, the fonts, the content model, shared builds and every module's fixtures; the
    cycle collector walked all of it at each full collection, about a seventh of the fast tier's CPU (measured with
    gc.callbacks in each worker). Frozen, collections walk only what the running test made.
    """
    collect.collect_between_items()


def pytest_runtest_logreport(report):
    """Remember fast-tier tests that took long (a listing, not a failure: timings on a shared machine vary)."""
    if report.when == "call" and report.duration > SLOW_AFTER_S and "slow" not in report.keywords:
        _UNMARKED_SLOW.append((report.duration, report.nodeid))


def pytest_terminal_summary(terminalreporter):
    if _UNMARKED_SLOW:
        terminalreporter.write_sep("-", f"tests not marked slow that took over {SLOW_AFTER_S:g} s (mark them "
                                        "@pytest.mark.slow, or their fixture @slow_fixture)")
        for seconds, nodeid in sorted(_UNMARKED_SLOW, reverse=True):
            terminalreporter.write_line(f"{seconds:5.1f} s  {nodeid}")


# One child process reads the PDFs a test module preflights (guard.Reader: a fresh child after any file that is
# refused or stops it, so no file's reading reaches the next). A new child for each file, as check_file makes
# without a reader, costs a spawned interpreter and its imports (about 0.8 s of CPU): dozens of times over in the
# fast tier. Opened on first use, closed when the module's last test has run (pytest tears module fixtures down
# before the next module), so tests elsewhere that count this process's children never see it.
_READERS: list = []


def shared_reader():
    """The guard.Reader of the test module running now."""
    if not _READERS:
        from dungeonpress import guard
        _READERS.append(guard.Reader())
    return _READERS[0]


@pytest.fixture(autouse=True, scope="module")
def _close_shared_reader():
    yield
    while _READERS:
        _READERS.pop().close()


@pytest.fixture(scope="session")
def content():
    """The project's own content, loaded and validated once per test run."""
    return build.load_content()


@pytest.fixture
def make_pack(tmp_path, monkeypatch):
    """Write files into a fresh pack folder and return a function that validates it alone.

    Paths in error messages are relative to the working directory, so the test runs inside
    tmp_path and messages read `pack/tables/x.yaml:3: …`.
    """
    monkeypatch.chdir(tmp_path)
    root = tmp_path / "pack"

    def write(files: dict) -> Path:
        for name, text in files.items():
            path = root / name
            path.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(text, bytes):
                path.write_bytes(text)
            else:
                path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
        return root

    return write


def validate_folder(folder: Path):
    """Load and validate one folder of content on its own (no built-in packs)."""
    return validate.validate_content(load.load_content([folder]))


def content_errors(folder: Path) -> list[str]:
    """The error lines validating `folder` on its own gives (it must fail)."""
    with pytest.raises(ContentErrors) as caught:
        validate_folder(folder)
    return [str(e) for e in caught.value.errors]


def pdf_outline(data: bytes) -> list:
    """A PDF's bookmarks as (depth, title, 0-based page) in reading order."""
    import pypdf
    reader = pypdf.PdfReader(io.BytesIO(data))

    def walk(items, depth):
        for item in items:
            if isinstance(item, list):
                yield from walk(item, depth + 1)
            else:
                yield depth, item.title, reader.get_destination_page_number(item)
    return list(walk(reader.outline, 0))


def run_cli(*argv) -> tuple[int, str, str]:
    """`dungeonpress ARGV...` in this process: (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    status = cli.main([str(a) for a in argv], stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


# A valid d6 table, the smallest a pack can hold (tests change a line of it to make one fault).
MOOD_D6 = """id: mood
title: Mood
die: d6
source: core
columns: {mood: Mood}
rows:
  1: Grim
  2: Tense
  3: Quiet
  4: Calm
  5: Odd
  6: Wild
"""


# --- Slow builds made once per run, shared by every process of the run ----------------------------
# Several test files need whole-product builds (every product in every theme; the product tests read the
# standard theme's). Each is a job (module, function, args) named by a key, THEME/COMMAND/INDEX for one
# `build all` job, and is made once per run by whichever process reaches it first: it creates the job's
# claim file (only one process can) and leaves the result beside it for the others. A process waiting
# for a job another one is making makes the next unclaimed job in the meantime, so with pytest-xdist
# both workers keep laying out. Without xdist, a worker process started after collection makes the
# jobs the selected tests name, from the last needed to the first, on the machine's other core.
# Results are the same whoever makes them: each job is a plain function of its arguments.

_FOLDER_VARIABLE = "DUNGEONPRESS_TEST_BUILDS"  # the run's shared folder, handed from xdist's controller to its workers


class SharedBuilds:
    """Jobs made once per run by one of the run's processes and read by all of them.

    The background worker (runs without xdist) is a plain subprocess in its own session: tests that
    count this process's children or signal its process group do not see it.
    """

    def __init__(self):
        self.folder = None
        self.keys: list = []  # the jobs the selected tests name, in the order they are first needed
        self.worker = None
        self.owner = False  # this process made the folder (and removes it at the end)
        self.made: dict = {}

    def open(self, config) -> None:
        import os
        import tempfile
        if os.environ.get("PYTEST_XDIST_WORKER") and os.environ.get(_FOLDER_VARIABLE):
            self.folder = Path(os.environ[_FOLDER_VARIABLE])
        else:
            _remove_abandoned(Path(tempfile.gettempdir()))
            self.folder, self.owner = Path(tempfile.mkdtemp(prefix=_FOLDER_PREFIX)), True
            (self.folder / _OWNER).write_text(str(os.getpid()))
            os.environ[_FOLDER_VARIABLE] = str(self.folder)  # xdist's workers start after this and inherit it

    def start(self, jobs: dict, background: bool) -> None:
        import json
        import subprocess
        import sys
        self.keys = list(jobs)
        if not self.keys or not background:
            return
        (self.folder / "jobs.json").write_text(json.dumps([[k, list(jobs[k])] for k in self.keys]))
        self.worker = subprocess.Popen(
            [sys.executable, "-c", "import sys; from tests.conftest import _worker_main; _worker_main(sys.argv[1])",
             str(self.folder)], cwd=Path(__file__).resolve().parents[1], start_new_session=True,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def result(self, key: str, here=None):
        """The job's value, made here (by `here()`, or from the key) unless another process has made it or is making it."""
        if key not in self.made:
            self.made[key] = self._result(key, here)
        ok, value = self.made[key]
        if not ok:
            raise AssertionError(value)
        return value

    def _result(self, key: str, here):
        import time
        make = here or (lambda: _call(shared_job(key)))
        if self.folder is None:
            return _outcome(make)
        while True:
            done = _read(self.folder, key)
            if done is not None:
                return done
            if _claim(self.folder, key):
                return _make(self.folder, key, make)
            if not _claimant_alive(self.folder, key):
                return _outcome(make)  # its maker died part way (a test killed it): make it here
            if not self._help():
                time.sleep(0.2)

    def _help(self) -> bool:
        """Make the next job the selected tests need that no process has begun; False when there is none."""
        for key in self.keys:
            if key not in self.made and _claim(self.folder, key):
                self.made[key] = _make(self.folder, key, lambda key=key: _call(shared_job(key)))
                return True
        return False

    def stop(self) -> None:
        import shutil
        if self.worker is not None:
            if self.worker.poll() is None:
                self.worker.terminate()
            self.worker.wait()
            self.worker = None
        if self.owner and self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None


_FOLDER_PREFIX = "dungeonpress-tests-"
_OWNER = "owner.pid"  # the run that made the folder, so a later run knows when it may remove it


def _remove_abandoned(temp: Path) -> None:
    """Remove the shared folders of earlier runs that were killed before they could: only folders named as
    ours, holding an owner.pid, whose owner no longer runs (a run still going keeps its folder)."""
    import shutil
    for folder in temp.glob(_FOLDER_PREFIX + "*"):
        try:
            owner = int((folder / _OWNER).read_text())
        except (OSError, ValueError):
            continue
        if not folder.is_symlink() and not _alive(owner):
            shutil.rmtree(folder, ignore_errors=True)


def _file(folder: Path, key: str, suffix: str) -> Path:
    return folder / (key.replace("/", "--") + suffix)


def _claim(folder: Path, key: str) -> bool:
    import os
    try:
        descriptor = os.open(_file(folder, key, ".claim"), os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        return False
    os.write(descriptor, str(os.getpid()).encode())
    os.close(descriptor)
    return True


def _claimant_alive(folder: Path, key: str) -> bool:
    """Whether the process that claimed the job still runs (a claim just made may not name it yet)."""
    try:
        pid = int(_file(folder, key, ".claim").read_text() or 0)
    except (OSError, ValueError):
        return True
    return not pid or _alive(pid)


def _alive(pid: int) -> bool:
    """Whether process `pid` runs (a zombie, only waiting to be reaped, does not)."""
    import os
    try:
        os.kill(pid, 0)
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except ProcessLookupError:
        return False
    except (OSError, IndexError):
        return True
    return state != "Z"


def _outcome(make) -> tuple:
    """(True, value), or (False, what went wrong) for a failed job: every test reading it fails with that."""
    import traceback
    try:
        return True, make()
    except AssertionError as exc:
        return False, str(exc)
    except Exception:
        return False, traceback.format_exc()


def _make(folder: Path, key: str, make) -> tuple:
    """Make a claimed job and leave its outcome for the other processes whatever happens (an interrupt, an outcome
    that does not pickle): a process waiting for a job whose maker lives on would otherwise wait for ever."""
    import os
    import pickle
    data = pickle.dumps((False, f"{key}: not made (its maker was stopped part way)"))
    try:
        outcome = _outcome(make)
        data = pickle.dumps(outcome)
        return outcome
    finally:
        part = _file(folder, key, f".{os.getpid()}.part")
        part.write_bytes(data)
        part.rename(_file(folder, key, ".pickle"))


def _read(folder: Path, key: str):
    import pickle
    done = _file(folder, key, ".pickle")
    return pickle.loads(done.read_bytes()) if done.exists() else None


def _call(job) -> object:
    import importlib
    module, function, args = job
    return getattr(importlib.import_module(module), function)(*args)


def _worker_main(folder: str) -> None:
    """The background worker: every job not yet claimed, from the last needed to the first (pytest reaches the first ones itself)."""
    import json
    folder = Path(folder)
    for key, job in reversed(json.loads((folder / "jobs.json").read_text())):
        if _claim(folder, key):
            _make(folder, key, lambda job=job: _call(job))
            collect.collect_between_items()


SHARED = SharedBuilds()


def pytest_configure(config):
    collect.tune_for_layout()  # the tests lay out as the tool does (collect.py)
    forks.no_spare_core()  # the suite keeps both cores busy: a zine asks nothing ahead but in the tests of that
    config.addinivalue_line("markers", "builds(*keys): whole-product builds the test reads, made once (see SHARED); "
                                       "theme:NAME is every `build all` job in that theme")
    SHARED.open(config)


def pytest_collection_finish(session):
    """Note every shared build the selected tests name, in the order they are first needed; without xdist, start
    the background worker on them."""
    import os
    wanted: dict = {}
    for item in session.items:
        for marker in item.iter_markers("builds"):
            params = getattr(getattr(item, "callspec", None), "params", {})
            for key in marker.args:
                key = key.format(**params)
                keys = ([f"{key[6:]}/{name}/{index}" for name, index in theme_jobs()] if key.startswith("theme:") else [key])
                for key in keys:
                    wanted.setdefault(key, shared_job(key))
    SHARED.start(wanted, background=not os.environ.get("PYTEST_XDIST_WORKER"))


def pytest_unconfigure(config):
    SHARED.stop()


def theme_jobs() -> list:
    """(command name, job index) of every `build all` job that makes PDFs."""
    return [(c.name, i) for c in build.commands() if c.parent != "export" for i in range(len(c.build_all))]


def shared_job(key: str) -> tuple:
    """What a shared build key means: THEME/COMMAND/INDEX, one `build all` job in a theme: ({output name: bytes},
    WeasyPrint's warnings)."""
    theme, name, index = key.split("/")
    return ("tests.test_themes", "build_job", (theme, name, int(index)))


def standard_build(name: str, index: int = 0) -> tuple:
    """One `build all` job in the standard theme, as every test reading it shares it: ({name: bytes}, warnings)."""
    return SHARED.result(f"standard/{name}/{index}")


SMALL_PACK = Path(__file__).parent / "fixtures" / "small_pack"


def small_pack_book() -> tuple:
    """The small fixture pack's rulebook (reading copy and A4 booklet), laid out in one process without part workers,
    once per run whichever test reaches it first (test_products_rulebook, test_paginate_book): ({name: bytes},
    warnings)."""
    def here():
        from dungeonpress.products import rulebook
        ctx = build.context_for(build.load_content([SMALL_PACK]))
        outputs = {o.name: o.data for o in rulebook.build_rulebook(ctx, rulebook.RulebookOptions(paper="a4"))}
        return outputs, ctx.warnings
    return SHARED.result("small-pack/rulebook/0", here)


@pytest.fixture(scope="session")
def shared_builds():
    return SHARED


def processes_where(field: int, value: int) -> list:
    """Live processes (not zombies) whose /proc/PID/stat field `field` (after the name: 1 parent, 3 session) is `value`."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[field]) == value and fields[0] != "Z":
            found.append(int(stat.parent.name))
    return found


class RecordingTables(dict):
    """A content's tables mapping that remembers every id read from it (what a command really reads)."""

    def __init__(self, *args):
        super().__init__(*args)
        self.read = set()

    def __getitem__(self, key):
        self.read.add(key)
        return super().__getitem__(key)

    def get(self, key, default=None):
        self.read.add(key)
        return super().get(key, default)

    def __contains__(self, key):
        self.read.add(key)
        return super().__contains__(key)
