"""manifest: input fingerprints and build/manifest.json — a hash per item, what it wrote, whether it is up to date."""

from __future__ import annotations

import hashlib
import json
import os
from types import SimpleNamespace

import pytest

from dungeonpress import manifest


def test_tree_digest_follows_names_and_bytes_not_timestamps(tmp_path):
    root = tmp_path / "pack"
    (root / "tables").mkdir(parents=True)
    (root / "tables" / "a.yaml").write_text("id: a\n")
    (root / "book.yaml").write_text("title: x\n")
    first = manifest.tree_digest(root)
    os.utime(root / "book.yaml", (1, 1))
    assert manifest.tree_digest(root) == first  # touching a file changes nothing
    (root / "book.yaml").write_text("title: y\n")
    assert manifest.tree_digest(root) != first
    (root / "book.yaml").write_text("title: x\n")
    assert manifest.tree_digest(root) == first
    (root / "tables" / "a.yaml").rename(root / "tables" / "b.yaml")
    assert manifest.tree_digest(root) != first  # a renamed file is another input


def test_tree_digest_skips_caches_and_part_files_and_counts_links_by_their_target(tmp_path):
    root = tmp_path / "src"
    root.mkdir()
    (root / "m.py").write_text("x = 1\n")
    first = manifest.tree_digest(root)
    (root / "__pycache__").mkdir()
    (root / "__pycache__" / "m.pyc").write_bytes(b"\0")
    (root / "n.pyc").write_bytes(b"\0")
    (root / "out.pdf.part").write_bytes(b"half")
    (root / ".#m.py").write_text("lock")
    assert manifest.tree_digest(root) == first
    outside = tmp_path / "big.bin"
    outside.write_bytes(b"1")
    (root / "link").symlink_to(outside)
    linked = manifest.tree_digest(root)
    outside.write_bytes(b"2")
    assert manifest.tree_digest(root) == linked  # the link is read, never followed out


def test_tree_digest_of_a_file_and_of_nothing(tmp_path):
    one = tmp_path / "one.txt"
    one.write_bytes(b"abc")
    assert manifest.tree_digest(one) == hashlib.sha256(b"abc").hexdigest()
    assert manifest.tree_digest(tmp_path / "absent") == hashlib.sha256(b"missing").hexdigest()


def test_fingerprints_change_only_for_products_reading_the_changed_pack(tmp_path):
    content, templates = tmp_path / "content", tmp_path / "templates"
    for pack in ("core", "dunginoes"):
        (content / pack / "tables").mkdir(parents=True)
        (content / pack / "tables" / "t.yaml").write_text("id: t\n")
    templates.mkdir()
    (templates / "base.html.j2").write_text("x")

    def keys():
        prints = manifest.Fingerprints(content, templates)
        return prints.inputs(None), prints.inputs(("dunginoes",))

    everything, dunginoes = keys()
    (content / "core" / "tables" / "t.yaml").write_text("id: t  # edited\n")
    assert keys()[0] != everything and keys()[1] == dunginoes
    (content / "dunginoes" / "tables" / "t.yaml").write_text("id: u\n")
    assert keys()[1] != dunginoes
    (templates / "base.html.j2").write_text("y")  # templates count for every product
    assert keys()[1] != manifest.Fingerprints(content, tmp_path / "other").inputs(("dunginoes",))


def test_item_key_changes_with_every_input_and_not_with_key_order():
    base = dict(label="dungeon", command="dungeon", options={"rooms": 8, "paper": "a4"}, seed=7, settings={},
                inputs={"packs": {}})
    key = manifest.item_key(**base)
    assert len(key) == 64
    assert manifest.item_key(**(base | {"options": {"paper": "a4", "rooms": 8}})) == key
    for change in ({"seed": 8}, {"options": {"rooms": 9, "paper": "a4"}}, {"label": "pack"},
                   {"settings": {"theme": "ink"}}, {"inputs": {"packs": {"core": "x"}}}):
        assert manifest.item_key(**(base | change)) != key, change


def output(name: str, data: bytes):
    return SimpleNamespace(name=name, data=data)


def test_an_entry_records_each_output_and_encodes_sorted(tmp_path):
    record = manifest.entry(key="k", command="dungeon", options={"rooms": 8}, seed=7, status="built",
                            outputs=[output("a.pdf", b"%PDF")], seconds=1.234, native={"cairo": "1.18"})
    assert record["outputs"] == [{"name": "a.pdf", "bytes": 4, "sha256": hashlib.sha256(b"%PDF").hexdigest()}]
    assert record["seconds"] == 1.23 and record["versions"]["cairo"] == "1.18"
    assert record["versions"]["dungeonpress"] and "python" in record["versions"]
    encoded = manifest.encode({"z": record, "a": record})
    assert encoded.endswith(b"\n") and json.loads(encoded) == {"format": 1, "items": {"z": record, "a": record}}
    assert encoded.index(b'"a"') < encoded.index(b'"z"')


def test_read_gives_the_last_manifest_or_nothing(tmp_path):
    assert manifest.read(tmp_path) == {}
    (tmp_path / manifest.NAME).write_text("{not json")
    assert manifest.read(tmp_path) == {}
    (tmp_path / manifest.NAME).write_text('{"format": 1, "items": []}')
    assert manifest.read(tmp_path) == {}
    (tmp_path / manifest.NAME).write_bytes(manifest.encode({"one": {"inputs": "k"}}))
    assert manifest.read(tmp_path) == {"format": 1, "items": {"one": {"inputs": "k"}}}


@pytest.fixture
def built_entry(tmp_path):
    (tmp_path / "a.pdf").write_bytes(b"%PDF-1.7")
    return manifest.entry(key="k", command="c", options={}, seed=1, status="built", outputs=[output("a.pdf", b"%PDF-1.7")])


def test_up_to_date_only_with_the_same_key_a_success_and_every_output_in_place(tmp_path, built_entry):
    assert manifest.up_to_date(built_entry, "k", tmp_path)
    assert not manifest.up_to_date(built_entry, "other", tmp_path)
    assert not manifest.up_to_date(None, "k", tmp_path)
    assert not manifest.up_to_date(built_entry | {"status": "failed"}, "k", tmp_path)
    (tmp_path / "a.pdf").write_bytes(b"%PDF-1.7 cut")  # another size: someone changed it
    assert not manifest.up_to_date(built_entry, "k", tmp_path)
    (tmp_path / "a.pdf").unlink()
    assert not manifest.up_to_date(built_entry, "k", tmp_path)
    assert not manifest.up_to_date(built_entry | {"outputs": [{"name": "a.pdf"}]}, "k", tmp_path)


def test_versions_name_every_library_that_shapes_the_bytes():
    found = manifest.versions()
    assert set(found) == {"dungeonpress", "python", *manifest.LIBRARIES}
    assert found["weasyprint"] and found["pikepdf"]
