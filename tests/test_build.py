"""build: a run's non-default choices in every file name, so runs never overwrite each other; the part cache keeps
laid-out book parts between runs, apart for anything else they depend on."""

from __future__ import annotations

from pathlib import Path

import pytest

from dungeonpress import build
from dungeonpress.paginate.book import LaidPart
from dungeonpress.products.common import BuildContext
from tests.conftest import run_cli as run


def _ctx(theme="standard", packs=""):
    return BuildContext(content=None, templates_dir=Path("."), roots=(), theme=theme, packs_label=packs)


@pytest.mark.parametrize("theme, packs, name, expected", [
    ("standard", "", "dungeon-1-zine-a4.pdf", "dungeon-1-zine-a4.pdf"),
    ("large-print", "", "dungeon-1-zine-a4.pdf", "dungeon-1-zine-a4-large-print.pdf"),
    ("large-print", "", "dungeon-1.json", "dungeon-1.json"),  # a look changes no data
    ("standard", "mypack", "dungeon-1.json", "dungeon-1-mypack.json"),
    ("ink-saver", "mypack", "tables.pdf", "tables-ink-saver-mypack.pdf"),
    ("standard", "mypack", "exports/json/traps.json", "exports-mypack/json/traps.json"),
    ("high-contrast", "", "exports/csv/traps.csv", "exports/csv/traps.csv"),
])
def test_a_file_name_carries_the_runs_non_default_choices(theme, packs, name, expected):
    assert _ctx(theme, packs).named(name) == expected


@pytest.mark.parametrize("packs, label", [
    ([], ""), (["packs/My Pack"], "my-pack"), (["a", "b/"], "a-b"), (["../..."], "pack"),
    (["x" * 80], "x" * 40),
])
def test_packs_label_is_safe_in_any_file_name(packs, label, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert build.packs_label(packs) == label


@pytest.mark.slow  # lays the oracle card out twice, in two themes
def test_a_large_print_run_keeps_the_standard_oracle_card(tmp_path):
    out = tmp_path / "out"
    assert run("oracle", "--out", str(out), "--quiet")[0] == 0
    standard = (out / "oracle-card.pdf").read_bytes()
    assert run("oracle", "--theme", "large-print", "--out", str(out), "--quiet")[0] == 0
    assert sorted(p.name for p in out.glob("*.pdf")) == ["oracle-card-large-print.pdf", "oracle-card.pdf"]
    assert (out / "oracle-card.pdf").read_bytes() == standard


PART = LaidPart("chapter 2", 9, b"%PDF-1.7 pretend", 3, {"c2-intro": 0, "c2-end": 2}, ("a warning",), ("c1-intro",))


def test_a_laid_part_survives_the_disk_as_it_was():
    assert LaidPart.from_bytes(PART.to_bytes()) == PART
    assert PART.to_bytes().startswith(b'{"anchor_pages": {"c2-end": 2, "c2-intro": 0}')  # JSON, not pickle: nothing runs


def test_the_cache_keeps_parts_under_the_build_folder_by_key(content, tmp_path):
    cache = build.context_for(content, out_dir=tmp_path, keep_parts=True).part_cache
    assert "key" not in cache
    cache["key"] = PART
    assert "key" in cache and cache["key"] == PART
    files = list((tmp_path / build.PART_CACHE).iterdir())
    assert [f.suffix for f in files] == [".laid"]
    assert build.context_for(content, out_dir=tmp_path).part_cache is None  # only the CLI keeps parts


def test_a_pack_with_other_images_never_reads_a_part_laid_without_them(tmp_path):
    cache = build.PartCache(tmp_path / "parts")
    cache["key"] = PART
    pack = tmp_path / "pack"
    (pack / "tables").mkdir(parents=True)
    (pack / "tables" / "mood.yaml").write_text("id: mood\n")
    assert "key" in build.PartCache(tmp_path / "parts", [pack])  # its words reach a part through the HTML
    (pack / "map.png").write_bytes(b"\x89PNG pretend")
    assert "key" not in build.PartCache(tmp_path / "parts", [pack])  # an image does not


def test_an_unreadable_part_is_a_miss(tmp_path):
    cache = build.PartCache(tmp_path)
    cache["key"] = PART
    next(tmp_path.iterdir()).write_bytes(b"not json\n")
    try:
        cache["key"]
    except KeyError:
        pass
    else:
        raise AssertionError("a damaged part was read")
