"""Foe and NPC card decks: every creature on a card with its Luck track, a dungeon's inhabitants, one size and paper."""

from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader

from dungeonpress import build
from dungeonpress.products import options
from dungeonpress.products.dungeon import roll_dungeon
from dungeonpress.products.foes import COMMANDS, FoesOptions
from dungeonpress.views import foes as views
from tests.conftest import slow_fixture, standard_build

MM = 72 / 25.4


def run(content, seed=1234, **given):
    command = COMMANDS[0]
    ctx = build.context_for(content, seed=seed)
    outputs = command.run(ctx, options.parse(FoesOptions, given))
    assert ctx.warnings == []
    return {o.name: o.data for o in outputs}


@pytest.fixture(scope="module")
@slow_fixture
def bestiary():
    """The bestiary deck, seed 1234 (`build all`'s first foes job, shared by the run)."""
    outputs, warnings = standard_build("foes", 0)
    assert warnings == []
    return outputs


def page_texts(data: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(data)).pages]


def test_bestiary_deck_has_every_creature_with_luck_and_an_oracle_and_twist_card(content, bestiary):
    assert set(bestiary) == {"foe-cards-bestiary-3x5-letter.pdf", "foe-cards-bestiary-a7-a4.pdf"}
    for name, data in bestiary.items():
        reader = PdfReader(io.BytesIO(data))
        cards = len(content.creatures) + 2
        assert len(reader.pages) == -(-cards // 4)
        width, height = (float(v) for v in reader.pages[0].mediabox[2:])
        assert (round(width), round(height)) == ((612, 792) if "letter" in name else (595, 842))
        text = "\n".join(page_texts(data))
        for creature in content.creatures:
            assert creature.name.upper()[:6] in text.upper() or creature.name[:6] in text, creature.name
        assert len(re.findall(r"^Luck\s*$", text, re.M)) == len(content.creatures)
        assert "Chance higher" in text and "Alters the location" in text


@pytest.mark.slow
def test_dungeon_deck_holds_the_rolled_dungeons_inhabitants_and_two_rivals(content):
    made = run(content, seed=77, deck="dungeon", size="a7", rooms=10)
    assert list(made) == ["foe-cards-dungeon-77-a7-a4.pdf"]
    text = "\n".join(page_texts(made["foe-cards-dungeon-77-a7-a4.pdf"]))
    dungeon = roll_dungeon(build.context_for(content, seed=77), 77, 10)
    met = views.inhabitants(dungeon)
    assert met, "a ten-room dungeon meets at least one creature"
    for creature, where in met:
        assert where.split(",")[0] in text
    assert text.count("Rival delver") == 2
    assert len(re.findall(r"^Luck\s*$", text, re.M)) == len(met) + 2  # one Luck track a card
    assert run(content, seed=77, deck="dungeon", size="a7", rooms=10) == made  # same seed, same bytes


@pytest.mark.slow
@pytest.mark.parametrize("size,paper,mm", [("3x5", "a4", (210, 297)), ("a7", "letter", (216, 279))])
def test_a_deck_of_one_size_and_paper(content, size, paper, mm):
    """The sheet is the paper asked for, not the card size's default (3x5 cards on A4 came out on Letter)."""
    made = run(content, size=size, paper=paper)
    assert list(made) == [f"foe-cards-bestiary-{size}-{paper}.pdf"]
    box = PdfReader(io.BytesIO(made[f"foe-cards-bestiary-{size}-{paper}.pdf"])).pages[0].mediabox
    assert (round(float(box.width) / MM), round(float(box.height) / MM)) == mm
