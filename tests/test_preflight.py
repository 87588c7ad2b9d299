"""Preflight on small PDFs made for each check, on bad input, and over every product of `build all`."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pikepdf
import pytest

from dungeonpress import build, cli, pdf, preflight
from dungeonpress.preflight.text import SHIPPED_FAMILIES
from tests.conftest import shared_reader, slow_fixture

FONTS_CSS = (build.TEMPLATES_DIR / "css" / "fonts.css").read_text().replace("url(../fonts/", "url(fonts/")
PARA = "The lantern gutters as you count the doors again, and the corridor keeps its secrets for now. " * 3


def make_pdf(tmp_path: Path, body: str, *, css: str = "", name: str = "test.pdf", page: str = "A5") -> Path:
    """A PDF from HTML through the project's own WeasyPrint path, in the shipped fonts unless told otherwise."""
    html = (f"<html lang='en'><head><style>{FONTS_CSS}\n@page {{ size: {page}; margin: 15mm; }}\n"
            f"body {{ font-family: Vollkorn; font-size: 10pt; color: #1d1a17; }}\n{css}</style></head>"
            f"<body>{body}</body></html>")
    rendered = pdf.layout_html(html, base_url=build.TEMPLATES_DIR, roots=[build.TEMPLATES_DIR])
    path = tmp_path / name
    path.write_bytes(pdf.write_pdf(rendered))
    return path


def findings(path, check=None, **kw):
    """check_file's findings (of one check), read by the module's one child process (conftest.shared_reader)."""
    return [f for f in preflight.check_file(path, reader=shared_reader(), **kw) if check is None or f.check == check]


def test_clean_page_has_no_findings(tmp_path):
    path = make_pdf(tmp_path, f"<h1>The Sunken Door</h1><p>{PARA}</p>" * 4)
    assert findings(path) == []


def test_shipped_families_match_the_font_folder():
    folders = {p.name.lower().replace("-", "") for p in (build.TEMPLATES_DIR / "fonts").iterdir() if p.is_dir()}
    aliases = ("Paperogue-Marks", "Theme-Marks", "Field-Vollkorn", "Field-Atkinson")
    assert {f.lower() for f in SHIPPED_FAMILIES if f not in aliases} == folders


def test_system_font_fallback_is_an_error_with_its_page(tmp_path):
    path = make_pdf(tmp_path, f"<p>{PARA}</p><p style='break-before: page; font-family: sans-serif'>Plain words</p>")
    found = findings(path, "fonts")
    assert [f.page for f in found] == [2]
    assert found[0].severity == "error" and "does not ship" in found[0].message


def test_small_text_and_small_running_text(tmp_path):
    path = make_pdf(tmp_path, f"<p>{PARA}</p><p style='font-size: 5pt'>tiny label</p>"
                              f"<p style='break-before: page; font-size: 7.5pt'>{PARA}</p>")
    found = findings(path, "text_size")
    assert [(f.page, "label minimum" in f.message) for f in found] == [(1, True), (2, False)]
    assert "8.5 pt body minimum (A5)" in found[1].message


def test_a_tables_cells_are_not_running_text(tmp_path):
    # A Paperogue level's room key (a table at 6.2 pt): its number, letter and a long entry read as one 45-letter line
    # of "running text" below A4's 9 pt (9 of 30 levels). A line of a table cell is judged as a label; the same words
    # as a paragraph still are running text.
    words = "17 H Key, opens 9 · locked, key in 16, stairs down the hall"
    cell = f"<table><tr><th>17</th><td>H</td><td>{words[5:]}</td></tr></table>"
    assert findings(make_pdf(tmp_path, cell, css="table { font-size: 6.2pt; }", page="A4"), "text_size") == []
    loose = make_pdf(tmp_path, f"<p style='font-size: 6.2pt'>{words}</p>", name="p.pdf", page="A4")
    assert [f.check for f in findings(loose, "text_size")] == ["text_size"]


def test_zine_text_is_judged_at_a7(tmp_path):
    body = f"<p style='font-size: 7.5pt'>{PARA}</p>"
    assert findings(make_pdf(tmp_path, body, name="dungeon-zine-a4.pdf", page="A4 landscape"), "text_size") == []
    assert findings(make_pdf(tmp_path, body, name="dungeon-a4.pdf", page="A4"), "text_size")


def test_a_half_letter_page_is_judged_as_the_a5_page_it_is_held_as(tmp_path):
    body = f"<p style='font-size: 8.5pt'>{PARA}</p>"
    half = make_pdf(tmp_path, body, name="dungeon-1-half-letter.pdf", page="5.5in 8.5in")
    assert findings(half, "text_size") == [] and findings(half, "page_size") == []
    assert findings(make_pdf(tmp_path, body, name="dungeon-1-letter.pdf", page="letter"), "text_size")


def test_low_contrast_text_and_text_on_a_dark_panel(tmp_path):
    path = make_pdf(tmp_path, f"<p style='color: #928A7E'>grey label</p>"
                              f"<div style='background: #1d1a17; color: #f4efe6; padding: 4mm'>light on dark</div>")
    found = findings(path, "contrast")
    assert len(found) == 1 and "'greylabel'" in found[0].message


def test_text_hidden_under_a_shape_drawn_over_it(tmp_path):
    """A badge or a positioned box painted after a word hides it; a panel painted before it is its background."""
    over = ("<p style='margin: 0'>Use the pre-rolled answers</p>"
            "<div style='position: absolute; top: 0; left: 0; width: 30mm; height: 6mm; background: #7a1f1f'></div>")
    found = findings(make_pdf(tmp_path, over), "contrast")
    assert len(found) == 1 and "hidden under a shape" in found[0].message and "Usethe" in found[0].message
    under = "<div style='background: #f4efe6; padding: 2mm'><p style='margin: 0'>Use the pre-rolled answers</p></div>"
    assert findings(make_pdf(tmp_path, under, name="u.pdf"), "contrast") == []


def test_stranded_heading_at_the_foot_of_a_page(tmp_path):
    css = "p { orphans: 1; widows: 1; margin: 0; line-height: 4mm } h2 { font-size: 14pt; margin: 0; break-after: auto }"
    body = f"<div style='height: 166mm'></div><h2>Harm and Luck</h2><p>{PARA * 4}</p>"
    found = findings(make_pdf(tmp_path, body, css=css), "stranded_headings")
    assert [f.page for f in found] == [1] and "'Harm and Luck'" in found[0].message
    kept = findings(make_pdf(tmp_path, body, css=css + " h2 { break-before: page }", name="b.pdf"), "stranded_headings")
    assert kept == []


def test_a_lone_letter_at_the_foot_of_a_page_is_not_a_heading(tmp_path):
    # a map's compass "N" in large type under the drawing, with the text running on over the page
    css = "p { margin: 0; line-height: 4mm } .n { font-size: 14pt; margin: 0 }"
    body = f"<p>{PARA}</p><div style='height: 150mm'></div><p class='n'>N</p><p style='break-before: page'>{PARA}</p>"
    assert findings(make_pdf(tmp_path, body, css=css), "stranded_headings") == []
    body = body.replace(">N<", ">No<")
    assert findings(make_pdf(tmp_path, body, css=css, name="b.pdf"), "stranded_headings")


def test_a_maps_scale_at_the_foot_of_a_page_is_not_a_heading(tmp_path):
    # a small dungeon's map drawn large prints its scale ("30 ft") large, over its legend at the page's foot
    css = "p { margin: 0; line-height: 4mm } .scale { font-size: 14pt; margin: 0 }"
    body = (f"<p>{PARA}</p><div style='height: 150mm'></div><p class='scale'>30 ft</p><p>entrance · opening</p>"
            f"<p style='break-before: page'>{PARA}</p>")
    assert findings(make_pdf(tmp_path, body, css=css), "stranded_headings") == []
    body = body.replace(">30 ft<", ">30 Traps<")
    assert findings(make_pdf(tmp_path, body, css=css, name="b.pdf"), "stranded_headings")


def test_a_heading_keeps_two_items_of_its_list_with_it(tmp_path):
    """base.css: a heading near the foot of a page goes over with its list rather than leave one item under it."""
    base_css = (build.TEMPLATES_DIR / "css" / "base.css").read_text()
    css = base_css + " li { margin: 0; line-height: 4mm } h2 { font-size: 14pt; margin: 0 }"
    items = "".join(f"<li>Item {n} of the list</li>" for n in range(1, 9))
    body = f"<div style='height: 162mm'></div><h2>Twists</h2><ol>{items}</ol><p>{PARA}</p>"
    path = make_pdf(tmp_path, body, css=css)
    assert findings(path, "stranded_headings") == []
    with pikepdf.open(path) as opened:
        assert len(opened.pages) == 2


def test_hyphenation_in_a_narrow_cell_but_not_in_running_text(tmp_path):
    table = "<table style='width: 30mm'><tr><td>1</td><td style='width: 12mm'>Organi&shy;zation</td></tr></table>"
    found = findings(make_pdf(tmp_path, table), "hyphenation")
    assert len(found) == 1 and "'Organi‐zation'" in found[0].message.replace("-", "‐")
    wide = f"<p style='hyphens: auto'>{PARA} Organi&shy;zation {PARA}</p>"
    assert findings(make_pdf(tmp_path, wide, name="w.pdf"), "hyphenation") == []


def test_table_rows_carried_alone_onto_a_page(tmp_path):
    breaking = ' style="break-before: page"'
    rows = "".join(f"<tr{breaking if i == 9 else ''}><td>{i}</td><td>A room of dust</td></tr>" for i in range(1, 11))
    css = "td { padding: 0 3mm }"
    found = findings(make_pdf(tmp_path, f"<table>{rows}</table><p>{PARA}</p>", css=css), "table_fragments")
    assert [f.page for f in found] == [2]
    headed = make_pdf(tmp_path, f"<table><thead><tr><th>d10</th><th>Room</th></tr></thead>{rows}</table><p>{PARA}</p>",
                      css=css, name="headed.pdf")
    assert [f.page for f in findings(headed, "table_fragments")] == [2]  # the repeated header does not hide the fragment
    # an imposition is in folding order: the reading-order file beside it is the one checked for fragments
    sheet = make_pdf(tmp_path, f"<table>{rows}</table><p>{PARA}</p>", css=css, name="t-booklet-a4.pdf", page="A4 landscape")
    assert findings(sheet, "table_fragments") == []
    whole = "".join(f"<tr><td>{i}</td><td>A room of dust</td></tr>" for i in range(1, 11))
    assert findings(make_pdf(tmp_path, f"<table>{whole}</table>", css=css, name="w.pdf"), "table_fragments") == []


def test_letters_cut_off_at_the_edge_of_an_imposed_zine_page(tmp_path):
    from dungeonpress import impose

    def zine(wide: bool, name: str) -> list:
        css = "@page { size: 74.25mm 105mm; margin: 5mm } p { margin: 0 } .wide { white-space: nowrap }"
        line = "Yes, but… 6/1 · 6  No, and… 4 · 5/5  Yes, and… 6 · 3/5" if wide else "Yes, but… 6/1 · 6"
        pages = "".join(f"<p style='break-before: page' class='wide'>{line}</p>" if n else f"<p class='wide'>{line}</p>"
                        for n in range(8))
        reading = make_pdf(tmp_path, pages, css=css, name=f"reading-{name}")
        path = tmp_path / name
        path.write_bytes(impose.impose_zine(reading.read_bytes(), "a4"))
        return findings(path, "panels")

    cut = zine(True, "dungeon-1-zine-a4.pdf")
    assert [f.page for f in cut] == [1] and "cut off" in cut[0].message and "3/5" in cut[0].message
    assert zine(False, "dungeon-2-zine-a4.pdf") == []


def test_nearly_empty_page_is_a_warning(tmp_path):
    path = make_pdf(tmp_path, f"<p>{PARA * 6}</p><p style='break-before: page'>One lonely line.</p>")
    found = findings(path, "fill")
    assert [(f.page, f.severity) for f in found] == [(2, "warning")]


def test_ink_near_the_sheet_edge_but_not_bleed(tmp_path):
    near = make_pdf(tmp_path, "<p>Words in the margin</p>", css="@page { margin: 2mm }")
    assert [f.page for f in findings(near, "edges")] == [1]
    bleed = make_pdf(tmp_path, "<p>Words</p>", css="@page { margin: 15mm; background: #7a1f1f } p { color: white }",
                     name="bleed.pdf")
    assert findings(bleed, "edges") == []


def test_the_edge_check_measures_a_glyphs_ink_not_its_fonts_descent(tmp_path):
    # Found on the dyslexia-friendly zine of seed 13 on A4: room 5's exits ("N → 6, E → 3, W → 7") ended an upside-down
    # panel 5.2 mm from the sheet's top. Atkinson Hyperlegible has no arrow, Vollkorn lends it, and Vollkorn's deeper
    # descent put the arrows' boxes 4.9 mm from the edge, where the ink is 6.2 mm from it. The same arrows, upside
    # down at the top of a page: their boxes 4.3 mm from the edge, their ink 5.9 mm.
    sheet = make_pdf(tmp_path, "<p style='position: absolute; left: 20mm; top: 4.5mm; margin: 0; "
                               "transform: rotate(180deg)'>\u2192 \u2192 \u2192</p>",
                     css="@page { margin: 0 } body { font-family: 'Atkinson Hyperlegible', Vollkorn; font-size: 9pt }")
    assert findings(sheet, "edges") == []
    from dungeonpress.preflight import reading
    arrows = [c for c in reading.open_pdf(sheet).pages[0].chars if c["text"] == "\u2192"]
    assert len(arrows) == 3 and all(c["top"] < 5 * reading.MM < c["ink_top"] for c in arrows)
    assert all("Vollkorn" in c["fontname"] for c in arrows)


def test_page_size_claimed_by_the_name_and_mixed_sizes(tmp_path):
    assert [f.page for f in findings(make_pdf(tmp_path, "<p>x</p>", name="sheet-a4.pdf"), "page_size")] == [1]
    mixed = make_pdf(tmp_path, "<p>x</p><p style='page: wide'>y</p>", css="@page wide { size: A4 }", name="m.pdf")
    assert [f.page for f in findings(mixed, "page_size")] == [2]


def test_booklet_page_count_must_fold(tmp_path):
    five = make_pdf(tmp_path, "".join(f"<p style='break-before: page'>{PARA}</p>" for _ in range(5)))
    found = findings(five, "page_count")
    assert len(found) == 1 and "multiple of 4 (add 3)" in found[0].message
    eight = make_pdf(tmp_path, "".join(f"<p style='break-before: page'>{PARA}</p>" for _ in range(8)), name="e.pdf")
    assert findings(eight, "page_count") == []


def test_character_sheets_are_loose_sheets_and_need_no_fold(tmp_path):
    # four A5 pre-rolled delvers (two sides each) and their rules page: nine pages, printed one to a sheet side
    nine = "".join(f"<p style='break-before: page'>{PARA}</p>" for _ in range(9))
    for name in ("characters-1234.pdf", "sheet-dungeoneer-a5-print.pdf"):
        assert findings(make_pdf(tmp_path, nine, name=name), "page_count") == []
    assert len(findings(make_pdf(tmp_path, nine, name="dungeon-1234-a5.pdf"), "page_count")) == 1


def test_shop_boxes(tmp_path):
    art = "@page { background: #7a1f1f } p { color: white }"
    no_bleed = make_pdf(tmp_path, "<p>x</p>", css=art)
    assert findings(no_bleed, "print_boxes") == []  # only with --shop
    assert "bleed" in findings(no_bleed, "print_boxes", shop=True)[0].message
    with_bleed = make_pdf(tmp_path, "<p>x</p>", css=art + " @page { bleed: 3mm }", name="b.pdf")
    assert findings(with_bleed, "print_boxes", shop=True) == []
    stripped = tmp_path / "stripped.pdf"
    with pikepdf.open(with_bleed) as doc:
        for page in doc.pages:
            del page.obj["/TrimBox"]
        doc.save(stripped)
    assert "no TrimBox" in findings(stripped, "print_boxes", shop=True)[0].message


def run(*argv):
    out, err = io.StringIO(), io.StringIO()
    code = cli.main(["preflight", *map(str, argv)], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.slow
def test_command_exit_codes_json_and_strict(tmp_path):
    clean = make_pdf(tmp_path, f"<p>{PARA}</p>")
    assert run(clean)[0] == 0
    warned = make_pdf(tmp_path, f"<p>{PARA * 6}</p><p style='break-before: page'>One line.</p>", name="w.pdf")
    assert run(warned)[0] == 0 and run(warned, "--strict")[0] == 1
    bad = make_pdf(tmp_path, "<p style='font-size: 4pt'>tiny</p>", name="bad.pdf")
    code, out, _ = run(bad, "--json")
    assert code == 1 and json.loads(out)[0]["check"] == "text_size" and json.loads(out)[0]["page"] == 1


def test_bad_input_is_one_line_and_exit_1(tmp_path):
    good = make_pdf(tmp_path, f"<p>{PARA}</p>")
    (tmp_path / "notes.pdf").write_text("not a pdf")
    (tmp_path / "cut.pdf").write_bytes(good.read_bytes()[:2000])
    locked = tmp_path / "locked.pdf"
    with pikepdf.open(good) as doc:
        doc.save(locked, encryption=pikepdf.Encryption(user="x", owner="y"))
    for target, words in ((tmp_path, "folder"), (tmp_path / "notes.pdf", "not a PDF"), (tmp_path / "cut.pdf", "truncated"),
                          (locked, "encrypted"), (tmp_path / "missing.pdf", "cannot read")):
        code, _, err = run(target)
        problem = [line for line in err.splitlines() if line.startswith("error:")]
        assert code == 1 and len(problem) == 1 and words in problem[0], (target, err)
        assert "Traceback" not in err


@pytest.fixture(scope="module")
@slow_fixture
def product_findings(content, tmp_path_factory):
    """Every PDF `build all` makes in the standard theme (the builds the whole run shares), each preflighted once:
    (PDF names, findings). The other four themes are preflighted in tests/test_themes.py."""
    from tests.test_themes import built_in
    folder = tmp_path_factory.mktemp("build-all")
    names, found = [], []
    for name, data in sorted(built_in(content, "standard").items()):
        (folder / name).write_bytes(data)
        names.append(name)
        found += preflight.check_file(folder / name, reader=shared_reader())
    return names, found


@pytest.mark.builds("theme:standard")
def test_every_product_is_free_of_preflight_errors(product_findings):
    pdfs, found = product_findings
    assert len(pdfs) >= 30
    assert [str(f) for f in found if f.severity == preflight.ERROR] == []


@pytest.mark.slow
def test_build_commands_preflight_what_they_wrote(tmp_path):
    args = ["paper", "--grid", "square", "--paper", "a4", "--quiet", "--out", str(tmp_path)]
    out, err = io.StringIO(), io.StringIO()
    assert cli.main([*args, "--preflight"], stdout=out, stderr=err) == 0  # page problems fail a build only with --strict
    found = preflight.check_file(tmp_path / "paper-square-a4.pdf")
    errors = sum(f.severity == preflight.ERROR for f in found)
    summary = [line for line in err.getvalue().splitlines() if line.startswith("preflight:")]
    if found:
        assert len(summary) == 1 and f"{errors} error(s)" in summary[0]
    else:
        assert summary == []
    strict = cli.main([*args, "--preflight", "--strict"], stdout=io.StringIO(), stderr=io.StringIO())
    assert strict == (1 if found else 0)
    quiet = io.StringIO()
    cli.main(args, stdout=io.StringIO(), stderr=quiet)  # off by default outside `build all`
    assert "preflight:" not in quiet.getvalue()


def test_a_line_is_as_big_as_most_of_its_letters():
    """A small-capitals label at one end of a 7 pt line (first on an upside-down zine panel) does not make it small."""
    from dungeonpress.preflight.reading import Segment
    from dungeonpress.preflight.text import _body_size
    words = [{"text": "Trigger:", "size": 6.2}, {"text": "Major trap: Stair Scythes.", "size": 7.0},
             {"text": "Encounter", "size": 6.2}]
    assert _body_size(Segment(0, 1, 0, 1, "", 6.2, "Cinzel", words)) == 7.0
    assert _body_size(Segment(0, 1, 0, 1, "", 6.2, "Cinzel", words[:1] + words[2:])) == 6.2
