"""Laid-out parts of books kept under a build folder between runs (`.cache/parts`), keyed by their HTML."""

from __future__ import annotations

import os
import re
from pathlib import Path

from dungeonpress import resources
from dungeonpress.atomic import write_atomic
from dungeonpress.cache import records
from dungeonpress.part_workers import _native_versions

CONTENT_DIR = resources.data_dir("content")
TEMPLATES_DIR = resources.data_dir("templates")


PART_CACHE = Path(".cache") / "parts"  # under the build folder: books' laid-out parts kept between runs


class PartCache:
    """Laid-out parts of books (paginate.book.LaidPart) kept under the build folder between runs.

    A part's key says its HTML (the text of every table and chapter it prints is in it); the file name adds
    everything else its PDF depends on: templates with their stylesheets and fonts, our code, library and
    engine versions, and the content's other files (images a chapter shows), so a cached part is only ever
    reused by a build that would lay it out the same, and editing a table changes only the parts that print it.
    Files are written atomically.
    """

    TEXT = (".yaml", ".yml", ".md")  # content whose words reach a part only through its HTML
    MAX_BYTES = 200_000_000  # a part is a few hundred kB; more is not one of ours
    # Parts kept, the most recently used: each edit of the rulebook adds the parts it laid out again (a book is 26
    # parts, 1.7 MB), and nothing removed them (a thousand saves in serve left a few hundred MB). A part read is
    # touched, so the ones pruned are those no recent build used: some fifteen books' worth, every theme with room.
    KEEP = 400
    _NAME = re.compile(r"[0-9a-f]{64}\.laid")

    def __init__(self, folder: Path, user_packs=(), engine=None):
        self.folder = Path(folder)
        self._roots = [CONTENT_DIR, *[Path(p) for p in user_packs]]
        self._environment = None
        self._engine = engine or _native_versions  # () -> the engine's C libraries' versions (in a worker, if any)

    def _path(self, key: str) -> Path:
        import hashlib
        import json
        if self._environment is None:  # hashed once, when a book first asks
            from dungeonpress import manifest  # loaded when a book is laid out, not for --help
            described = json.dumps({"templates": manifest.tree_digest(TEMPLATES_DIR),
                                    "source": manifest.tree_digest(manifest.SOURCE_DIR), "versions": manifest.versions(),
                                    "engine": self._engine(),
                                    "media": manifest.media_digest(self._roots, self.TEXT)}, sort_keys=True)
            self._environment = hashlib.sha256(described.encode()).hexdigest()
        return self.folder / (hashlib.sha256(f"{self._environment}/{key}".encode()).hexdigest() + ".laid")

    def __contains__(self, key: str) -> bool:
        return self._path(key).is_file()

    def __getitem__(self, key: str):
        from dungeonpress import sealed
        from dungeonpress.paginate.book import LaidPart
        path = self._path(key)
        try:  # read as anything else is: sealed (no link out, no FIFO, a size limit)
            part = LaidPart.from_bytes(sealed.read_bytes(path, [self.folder], self.MAX_BYTES))
        except (sealed.Refused, OSError, ValueError, KeyError) as exc:
            raise KeyError(key) from exc
        try:
            os.utime(path)  # used now: the last to be pruned
        except OSError:
            pass
        return part

    def __setitem__(self, key: str, part) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        write_atomic(self._path(key), part.to_bytes(), durable=False)  # unsynced (atomic.py): from_bytes checks it
        records.prune(self.folder, self._NAME, self.KEEP)
