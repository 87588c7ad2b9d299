"""The loader: each content pack is sealed on its own, so a pack in a folder of packs reads only its own files."""

from __future__ import annotations

import pytest

from dungeonpress import build, pdf
from tests.conftest import MOOD_D6 as D6
from tests.conftest import run_cli as run

NOTES = "the builder's private notes\n"


@pytest.fixture
def packs(tmp_path, monkeypatch):
    """tmp_path/packs: a folder holding the pack `evil` and, beside it, notes that belong to no pack."""
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "packs"
    (folder / "evil" / "chapters").mkdir(parents=True)
    (folder / "notes.md").write_text(NOTES)
    (folder / "evil" / "book.yaml").write_text("title: Evil\nchapters:\n  - chapters/x.md\n")
    return folder


def test_a_chapter_linked_to_a_file_beside_its_pack_is_refused(packs):
    (packs / "evil" / "chapters" / "x.md").symlink_to("../../notes.md")  # packs/notes.md: inside --content, not the pack
    status, out, err = run("validate", "--content", "packs")
    assert status == 1 and "content ok" not in out and "private notes" not in out + err
    assert err.splitlines() == [
        "packs/evil/chapters/x.md:1: refused to read: packs/evil/chapters/x.md is a link to ../../notes.md, "
        "outside the pack", "build failed: 1 content error"]


@pytest.mark.slow
def test_the_rulebook_of_such_a_pack_is_not_built(packs, tmp_path):
    (packs / "evil" / "chapters" / "x.md").symlink_to("../../notes.md")
    status, _, err = run("build", "rulebook", "--content", "packs", "--out", str(tmp_path / "out"), "--quiet")
    assert status == 1 and "is a link to ../../notes.md, outside the pack" in err
    assert not (tmp_path / "out").exists()


def test_a_table_linked_into_another_pack_of_the_folder_is_refused(packs):
    (packs / "other" / "tables").mkdir(parents=True)
    (packs / "other" / "tables" / "mood.yaml").write_text(D6)
    (packs / "evil" / "tables").mkdir()
    (packs / "evil" / "tables" / "mood.yaml").symlink_to("../../other/tables/mood.yaml")
    (packs / "evil" / "chapters" / "x.md").write_text("# X\n")
    status, _, err = run("validate", "--content", "packs")
    assert status == 1
    assert ("packs/evil/tables/mood.yaml:1: refused to read: packs/evil/tables/mood.yaml is a link to "
            "../../other/tables/mood.yaml, outside the pack") in err.splitlines()


@pytest.mark.slow
def test_a_chapter_image_beside_its_pack_is_refused(packs, tmp_path):
    (packs / "beside.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>')
    (packs / "evil" / "chapters" / "x.md").write_text("# X\n\n![a](../../beside.svg)\n")
    status, _, err = run("build", "rulebook", "--content", "packs", "--out", str(tmp_path / "out"), "--quiet")
    assert status == 1
    assert err.endswith("x.md: image '../../beside.svg' is outside the pack (refused)\n")
    assert not (tmp_path / "out").exists()


@pytest.mark.slow
def test_the_renderer_may_read_each_pack_but_not_the_folder_that_holds_them(packs):
    (packs / "evil" / "map.svg").write_text("<svg/>")
    roots = build.context_for(build.load_content([]), user_packs=[packs]).roots
    assert packs / "evil" in roots and packs not in roots
    fetcher = pdf.SealedFetcher(roots)
    assert fetcher.fetch((packs / "evil" / "map.svg").as_uri()).read() == b"<svg/>"
    with pytest.raises(ValueError, match="outside content/ and templates/"):
        fetcher.fetch((packs / "notes.md").as_uri())


@pytest.mark.slow  # composes a file past the value limit
def test_a_file_of_more_values_than_any_content_needs_stops_early():
    # the figure: a 1.9 MB table of 60,000 rows took 11 s to compose before its one error; six values a row here
    from dungeonpress import load
    from dungeonpress.errors import ContentError
    text = "rows:\n" + "".join(f"  {n}: {{a: x, b: y}}\n" for n in range(1, 30_000))
    with pytest.raises(ContentError) as caught:
        load.parse_yaml(text, "pack/tables/t.yaml")
    assert str(caught.value) == ("pack/tables/t.yaml:8334: YAML syntax error: more than 50,000 values in one file "
                                 "(a table has at most 200 rows)")


def _located(value):
    """A loaded value with every place it remembers, to compare two loads exactly."""
    if isinstance(value, dict):
        return ("map", value.source, [(k, value.key_sources[k], _located(v)) for k, v in value.items()])
    if isinstance(value, list):
        return ("list", value.source, list(value.item_sources), [_located(v) for v in value])
    return value


def test_libyaml_and_pyyamls_own_parser_load_every_content_file_alike(monkeypatch):
    # Content is parsed by libyaml where PyYAML has it, by PyYAML's Python parser elsewhere: the same values, at the
    # same lines, either way.
    from dungeonpress import load
    if load._CParser is None:
        pytest.skip("this PyYAML was built without libyaml")
    files = sorted(build.CONTENT_DIR.rglob("*.yaml"))
    assert len(files) > 90
    fast = [_located(load.parse_yaml(path.read_text(encoding="utf-8"), path.name)) for path in files]
    monkeypatch.setattr(load, "_CParser", None)
    assert [_located(load.parse_yaml(path.read_text(encoding="utf-8"), path.name)) for path in files] == fast


@pytest.mark.parametrize("text, message", [
    ("title: x\nrows:\n  1: [a, b\n", "t.yaml:4: YAML syntax error: expected ',' or ']', but got '<stream end>'"),
    ("a: &x 1\nb: *x\n", "t.yaml:2: YAML syntax error: aliases (*name) are not allowed in content files"),
    ("a: 1\n" + "b:\n" + "".join("  " * d + "- \n" for d in range(1, 45)),
     "t.yaml:42: YAML syntax error: nested too deeply (more than 40 levels)"),
    ("%YAML 1.3\n---\na: [1\n", "t.yaml:4: YAML syntax error: expected ',' or ']', but got '<stream end>'"),
])
def test_a_yaml_mistake_is_told_in_the_same_words_with_or_without_libyaml(monkeypatch, text, message):
    from dungeonpress import load
    from dungeonpress.errors import ContentError
    told = []
    for parser in {load._CParser, None}:
        monkeypatch.setattr(load, "_CParser", parser)
        with pytest.raises(ContentError) as caught:
            load.parse_yaml(text, "t.yaml")
        told.append(str(caught.value))
    assert set(told) == {message}
