"""build: a run's non-default choices in every file name, so runs never overwrite each other."""

from __future__ import annotations

from pathlib import Path

import pytest

from dungeonpress import build
from dungeonpress.products.common import BuildContext, Output
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
    assert build.named_for_run(_ctx(theme, packs), Output(name, b"x")).name == expected


@pytest.mark.parametrize("packs, label", [
    ([], ""), (["packs/My Pack"], "my-pack"), (["a", "b/"], "a-b"), (["../..."], "pack"),
    (["x" * 80], "x" * 40),
])
def test_packs_label_is_safe_in_any_file_name(packs, label, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert build.packs_label(packs) == label


def test_a_large_print_run_keeps_the_standard_oracle_card(tmp_path):
    out = tmp_path / "out"
    assert run("oracle", "--out", str(out), "--quiet")[0] == 0
    standard = (out / "oracle-card.pdf").read_bytes()
    assert run("oracle", "--theme", "large-print", "--out", str(out), "--quiet")[0] == 0
    assert sorted(p.name for p in out.glob("*.pdf")) == ["oracle-card-large-print.pdf", "oracle-card.pdf"]
    assert (out / "oracle-card.pdf").read_bytes() == standard
