"""One file written whole or not at all (atomic): the old bytes stay until the new ones are whole, no temp left."""

from __future__ import annotations

import os

import pytest

from dungeonpress import atomic


def test_a_file_is_replaced_whole_with_the_permissions_asked(tmp_path):
    target = tmp_path / "kept.json"
    target.write_bytes(b"old")
    atomic.write_atomic(target, b"new", mode=0o600)
    assert target.read_bytes() == b"new"
    assert target.stat().st_mode & 0o777 == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kept.json"]


def test_a_write_that_fails_leaves_the_old_file_and_no_temp(tmp_path, monkeypatch):
    target = tmp_path / "kept.json"
    target.write_bytes(b"old")

    def full(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(atomic.os, "fsync", full)
    with pytest.raises(OSError):
        atomic.write_atomic(target, b"new")
    assert target.read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kept.json"]


def test_an_output_gets_the_umasks_permissions(tmp_path):
    temp = atomic.write_temp(tmp_path / "out.pdf", b"%PDF-")
    assert os.stat(temp).st_mode & 0o777 == 0o666 & ~atomic.current_umask()
    assert os.path.basename(temp).startswith(".out.pdf.dp-")


def test_outputs_are_synced_and_cache_files_are_not(tmp_path, monkeypatch):
    synced = []
    monkeypatch.setattr(atomic.os, "fsync", lambda fd: synced.append(fd))
    atomic.write_atomic(tmp_path / "book.pdf", b"%PDF")
    assert len(synced) == 2  # the file, then its folder
    synced.clear()
    atomic.write_atomic(tmp_path / "part.laid", b"kept", durable=False)
    assert synced == [] and (tmp_path / "part.laid").read_bytes() == b"kept"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["book.pdf", "part.laid"]  # no temp file left
