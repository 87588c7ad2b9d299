"""A roll's command line → (exit status, stdout, stderr) of `dungeonpress ARGS`, run in a warm worker process.

A worker is forked from the batch's fork server (WeasyPrint and the products already imported), then
reads the content model and lays out one small page with the bundled fonts while it waits for its
first roll; after that a roll costs its own layout. Each roll runs the command line exactly as
`python -m dungeonpress ARGS` would, in the worker's own process; a roll that passes its time limit,
is stopped, or kills its worker fails alone, and that worker is not used again.
"""

from __future__ import annotations

import io
import os
import runpy
import signal
import sys
from multiprocessing import Pipe
from multiprocessing.connection import wait
from pathlib import Path

from dungeonpress import collect
from dungeonpress.forks import die_with_parent, ready_to_die_with_parent, start_worker

# Laid out once by a new worker: WeasyPrint loads the bundled fonts, its stylesheet code and PDF writer.
WARM_UP_PAGE = ('<link rel="stylesheet" href="css/zine.css"><h1>Warm</h1><p>Roll <b>2d6</b>, '
                '<i>add</i> <span class="small-caps">one</span>: 7 → 8.</p>')


class WarmWorker:
    """One warm worker process: `run(argv, timeout)` one roll at a time; `kill()` from any thread stops it."""

    def __init__(self, packs, cache: Path | None, cwd: Path | None = None):
        ready_to_die_with_parent()
        self.conn, child = Pipe()
        self.process = start_worker(_work, (child, [str(p) for p in packs], str(cache) if cache else None,
                                            str(cwd or Path.cwd()), dict(os.environ)))
        child.close()
        self.stopped = False  # killed, timed out or dead: never given another roll

    @property
    def usable(self) -> bool:
        return not self.stopped and self.process.is_alive()

    def run(self, argv: list, timeout: float) -> tuple:
        """(exit status, stdout, stderr) of `dungeonpress *argv` in this worker; a stopped or dead worker fails it."""
        try:
            self.conn.send(list(argv))
        except OSError:
            self.stopped = True
            return 1, "", f"error: the build stopped: {self._death()}"
        ready = wait([self.conn, self.process.sentinel], timeout=timeout)
        if self.conn in ready:
            try:
                return self.conn.recv()
            except (EOFError, OSError):
                pass
        self.kill()
        if not ready:
            return 1, "", f"error: the build took longer than {timeout:g} s and was stopped"
        return 1, "", f"error: the build stopped: {self._death()}"

    def _death(self) -> str:
        self.process.join(timeout=5)
        return ended("worker", self.process.exitcode)

    def kill(self) -> None:
        self.stopped = True
        if self.process.is_alive():
            self.process.kill()

    def close(self) -> None:
        """Stop the worker: at once when it is busy or stopped, else by telling it to end."""
        if self.usable:
            try:
                self.conn.send(None)
            except OSError:
                pass
            self.process.join(timeout=5)
        self.kill()
        self.process.join(timeout=5)
        self.conn.close()


def ended(what: str, code: int | None) -> str:
    """How a build's process ended, for its error line: "its worker was killed (SIGKILL)", "… ended (exit status 1)"."""
    if code is not None and code < 0:
        name = signal.Signals(-code).name if -code in signal.Signals._value2member_map_ else str(-code)
        return f"its {what} was killed ({name})"
    return f"its {what} ended (exit status {code})"


def _work(conn, packs: list, cache: str | None, cwd: str, environ: dict) -> None:
    """The worker: warm up, then run each command line sent until told to end (None) or its server is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the server's; it stops the workers itself
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    die_with_parent()
    os.environ.clear()
    os.environ.update(environ)
    os.chdir(cwd)
    warm_up(packs, cache)
    collect.ready_to_lay_out()
    while True:
        try:
            argv = conn.recv()
        except (EOFError, OSError):
            return
        if argv is None:
            return
        refresh_content(packs, cache)
        conn.send(run_command_line(argv))
        collect.collect_all_between_rolls()  # the roll is answered: its garbage is collected off its clock


def warm_up(packs: list, cache: str | None) -> None:
    """Read the content model and lay out one small page; a failure here is left for the first roll to report."""
    refresh_content(packs, cache)
    try:
        from dungeonpress import build, pdf
        rendered = pdf.layout_html(WARM_UP_PAGE, base_url=build.TEMPLATES_DIR, roots=[build.TEMPLATES_DIR])
        pdf.write_pdf(rendered)
        pdf.bundled_coverage()
    except Exception:  # noqa: BLE001 - warming is an optimisation: the roll itself says what is wrong
        pass


def refresh_content(packs: list, cache: str | None) -> None:
    """Make the content model of now the one this process keeps in memory (read back, or read and kept in the
    build folder's cache), so the roll's own `--out` folder never gets a cache; content mistakes are the roll's."""
    from dungeonpress import build
    from dungeonpress.errors import ContentErrors
    try:
        build.load_content([Path(p) for p in packs], Path(cache) if cache else None, hold=True)
    except (ContentErrors, OSError):
        pass


def run_command_line(argv: list) -> tuple:
    """`python -m dungeonpress *argv` in this process: (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.argv, sys.stdout, sys.stderr
    sys.argv, sys.stdout, sys.stderr = ["dungeonpress", *argv], out, err
    try:
        runpy.run_module("dungeonpress", run_name="__main__", alter_sys=False)
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException as exc:  # noqa: BLE001 - the CLI prints its own errors; this is only a last word
        code = 1
        err.write(f"error: unexpected {type(exc).__name__} in the build\n")
    finally:
        sys.argv, sys.stdout, sys.stderr = saved
    return code, out.getvalue(), err.getvalue()
