"""The oracle card: one A6 page whose answers and odds come from the oracle's rules."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from dungeonpress.generate import oracle
from tests.conftest import slow_fixture, standard_build


@pytest.fixture(scope="module")
@slow_fixture
def built():
    """`build all`'s oracle job, shared by the run: ({name: bytes}, WeasyPrint's warnings)."""
    return standard_build("oracle")


def test_one_a6_page_with_every_answer_and_its_odds(built):
    outputs, warnings = built
    assert list(outputs) == ["oracle-card.pdf"] and warnings == []
    reader = PdfReader(io.BytesIO(outputs["oracle-card.pdf"]))
    assert len(reader.pages) == 1
    assert [round(float(v) * 25.4 / 72) for v in reader.pages[0].mediabox[2:]] == [105, 148]
    text = reader.pages[0].extract_text()
    for answer in oracle.ANSWERS:
        assert answer in text
    assert oracle.percent(oracle.oracle_odds("plain")[oracle.YES]) in text


def test_the_card_closes_with_the_twist_table_and_its_counter(built):
    """Issue 27: the card left a fifth of its page white; the twist table the equal dice lead to fills it."""
    from dungeonpress import build
    outputs, _ = built
    text = " ".join(PdfReader(io.BytesIO(outputs["oracle-card.pdf"])).pages[0].extract_text().split())
    twist = build.load_content().table("twist")
    assert text.upper().index("EXACT ODDS") < text.upper().index("TWIST (")
    for row in twist.rows:
        assert row.get("subject") in text and row.get("action") in text
