"""Key/value entries → the files of one LevelDB database folder (name → bytes), made with plyvel.

Foundry VTT v11 and later read compendium packs from LevelDB folders. plyvel (the maintained
LevelDB binding; its Linux x86_64 wheels carry LevelDB itself) writes the database into a private
scratch folder that is read back and removed, so callers get bytes like every other export.
"""

from __future__ import annotations

import os
import shutil
import tempfile

# LevelDB's info log holds clock times and thread ids; readers never need it, so it is left out
# (LevelDB makes a new one when it opens the folder) and the same entries give the same bytes.
# Empty files (LOCK, the write-ahead log after compaction) are left out too: LevelDB makes them on open.
_LEFT_OUT = frozenset({"LOG", "LOG.old"})


class Unavailable(Exception):
    """plyvel cannot be imported here (no wheel for this platform, or not installed)."""


def available() -> str | None:
    """None when LevelDB packs can be written here, else one line saying what is missing."""
    try:
        import plyvel  # noqa: F401  (only asked whether it loads)
    except ImportError as exc:
        return (f"the Python package plyvel is not installed or cannot load ({exc}); "
                "install it with `pip install plyvel` (wheels exist for Linux x86_64)")
    return None


def database_files(entries: list[tuple[str, bytes]]) -> dict[str, bytes]:
    """The files of a LevelDB database holding `entries` (utf-8 key, value bytes), compacted into one table.

    Raises Unavailable when plyvel cannot be imported. The same entries give the same bytes.
    """
    missing = available()
    if missing:
        raise Unavailable(missing)
    import plyvel

    scratch = tempfile.mkdtemp(prefix="dungeonpress-leveldb-")
    try:
        folder = os.path.join(scratch, "db")
        db = plyvel.DB(folder, create_if_missing=True, error_if_exists=True)
        try:
            with db.write_batch() as batch:
                for key, value in sorted(entries):  # sequence numbers follow the order put
                    batch.put(key.encode("utf-8"), value)
            db.compact_range()  # as the Foundry CLI does: one sorted table file, an empty log
        finally:
            db.close()
        files = {}
        for name in sorted(os.listdir(folder)):
            if name in _LEFT_OUT:
                continue
            with open(os.path.join(folder, name), "rb") as handle:
                data = handle.read()
            if data:
                files[name] = data
        return files
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
