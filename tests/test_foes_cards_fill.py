"""Foe cards fill their sheets and themselves: eight A7 a sheet, no lone card on a dungeon deck's last sheet,
every card's words inside it and above its Luck track."""

from __future__ import annotations

from pathlib import Path

import pytest

from dungeonpress import build
from dungeonpress.preflight.reading import open_pdf
from dungeonpress.products import options
from dungeonpress.products.foes import COMMANDS, FoesOptions, deck_cards
from dungeonpress.views import foes as views

MM = 72 / 25.4


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
