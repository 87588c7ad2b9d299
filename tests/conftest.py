"""Shared fixtures: the project's content (loaded once) and a way to write small content packs."""

from __future__ import annotations

import io
import textwrap
from pathlib import Path

import pytest

from dungeonpress import build, cli, load, validate
from dungeonpress.errors import ContentErrors

# The fast tier (`make test-fast`, `pytest -m "not slow"`) leaves out every test that lays out a PDF
# or rolls hundreds of seeds. Slowness is marked where it lives: a test with @pytest.mark.slow, a fixture
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


_UNMARKED_SLOW: list = []


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


# --- Slow builds made once per session, in a second process ------------------------------------
# Several test files need whole-product builds (every product in every theme; `build all` read back
# by the preflight). A worker process started after collection makes the ones the selected tests
# ask for, in order, on the machine's other core while this process runs the rest of the suite;
# a test that needs a build the worker has not started yet makes it here instead. Results are the
# same either way: each job is a plain function of its arguments.

class SharedBuilds:
    """Jobs (module, function, args) run by one worker process, or here when the worker has not begun them.

    The worker is a plain subprocess in its own session: tests that count this process's children
    or signal its process group do not see it. A job is taken by creating its claim file, which
    only one side can do.
    """

    def __init__(self):
        self.keys: list = []
        self.worker = None

    def start(self, jobs: dict) -> None:
        import json
        import subprocess
        import sys
        import tempfile
        self.keys = list(jobs)
        if not self.keys:
            return
        self.folder = Path(tempfile.mkdtemp(prefix="dungeonpress-tests-"))
        (self.folder / "jobs.json").write_text(json.dumps([list(jobs[k]) for k in self.keys]))
        self.worker = subprocess.Popen(
            [sys.executable, "-c", "import sys; from tests.conftest import _worker_main; _worker_main(sys.argv[1])",
             str(self.folder)], cwd=Path(__file__).resolve().parents[1], start_new_session=True,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def result(self, key: str, here):
        """The job's value: from the worker when it has taken the job, else `here()` made now in this process."""
        if key not in self.keys or self.worker is None or _claim(self.folder, self.keys.index(key)):
            return here()
        import pickle
        import time
        done = self.folder / f"{self.keys.index(key)}.pickle"
        while not done.exists():
            if self.worker.poll() is not None and not done.exists():
                return here()  # the worker is gone: make it here
            time.sleep(0.2)
        ok, value = pickle.loads(done.read_bytes())
        if not ok:
            raise AssertionError(value)
        return value

    def stop(self) -> None:
        if self.worker is not None:
            if self.worker.poll() is None:
                self.worker.terminate()
            self.worker.wait()
            import shutil
            shutil.rmtree(self.folder, ignore_errors=True)
            self.worker = None


def _claim(folder: Path, index: int) -> bool:
    import os
    try:
        os.close(os.open(folder / f"{index}.claim", os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return False
    return True


def _call(job) -> object:
    import importlib
    module, function, args = job
    return getattr(importlib.import_module(module), function)(*args)


def _worker_main(folder: str) -> None:
    """The worker: every job not yet claimed, from the last needed to the first (pytest reaches the first ones itself)."""
    import json
    import pickle
    import traceback
    folder = Path(folder)
    jobs = json.loads((folder / "jobs.json").read_text())
    for index in reversed(range(len(jobs))):
        if not _claim(folder, index):
            continue
        try:
            outcome = (True, _call(jobs[index]))
        except AssertionError as exc:
            outcome = (False, str(exc))
        except Exception:
            outcome = (False, traceback.format_exc())
        part = folder / f"{index}.part"
        part.write_bytes(pickle.dumps(outcome))
        part.rename(folder / f"{index}.pickle")


SHARED = SharedBuilds()


def pytest_configure(config):
    config.addinivalue_line("markers", "builds(*keys): whole-product builds the test reads, made once (see SHARED); "
                                       "theme:NAME is every `build all` job in that theme")


def pytest_collection_finish(session):
    """Start the worker on every shared build the selected tests name, in the order they are first needed."""
    wanted: dict = {}
    for item in session.items:
        for marker in item.iter_markers("builds"):
            params = getattr(getattr(item, "callspec", None), "params", {})
            for key in marker.args:
                key = key.format(**params)
                keys = ([f"{key[6:]}/{name}/{index}" for name, index in theme_jobs()] if key.startswith("theme:") else [key])
                for key in keys:
                    wanted.setdefault(key, shared_job(key))
    SHARED.start(wanted)


def pytest_sessionfinish(session):
    SHARED.stop()


def theme_jobs() -> list:
    """(command name, job index) of every `build all` job that makes PDFs."""
    return [(c.name, i) for c in build.commands() if c.parent != "export" for i in range(len(c.build_all))]


def shared_job(key: str) -> tuple:
    """What a shared build key means: THEME/COMMAND/INDEX, one `build all` job in a theme; or
    build-all-preflight, `build all` read back by the preflight."""
    if key == "build-all-preflight":
        return ("tests.test_preflight", "build_all_and_preflight", ())
    theme, name, index = key.split("/")
    return ("tests.test_themes", "build_job", (theme, name, int(index)))


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
