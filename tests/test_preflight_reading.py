"""The preflight's PDF reader (pdfium): characters, words and shapes as the checks expect them."""

from __future__ import annotations

from dungeonpress.preflight import reading, text
from tests.test_preflight import make_pdf

WORDS = "The office filled with fluffy flies as the tide turned"


def test_words_come_back_in_order_with_ligatures_as_letters(tmp_path):
    doc = reading.open_pdf(make_pdf(tmp_path, f"<p>{WORDS}</p>"))
    try:
        page = doc.pages[0]
        assert [w["text"] for w in page.words] == WORDS.split()
        assert "".join(c["text"] for c in page.chars).replace("ﬁ", "fi") == WORDS.replace(" ", "")
        assert len(page.rows) == 1 and page.rows[0][0].text == WORDS
        for c in page.chars:  # pdfminer's box: origin to advance, one em tall, on the page
            assert 0 < c["x0"] < c["x1"] < page.width and 0 < c["top"] < c["bottom"] < page.height
            assert abs((c["bottom"] - c["top"]) - c["size"]) < 0.01
        assert page.body_size == 10.0  # the page sets its text at 10 pt
    finally:
        doc.close()


def test_shapes_and_fonts_are_read(tmp_path):
    body = "<div style='background: #7a1f1f; width: 40mm; height: 20mm'></div><p>x</p>"
    doc = reading.open_pdf(make_pdf(tmp_path, body))
    try:
        page = doc.pages[0]
        filled = [r for r in page.rects if r["fill"]]
        assert any(abs(r["width"] - 40 * reading.MM) < 0.5 and abs(r["height"] - 20 * reading.MM) < 0.5 for r in filled)
        assert all(embedded for _, embedded in page.fonts) and any("Vollkorn" in name for name, _ in page.fonts)
        assert page.box("MediaBox")[2] > 0 and page.box("TrimBox") is not None
    finally:
        doc.close()


def test_a_border_drawn_as_two_fills_is_a_ring_despite_float_noise():
    outer = {"x0": 10.0, "top": 10.0, "x1": 110.0, "bottom": 60.0, "fill": True, "non_stroking_color": (0.5, 0.1, 0.1),
             "width": 100.0, "height": 50.0}
    inner = {**outer, "x0": 12.0, "x1": 110.0 - 7e-7}  # a coincident edge a 32-bit float off
    assert text._nested_close(inner, outer)
    assert not text._nested_close({**inner, "x0": 30.0}, outer)  # 20 pt in: a panel inside a panel, not a ring


def _word(text: str, x0: float, bottom: float, size: float = 7.0) -> dict:
    return {"text": text, "x0": x0, "x1": x0 + 20, "top": bottom - size, "bottom": bottom, "size": size,
            "fontname": "Atkinson", "upright": True}


def test_lines_of_other_panels_between_two_lines_do_not_chain_them_into_one_row():
    # An imposed Letter zine (seed 484, dyslexia-friendly): the upside-down map legend's two lines, 8.5 pt apart, were
    # one row of 60 letters at 6.6 pt, "running text" below the body minimum, chained through words of the panels
    # beside it whose lines stand a point or two lower each.
    legend = [_word(w, 620 + 25 * i, 54.25, 6.6) for i, w in enumerate(("nwod", "sriats", "hguorht"))]
    legend += [_word(w, 632 + 25 * i, 62.75, 6.6) for i, w in enumerate(("rood", "dekcol", "gninepo"))]
    beside = [_word("x", 400, bottom) for bottom in (55.97, 56.43, 57.03, 58.5, 60.0, 61.4)]
    rows = reading._rows(legend + beside)
    legend_rows = [[s.text for s in row if s.x0 >= 600] for row in rows]
    assert [r for r in legend_rows if r] == [["nwod sriats hguorht"], ["rood dekcol gninepo"]]
