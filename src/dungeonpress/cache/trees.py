"""Each content YAML file's parsed, line-numbered tree kept under a build folder (`.cache/trees`), keyed by its text.

Composing YAML with line numbers is the slow part of reading content (PyYAML's composer in pure Python, about
30 µs a value); after one edit the checked model (cache.content) misses, but every file but the edited one is
the same, so its tree is read back here instead of composed again. A tree is keyed by the file's text, the
name errors show for it (relative to the working folder) and our code and library versions, so a tree read
back is exactly the one parse_yaml would give, locations included; a file that does not parse is never kept,
so its mistake is found, and shown as `file:line`, by parsing it. Files are stored as the content cache
stores models (a header with key and sha256, read sealed, only this user's files, the newest kept).
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from dungeonpress.cache import records
from dungeonpress.cache.content import _code_fingerprint
from dungeonpress.errors import Source

TREE_CACHE = Path(".cache") / "trees"  # under the build folder, beside .cache/content


class TreeCache:
    """parse(text, shown) as load.parse_yaml, answered from the folder when this very text was parsed before.

    With `keep=False` new trees wait in memory until keep() (a run that fails writes nothing); misses and
    hits are counted (`parsed`, `read_back`) so a caller can say what it did.
    """

    FORMAT = 1
    KEEP = 2_000  # trees kept on disk: the built-in content has about a hundred files
    MAX_BYTES = 50_000_000
    _NAME = re.compile(r"[0-9a-f]{64}\.json")
    _pending: dict = {}  # folder -> {key: body}, trees read with keep=False and not yet written

    def __init__(self, folder: Path, keep: bool = True):
        self.folder = Path(folder)
        self.write_now = keep
        self.parsed = 0
        self.read_back = 0

    def key(self, text: str, shown: str) -> str:
        described = {"format": self.FORMAT, "code": _code_fingerprint(), "shown": shown,
                     "text": hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()}
        return hashlib.sha256(json.dumps(described, sort_keys=True).encode()).hexdigest()

    def parse(self, text: str, shown: str):
        """The located tree of `text` (a file shown as `shown`); ContentError as load.parse_yaml raises it."""
        key = self.key(text, shown)
        body = self._read(key)
        if body is not None:
            try:
                tree = decode(json.loads(body), shown)
            except (ValueError, TypeError, IndexError, KeyError):
                tree = _MISS
            if tree is not _MISS:
                self.read_back += 1
                return tree
        from dungeonpress import load  # YAML is imported when content is read, not for --help
        tree = load.parse_yaml(text, shown)  # a ContentError propagates: a tree with a mistake is never kept
        self.parsed += 1
        body = json.dumps(encode(tree), ensure_ascii=False, separators=(",", ":")).encode()
        if self.write_now:
            self._write(key, body)
        else:
            self._pending.setdefault(self.folder, {})[key] = body
        return tree

    def keep(self) -> None:
        """Write the trees this process parsed into this folder with keep=False."""
        for key, body in self._pending.pop(self.folder, {}).items():
            self._write(key, body)

    def _path(self, key: str) -> Path:
        return self.folder / f"{key}.json"

    def _read(self, key: str) -> bytes | None:
        pending = self._pending.get(self.folder, {})
        if key in pending:
            return pending[key]
        return records.read(self._path(key), self.folder, self.FORMAT, key, self.MAX_BYTES)

    def _write(self, key: str, body: bytes) -> None:
        """One tree on disk, atomically (a folder that cannot be written only means no cache)."""
        try:
            records.write(self._path(key), self.FORMAT, key, body)
        except OSError:
            return
        self._written += 1
        if self._written % 50 == 0:
            self._prune()

    _written = 0

    def _prune(self) -> None:
        """Remove all but the KEEP newest trees (only files named as this class names them)."""
        records.prune(self.folder, self._NAME, self.KEEP)


_MISS = object()
_SCALARS = (str, int, float, bool, type(None))


def encode(tree):
    """A located tree as JSON values: a mapping ["d", line, key, key line, value, ...], a list ["l", line,
    item line, item, ...]; scalars as they are (a JSON array is never a scalar of ours)."""
    from dungeonpress import load
    return _encode(tree, load.LocatedDict, load.LocatedList)


def _encode(tree, mapping, sequence):
    if isinstance(tree, mapping):
        out = ["d", tree.source.line]
        for key, value in tree.items():
            out += [key, tree.key_sources[key].line, _encode(value, mapping, sequence)]
        return out
    if isinstance(tree, sequence):
        out = ["l", tree.source.line]
        for value, where in zip(tree, tree.item_sources):
            out += [where.line, _encode(value, mapping, sequence)]
        return out
    if not isinstance(tree, _SCALARS):
        raise TypeError(f"not a value parse_yaml gives: {type(tree).__name__}")
    return tree


def decode(value, shown: str):
    """The located tree `encode` was given, its locations in the file shown as `shown`."""
    from dungeonpress import load
    return _decode(value, shown, load.LocatedDict, load.LocatedList)


def _decode(value, shown, mapping, sequence):
    if not isinstance(value, list):
        if not isinstance(value, _SCALARS):
            raise TypeError("not a scalar")
        return value
    kind, line, rest = value[0], value[1], value[2:]
    if kind == "d":
        out = mapping()
        out.source, out.key_sources = Source(shown, line), {}
        for at in range(0, len(rest), 3):
            key = rest[at]
            if isinstance(key, list):
                raise TypeError("a mapping key is a plain value")
            out[key] = _decode(rest[at + 2], shown, mapping, sequence)
            out.key_sources[key] = Source(shown, rest[at + 1])
        return out
    if kind == "l":
        out = sequence()
        out.source, out.item_sources = Source(shown, line), []
        for at in range(0, len(rest), 2):
            out.item_sources.append(Source(shown, rest[at]))
            out.append(_decode(rest[at + 1], shown, mapping, sequence))
        return out
    raise ValueError(f"not a tree: {kind!r}")
