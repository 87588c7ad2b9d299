"""preflight.layout: table fragments of up to four rows (under a quarter page deep) are found, from a tagged PDF's table
structure where it has one; base.css breaks a table with five rows or more each side."""

from __future__ import annotations

from tests.test_preflight import PARA, findings, make_pdf


def test_four_rows_carried_onto_a_page_are_a_fragment(tmp_path):
    breaking = ' style="break-before: page"'
    rows = "".join(f"<tr{breaking if i == 7 else ''}><td>{i}</td><td>A room of dust</td></tr>" for i in range(1, 11))
    found = findings(make_pdf(tmp_path, f"<table>{rows}</table><p>{PARA}</p>", css="td { padding: 0 3mm }"), "table_fragments")
    assert [f.page for f in found] == [2] and "4 table row(s)" in found[0].message


def test_base_css_breaks_a_table_with_five_rows_or_more_on_each_side(tmp_path):
    """Placed so that the page would end three rows before the table does, the table carries five rows over."""
    import pikepdf
    from dungeonpress import build
    base_css = (build.TEMPLATES_DIR / "css" / "base.css").read_text()
    css = base_css + " td, th { line-height: 5mm; padding: 0 3mm }"
    rows = "".join(f"<tr><th>{i}</th><td>A room of dust</td></tr>" for i in range(1, 31))
    # under a 24 mm spacer 27 rows fit on the page: left to itself the table would carry 3 rows over
    body = f"<div style='height: 24mm'></div><table><thead><tr><th>d30</th><th>Room</th></tr></thead>{rows}</table>"
    path = make_pdf(tmp_path, body, css=css)
    with pikepdf.open(path) as opened:
        assert len(opened.pages) == 2
    assert findings(path, "table_fragments") == []
    from dungeonpress.preflight.reading import open_pdf
    from dungeonpress.preflight.text import content_rows
    doc = open_pdf(path)
    try:
        carried = [row for row in content_rows(doc.pages[1]) if row[0].text.strip().isdigit()]
    finally:
        doc.close()
    assert len(carried) >= 5


# A zine panel (zine.css): 5 mm margins, the running head in the top one and nothing in the foot one.
ZINE_PANEL = "74.25mm 105mm"
ZINE_CSS = ("@page { margin: 5mm } body { margin: 0; font-size: 8pt; line-height: 5mm } div { white-space: nowrap }"
            " b { display: inline-block; width: 6mm }")


def test_a_zine_panels_last_lines_are_read_as_its_body_not_as_a_folio(tmp_path):
    """Large print, seed 9: room 4's entry ended p3 whole, its last two short lines in the panel's foot 12 mm, which
    a book page keeps for its folio; read without them, its first line looked like a table row alone at the foot
    and room 5 overleaf like the one carried over. A zine panel's foot margin is 5 mm and holds no folio."""
    entry = ("<div><b>4</b>Long corridor, cracked walls. Ancient</div><div>runes on the walls.</div>"
             "<div>Exits E 6, S 3.</div>")
    nxt = ("<div style='break-before: page'><b>5</b>Empty room, dust-filled and cold. Dust-covered</div><div>crates.</div>"
           "<div>Exits N 7, E 3.</div>")
    body = f"<div style='height: 80mm'></div>{entry}{nxt}"
    path = make_pdf(tmp_path, body, css=ZINE_CSS, name="dungeon-9-zine-reading.pdf", page=ZINE_PANEL)
    assert findings(path, "table_fragments") == []


def test_a_table_row_alone_at_a_zine_panels_foot_is_a_fragment(tmp_path):
    """The same reading finds a real fragment there: one row at the panel's foot, the table's rest overleaf (read with
    a book page's 12 mm folio band, that row was left out and the fragment went unseen)."""
    breaking = " style='break-before: page'"
    rows = "".join(f"<tr{breaking if i == 2 else ''}><td>{i}</td><td>A room of dust</td></tr>" for i in range(1, 9))
    body = f"<p style='height: 88mm; margin: 0'>The lantern gutters.</p><table style='border-spacing: 0'>{rows}</table>"
    css = ZINE_CSS + " td { padding: 0 3mm }"
    found = findings(make_pdf(tmp_path, body, css=css, name="dungeon-1-zine-reading.pdf", page=ZINE_PANEL),
                     "table_fragments")
    assert [(f.page, f.message) for f in found] == [(1, "a table starts with 1 row(s) at the foot of the page and "
                                                        "runs on overleaf")]


# Rows without a die number: the old line-by-line reading took them for prose (large print's Navigation Check, 3 + 3).
ANSWERS = ("Yes, and…", "Yes", "Yes, but…", "No, but…", "No", "No, and…")


def answer_rows(break_at: int, text: str = "Your map holds") -> str:
    breaking = " style='break-before: page'"
    return "".join(f"<tr{breaking if i == break_at else ''}><td>{answer}</td><td>{text}</td></tr>"
                   for i, answer in enumerate(ANSWERS))


def test_a_fragment_of_rows_without_die_numbers_is_found_by_the_tables_tags(tmp_path):
    head = "<thead><tr><th>Answer</th><th>Outcome</th></tr></thead>"
    path = make_pdf(tmp_path, f"<p>{PARA}</p><table>{head}{answer_rows(3)}</table><p>{PARA}</p>", css="td { padding: 0 3mm }")
    found = findings(path, "table_fragments")
    assert [(f.page, f.message) for f in found] == [
        (1, "a table starts with 3 row(s) at the foot of the page and runs on overleaf"),
        (2, "3 table row(s) carried over alone from the page before")]


def test_a_repeated_header_that_wraps_does_not_hide_a_fragment(tmp_path):
    head = "<thead><tr><th>Answer given by the Oracle</th><th>What it means for your map and your way</th></tr></thead>"
    body = f"<p>{PARA}</p><table style='width: 60mm'>{head}{answer_rows(4)}</table><p>{PARA}</p>"
    found = findings(make_pdf(tmp_path, body, css="td, th { padding: 0 3mm }"), "table_fragments")
    assert [(f.page, f.message) for f in found] == [
        (1, "a table starts with 4 row(s) at the foot of the page and runs on overleaf"),
        (2, "2 table row(s) carried over alone from the page before")]


def test_three_rows_a_quarter_page_deep_are_a_table_in_their_own_right(tmp_path):
    """Large print's tables of sentences: three rows of five lines or more are as much reading as a small table."""
    deep = " ".join([PARA] * 2)
    body = f"<table>{answer_rows(3, deep)}</table><p>{PARA}</p>"
    assert findings(make_pdf(tmp_path, body, css="td { padding: 0 3mm; vertical-align: top }"), "table_fragments") == []


def test_a_new_table_under_its_title_at_a_pages_top_is_not_carried_over(tmp_path):
    rows = "".join(f"<tr><td>{i}</td><td>A room of dust</td></tr>" for i in range(1, 4))
    body = (f"<div style='height: 150mm'></div><table>{rows}</table>"
            f"<h3 style='break-before: page'>Exits</h3><table>{rows}</table><p>{PARA}</p>")
    assert findings(make_pdf(tmp_path, body, css="td { padding: 0 3mm }"), "table_fragments") == []


def test_an_untagged_pdf_is_read_line_by_line(tmp_path):
    """Without a structure tree (another tool's PDF) numbered rows are still told from prose by their die numbers."""
    import pikepdf
    breaking = ' style="break-before: page"'
    rows = "".join(f"<tr{breaking if i == 8 else ''}><td>{i}</td><td>A room of dust</td></tr>" for i in range(1, 11))
    path = make_pdf(tmp_path, f"<table>{rows}</table><p>{PARA}</p>", css="td { padding: 0 3mm }")
    with pikepdf.open(path, allow_overwriting_input=True) as opened:
        del opened.Root.StructTreeRoot
        opened.save(path)
    found = findings(path, "table_fragments")
    assert [(f.page, f.message) for f in found] == [(2, "3 table row(s) carried over alone from the page before")]
