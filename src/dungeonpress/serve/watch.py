"""Saved files in the watched folders (links never followed, editor temp files ignored) → one rebuild call per burst."""

from __future__ import annotations

import os
import re
import threading
from pathlib import Path

import watchfiles

# A burst of saves is one call: changes are gathered until QUIET_MS pass with none, for at most
# GATHER_MS (watchfiles' step and debounce). Builds of the same roll are not stacked either: the
# runner keeps one waiting build per roll.
QUIET_MS = 400
GATHER_MS = 2000
MAX_FOLDERS = 2000  # folders watched at most (one inotify watch each); a pack has a few dozen
SKIPPED_FOLDERS = {"__pycache__", "node_modules"}

# What editors write beside the file being saved: Vim's swap files and its `4913` write test,
# Emacs' `#name#`, `.#name` locks and `name~` backups, and the `*.tmp`, `*.part` of atomic saves.
_EDITOR_TEMP = re.compile(r"""(
    ^\.             # hidden: .name.swp, .#name, .DS_Store, and our own .name.dp-….part
  | ^\#.*\#$ | ~$   # Emacs autosave, any backup
  | ^\d+$           # Vim's write test (4913, 5036, …)
  | \.(sw[a-p]|swx|tmp|temp|part|bak|orig|crdownload)$
)""", re.VERBOSE | re.IGNORECASE)


def is_editor_temp(name: str) -> bool:
    """True for a file name an editor or a download writes for a moment, never content."""
    return bool(_EDITOR_TEMP.search(name))


def folders_under(roots: list) -> list:
    """Every real folder inside the roots, the roots first; links (to folders or files) are never followed."""
    found = []
    for root in roots:
        for folder, dirs, _files in os.walk(root, followlinks=False):
            found.append(Path(folder))
            # os.walk lists a link to a folder among the folders; it is not the pack's own folder.
            dirs[:] = sorted(d for d in dirs if not os.path.islink(os.path.join(folder, d))
                             and not d.startswith(".") and d not in SKIPPED_FOLDERS)
            if len(found) >= MAX_FOLDERS:
                return found[:MAX_FOLDERS]
    return found


class Watcher:
    """Calls `rebuild(changed_paths)` once per burst of saves (the rebuild itself runs elsewhere).

    Each folder is watched on its own (not recursively), so a link inside a pack to a folder
    elsewhere (say /usr) adds no watch and a write there rebuilds nothing. When a folder is
    added or removed the set is read again.
    """

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
        while not self._stop.is_set():
            folders = folders_under(self.roots)
            try:
                # A quiet second yields no changes (`yield_on_timeout`), and the folders are listed again then: a
                # folder made after they were listed but before the watch began sent no event, and without this
                # the saves inside it were never seen (a test saw it on a loaded machine).
                for changes in watchfiles.watch(*folders, watch_filter=_wanted, recursive=False, debounce=GATHER_MS,
                                                step=QUIET_MS, stop_event=self._stop, rust_timeout=1000,
                                                yield_on_timeout=True, ignore_permission_denied=True):
                    if self._stop.is_set():
                        return
                    if changes:
                        self.rebuild(sorted({path for _, path in changes}))
                    now = folders_under(self.roots)
                    if now != folders:
                        if not changes:  # it came or went unseen: what was saved in it is a change too
                            self.rebuild(sorted(str(folder) for folder in set(now) ^ set(folders)))
                        break  # watch the new set
                else:
                    return  # stopped
            except (OSError, RuntimeError):
                self._stop.wait(0.5)  # a folder vanished as it was being watched: read the set again


def _wanted(_change, path: str) -> bool:
    return not is_editor_temp(os.path.basename(path))
