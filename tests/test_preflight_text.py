"""preflight.text: a heading left with a line or two above white space is stranded; one over a drawing, or ending its section, is not."""

from __future__ import annotations

from tests.test_preflight import PARA, findings, make_pdf

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


def test_a_bold_cell_in_a_tables_last_row_is_not_a_stranded_heading(tmp_path):
    # A large-print pack of two: its Delves Played table's last row, "4–6 The Bleeding Maze of the Shrike Hills" set
    # bold and larger than the page's text and wrapped over three lines, read as a heading with two lines under it.
    row = "<tr><th>{}</th><td style='width: 30mm'><b>{}</b></td></tr>"
    table = ("<table style='font-size: 13pt'>" + row.format("1–3", "The Veiled Temple of the Sallow Vale")
             + row.format("4–6", "The Bleeding Maze of the Shrike Hills") + "</table>")
    after = f"<p style='break-before: page'>{PARA}</p>"
    assert findings(make_pdf(tmp_path, f"<p>{PARA}</p><p>{PARA}</p>{table}{after}"), "stranded_headings") == []
    lines = "<div style='width: 40mm'><p style='font-size: 13pt'><b>4–6 The Bleeding Maze of the Shrike Hills</b></p></div>"
    loose = make_pdf(tmp_path, f"<p>{PARA}</p><p>{PARA}</p>{lines}{after}", name="loose.pdf")
    assert [f.check for f in findings(loose, "stranded_headings")] == ["stranded_headings"]


# The dyslexia-friendly rulebook's Resources chapter (issue 27, p55): WeasyPrint broke its first line after 'Every'.
LONE = "every delve is a race against your own pack, and the torches burn down while the rope frays. " * 3


def test_a_word_alone_above_a_full_line_of_its_paragraph_is_found(tmp_path):
    found = findings(make_pdf(tmp_path, f"<p>{PARA}</p><p>Every<br>{LONE}</p>"), "lone_words")
    assert [(f.page, f.severity) for f in found] == [(1, "warning")] and "'Every'" in found[0].message


def test_a_one_word_last_line_or_a_list_of_single_words_is_not_a_lone_word(tmp_path):
    ends = f"<p>{PARA}ended</p><p>{PARA}</p><ul><li>Torch</li><li>Rope</li><li>{PARA}</li></ul>"
    assert findings(make_pdf(tmp_path, ends), "lone_words") == []
