"""Preflight finds text printed over text and headings stranded above white space (small PDFs made for each)."""

from __future__ import annotations

from tests.test_preflight import PARA, findings, make_pdf

# The large-print rulebook's Quick Reference (issue 27): two columns side by side, the oracle table in
# the left one set without wrapping and wider than its column, so it printed over the right column's text.
QUICKREF = ("<div style='display: table; table-layout: fixed; width: 100%'>"
            "<div style='display: table-cell; width: 50%; vertical-align: top'>{left}</div>"
            "<div style='display: table-cell; width: 50%; vertical-align: top; padding-left: 2mm'><p style='font-size: 14pt; margin: 0'>{right}</p></div></div>")
ORACLE = ("<table style='width: auto; white-space: nowrap; font-size: 14pt'><tr><th></th><th>both 1–3</th>"
          "<th>mixed</th><th>both 4–6</th></tr><tr><th>Chance wins</th><td>Yes, but…</td><td>Yes</td>"
          "<td>Yes, and…</td></tr></table>")
STEPS = "Encounter check on entering a room, after a navigation roll, or when light dies in a dangerous room."


def test_a_table_wider_than_its_column_prints_over_the_next_column(tmp_path):
    path = make_pdf(tmp_path, QUICKREF.format(left=ORACLE, right=STEPS * 2))
    found = findings(path, "overprint")
    assert [(f.page, f.severity) for f in found] == [(1, "error")]
    assert "text printed over text" in found[0].message


def test_columns_that_hold_their_text_and_lines_set_solid_are_not_overprinting(tmp_path):
    narrow = ORACLE.replace("white-space: nowrap; font-size: 14pt", "font-size: 8pt")
    assert findings(make_pdf(tmp_path, QUICKREF.format(left=narrow, right=STEPS * 2)), "overprint") == []
    solid = f"<p style='line-height: 1; font-size: 12pt'>{PARA}</p><p style='font-style: italic'>ff fl AV Ty {PARA}</p>"
    assert findings(make_pdf(tmp_path, solid, name="solid.pdf"), "overprint") == []


def test_a_line_drawn_twice_in_one_place_is_not_overprinting(tmp_path):
    """A map label's white halo is the label drawn again under its ink."""
    halo = ("<div style='position: relative'><span style='position: absolute; top: 0; left: 0; color: #fff'>Shrine</span>"
            "<span style='position: absolute; top: 0; left: 0'>Shrine</span></div>")
    assert findings(make_pdf(tmp_path, halo), "overprint") == []


# The large-print rulebook's d66 tables (issue 27): a section's title and its one-line lead-in, then white
# space, the table (with its own smaller title) too tall to follow them and set on the next page.
CSS = "h2 { font-size: 18pt; margin: 0 } h4 { font-size: 15pt; margin: 0 } p { margin: 0 } table { font-size: 12pt }"
TABLE = "<table>" + "".join(f"<tr><th>{n}</th><td>A row of the table</td></tr>" for n in range(11, 41)) + "</table>"


def test_a_heading_and_one_line_above_white_space_is_stranded(tmp_path):
    body = (f"<h2>Stress Tags</h2><p>Roll when a conflict is lost.</p>"
            f"<div style='break-before: page'><h4>Stress</h4>{TABLE}</div>")
    found = findings(make_pdf(tmp_path, body, css=CSS), "stranded_headings")
    assert [f.page for f in found] == [1] and "'Stress Tags' has 1 line(s)" in found[0].message


def test_a_section_that_ends_on_its_page_or_goes_on_in_a_drawing_is_not_stranded(tmp_path):
    ends = f"<h2>Stress Tags</h2><p>Roll when a conflict is lost.</p><h2 style='break-before: page'>Fatigue</h2><p>{PARA}</p>"
    assert findings(make_pdf(tmp_path, ends, css=CSS), "stranded_headings") == []
    lines = "".join("<div style='border-bottom: 0.5pt solid #555; height: 7mm'></div>" for _ in range(20))
    notes = f"<h2>Notes</h2>{lines}<p style='break-before: page'>{PARA}</p>"
    assert findings(make_pdf(tmp_path, notes, css=CSS, name="notes.pdf"), "stranded_headings") == []


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
