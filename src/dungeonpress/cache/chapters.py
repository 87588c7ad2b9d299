"""Books' chapters rendered to HTML kept under a build folder between runs (`.cache/chapters`), keyed by what they read."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from dungeonpress import resources
from dungeonpress.atomic import write_atomic

CONTENT_DIR = resources.data_dir("content")
TEMPLATES_DIR = resources.data_dir("templates")

CHAPTER_CACHE = Path(".cache") / "chapters"  # under the build folder, beside .cache/parts


class ChapterCache:
    """A chapter's HTML and headings (plain text, as JSON) by a key of what the chapter reads.

    The caller's key says the chapter's own inputs (its text, where it is, and the content its directives name);
    the file name adds what every chapter depends on: the templates, our code, library versions and the
    content's other files (images a chapter shows). Editing a table then renders only the chapters that print it.
    A file that cannot be read back whole is a miss. Files are written atomically.
    """

    FORMAT = 1
    TEXT = (".yaml", ".yml", ".md")  # content whose words reach a chapter only through its inputs
    MAX_BYTES = 20_000_000  # a chapter is tens of kB; more is not one of ours

    def __init__(self, folder: Path, user_packs=()):
        self.folder = Path(folder)
        self._roots = [CONTENT_DIR, *[Path(p) for p in user_packs]]
        self._environment = None

    def _path(self, key: str) -> Path:
        if self._environment is None:  # hashed once, when a book first asks
            from dungeonpress import manifest  # loaded when a book is made, not for --help
            described = json.dumps({"format": self.FORMAT, "templates": manifest.tree_digest(TEMPLATES_DIR),
                                    "source": manifest.tree_digest(manifest.SOURCE_DIR),
                                    "versions": manifest.versions(),
                                    "media": manifest.media_digest(self._roots, self.TEXT)}, sort_keys=True)
            self._environment = hashlib.sha256(described.encode()).hexdigest()
        return self.folder / (hashlib.sha256(f"{self._environment}/{key}".encode()).hexdigest() + ".json")

    def get(self, key: str):
        """(html, [[level, heading html, anchor], …]) kept under `key`, or None."""
        from dungeonpress import sealed
        try:  # read as anything else is: sealed (no link out, no FIFO, a size limit)
            kept = json.loads(sealed.read_bytes(self._path(key), [self.folder], self.MAX_BYTES))
            html, headings = kept["html"], kept["headings"]
            if not isinstance(html, str) or not all(isinstance(level, int) and isinstance(text, str)
                                                    and isinstance(anchor, str) for level, text, anchor in headings):
                return None
            return html, headings
        except (sealed.Refused, OSError, ValueError, KeyError, TypeError):
            return None

    def put(self, key: str, html: str, headings: list) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        body = {"html": str(html), "headings": [[level, str(text), anchor] for level, text, anchor in headings]}
        # unsynced (atomic.py): a file not whole is no JSON, and get() makes it again
        write_atomic(self._path(key), json.dumps(body, sort_keys=True).encode(), durable=False)
