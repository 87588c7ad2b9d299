"""Write one file so that a reader sees the old bytes or the new ones, never half: temp file, fsync, rename.

Outputs are written durably (synced before and after the rename, so a crash right after a build keeps them). A cache
file need not outlive a crash, only never be read half: it is renamed into place unsynced, and its reader checks it
whole (a sha256 or a full parse) and makes it again if not. Syncing each took about 4 ms, 66 times a cold rulebook."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_atomic(target: Path, data: bytes, *, mode: int | None = None, durable: bool = True) -> None:
    """One file: temp file beside it, fsync, rename over the old one, fsync the folder (`mode`: its permissions;
    not `durable`: a cache file, neither synced)."""
    temp = write_temp(target, data, mode=mode, durable=durable)
    try:
        os.replace(temp, target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    if durable:
        _fsync_folder(target.parent)


def write_temp(target: Path, data: bytes, *, mode: int | None = None, durable: bool = True) -> str:
    """`data` in a new temp file beside `target` (named so remove_stale_temps knows it), fsynced if `durable`; its
    path."""
    fd, temp = tempfile.mkstemp(dir=target.parent, prefix=_temp_prefix(target) + f"{os.getpid()}-", suffix=".part")
    try:
        # mkstemp makes 0600; outputs are ordinary files
        os.fchmod(fd, 0o666 & ~current_umask() if mode is None else mode)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            if durable:
                os.fsync(handle.fileno())
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    return temp


def _fsync_folder(folder: Path) -> None:
    handle = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(handle)
    finally:
        os.close(handle)


def current_umask() -> int:
    """The process's umask (reading it means setting it: it is put straight back)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _temp_prefix(target: Path) -> str:
    """Our temp files for `target` are `.NAME.dp-PID-RANDOM.part` beside it: nothing else is ever removed."""
    return f".{target.name}.dp-"
