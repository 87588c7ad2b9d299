"""Checked content models kept under the build folder (cache.content): the key, files not whole or not ours, pruning."""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path

import pytest

from dungeonpress import build
from dungeonpress.cache import content as content_cache
from dungeonpress.cache.content import ContentCache
from tests.test_build import _forget_memory, user_pack  # noqa: F401  (a fixture)

CONTENT_DIR = build.CONTENT_DIR


def test_the_key_covers_versions_the_working_folder_and_the_packs(user_pack, tmp_path, monkeypatch):
    key = ContentCache.key([CONTENT_DIR, user_pack])
    assert ContentCache.key([CONTENT_DIR]) != key
    (user_pack / "notes.txt").write_text("any file of a pack counts")
    assert ContentCache.key([CONTENT_DIR, user_pack]) != key
    (user_pack / "notes.txt").unlink()
    assert ContentCache.key([CONTENT_DIR, user_pack]) == key
    monkeypatch.setattr(content_cache, "_CODE", {**content_cache._code_fingerprint(), "versions": {"weasyprint": "0"}})
    assert ContentCache.key([CONTENT_DIR, user_pack]) != key
    monkeypatch.setattr(content_cache, "_CODE", None)
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")  # errors would name the files differently
    assert ContentCache.key([CONTENT_DIR, user_pack]) != key


def _kept(cache: Path) -> Path:
    (path,) = cache.iterdir()
    return path


@pytest.mark.parametrize("spoil", ["truncated", "byte flipped", "other key", "not json", "empty",
                                   "group writable", "a link", "a foreign class", "a model of another shape"])
@pytest.mark.slow
def test_a_file_that_is_not_a_whole_one_of_ours_is_passed_over(spoil, content, tmp_path, monkeypatch):
    monkeypatch.setattr(ContentCache, "_memory", {})
    store, key = ContentCache(tmp_path / "cache"), "1" * 64
    store.put(key, content)
    _forget_memory(monkeypatch)
    assert store.get(key) == content  # whole, it is read back
    _forget_memory(monkeypatch)
    path = _kept(tmp_path / "cache")
    data = path.read_bytes()
    header, _, body = data.partition(b"\n")

    def signed(new_body: bytes) -> bytes:  # a forged file with a header that fits it: only the decoder stops it
        import hashlib
        head = json.loads(header) | {"sha256": hashlib.sha256(new_body).hexdigest()}
        return json.dumps(head, sort_keys=True).encode() + b"\n" + new_body

    if spoil == "truncated":
        path.write_bytes(data[: len(data) // 2])
    elif spoil == "byte flipped":
        at = len(header) + 100
        path.write_bytes(data[:at] + bytes([data[at] ^ 1]) + data[at + 1:])
    elif spoil == "other key":
        path.write_bytes(json.dumps(json.loads(header) | {"key": "0" * 64}, sort_keys=True).encode() + b"\n" + body)
    elif spoil == "not json":
        path.write_bytes(b"\x80\x04\x95 a pickle, say")
    elif spoil == "empty":
        path.write_bytes(b"")
    elif spoil == "group writable":
        os.chmod(path, 0o664)
    elif spoil == "a link":
        real = tmp_path / "real.json"
        path.rename(real)
        path.symlink_to(real)
    elif spoil == "a foreign class":
        path.write_bytes(signed(b'{"c":"PosixPath","f":["/etc/passwd"]}'))
    elif spoil == "a model of another shape":
        path.write_bytes(signed(body.replace(b'{"c":"Row","f":[', b'{"c":"Row","f":[0,', 1)))
    assert store.get(key) is None  # so the content files are read again


def test_only_the_newest_models_are_kept_and_nothing_else_is_touched(content, tmp_path, monkeypatch):
    monkeypatch.setattr(ContentCache, "_memory", {})
    cache = tmp_path / "cache"
    cache.mkdir()
    theirs = [cache / "notes.txt", cache / ("f" * 64 + ".json.bak"), cache / ("A" * 64 + ".json")]
    for path in theirs:
        path.write_text("not ours")
    old = []
    for n in range(ContentCache.KEEP + 3):
        path = cache / f"{n:064x}.json"
        path.write_text("an old model")
        os.utime(path, ns=(n * 10**9, n * 10**9))
        old.append(path)
    ContentCache(cache).put("e" * 64, content)
    left = sorted(p.name for p in cache.iterdir())
    assert all(p.name in left for p in theirs)
    models = [name for name in left if name not in {p.name for p in theirs}]
    assert len(models) == ContentCache.KEEP
    assert all(p.name in models for p in old[-(ContentCache.KEEP - 1):])  # the newest old ones, and the new one


def test_a_folder_that_cannot_be_written_only_means_no_cache(content, tmp_path, monkeypatch):
    monkeypatch.setattr(ContentCache, "_memory", {})
    (tmp_path / "file").write_text("in the way")
    store = ContentCache(tmp_path / "file" / "content")
    store.put("2" * 64, content)  # no error
    _forget_memory(monkeypatch)
    assert store.get("2" * 64) is None


def _mutable_parts(value, path: str = "content") -> list:
    """Where a model holds something a caller could change in place (lists, dicts, sets), by field path."""
    if dataclasses.is_dataclass(value):
        return [found for f in dataclasses.fields(value) for found in _mutable_parts(getattr(value, f.name),
                                                                                     f"{path}.{f.name}")]
    if isinstance(value, (list, dict, set, bytearray)):
        inner = value.values() if isinstance(value, dict) else value
        return [path, *(found for item in inner for found in _mutable_parts(item, f"{path}[]"))]
    if isinstance(value, tuple):
        return [found for item in value for found in _mutable_parts(item, f"{path}[]")]
    return []


def test_a_model_held_in_memory_is_decoded_once_and_each_caller_gets_tables_of_its_own(content, monkeypatch):
    from dungeonpress.model import plain
    monkeypatch.setattr(ContentCache, "_memory", {})
    store = ContentCache(None)
    store.put("3" * 64, content)
    decoded = []
    monkeypatch.setattr(plain, "decode", lambda body: decoded.append(body))
    first, second = store.get("3" * 64), store.get("3" * 64)
    assert decoded == [] and first == content and second == content
    # Sharing the decoded model is safe because its tables dict is the only thing in it that can change in place:
    # a list or dict added to the model must be copied here too (Held.model).
    assert _mutable_parts(first) == ["content.tables"]
    first.tables.pop(next(iter(first.tables)))
    assert second.tables == content.tables and store.get("3" * 64).tables == content.tables
