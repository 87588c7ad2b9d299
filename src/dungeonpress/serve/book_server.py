"""serve's rulebook builds, run one after another in one process that keeps its part workers between them.

Each of serve's rulebook builds (its "Build the rulebook" button, then every save) is the command line
`dungeonpress build rulebook --layout pages …` into the build folder, which keeps the parts laid out before. Run as a
process of its own, every build paid the interpreter and the products' imports, two part workers importing WeasyPrint,
and their first use of the engine and the book's fonts, before laying out the one chapter an edit changed: about
0.9 s of an edit's 1.9 s, on its critical path. The book server is started for the first build and runs each later
one in the same process, as `python -m dungeonpress ARGS` would run it (serve.warm.run_command_line), with the same
part workers for all of them (build.keep_part_workers): an edit's cover and chapter go to two workers that are ready.

`python -m dungeonpress.serve.book_server`: reads one JSON list (a command line's words) a line on stdin, and
answers each with one JSON list, [exit status, stdout, stderr], a line on the stdout it started with; whatever else
the builds print goes to stderr. Ends, with its workers, at the end of stdin.
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys

from dungeonpress.part_workers import _end_with
from dungeonpress.serve.warm import ended, run_command_line


class BookServer:
    """The client: one book server process; `run(argv, timeout)` one build at a time, `kill()` from any thread."""

    def __init__(self, python: str | None = None, cwd=None):
        # Not PR_SET_PDEATHSIG (forks.die_with_parent): that signal follows the thread that started the process,
        # and serve starts it from a build's thread, which ends with that build; the server watches serve instead.
        self.process = subprocess.Popen([python or sys.executable, "-m", "dungeonpress.serve.book_server"],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=cwd, bufsize=0,
                                        start_new_session=True)
        self.stopped = False  # killed, timed out or dead: never sent another build

    @property
    def pid(self) -> int:
        return self.process.pid

    @property
    def usable(self) -> bool:
        return not self.stopped and self.process.poll() is None

    def run(self, argv: list, timeout: float) -> tuple:
        """(exit status, stdout, stderr) of `dungeonpress *argv` in the book server; a stopped or dead one fails it."""
        try:
            self.process.stdin.write((json.dumps(list(argv)) + "\n").encode())
        except OSError:
            self.kill()
            return 1, "", f"error: the build stopped: {self._death()}"
        ready, _, _ = select.select([self.process.stdout], [], [], timeout)
        if ready:
            line = self.process.stdout.readline()
            if line:
                code, out, err = json.loads(line)
                return code, out, err
        self.kill()
        if not ready:
            return 1, "", f"error: the build took longer than {timeout:g} s and was stopped"
        return 1, "", f"error: the build stopped: {self._death()}"

    def _death(self) -> str:
        try:
            return ended("process", self.process.wait(timeout=5))
        except subprocess.TimeoutExpired:
            return "its process did not answer"

    def kill(self) -> None:
        """Stop the server and its part workers at once (it runs in its own session: its group is its own)."""
        self.stopped = True
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass  # already gone
        self.process.wait()

    def close(self) -> None:
        """End the server: by the end of its input when it is idle (it ends its workers), else at once."""
        if self.usable:
            try:
                self.process.stdin.close()
                self.process.wait(timeout=10)
            except (OSError, subprocess.TimeoutExpired):
                pass
        if self.process.poll() is None:
            self.kill()
        for stream in (self.process.stdin, self.process.stdout):
            try:
                stream.close()
            except OSError:
                pass


def serve_books(requests, answers) -> None:
    """The server: run each command line read from `requests` and write its answer to `answers` (binary files)."""
    from dungeonpress import build, collect
    workers = build.keep_part_workers()  # started by the first book, kept for every later one
    try:
        for line in requests:
            if not line.strip():
                break
            answers.write((json.dumps(run_command_line(json.loads(line))) + "\n").encode())
            answers.flush()
            collect.collect_all_between_rolls()  # the build is answered: its garbage is collected off its clock
    finally:
        workers.end()


def main() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the server's: it ends this process itself
    _end_with(os.getppid())  # a serve that is killed runs no clean-up: this process, and so its workers, end with it
    answers = os.fdopen(os.dup(sys.stdout.fileno()), "wb", buffering=0)
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # nothing a build prints can be read as an answer
    serve_books(sys.stdin.buffer, answers)


if __name__ == "__main__":
    main()
