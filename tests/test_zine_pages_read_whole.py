"""The zine read at the table: a room's entry never turns the page, and nothing breaks where a reader trips on it.

Issue 27 found seed 42's room 4 and seed 2024's room 5 split over a page turn, "cut along this edge" printed on
two pages of the folded zine, and "4–6" and "CC BY-SA" broken over two lines.
"""

from __future__ import annotations

import re

import pypdfium2 as pdfium
import pytest

from dungeonpress import build, pdf
from dungeonpress.paginate import pages
from dungeonpress.products import dungeon as product


def laid_out_zine(content, monkeypatch, seed: int, paper: str, theme: str = "standard"):
    """(the zine's reading pages as PDF bytes, the measures of its last layout, which holds every page)."""
    made = []
    real = product.layout
    monkeypatch.setattr(product, "layout", lambda ctx, html: made.append(real(ctx, html)) or made[-1])
    ctx = build.context_for(content, seed=seed, theme=theme)
    rooms = product.DEFAULT_ROOMS
    data = product.zine_pages(ctx, product.roll_dungeon(ctx, seed, rooms), seed, rooms, paper)
    return data, pdf.measure(made[-1]), rooms


def page_lines(data: bytes) -> list:
    document = pdfium.PdfDocument(data)
    return [document[i].get_textpage().get_text_range().replace("\r", "").split("\n") for i in range(len(document))]


@pytest.mark.slow  # lays whole zines out
@pytest.mark.parametrize("seed,paper", [(42, "a4"), (42, "letter"), (2024, "a4"), (2024, "letter")])
def test_no_key_entry_turns_the_page(content, monkeypatch, seed, paper):
    data, measured, rooms = laid_out_zine(content, monkeypatch, seed, paper)
    spans = pages.anchor_pages(measured)
    split = [n for n in range(1, rooms + 1) if len(spans[f"d1-room-{n}"]) != 1]
    assert split == []
    lines = [line for page in page_lines(data) for line in page]
    assert not any("cut along this edge" in line.lower() for line in lines)
    # a range of die faces or the licence's name ends no line half said
    for before, after in zip(lines, lines[1:]):
        assert not (re.search(r"\d[–-]$", before.strip()) and re.match(r"\d", after.strip())), (before, after)
        assert not before.strip().endswith(("CC BY-", "CC", "CC BY")), (before, after)
