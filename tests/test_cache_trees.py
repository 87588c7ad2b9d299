"""Each YAML file's parsed tree kept under the build folder (cache.trees): read back exactly, one edit parses
one file, and a mistake after a cached build is reported in the very lines a cold run gives."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from dungeonpress import build, load
from dungeonpress.cache.trees import TREE_CACHE, TreeCache, decode, encode
from dungeonpress.errors import ContentErrors, display_path
from tests.conftest import run_cli as run

SMALL_PACK = Path(__file__).parent / "fixtures" / "small_pack"


def _same(a, b) -> bool:
    """Equal values of equal types at equal locations (== on a LocatedDict ignores where it was written)."""
    if isinstance(a, load.LocatedDict):
        return isinstance(b, load.LocatedDict) and a.source == b.source and a.key_sources == b.key_sources \
            and list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, load.LocatedList):
        return isinstance(b, load.LocatedList) and a.source == b.source and a.item_sources == b.item_sources \
            and len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


@pytest.fixture
def pack(tmp_path, monkeypatch):
    """A copy of the small fixture pack in a fresh working folder; no model or tree in this process's memory."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(build.ContentCache, "_memory", {})
    monkeypatch.setattr(TreeCache, "_pending", {})
    shutil.copytree(SMALL_PACK, tmp_path / "mine")
    return tmp_path / "mine"


@pytest.mark.slow  # reads the built-in content two or three times (the fast tier keeps one such test)
def test_every_built_in_file_reads_back_as_parse_yaml_gives_it(tmp_path):
    paths = sorted(build.CONTENT_DIR.rglob("*.yaml"))
    assert len(paths) > 50
    texts = [(load.read_text(path, build.CONTENT_DIR), display_path(path)) for path in paths]
    TreeCache(tmp_path).parse(*texts[0])
    for text, shown in texts[1:]:
        TreeCache(tmp_path).parse(text, shown)
    again = TreeCache(tmp_path)
    back = [again.parse(text, shown) for text, shown in texts]
    assert (again.read_back, again.parsed) == (len(texts), 0)
    assert all(_same(load.parse_yaml(text, shown), tree) for (text, shown), tree in zip(texts, back))


def test_scalars_keep_their_types_and_lines():
    text = "a: 1\nb: '1'\nc: 1.5\nd: no\ne: true\nf: ~\n7: [x, {y: 2}]\nn: 123456789012345678\n"
    tree = load.parse_yaml(text, "t.yaml")
    assert _same(decode(json.loads(json.dumps(encode(tree))), "t.yaml"), tree)
    assert not _same(decode(json.loads(json.dumps(encode(tree))), "u.yaml"), tree)  # the name is part of a location


@pytest.mark.slow
def test_an_edit_parses_only_the_edited_file(pack, tmp_path, monkeypatch):
    parsed = []
    real = load.parse_yaml
    monkeypatch.setattr(load, "parse_yaml", lambda text, shown: parsed.append(shown) or real(text, shown))
    cache = tmp_path / "build" / build.CONTENT_CACHE
    first = build.load_content([pack], cache)
    files = len(parsed)
    assert files > 50 and len(list((tmp_path / "build" / TREE_CACHE).iterdir())) == files
    table = pack / "tables" / "fixture_light.yaml"
    table.write_text(table.read_text().replace("title: Light Sources", "title: Lights"))
    monkeypatch.setattr(build.ContentCache, "_memory", {})  # as a new process
    parsed.clear()
    edited = build.load_content([pack], cache)
    assert parsed == ["mine/tables/fixture_light.yaml"]
    assert edited.tables["fixture_light"].title == "Lights"
    assert edited.tables["fixture_hazards"] == first.tables["fixture_hazards"]
    assert [r.source for r in edited.tables["fixture_hazards"].rows] == [r.source for r in first.tables["fixture_hazards"].rows]


def _cold_and_cached_errors(pack, tmp_path, monkeypatch, spoil) -> tuple:
    build.load_content([pack], tmp_path / "build" / build.CONTENT_CACHE)  # a cached build
    spoil(pack)
    monkeypatch.setattr(build.ContentCache, "_memory", {})
    with pytest.raises(ContentErrors) as cached:
        build.load_content([pack], tmp_path / "build" / build.CONTENT_CACHE)
    with pytest.raises(ContentErrors) as cold:
        build.load_content([pack])
    return str(cached.value).splitlines(), str(cold.value).splitlines()


def _bad_die_and_bad_yaml(pack):
    light = pack / "tables" / "fixture_light.yaml"
    light.write_text(light.read_text().replace("die: d4", "die: d7"))
    weather = pack / "tables" / "fixture_weather.yaml"
    weather.write_text(weather.read_text() + "rows: [unclosed\n")


@pytest.mark.slow
def test_a_bad_edit_after_a_cached_build_gives_a_cold_runs_error_lines(pack, tmp_path, monkeypatch):
    cached, cold = _cold_and_cached_errors(pack, tmp_path, monkeypatch, _bad_die_and_bad_yaml)
    assert cached == cold
    assert any(line.startswith("mine/tables/fixture_light.yaml:3: unknown dice 'd7'") for line in cached)
    assert any(line.startswith("mine/tables/fixture_weather.yaml:") and "YAML" in line for line in cached)


@pytest.mark.slow  # reads the built-in content two or three times (the fast tier keeps one such test)
def test_a_mistake_in_an_unedited_file_found_by_a_new_rule_keeps_its_line(pack, tmp_path, monkeypatch):
    # A tree read back carries its lines: a table that only breaks another (a duplicate id) is named where it is.
    def duplicate(folder):
        shutil.copy(folder / "tables" / "fixture_light.yaml", folder / "tables" / "fixture_light_copy.yaml")
    cached, cold = _cold_and_cached_errors(pack, tmp_path, monkeypatch, duplicate)
    assert cached == cold and len(cached) >= 2


@pytest.mark.slow  # reads the built-in content two or three times (the fast tier keeps one such test)
def test_the_cli_prints_the_same_error_lines_with_a_cache_as_without(pack, tmp_path, monkeypatch):
    out = tmp_path / "out"
    build.load_content([pack], out / build.CONTENT_CACHE)  # what a first build into `out` keeps
    _bad_die_and_bad_yaml(pack)
    monkeypatch.setattr(build.ContentCache, "_memory", {})
    warm = run("dungeon", "--seed", "1", "--format", "json", "--content", pack, "--out", out)
    cold = run("dungeon", "--seed", "1", "--format", "json", "--content", pack, "--out", tmp_path / "fresh")
    assert warm[0] == cold[0] == 1
    assert warm[2] == cold[2] and "mine/tables/fixture_light.yaml:3: unknown dice 'd7'" in warm[2]


@pytest.mark.slow  # reads the built-in content two or three times (the fast tier keeps one such test)
def test_a_run_that_fails_writes_no_tree_until_it_is_kept(pack, tmp_path):
    cache = tmp_path / "build" / build.CONTENT_CACHE
    build.load_content([pack], cache, keep=False)
    assert not (tmp_path / "build").exists()
    build.keep_content([pack], cache)
    assert len(list((tmp_path / "build" / TREE_CACHE).iterdir())) > 50


@pytest.mark.parametrize("spoil", ["byte flipped", "not a tree", "a link"])
def test_a_tree_file_that_is_not_whole_or_ours_is_parsed_again(spoil, tmp_path):
    text, shown = "id: x\nrows: [a, b]\n", "t.yaml"
    TreeCache(tmp_path / "trees").parse(text, shown)
    (path,) = (tmp_path / "trees").iterdir()
    data = path.read_bytes()
    header, _, body = data.partition(b"\n")
    if spoil == "byte flipped":
        path.write_bytes(data[:-3] + bytes([data[-3] ^ 1]) + data[-2:])
    elif spoil == "not a tree":
        import hashlib
        forged = b'["q",1]'
        head = json.loads(header) | {"sha256": hashlib.sha256(forged).hexdigest()}
        path.write_bytes(json.dumps(head, sort_keys=True).encode() + b"\n" + forged)
    else:
        real = tmp_path / "real.json"
        path.rename(real)
        path.symlink_to(real)
    again = TreeCache(tmp_path / "trees")
    assert _same(again.parse(text, shown), load.parse_yaml(text, shown))
    assert (again.parsed, again.read_back) == (1, 0)
