"""Changed files under content/, templates/ and --content packs → one rebuild at a time (watchfiles)."""

from __future__ import annotations

import threading
from pathlib import Path

import watchfiles


class Watcher:
    """Calls `rebuild(changed_paths)` once per batch of changes (the rebuild itself runs elsewhere)."""

    def __init__(self, roots: list, rebuild):
        self.roots = [Path(r) for r in roots if Path(r).is_dir()]
        self.rebuild = rebuild
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="watch", daemon=True)

    def start(self) -> None:
        if self.roots:
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=5)

    def _loop(self) -> None:
        # watch() batches changes for `debounce` ms, so an editor's save-rename-delete is one rebuild.
        for changes in watchfiles.watch(*self.roots, stop_event=self._stop, debounce=300, step=100,
                                        rust_timeout=1000, yield_on_timeout=False):
            if self._stop.is_set():
                return
            self.rebuild(sorted({path for _, path in changes}))
