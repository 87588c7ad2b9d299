"""preflight.layout: table fragments of up to four rows are found; base.css breaks a table with five rows or more each side."""

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
