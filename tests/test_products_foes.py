"""Foe and NPC card decks: every creature on a card with its Luck track, a dungeon's inhabitants, one size and paper."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from pypdf import PdfReader

from dungeonpress import build
from dungeonpress.products import options
from dungeonpress.products.dungeon import roll_dungeon
from dungeonpress.preflight.reading import open_pdf
from dungeonpress.products.foes import COMMANDS, FoesOptions, deck_cards
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
        per_sheet = 4 if "3x5" in name else 8  # eight A7 cards fill a landscape A4 sheet
        assert len(reader.pages) == -(-cards // per_sheet)
        width, height = (float(v) for v in reader.pages[0].mediabox[2:])
        assert (round(width), round(height)) == ((612, 792) if "letter" in name else (842, 595))
        text = "\n".join(page_texts(data))
        for creature in content.creatures:
            assert creature.name.upper()[:6] in text.upper() or creature.name[:6] in text, creature.name
        blanks = -cards % per_sheet  # the last sheet is made whole with blank foe cards, each with its Luck track
        assert len(re.findall(r"^Luck\s*$", text, re.M)) == len(content.creatures) + blanks
        assert "Chance higher" in text and "Alters the location" in text
        # a stat block: every creature's tag reads on one line with its label, the label first
        tags = sum(len(views.creature_card(creature)["tags"]) for creature in content.creatures)
        assert len(re.findall(r"^(?:Concept|Skills|Frailty|Gear|Goal|Motive|Nemesis) \S", text, re.M)) == tags


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
    rivals = 1 if (len(met) + 2 + 2) % 8 == 1 else 2  # not a second rival alone on a sheet
    assert text.count("Rival delver") == rivals
    blanks = -(len(met) + rivals + 2) % 8
    assert len(re.findall(r"^Luck\b", text, re.M)) == len(met) + rivals + blanks  # one Luck track a card
    assert run(content, seed=77, deck="dungeon", size="a7", rooms=10) == made  # same seed, same bytes


@pytest.mark.slow
@pytest.mark.parametrize("size,paper,mm", [("3x5", "a4", (210, 297)), ("a7", "letter", (279, 216))])
def test_a_deck_of_one_size_and_paper(content, size, paper, mm):
    """The sheet is the paper asked for, not the card size's default (3x5 cards on A4 came out on Letter)."""
    made = run(content, size=size, paper=paper)
    assert list(made) == [f"foe-cards-bestiary-{size}-{paper}.pdf"]
    box = PdfReader(io.BytesIO(made[f"foe-cards-bestiary-{size}-{paper}.pdf"])).pages[0].mediabox
    assert (round(float(box.width) / MM), round(float(box.height) / MM)) == mm


# Cards fill their sheets and themselves: no lone card on a dungeon deck's last sheet, every card's words
# inside it and above its Luck track.

def test_a_dungeon_deck_never_leaves_one_card_alone_on_its_last_sheet(content):
    counts = set()
    for seed in range(40):
        ctx = build.context_for(content, seed=seed)
        cards, _ = deck_cards(ctx, "dungeon", 8, per_sheet=8, extra=2)
        total = len(cards) + 2  # with the oracle and the twist card
        assert total % 8 != 1, seed
        assert 1 <= sum(card["kind"] == "npc" for card in cards) <= 2
        counts.add(total % 8)
    assert len(counts) > 3  # the seeds tried do reach many remainders


def test_blank_cards_make_the_last_sheet_whole():
    dealt = views.with_blanks([{"kind": "foe"}] * 11, 8)
    assert len(dealt) == 16 and [c["kind"] for c in dealt[11:]] == ["blank"] * 5
    assert views.with_blanks([{"kind": "foe"}] * 8, 8) == [{"kind": "foe"}] * 8


def test_fitted_type_stays_between_the_minimum_and_the_decks_largest(content):
    for size in views.CARD_SIZES:
        sizes = {views.fit_text(views.creature_card(c, "Met in room 3"), size)["text_pt"] for c in content.creatures}
        assert min(sizes) >= views.MIN_PT and max(sizes) <= views.LARGEST_PT[size]
    # a long flavour is dropped before the type goes below the minimum
    long = views.creature_card(content.creatures[0]) | {"flavour": "word " * 400}
    assert views.fit_text(long, "a7")["flavour"] == ""


@pytest.mark.slow
@pytest.mark.parametrize("given", [{"size": "a7"}, {"size": "a7", "deck": "dungeon"}, {"size": "a7", "paper": "letter"}])
def test_every_cards_words_stay_inside_it_and_above_its_luck_track(content, tmp_path, given):
    ctx = build.context_for(content, seed=1234)
    opts = options.parse(FoesOptions, given)
    (output,) = COMMANDS[0].run(ctx, opts)
    assert COMMANDS[0].run(build.context_for(content, seed=1234), opts)[0].data == output.data  # byte-identical
    path = tmp_path / output.name
    path.write_bytes(output.data)
    geometry = views.sheet_geometry("a7", given.get("paper", "a4"))
    doc = open_pdf(Path(path))
    try:
        for page in doc.pages:
            assert (round(page.width / MM), round(page.height / MM)) == (round(geometry["sheet_w"]),
                                                                           round(geometry["sheet_h"]))
            filled = 0
            for x, y in geometry["slots"]:
                box = (x * MM, y * MM, (x + geometry["card_w"]) * MM, (y + geometry["card_h"]) * MM)
                words = [w for w in page.words if box[0] <= (w["x0"] + w["x1"]) / 2 < box[2]
                         and box[1] <= (w["top"] + w["bottom"]) / 2 < box[3]]
                if not words:
                    continue
                filled += 1
                # inside the card, and at least 5.5 mm from the card's edges (the sheet's edge, for outer cards)
                for w in words:
                    assert w["x0"] >= box[0] + 5 * MM and w["x1"] <= box[2] - 5 * MM, w["text"]
                    assert w["top"] >= box[1] + 5 * MM and w["bottom"] <= box[3] - 5 * MM, w["text"]
                luck = [w for w in words if w["text"] == "Luck"]
                if luck:  # a foe's words end above its foot (the "Met in" line and the Luck track)
                    foot = min(w["top"] for w in words if w["text"] in ("Luck", "Met"))
                    assert all(w["bottom"] <= foot + 0.5 for w in words if w["top"] < foot - 1)
            assert filled == geometry["per_sheet"]  # every slot of every sheet holds a card
    finally:
        doc.close()


@pytest.mark.slow
@pytest.mark.parametrize("size, kept", [("a7", 35), ("3x5", 36)])
def test_every_foe_card_says_its_tier_beside_its_drawn_mark_and_keeps_its_description(content, size, kept):
    """Tiers looked alike: each foe card now says its tier in the text layer, at the end of its key line, beside
    five pips drawn (no image on any sheet); the mark takes no creature's description (35 of 36 A7 cards had
    one before it, every 3x5 card)."""
    (data,) = run(content, size=size).values()
    reader = PdfReader(io.BytesIO(data))
    text = " ".join(page.extract_text() for page in reader.pages)
    for creature in content.creatures:
        alive = "Living" if creature.living else "Not living"
        assert re.search(rf"\b{creature.key} {alive}\s+{creature.tier.capitalize()}\b", text), creature.name
    assert all(not page.images for page in reader.pages)
    flat = re.sub(r"[\s-]+", " ", text)
    described = [c for c in content.creatures if " ".join(c.description.split()[:4]) in flat]
    assert len(described) >= kept, [c.name for c in content.creatures if c not in described]
