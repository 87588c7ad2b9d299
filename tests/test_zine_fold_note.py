"""The zine's fold-and-cut note: where each fit prints it, and the zine it left a ninth page (issue 27)."""

from __future__ import annotations

import io
import re

import pypdf
import pytest

from dungeonpress import build
from dungeonpress.products import dungeon as product

NOTE = "Cut only along the red line"


def sections(html: str) -> dict:
    """The zine's page sections by id: id → its HTML up to the next section."""
    parts = re.split(r'<section class="page[^"]*" id="(zine-[a-z]+)"', html)
    return dict(zip(parts[1::2], parts[2::2]))


@pytest.mark.parametrize("fit,page", [("whole", "zine-aids"), ("packed", "zine-aids"), ("crowded", "zine-aids"),
                                      ("split", "zine-oracle")])
def test_the_fold_note_is_printed_once_on_the_page_its_fit_gives_it(content, fit, page):
    """The last resort (split) leaves out the oracle's pre-rolled answers: the note takes two of those lines, not the
    aids page's foot, which a long wandering table in wide letters ran onto a ninth page."""
    ctx = build.context_for(content, seed=13)
    dungeon = product.roll_dungeon(ctx, 13, product.DEFAULT_ROOMS)
    html = product.zine_html(ctx, dungeon, 13, product.DEFAULT_ROOMS, "letter", fit)
    found = {name: body.count("only along the red line") for name, body in sections(html).items()}
    assert found[page] == 1
    assert sum(found.values()) == 1


@pytest.mark.slow  # lays whole zines out
@pytest.mark.parametrize("seed,paper,theme", [(13, "letter", "dyslexia-friendly"), (13, "a4", "dyslexia-friendly"),
                                              (22, "a4", "dyslexia-friendly"), (31337, "letter", "large-print")])
def test_a_long_key_in_wide_letters_stays_eight_pages(content, seed, paper, theme):
    """Seed 13 on Letter in dyslexia-friendly came out at nine pages (an error); the longest keys in the wide themes."""
    ctx = build.context_for(content, seed=seed, theme=theme)
    rooms = product.DEFAULT_ROOMS
    pages = pypdf.PdfReader(io.BytesIO(product.zine_pages(ctx, product.roll_dungeon(ctx, seed, rooms), seed, rooms,
                                                          paper))).pages
    assert len(pages) == 8
    text = [" ".join(page.extract_text().split()) for page in pages]
    assert sum(page.count(NOTE) for page in text) == 1
    assert sum(page.count("Exits") for page in text[2:5]) == rooms
