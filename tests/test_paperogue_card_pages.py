"""The Paperogue reference card's second page: the spells, the steps that make a level and the stock monster list."""

from __future__ import annotations

import io

import pypdf
import pytest

from dungeonpress.cli import main
from dungeonpress.views import paperogue as views


def test_the_monster_grid_reads_down_each_column_in_roll_order(content):
    grid = views.monster_grid(content.tables["paperogue_monsters"])
    assert grid["die"] == "d20" and len(grid["rows"]) == 5 and all(len(row) == 4 for row in grid["rows"])
    read_down = [grid["rows"][r][c]["roll"] for c in range(4) for r in range(5)]
    assert read_down == [str(n) for n in range(1, 21)]
    assert grid["rows"][0][0] == {"roll": "1", "initial": "R", "name": "Giant rat"}


def test_the_card_view_carries_the_level_steps_in_order(content):
    card = views.card_view(content)
    assert [step["step"] for step in card["level_steps"]] == ["Rooms", "Stairs", "Exits", "Monsters", "Treasure"]


@pytest.mark.slow  # lays the card out
def test_the_spells_page_holds_the_level_steps_and_every_monster(tmp_path):
    assert main(["paperogue", "--seed", "1", "--format", "pdf", "--out", str(tmp_path), "--quiet"],
                io.StringIO(), io.StringIO()) == 0
    pages = pypdf.PdfReader(tmp_path / "paperogue-reference.pdf").pages
    assert len(pages) == 4
    second = " ".join(pages[1].extract_text().split())
    assert "Making a level" in second
    for step in ("Rooms.", "Stairs.", "Exits.", "Monsters.", "Treasure."):
        assert step in second
    for monster in ("Giant rat", "Centipede", "Hobgoblin", "Vampire", "Dragon"):
        assert monster in second
    assert "Based on Paperogue" in second  # the credit still closes the page
