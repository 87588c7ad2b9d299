"""The one rule for reading a file someone else wrote: (path, roots, limit) → bytes, or Refused saying why.

Content packs come from strangers. A pack may hold symlinks to /etc, FIFOs that block for
ever or a link to /dev/zero; both the loader and the PDF renderer's fetcher use this module,
so a file is read only when its real path lies inside a root, it is a regular file, and it
is no larger than the limit (at most limit + 1 bytes are ever read to find out).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from dungeonpress.errors import display_path


class Refused(Exception):
    """A file that may not be read; the message says why (naming a link and its target)."""


def resolved_roots(roots) -> tuple[Path, ...]:
    return tuple(Path(root).resolve() for root in roots)


def outside_problem(path: Path, roots) -> str | None:
    """Why `path` is not inside one of `roots` once links and `..` are resolved, or None when it is."""
    real = Path(path).resolve()
    if any(real.is_relative_to(root) for root in resolved_roots(roots)):
        return None
    link = _escaping_link(Path(path))
    if link is not None:
        return f"{display_path(link)} is a link to {os.readlink(link)}, outside the pack"
    return f"{display_path(real)} is outside the pack"


def _escaping_link(path: Path) -> Path | None:
    """The first component of `path` that is a symbolic link, if any (the one that leads out)."""
    current = Path(path.anchor) if path.is_absolute() else Path()
    for part in path.parts[1:] if path.is_absolute() else path.parts:
        current = current / part
        if current.is_symlink():
            return current
    return None


def read_bytes(path: Path, roots, limit: int) -> bytes:
    """The bytes of `path` if it is a regular file of at most `limit` bytes inside `roots`; else Refused.

    Opened with O_NONBLOCK so a FIFO or device never blocks the open, checked with fstat on the
    open descriptor (so a file swapped after the check is still caught), read in bounded chunks.
    """
    problem = outside_problem(path, roots)
    if problem:
        raise Refused(problem)
    real = Path(path).resolve()
    try:
        fd = os.open(real, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise Refused("no such file") from None
    except OSError as exc:
        raise Refused(f"cannot open ({exc.strerror})") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise Refused("not a regular file" + (" (a folder)" if stat.S_ISDIR(info.st_mode) else ""))
        if info.st_size > limit:
            raise Refused(f"{info.st_size} bytes, larger than {limit}")
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:  # the file grew after fstat
            raise Refused(f"more than {limit} bytes")
        return b"".join(chunks)
    finally:
        os.close(fd)


def folder_problem(folder: Path, roots) -> str | None:
    """Why a folder may not be listed (it leads outside `roots`, or is not a folder), or None."""
    problem = outside_problem(folder, roots)
    if problem:
        return problem
    if not Path(folder).resolve().is_dir():
        return "not a folder"
    return None
