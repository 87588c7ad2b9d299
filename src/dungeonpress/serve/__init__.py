"""The local preview page: `dungeonpress serve` (build folder + watched content → a page on 127.0.0.1).

Builds run as `python -m dungeonpress …` subprocesses, so this package never imports WeasyPrint.
"""

from __future__ import annotations

import signal
import sys
import threading
from pathlib import Path

from dungeonpress.serve.app import HOST, PreviewServer

__all__ = ["HOST", "PreviewServer", "run"]


def run(*, port: int, out_dir: Path, packs: list, watched: list, timeout: float, log=None, stdout=None) -> int:
    """Serve until interrupted (Ctrl-C); returns the exit status."""
    stdout = stdout or sys.stdout
    server = PreviewServer(port, out_dir, packs, [*watched, *packs], timeout=timeout, log=log)
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
