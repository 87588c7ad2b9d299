"""build: a run's non-default choices in every file name, so runs never overwrite each other; the part cache keeps
laid-out book parts between runs, apart for anything else they depend on."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from dungeonpress import build, load, manifest
from dungeonpress.errors import ContentErrors
from dungeonpress.model import Content
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


# --- The content cache: the checked model kept under build/.cache/content (hits, misses, edits that give
# file:line, files that are not whole or not ours)

_SMALL_PACK = Path(__file__).parent / "fixtures" / "small_pack"


@pytest.fixture
def user_pack(tmp_path, monkeypatch):
    """A user pack of our own (a copy of the small fixture pack) in a fresh working folder, and no model in memory."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(build.ContentCache, "_memory", {})
    folder = tmp_path / "mine"
    shutil.copytree(_SMALL_PACK, folder)
    return folder


@pytest.fixture
def content_reads(monkeypatch):
    """How many times the content files were read (load.load_content called), from here on."""
    count = []
    real = load.load_content

    def counted(folders, parse=None):
        count.append(list(folders))
        return real(folders, parse)

    monkeypatch.setattr(load, "load_content", counted)
    return count


def _forget_memory(monkeypatch):
    monkeypatch.setattr(build.ContentCache, "_memory", {})


def _sources(content: Content) -> list:
    """Every location the model keeps (they are left out of its == comparison)."""
    return [(t.source, [r.source for r in t.rows]) for t in content.tables.values()] + \
        [(c.source, c.listed_at) for c in (content.book.chapters if content.book else ())]


def test_a_second_process_reads_the_model_back_instead_of_the_files(user_pack, content_reads, tmp_path, monkeypatch):
    cache = tmp_path / "build" / build.CONTENT_CACHE
    first = build.load_content([user_pack], cache)
    assert len(content_reads) == 2  # the built-in packs, then the user's
    assert [p.name for p in cache.iterdir()] == [f"{build.ContentCache.key([build.CONTENT_DIR, user_pack])}.json"]
    _forget_memory(monkeypatch)  # as a new process would start
    second = build.load_content([user_pack], cache)
    assert len(content_reads) == 2  # nothing read again
    assert second == first and _sources(second) == _sources(first)
    assert second is not first and second.tables is not first.tables  # each caller gets objects of its own


@pytest.mark.slow
def test_in_one_process_the_model_is_kept_in_memory_whatever_the_folder(user_pack, content_reads, tmp_path):
    build.load_content([user_pack], tmp_path / "a")
    again = build.load_content([user_pack], tmp_path / "b")  # a warm worker building into a roll's own folder
    assert len(content_reads) == 2 and again.tables
    assert not (tmp_path / "b").exists()  # nothing written where it was only read


def test_a_warm_workers_rolls_read_back_the_model_it_holds_and_an_edit_is_read_again(user_pack, content_reads):
    """A serve roll builds into a folder of its own, which has no cache: it still reads back the model its worker
    read while warming up, instead of composing every YAML file again for each zine (0.8 s a roll, measured)."""
    build.load_content([user_pack], None, hold=True)  # the worker warming up
    rolled = build.load_content([user_pack])  # a roll, with no build folder
    assert len(content_reads) == 2 and rolled.tables  # the built-in packs and the user's, read once
    table = user_pack / "tables" / "fixture_light.yaml"
    table.write_text(table.read_text() + "\n")
    build.load_content([user_pack])
    assert len(content_reads) == 4  # an edited pack is read again


def test_a_one_off_run_without_a_build_folder_reads_the_files_and_keeps_nothing(user_pack, content_reads):
    build.load_content([user_pack])
    build.load_content([user_pack])
    assert len(content_reads) == 4 and not build.ContentCache.holds_any()


@pytest.mark.slow
def test_an_edited_file_is_read_again_and_its_mistake_named_by_file_and_line(user_pack, content_reads, tmp_path, monkeypatch):
    cache = tmp_path / "build" / ".cache" / "content"
    build.load_content([user_pack], cache)
    table = user_pack / "tables" / "fixture_light.yaml"
    table.write_text(table.read_text().replace("die: d4", "die: d7", 1))
    _forget_memory(monkeypatch)
    with pytest.raises(ContentErrors) as caught:
        build.load_content([user_pack], cache)
    line = next(n for n, text in enumerate(table.read_text().splitlines(), 1) if text.startswith("die:"))
    assert f"mine/tables/fixture_light.yaml:{line}: unknown dice 'd7' (expected one of d4, d6, d8, d10, d12, d20, " \
           f"2d6, d66, d100, none)" in [str(e) for e in caught.value.errors]
    assert len(content_reads) == 4  # read again, both packs
    assert len(list(cache.iterdir())) == 1  # a model with mistakes is never kept


@pytest.mark.slow
def test_an_edit_that_stays_valid_makes_a_second_model(user_pack, tmp_path, monkeypatch):
    cache = tmp_path / "c"
    before = build.load_content([user_pack], cache)
    table = user_pack / "tables" / "fixture_light.yaml"
    table.write_text(table.read_text().replace("title: ", "title: Edited ", 1))
    _forget_memory(monkeypatch)
    after = build.load_content([user_pack], cache)
    assert after.tables["fixture_light"].title.startswith("Edited ")
    assert before.tables["fixture_light"].title != after.tables["fixture_light"].title
    assert len(list(cache.iterdir())) == 2


@pytest.mark.slow
def test_the_cli_keeps_the_model_in_the_build_folder_and_reads_it_back(user_pack, content_reads, tmp_path, monkeypatch):
    out = tmp_path / "out"
    dungeon = ("dungeon", "--seed", "1", "--format", "json", "--content", user_pack, "--out", out)
    assert run("validate", "--content", user_pack, "--out", out)[0] == 0
    assert not out.exists()  # validate reads every file every time and keeps nothing
    bad = ("dungeon", "--seed", "1", "--layout", "booklet", "--max-pages", "1", "--content", user_pack, "--out", out)
    out.mkdir()
    assert run(*bad)[0] == 1  # content read, then the build fails: nothing written in the build folder
    assert list(out.iterdir()) == []
    assert run(*dungeon)[0] == 0
    assert not (out / ".cache").exists()  # a folder of the user's own (or a serve roll's) gets only its outputs
    (out / "manifest.json").write_text("{}")  # a build folder: `build all` and --batch leave their manifest in it
    assert run(*dungeon)[0] == 0
    assert len(list((out / build.CONTENT_CACHE).iterdir())) == 1  # kept once a run has succeeded
    before = len(content_reads)
    _forget_memory(monkeypatch)
    status, _, err = run(*dungeon)
    assert status == 0, err
    assert len(content_reads) == before


def test_tree_digest_is_the_manifests(user_pack):
    # The key is the manifest's own digest of each pack: the same one `build all` records per item.
    assert manifest.tree_digest(user_pack) in json.dumps(manifest.Fingerprints(build.CONTENT_DIR, build.TEMPLATES_DIR,
                                                                          [user_pack]).common())
