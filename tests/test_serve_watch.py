"""serve.watch: changed files under the watched folders → one rebuild call per batch, with the changed paths."""

from __future__ import annotations

import threading

from dungeonpress.serve.watch import Watcher


def test_only_existing_folders_are_watched(tmp_path):
    (tmp_path / "content").mkdir()
    watcher = Watcher([tmp_path / "content", tmp_path / "missing", tmp_path / "file.txt"], rebuild=lambda paths: None)
    assert watcher.roots == [tmp_path / "content"]


def test_nothing_to_watch_starts_no_thread(tmp_path):
    watcher = Watcher([tmp_path / "missing"], rebuild=lambda paths: None)
    watcher.start()
    assert not watcher._thread.is_alive()
    watcher.stop()  # stopping a watcher that never started is harmless


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
