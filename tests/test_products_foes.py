"""Foe and NPC cards: sheet geometry, every creature on a card with its tags and Luck track, a dungeon's inhabitants."""

from __future__ import annotations

import io
import itertools
import re

import pytest
from pypdf import PdfReader

from dungeonpress import build
from dungeonpress.products import options
from dungeonpress.products.dungeon import roll_dungeon
from dungeonpress.products.foes import COMMANDS, FoesOptions
from dungeonpress.views import foes as views

MM = 72 / 25.4


@pytest.mark.parametrize("size, paper", list(itertools.product(views.CARD_SIZES, options.PAPERS)))
def test_cards_fit_the_sheet_touch_without_overlap_and_marks_stay_outside(size, paper):
    g = views.sheet_geometry(size, paper)
    boxes = [(x, y, x + g["card_w"], y + g["card_h"]) for x, y in g["slots"]]
    assert len(boxes) == 4
    for x0, y0, x1, y1 in boxes:
        assert 5 <= x0 and x1 <= g["sheet_w"] - 5 and 5 <= y0 and y1 <= g["sheet_h"] - 5  # printable margins
    for a, b in itertools.combinations(boxes, 2):
        overlap_w = min(a[2], b[2]) - max(a[0], b[0])
        overlap_h = min(a[3], b[3]) - max(a[1], b[1])
        assert overlap_w <= 1e-6 or overlap_h <= 1e-6
    for m in g["marks"]:
        assert 0 <= min(m["x1"], m["x2"]) and max(m["x1"], m["x2"]) <= g["sheet_w"]
        assert 0 <= min(m["y1"], m["y2"]) and max(m["y1"], m["y2"]) <= g["sheet_h"]
        mid = ((m["x1"] + m["x2"]) / 2, (m["y1"] + m["y2"]) / 2)
        assert not any(x0 < mid[0] < x1 and y0 < mid[1] < y1 for x0, y0, x1, y1 in boxes), m
    # every cut line (3 vertical, 3 horizontal) has a mark at both ends
    assert len(g["marks"]) == 2 * (views.COLUMNS + 1) + 2 * (views.ROWS + 1)


def test_non_living_creatures_have_no_goal_motive_or_nemesis(content):
    for creature in content.creatures:
        labels = [t["label"] for t in views.creature_card(creature)["tags"]]
        assert labels[:4] == ["Concept", "Skills", "Frailty", "Gear"]
        assert ("Goal" in labels) == creature.living, creature.name


def run(content, seed=1234, **given):
    command = COMMANDS[0]
    ctx = build.context_for(content, seed=seed)
    outputs = command.run(ctx, options.parse(FoesOptions, given))
    assert ctx.warnings == []
    return {o.name: o.data for o in outputs}


@pytest.fixture(scope="module")
def bestiary(content):
    return run(content)


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


@pytest.mark.parametrize("size,paper,mm", [("3x5", "a4", (210, 297)), ("a7", "letter", (216, 279))])
def test_a_deck_of_one_size_and_paper(content, size, paper, mm):
    """The sheet is the paper asked for, not the card size's default (3x5 cards on A4 came out on Letter)."""
    made = run(content, size=size, paper=paper)
    assert list(made) == [f"foe-cards-bestiary-{size}-{paper}.pdf"]
    box = PdfReader(io.BytesIO(made[f"foe-cards-bestiary-{size}-{paper}.pdf"])).pages[0].mediabox
    assert (round(float(box.width) / MM), round(float(box.height) / MM)) == mm
