"""scripts.sweep: the runs a sweep makes are the same for the same seed, over every command and the themes there are."""

from __future__ import annotations

from dungeonpress.products.common import THEMES
from scripts import sweep


def test_the_same_seed_makes_the_same_runs_over_every_command_and_only_known_themes():
    first, again = sweep.runs(2, 7), sweep.runs(2, 7)
    assert first == again and first != sweep.runs(2, 8)
    assert [command for command, _, _ in first] == [command for command in sweep.COMMANDS for _ in range(2)]
    assert {theme for _, theme, _ in first} <= set(THEMES)
    assert all(10**8 <= seed < 10**9 for _, _, seed in first)  # nine digits, as a fresh seed has
    assert {command for command, _, _ in sweep.runs(1, 7, "paperogue")} == {
        command for command in sweep.COMMANDS if "paperogue" in command}
