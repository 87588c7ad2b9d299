"""One cache file: a JSON header line naming its format, its key and the sha256 of the body that follows.

The content cache and the YAML tree cache keep their files this way, so both pass over the same
things: a file that is not whole, not ours (another user's, a link, one others may write) or made
for another key or format.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from dungeonpress.atomic import write_atomic


def read(path: Path, folder: Path, fmt: int, key: str, max_bytes: int) -> bytes | None:
    """The body kept at `path` for `key`, or None for a missing, foreign, damaged or other-key file."""
    from dungeonpress import sealed
    try:
        if path.is_symlink() or not ours(path.stat()):
            return None
        data = sealed.read_bytes(path, [folder], max_bytes)
    except (OSError, sealed.Refused):
        return None
    header, _, body = data.partition(b"\n")
    try:
        head = json.loads(header)
    except ValueError:
        return None
    return body if head == _header(fmt, key, body) else None


def write(path: Path, fmt: int, key: str, body: bytes) -> None:
    """`body` under its header, atomically, readable by this user only (raises OSError as mkdir and write do)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    header = json.dumps(_header(fmt, key, body), sort_keys=True).encode()
    write_atomic(path, header + b"\n" + body, mode=0o600, durable=False)  # read() checks the body's sha256


def prune(folder: Path, name, keep: int) -> None:
    """Remove all but the `keep` newest files of `folder` whose names fully match `name` (a compiled
    pattern): only plain files a cache of this tool named, never a link or anything else found there."""
    kept = []
    for entry in os.listdir(folder):
        path = folder / entry
        if name.fullmatch(entry) and path.is_file() and not path.is_symlink():
            kept.append((path.stat().st_mtime_ns, entry))
    for _, entry in sorted(kept, reverse=True)[keep:]:
        (folder / entry).unlink(missing_ok=True)


def ours(stat) -> bool:
    """A file this user made and no one else may change (another user's file in a shared folder is not read)."""
    if not hasattr(os, "getuid"):
        return True
    return stat.st_uid == os.getuid() and not stat.st_mode & 0o022


def _header(fmt: int, key: str, body: bytes) -> dict:
    return {"format": fmt, "key": key, "sha256": hashlib.sha256(body).hexdigest()}
