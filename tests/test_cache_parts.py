"""Laid-out book parts kept under the build folder (cache.parts): by key, with everything else they depend on."""

from __future__ import annotations

import pytest

from dungeonpress import build
from dungeonpress.cache.parts import PART_CACHE, PartCache
from dungeonpress.paginate.book import LaidPart


PART = LaidPart("chapter 2", b"%PDF-1.7 pretend", 3, {"c2-intro": 0, "c2-end": 2}, ("a warning",), ("c1-intro",),
                page_names=("", "", None), before=2)


def test_a_laid_part_survives_the_disk_as_it_was():
    assert LaidPart.from_bytes(PART.to_bytes()) == PART
    assert PART.to_bytes().startswith(b'{"anchor_pages": {"c2-end": 2, "c2-intro": 0}')  # JSON, not pickle: nothing runs


@pytest.mark.slow
def test_the_cache_keeps_parts_under_the_build_folder_by_key(content, tmp_path):
    cache = build.context_for(content, out_dir=tmp_path, keep_parts=True).part_cache
    assert "key" not in cache
    cache["key"] = PART
    assert "key" in cache and cache["key"] == PART
    files = list((tmp_path / PART_CACHE).iterdir())
    assert [f.suffix for f in files] == [".laid"]
    assert build.context_for(content, out_dir=tmp_path).part_cache is None  # only the CLI keeps parts


def test_a_pack_with_other_images_never_reads_a_part_laid_without_them(tmp_path):
    cache = PartCache(tmp_path / "parts")
    cache["key"] = PART
    pack = tmp_path / "pack"
    (pack / "tables").mkdir(parents=True)
    (pack / "tables" / "mood.yaml").write_text("id: mood\n")
    assert "key" in PartCache(tmp_path / "parts", [pack])  # its words reach a part through the HTML
    (pack / "map.png").write_bytes(b"\x89PNG pretend")
    assert "key" not in PartCache(tmp_path / "parts", [pack])  # an image does not


def test_an_unreadable_part_is_a_miss(tmp_path):
    cache = PartCache(tmp_path)
    cache["key"] = PART
    next(tmp_path.iterdir()).write_bytes(b"not json\n")
    try:
        cache["key"]
    except KeyError:
        pass
    else:
        raise AssertionError("a damaged part was read")


def test_a_part_cut_short_is_a_miss_not_half_a_chapter(tmp_path):
    # Cache files are renamed into place unsynced (atomic.py): after a crash one may hold less than was written.
    cache = PartCache(tmp_path)
    cache["key"] = PART
    kept = next(tmp_path.iterdir())
    kept.write_bytes(kept.read_bytes()[:-3])
    with pytest.raises(KeyError):
        cache["key"]


def test_the_cache_keeps_the_parts_used_last_and_removes_only_its_own_files(tmp_path, monkeypatch):
    import os
    monkeypatch.setattr(PartCache, "KEEP", 3)
    cache = PartCache(tmp_path)
    (tmp_path / "notes.txt").write_text("a user's file")
    for n, key in enumerate("abc", start=1):
        cache[key] = PART
        os.utime(cache._path(key), ns=(10**9 * n, 10**9 * n))  # written a second apart: a first
    assert cache["a"] == PART  # read: now the most recently used
    cache["d"] = PART  # a fourth: the least recently used one goes
    assert ["a" in cache, "b" in cache, "c" in cache, "d" in cache] == [True, False, True, True]
    assert (tmp_path / "notes.txt").read_text() == "a user's file" and len(list(tmp_path.glob("*.laid"))) == 3
