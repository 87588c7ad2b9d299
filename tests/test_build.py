"""build: a run's non-default choices in every file name, so runs never overwrite each other; the part cache keeps
laid-out book parts between runs, apart for anything else they depend on."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from dungeonpress import build, load, manifest
from dungeonpress.errors import ContentErrors
from dungeonpress.model import Content
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


PART = LaidPart("chapter 2", b"%PDF-1.7 pretend", 3, {"c2-intro": 0, "c2-end": 2}, ("a warning",), ("c1-intro",),
                page_names=("", "", None), before=2)


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

    def counted(folders):
        count.append(list(folders))
        return real(folders)

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


def test_in_one_process_the_model_is_kept_in_memory_whatever_the_folder(user_pack, content_reads, tmp_path):
    build.load_content([user_pack], tmp_path / "a")
    again = build.load_content([user_pack], tmp_path / "b")  # a warm worker building into a roll's own folder
    assert len(content_reads) == 2 and again.tables
    assert not (tmp_path / "b").exists()  # nothing written where it was only read


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


def test_the_key_covers_versions_the_working_folder_and_the_packs(user_pack, tmp_path, monkeypatch):
    key = build.ContentCache.key([build.CONTENT_DIR, user_pack])
    assert build.ContentCache.key([build.CONTENT_DIR]) != key
    (user_pack / "notes.txt").write_text("any file of a pack counts")
    assert build.ContentCache.key([build.CONTENT_DIR, user_pack]) != key
    (user_pack / "notes.txt").unlink()
    assert build.ContentCache.key([build.CONTENT_DIR, user_pack]) == key
    monkeypatch.setattr(build, "_CODE", {**build._code_fingerprint(), "versions": {"weasyprint": "0"}})
    assert build.ContentCache.key([build.CONTENT_DIR, user_pack]) != key
    monkeypatch.setattr(build, "_CODE", None)
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")  # errors would name the files differently
    assert build.ContentCache.key([build.CONTENT_DIR, user_pack]) != key


def _kept(cache: Path) -> Path:
    (path,) = cache.iterdir()
    return path


@pytest.mark.parametrize("spoil", ["truncated", "byte flipped", "other key", "not json", "empty",
                                   "group writable", "a link", "a foreign class", "a model of another shape"])
def test_a_file_that_is_not_a_whole_one_of_ours_is_passed_over(spoil, content, tmp_path, monkeypatch):
    monkeypatch.setattr(build.ContentCache, "_memory", {})
    store, key = build.ContentCache(tmp_path / "cache"), "1" * 64
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
    monkeypatch.setattr(build.ContentCache, "_memory", {})
    cache = tmp_path / "cache"
    cache.mkdir()
    theirs = [cache / "notes.txt", cache / ("f" * 64 + ".json.bak"), cache / ("A" * 64 + ".json")]
    for path in theirs:
        path.write_text("not ours")
    old = []
    for n in range(build.ContentCache.KEEP + 3):
        path = cache / f"{n:064x}.json"
        path.write_text("an old model")
        os.utime(path, ns=(n * 10**9, n * 10**9))
        old.append(path)
    build.ContentCache(cache).put("e" * 64, content)
    left = sorted(p.name for p in cache.iterdir())
    assert all(p.name in left for p in theirs)
    models = [name for name in left if name not in {p.name for p in theirs}]
    assert len(models) == build.ContentCache.KEEP
    assert all(p.name in models for p in old[-(build.ContentCache.KEEP - 1):])  # the newest old ones, and the new one


def test_a_folder_that_cannot_be_written_only_means_no_cache(content, tmp_path, monkeypatch):
    monkeypatch.setattr(build.ContentCache, "_memory", {})
    (tmp_path / "file").write_text("in the way")
    store = build.ContentCache(tmp_path / "file" / "content")
    store.put("2" * 64, content)  # no error
    _forget_memory(monkeypatch)
    assert store.get("2" * 64) is None


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
