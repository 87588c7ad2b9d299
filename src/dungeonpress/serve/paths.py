"""URL path + build folder → a file inside the build folder, or a refusal (403 outside, 404 missing)."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote


class Refused(Exception):
    def __init__(self, status: int, reason: str):
        super().__init__(reason)
        self.status = status


def inside(root: Path, url_path: str) -> Path:
    """The file `url_path` (still %-encoded, relative to `root`) names, if it is really under `root`.

    The path is decoded exactly once (so `%252e%252e` stays the literal name `%2e%2e`), then `..`,
    absolute paths, backslashes and NUL are refused before touching the disk, and the resolved path
    (symlinks followed) must still be under the resolved root.
    """
    rel = unquote(url_path, errors="strict")
    if "\x00" in rel or "\\" in rel:
        raise Refused(404, "bad path")
    parts = rel.split("/")
    if rel.startswith("/") or ".." in parts or (parts and ":" in parts[0]):
        raise Refused(403, "outside the build folder")
    base = root.resolve()
    candidate = (base / rel).resolve()
    if not candidate.is_relative_to(base):
        raise Refused(403, "outside the build folder")
    if not candidate.is_file():
        raise Refused(404, "no such file")
    return candidate


def shown(path: Path) -> str:
    """A path as the page shows it: relative to the working directory when under it, else absolute."""
    try:
        return Path(path).resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return str(Path(path).resolve())
