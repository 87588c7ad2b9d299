"""Checked content models kept under a build folder between runs (`.cache/content`), keyed by every file read."""

from __future__ import annotations

import dataclasses
import os
import re
from pathlib import Path

from dungeonpress.cache import records
from dungeonpress.model import Content


CONTENT_CACHE = Path(".cache") / "content"  # under the build folder: checked content models kept between runs


class ContentCache:
    """Checked content models kept under a build folder, each under a key of everything it was read from.

    The key covers every file of every pack read (the manifest's tree digest, so one edited byte
    misses), where they are and the folder the command runs in (errors and notes name files relative
    to it), and the tool's code, Python and library versions. Files are plain data (model.plain: JSON
    that can only name the model's own classes, never code) behind a header with their key and a
    sha256 of the rest; a file that is not whole, not ours (another user's, a link) or made for
    another key is passed over. The last few are kept; only files named as this class names them
    are ever removed. In one process a model read is also kept in memory, decoded, which is what a warm
    worker reuses from roll to roll (decoding it took 25 ms, twice a roll): every caller gets it with a
    tables dict of its own, the one mutable thing in a model (everything else is frozen and tuples).
    """

    FORMAT = 1
    KEEP = 8  # models kept on disk (the built-in content, with and without a user's pack or two, ...)
    MAX_BYTES = 50_000_000  # the built-in content's model is about 0.5 MB
    _NAME = re.compile(r"[0-9a-f]{64}\.json")
    _memory: dict = {}  # key -> Held, the last few models read or made in this process

    def __init__(self, folder: Path | None):
        self.folder = Path(folder) if folder is not None else None  # None: this process's memory only

    @classmethod
    def holds_any(cls) -> bool:
        """Whether this process keeps any model in memory (a warm worker does; a one-off CLI run has not read one)."""
        return bool(cls._memory)

    @staticmethod
    def key(roots) -> str:
        import hashlib
        import json

        from dungeonpress import manifest
        described = {"format": ContentCache.FORMAT, "cwd": os.getcwd(), "code": _code_fingerprint(),
                     "packs": [[str(Path(root).resolve()), manifest.tree_digest(root)] for root in roots]}
        return hashlib.sha256(json.dumps(described, sort_keys=True).encode()).hexdigest()

    def _path(self, key: str) -> Path:
        return self.folder / f"{key}.json"

    def get(self, key: str) -> Content | None:
        """The model kept under `key`, or None (nothing kept, or a file that is not a whole one of ours)."""
        from dungeonpress.model import plain
        held = self._memory.get(key)
        if held is None:
            body = self._read(key)
            if body is None:
                return None
            try:
                content = plain.decode(body)
            except plain.NotPlain:
                return None
            if not isinstance(content, Content):
                return None
            held = Held(body, content)
        self._remember(key, held)
        return held.model()

    def _read(self, key: str) -> bytes | None:
        if self.folder is None:
            return None
        return records.read(self._path(key), self.folder, self.FORMAT, key, self.MAX_BYTES)

    def put(self, key: str, content: Content, *, write: bool = True) -> None:
        """Keep `content` under `key`: in memory, and on disk unless `write` is False."""
        from dungeonpress.model import plain
        try:
            body = plain.encode(content)
        except plain.NotPlain:
            return  # a model holding something the format does not know: read from the files every time
        self._remember(key, Held(body, content))
        if write:
            self.write(key, body)

    def write(self, key: str, body: bytes) -> None:
        """The encoded model on disk, atomically (a folder that cannot be written only means no cache)."""
        if self.folder is None:
            return
        try:
            records.write(self._path(key), self.FORMAT, key, body)
            self._prune()
        except OSError:
            pass

    def _remember(self, key: str, held: Held) -> None:
        memory = type(self)._memory
        memory.pop(key, None)
        memory[key] = held
        while len(memory) > 4:
            memory.pop(next(iter(memory)))

    def _prune(self) -> None:
        """Remove all but the KEEP newest models (only files named as this class names them)."""
        records.prune(self.folder, self._NAME, self.KEEP)


@dataclasses.dataclass(frozen=True)
class Held:
    """A model kept in this process's memory: encoded (what goes to disk) and decoded (what callers get)."""

    body: bytes
    content: Content

    def model(self) -> Content:
        """The model, its tables dict the caller's own: what one roll does to it never reaches the next."""
        return dataclasses.replace(self.content, tables=dict(self.content.tables))


def _code_fingerprint() -> dict:
    """What a checked model depends on besides the content: our code (the validator, the schemas) and versions.

    Read once a process: the code a process runs is the code it imported.
    """
    global _CODE
    if _CODE is None:
        from dungeonpress import manifest
        _CODE = {"source": manifest.tree_digest(manifest.SOURCE_DIR), "versions": manifest.versions()}
    return _CODE


_CODE: dict | None = None
