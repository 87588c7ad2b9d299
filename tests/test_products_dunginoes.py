"""Dunginoes: the rules card and map sheet PDFs, and the command's options."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from dungeonpress import build, cli
from dungeonpress.generate import dunginoes as g
from dungeonpress.generate.oracle import percent
from dungeonpress.products import dunginoes as product
from tests.conftest import slow_fixture, standard_build


@pytest.fixture(scope="module")
@slow_fixture
def built():
    """`build all`'s dunginoes job (seed 1234, default options) in the standard theme, made once per run:
    ((WeasyPrint's warnings, {name: bytes}), None). The same bytes from another process with another hash
    seed: test_reliability_faults.py (R1)."""
    assert product.DunginoesOptions() == product.DunginoesOptions(size=16)
    outputs, warnings = standard_build("dunginoes")
    return (warnings, outputs), None


@pytest.mark.slow
def test_outputs_are_named_and_byte_identical(built):
    (warnings, first), _ = built
    assert sorted(first) == ["dunginoes-map-1234-before.pdf", "dunginoes-map-1234-fly.pdf", "dunginoes-rules.pdf"]
    assert warnings == []


def test_rules_card_prints_credit_and_simulated_odds(built):
    (_, outputs), _ = built
    reader = PdfReader(io.BytesIO(outputs["dunginoes-rules.pdf"]))
    assert len(reader.pages) == 3  # card front, card back, score sheet
    text = " ".join(" ".join(page.extract_text().split()) for page in reader.pages)
    assert "loveandlossgames.com" in text and "non-commercial" in text
    assert percent(g.simulate().solo_escape) in text
    assert "Solo Score Sheet" in text


def test_map_sheet_is_one_page_and_the_key_the_next(built):
    """The map, its legend and the procedure's paragraph fill page 1; the key stays whole on page 2."""
    (_, outputs), _ = built
    for mode in g.MODES:
        pages = PdfReader(io.BytesIO(outputs[f"dunginoes-map-1234-{mode}.pdf"])).pages
        texts = [" ".join(page.extract_text().split()) for page in pages]
        assert len(texts) == 2
        assert "Laid by the procedure" in texts[0] and "Room key" not in texts[0].title()
        assert "Made with dungeonpress" in texts[1] and texts[1].title().startswith("Room Key")


@pytest.mark.slow  # lays the key sheet out
def test_a_long_key_stays_on_one_page_under_its_heading():
    ctx = build.context_for(build.load_content(), seed=1234)
    outputs = {o.name: o.data for o in product.build_dunginoes(ctx, product.DunginoesOptions(size=28, mode="fly"))}
    pages = PdfReader(io.BytesIO(outputs["dunginoes-map-1234-fly.pdf"])).pages
    texts = [" ".join(page.extract_text().split()) for page in pages]
    assert len(texts) == 2 and texts[1].title().startswith("Room Key")
    assert "Final encounter" in texts[1] and "Made with dungeonpress" in texts[1]


def test_map_pdf_has_key(built):
    (_, outputs), _ = built
    text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(outputs["dunginoes-map-1234-fly.pdf"])).pages)
    assert "Room key" in text.title() or "ROOM KEY" in text.upper()
    assert "Final encounter" in text


def test_cli_refuses_a_size_the_set_cannot_make(tmp_path):
    err = io.StringIO()
    status = cli.main(["dunginoes", "--seed", "1", "--size", "40", "--quiet", "--out", str(tmp_path)],
                      stdout=io.StringIO(), stderr=err)
    assert status == 2 and "--size must be a whole number from 2 to 28 (got 40)" in err.getvalue()
    assert not list(tmp_path.iterdir())


# ---------------------------------------------------------------- the key as a play record (issue 27: its sheet was 60% empty)

def test_a_key_laid_before_the_game_is_a_play_record_and_the_fly_key_is_not(built):
    """The 'before' key has a box to tick and a line to write on per room; the on-the-fly key (risk, reward) does not."""
    (_, outputs), _ = built
    before = " ".join(PdfReader(io.BytesIO(outputs["dunginoes-map-1234-before.pdf"])).pages[1].extract_text().split())
    fly = " ".join(PdfReader(io.BytesIO(outputs["dunginoes-map-1234-fly.pdf"])).pages[1].extract_text().split())
    assert "Done Your notes in play" in before
    assert "Your notes in play" not in fly


@pytest.mark.slow  # lays the key sheet out
@pytest.mark.parametrize("size", [20, 28])
def test_a_long_before_key_with_its_play_record_stays_on_one_page(size):
    ctx = build.context_for(build.load_content(), seed=1)
    outputs = {o.name: o.data for o in product.build_dunginoes(ctx, product.DunginoesOptions(size=size, mode="before"))}
    pages = PdfReader(io.BytesIO(outputs["dunginoes-map-1-before.pdf"])).pages
    texts = [" ".join(page.extract_text().split()) for page in pages]
    assert len(texts) == 2 and texts[1].title().startswith("Room Key")
    assert "Your notes in play" in texts[1] and "Made with dungeonpress" in texts[1]
