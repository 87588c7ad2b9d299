"""The local preview page: `dungeonpress serve` (build folder + watched content → a page on 127.0.0.1).

Builds run as `dungeonpress …` command lines in warm worker processes (serve.warm: forked from a
fork server with WeasyPrint imported, content and fonts loaded before the first roll; the rulebook in
serve.book_server, a process kept with its part workers from one build to the next), and the server
itself runs in a fresh interpreter (`python -m dungeonpress.serve`), so the serving process never
loads WeasyPrint.
Rolls are kept in the build folder's rolls/ when the server stops.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import threading
from pathlib import Path

from dungeonpress.serve.app import HOST, PreviewServer

__all__ = ["HOST", "PreviewServer", "run", "run_fresh"]


def run_fresh(*, port: int, out_dir: Path, packs: list, watched: list, timeout: float, quiet: bool) -> None:
    """Replace this process (the CLI, which has loaded every product) with a bare server process."""
    config = {"port": port, "out_dir": str(out_dir), "packs": [str(p) for p in packs],
              "watched": [str(p) for p in watched], "timeout": timeout, "quiet": quiet}
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(sys.executable, [sys.executable, "-m", "dungeonpress.serve", json.dumps(config)])


def run(*, port: int, out_dir: Path, packs: list, watched: list, timeout: float, log=None, stdout=None) -> int:
    """Serve until interrupted (Ctrl-C or SIGTERM); returns the exit status."""
    stdout = stdout or sys.stdout
    try:
        server = PreviewServer(port, Path(out_dir), [Path(p) for p in packs],
                               [Path(p) for p in [*watched, *packs]], timeout=timeout, log=log)
    except OSError as exc:  # the port is taken, say
        print(f"error: cannot serve on {HOST}:{port}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    print(f"serving {server.url}  (build folder {out_dir}; Ctrl-C to stop)", file=stdout, flush=True)
    server.start()
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _interrupt)  # `kill` stops it as cleanly as Ctrl-C
    try:
        server.serve_forever(poll_interval=0.25)
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
        server.server_close()
    return 0


def _interrupt(signum, frame):
    raise KeyboardInterrupt
