"""The suite's own machinery (tests/conftest.py): what a run leaves behind when it is killed."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.conftest import _FOLDER_PREFIX, _OWNER, _remove_abandoned


def test_a_killed_runs_shared_folder_is_removed_by_the_next_run_and_nothing_else_is(tmp_path):
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    abandoned, running, foreign = (tmp_path / f"{_FOLDER_PREFIX}{name}" for name in ("dead", "live", "other"))
    for folder, owner in ((abandoned, dead.pid), (running, os.getpid())):
        folder.mkdir()
        (folder / _OWNER).write_text(str(owner))
        (folder / "rulebook.pdf.done").write_text("laid out")
    foreign.mkdir()  # named like ours but without an owner: not known to be ours, kept
    (tmp_path / "notes").mkdir()
    _remove_abandoned(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([running.name, foreign.name, "notes"])
