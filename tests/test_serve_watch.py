"""serve.watch: saved files in the watched folders → rebuild calls with their paths; links out and editor temp files ignored."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from dungeonpress.serve.watch import Watcher, folders_under, is_editor_temp


def test_only_existing_folders_are_watched(tmp_path):
    (tmp_path / "content").mkdir()
    watcher = Watcher([tmp_path / "content", tmp_path / "missing", tmp_path / "file.txt"], rebuild=lambda paths: None)
    assert watcher.roots == [tmp_path / "content"]


def test_nothing_to_watch_starts_no_thread(tmp_path):
    watcher = Watcher([tmp_path / "missing"], rebuild=lambda paths: None)
    watcher.start()
    assert not watcher._thread.is_alive()
    watcher.stop()  # stopping a watcher that never started is harmless


@pytest.mark.slow
def test_a_saved_file_calls_rebuild_with_its_path_and_stop_ends_the_thread(tmp_path):
    root = tmp_path / "content"
    root.mkdir()
    calls, called = [], threading.Event()

    def rebuild(paths):
        calls.append(paths)
        called.set()

    watcher = Watcher([root], rebuild)
    watcher.start()
    try:
        edited = root / "table.yaml"
        for _ in range(40):  # the watcher may take a moment to start listening: save again until it hears
            edited.write_text("id: t\n")
            if called.wait(0.5):
                break
        assert calls, "no rebuild after saving a file"
        assert all(paths == sorted(paths) for paths in calls)
        assert str(edited) in calls[0]
    finally:
        watcher.stop()
    assert not watcher._thread.is_alive()


@pytest.mark.parametrize("name", [".table.yaml.swp", ".table.yaml.swx", "table.yaml~", ".#table.yaml", "#table.yaml#",
                                  "4913", "5036", "table.yaml.tmp", ".rules.md.dp-123-x.part", "map.svg.crdownload"])
def test_editor_temp_files_are_recognised(name):
    assert is_editor_temp(name)


@pytest.mark.parametrize("name", ["table.yaml", "rules.md", "zine.css", "map-2.svg", "book.yaml", "d66.yaml"])
def test_content_files_are_not_temp_files(name):
    assert not is_editor_temp(name)


def test_links_out_of_a_pack_are_not_followed(tmp_path):
    # Issue 28: one link to /usr in a pack made 15,847 inotify watches; `dungeonpress serve --content` on
    # such a pack now holds 23 (the built-in content and templates folders and the pack's own).
    pack, outside = tmp_path / "pack", tmp_path / "usr"
    (pack / "tables").mkdir(parents=True)
    for n in range(5):
        (outside / f"lib{n}" / "deep").mkdir(parents=True)
    (pack / "tables" / "usr").symlink_to(outside)
    assert folders_under([pack]) == [pack, pack / "tables"]


@pytest.mark.slow
def test_only_the_packs_own_files_call_rebuild(tmp_path):
    pack, outside = tmp_path / "pack", tmp_path / "elsewhere"
    (pack / "tables").mkdir(parents=True)
    outside.mkdir()
    (pack / "tables" / "link").symlink_to(outside)
    calls, called = [], threading.Event()

    def rebuild(paths):
        calls.append(paths)
        if any(p.endswith("real.yaml") for p in paths):
            called.set()

    watcher = Watcher([pack], rebuild)
    watcher.start()
    try:
        for _ in range(40):  # until the watcher hears the real save; everything else was written before it
            (outside / "x.yaml").write_text("id: far\n")
            for temp in ("4913", ".real.yaml.swp", "real.yaml~", ".#real.yaml"):
                (pack / "tables" / temp).write_text("x")
            (pack / "tables" / "real.yaml").write_text("id: t\n")
            if called.wait(0.5):
                break
        assert called.is_set(), "no rebuild after saving a file"
        heard = {Path(p).name for paths in calls for p in paths}
        assert heard == {"real.yaml"}
    finally:
        watcher.stop()


@pytest.mark.slow
def test_a_new_folder_in_the_pack_is_watched_too(tmp_path):
    pack = tmp_path / "pack"
    pack.mkdir()
    called = threading.Event()
    seen = []

    def rebuild(paths):
        seen.extend(paths)
        if any(p.endswith("new.yaml") for p in paths):
            called.set()

    watcher = Watcher([pack], rebuild)
    watcher.start()
    try:
        for _ in range(120):  # up to a minute: re-watching a new folder is slow on a loaded machine
            (pack / "tables").mkdir(exist_ok=True)
            (pack / "tables" / "new.yaml").write_text("id: n\n")
            if called.wait(0.5):
                break
        assert called.is_set()
    finally:
        watcher.stop()


@pytest.mark.slow
def test_a_folder_made_between_listing_the_folders_and_the_watch_starting_is_still_watched(tmp_path, monkeypatch):
    """The race behind a failed run of the test above: the folders were listed, then `tables` was made and saved into
    before the watch began, so no event ever named it and its saves were never seen. The first listing is made stale
    here; the watcher finds the folder by listing again in a quiet second."""
    from dungeonpress.serve import watch

    pack = tmp_path / "pack"
    (pack / "tables").mkdir(parents=True)
    listings = []

    def stale_first(roots):
        listings.append(1)
        return [pack] if len(listings) == 1 else folders_under(roots)

    monkeypatch.setattr(watch, "folders_under", stale_first)
    seen, folder_seen, saved_seen = [], threading.Event(), threading.Event()

    def rebuild(paths):
        seen.extend(paths)
        (saved_seen if any(p.endswith("new.yaml") for p in paths) else folder_seen).set()

    watcher = Watcher([pack], rebuild)
    watcher.start()
    try:
        assert folder_seen.wait(30), seen  # found by listing again: the folder itself is the change
        assert str(pack / "tables") in seen
        for _ in range(60):
            (pack / "tables" / "new.yaml").write_text("id: n\n")
            if saved_seen.wait(0.5):
                break
        assert saved_seen.is_set(), seen
    finally:
        watcher.stop()
