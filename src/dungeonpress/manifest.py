"""Input fingerprints and build/manifest.json: (files, versions, options, seed) → a hash per item; what each item wrote."""

from __future__ import annotations

import hashlib
import json
import os
import platform
from importlib import metadata
from pathlib import Path

# Deliberately light: this module runs before anything is built, so it reads raw file bytes and
# package metadata, and never imports YAML, Jinja2, WeasyPrint or pikepdf.

NAME = "manifest.json"
LIBRARIES = ("weasyprint", "pydyf", "tinycss2", "cssselect2", "fonttools", "jinja2", "markdown-it-py", "pyyaml",
             "pikepdf", "pypdf")
SOURCE_DIR = Path(__file__).resolve().parent
_SKIP_DIRS = {"__pycache__", ".git"}


def versions() -> dict:
    """The tool, Python and every library that shapes the bytes of an output (from metadata; nothing imported)."""
    from dungeonpress import __version__
    found = {"dungeonpress": __version__, "python": platform.python_version()}
    for name in LIBRARIES:
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            found[name] = None
    return found


def tree_digest(root: Path) -> str:
    """sha256 over every file below `root`: relative path and raw bytes, in a fixed order (symlinks by target text)."""
    digest = hashlib.sha256()
    root = Path(root)
    if not root.exists():
        digest.update(b"missing")
        return digest.hexdigest()
    if root.is_file():
        digest.update(root.read_bytes())
        return digest.hexdigest()
    _add_files(digest, root, lambda name: not (name.endswith((".pyc", ".part")) or name.startswith(".#")))
    return digest.hexdigest()


def _add_files(digest, root: Path, keep) -> None:
    """Every file below `root` whose name `keep` accepts, into `digest`: relative path and raw bytes, in a fixed order."""
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in _SKIP_DIRS)
        for name in sorted(files):
            if not keep(name):
                continue
            path = Path(folder) / name
            digest.update(path.relative_to(root).as_posix().encode() + b"\0")
            # Never follow a link out (or block on a FIFO): a link counts by where it points.
            digest.update(os.readlink(path).encode() if path.is_symlink() else
                          path.read_bytes() if path.is_file() else b"special")
            digest.update(b"\0")


def media_digest(roots, text_suffixes: tuple) -> str:
    """sha256 over the files below `roots` that are not text (`text_suffixes`): the images a book shows.

    What a laid-out book part depends on besides its HTML, which already holds every word of the text files.
    """
    digest = hashlib.sha256()
    for root in map(Path, roots):
        if root.is_dir():
            _add_files(digest, root, lambda name: Path(name).suffix not in text_suffixes)
    return digest.hexdigest()


class Fingerprints:
    """Digests of the inputs, each folder hashed once per run however many items read it."""

    def __init__(self, content_dir: Path, templates_dir: Path, user_packs=()):
        self.content_dir = Path(content_dir)
        self.templates_dir = Path(templates_dir)
        self.user_packs = [Path(p) for p in user_packs]
        self._cache: dict = {}

    def _tree(self, path: Path) -> str:
        if path not in self._cache:
            self._cache[path] = tree_digest(path)
        return self._cache[path]

    def packs(self) -> list[str]:
        return sorted(p.name for p in self.content_dir.iterdir() if p.is_dir()) if self.content_dir.is_dir() else []

    def common(self) -> dict:
        """What every item reads: templates (with CSS and fonts), user packs, our own code, library versions."""
        if "common" not in self._cache:
            self._cache["common"] = {
                "templates": self._tree(self.templates_dir),
                "user packs": [self._tree(p) for p in self.user_packs],
                "source": self._tree(SOURCE_DIR),
                "versions": versions(),
            }
        return self._cache["common"]

    def inputs(self, reads: tuple | None) -> dict:
        """Digest of the built-in packs an item reads (None: all of them) plus the common inputs."""
        names = self.packs() if reads is None else sorted(set(reads) & set(self.packs()))
        # The list of packs counts too: a new pack may replace a table another pack defines.
        return {"packs": {name: self._tree(self.content_dir / name) for name in names},
                "pack list": self.packs(), **self.common()}


def item_key(label: str, command: str, options: dict, seed, settings: dict, inputs: dict) -> str:
    """One hash of everything an item's outputs depend on."""
    text = json.dumps({"label": label, "command": command, "options": options, "seed": seed,
                       "settings": settings, "inputs": inputs}, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def read(out_dir: Path) -> dict:
    """The manifest of the last build in `out_dir` ({} when there is none or it cannot be read)."""
    try:
        data = json.loads((Path(out_dir) / NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) and isinstance(data.get("items"), dict) else {}


def up_to_date(entry: dict | None, key: str, out_dir: Path) -> bool:
    """True when the last build of this item had the same inputs, succeeded, and its outputs are still there."""
    if not entry or entry.get("inputs") != key or entry.get("status") != "built":
        return False
    for output in entry.get("outputs", []):
        try:
            if (Path(out_dir) / output["name"]).stat().st_size != output["bytes"]:
                return False
        except (OSError, KeyError, TypeError):
            return False
    return True


def entry(*, key: str, command: str, options: dict, seed, status: str, outputs=(), error: str = "",
          seconds: float = 0.0, peak_mib: float = 0.0, worker: int = 0, native=None) -> dict:
    """One item's record: its inputs' hash, seed, versions, each output's sha256 and size, status."""
    return {"inputs": key, "command": command, "options": options, "seed": seed, "status": status,
            "versions": versions() | dict(native or {}),
            "outputs": [{"name": o.name, "bytes": len(o.data), "sha256": hashlib.sha256(o.data).hexdigest()}
                        for o in outputs],
            "error": error, "seconds": round(seconds, 2), "worker": worker, "worker_peak_mib": peak_mib}


def encode(items: dict) -> bytes:
    return (json.dumps({"format": 1, "items": items}, indent=1, sort_keys=True) + "\n").encode()
