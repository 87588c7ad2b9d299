"""pdf: fonts subset with or without HarfBuzz-Subset, the text layer whole, the same bytes every time."""

from __future__ import annotations

import functools
import io
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
import pytest
import weasyprint.pdf.fonts as weasy_fonts

from dungeonpress import pdf, resources

TEMPLATES = resources.data_dir("templates")
# What broke without HarfBuzz-Subset: lining and tabular digits, a default "fi" ligature, small
# capitals; all three set with the bundled fonts, each a glyph an OpenType feature picks.
FEATURED = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>t</title>
<link rel="stylesheet" href="css/fonts.css"><style>
body { font-family: Vollkorn; font-size: 11pt }
.n { font-variant-numeric: lining-nums tabular-nums } .c { font-variant: small-caps }
</style></head><body>
<p class="n">Roll a Chance d6 and a Risk d6: 1234567890.</p>
<p>The dust-filled, suffocating air.</p>
<p class="c">Small Capitals</p></body></html>"""
EXPECTED = ["Roll a Chance d6 and a Risk d6: 1234567890.", "The dust-filled, suffocating air.", "Small Capitals"]


def _pdf(html: str = FEATURED) -> bytes:
    return pdf.write_pdf(pdf.layout_html(html, base_url=TEMPLATES, roots=[TEMPLATES]))


def _text(data: bytes) -> str:
    document = pdfium.PdfDocument(data)
    try:
        return " ".join(document[0].get_textpage().get_text_range().split())
    finally:
        document.close()


@pytest.fixture
def no_harfbuzz_subset(monkeypatch):
    """WeasyPrint as it runs on a machine without libharfbuzz-subset (it falls back to fontTools)."""
    monkeypatch.setattr(weasy_fonts, "harfbuzz_subset", None)


def test_without_harfbuzz_subset_every_digit_ligature_and_small_capital_reads_back(no_harfbuzz_subset):
    text = _text(_pdf())
    for line in EXPECTED:
        assert line in text, text


def test_without_harfbuzz_subset_fonts_are_still_subset(no_harfbuzz_subset):
    # A whole Vollkorn alone is over 300 kB; three subset fonts for three lines stay far under that.
    assert len(_pdf()) < 60_000


@pytest.mark.skipif(weasy_fonts.harfbuzz_subset is None, reason="libharfbuzz-subset is not installed here")
def test_both_subsetters_give_the_same_text_and_about_the_same_size(monkeypatch):
    with_library = _pdf()
    monkeypatch.setattr(weasy_fonts, "harfbuzz_subset", None)
    without = _pdf()
    assert _text(with_library) == _text(without)
    assert 0.5 < len(without) / len(with_library) < 1.5


@pytest.mark.slow
def test_the_font_timestamp_is_fixed_and_the_environment_put_back(no_harfbuzz_subset, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    first = _pdf()
    assert os.environ["SOURCE_DATE_EPOCH"] == "1700000000"
    monkeypatch.delenv("SOURCE_DATE_EPOCH")
    assert _pdf() == first  # the user's SOURCE_DATE_EPOCH does not reach our bytes
    assert "SOURCE_DATE_EPOCH" not in os.environ


HIDDEN_BUILD = """
import sys
import weasyprint.pdf.fonts
weasyprint.pdf.fonts.harfbuzz_subset = None
from dungeonpress.cli import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.slow
def test_a_zine_without_harfbuzz_subset_is_byte_identical_across_hash_seeds(tmp_path):
    outputs = []
    for hash_seed in ("1", "2"):
        out = tmp_path / hash_seed
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        subprocess.run([sys.executable, "-c", HIDDEN_BUILD, "dungeon", "--layout", "zine", "--seed", "1234",
                        "--out", str(out), "--quiet"], check=True, env=env, capture_output=True)
        outputs.append((out / "dungeon-1234-zine-a4.pdf").read_bytes())
    assert outputs[0] == outputs[1]
    assert len(outputs[0]) < 150_000  # fonts subset: whole fonts made it 1.1 MB
    assert "dungeonpress dungeon --seed 1234" in " ".join(
        " ".join(page.get_textpage().get_text_range().split()) for page in pdfium.PdfDocument(outputs[0]))


def test_page_text_leaves_out_hidden_boxes_and_form_values():
    html = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>t</title></head><body>
    <p>Shown</p><p style="visibility: hidden">Hidden</p></body></html>"""
    rendered = pdf.layout_html(html, base_url=TEMPLATES, roots=[TEMPLATES])
    assert "Shown" in pdf.page_text(rendered, 0) and "Hidden" not in pdf.page_text(rendered, 0)


def test_preflight_reports_glyphs_without_unicode(tmp_path):
    from dungeonpress import preflight
    rendered = pdf.layout_html(FEATURED, base_url=TEMPLATES, roots=[TEMPLATES])
    broken, whole = tmp_path / "broken.pdf", tmp_path / "whole.pdf"
    broken.write_bytes(rendered.document.write_pdf(full_fonts=True))
    whole.write_bytes(_pdf())
    found = [f for f in preflight.check_file(broken) if f.check == "text_layer"]
    assert len(found) == 1 and found[0].severity == "error" and found[0].page == 1
    assert "glyph(s) with no Unicode" in found[0].message
    assert not [f for f in preflight.check_file(whole) if f.check == "text_layer"]


NO_PANGO = """
import sys, cffi
real = cffi.FFI.dlopen
def dlopen(self, name, *args, **kwargs):  # as on a machine where Pango was never installed
    if "pango" in str(name):
        raise OSError(f"cannot load library '{name}'")
    return real(self, name, *args, **kwargs)
cffi.FFI.dlopen = dlopen
from dungeonpress.cli import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.slow
def test_without_pango_a_build_says_what_to_install_in_one_line(tmp_path):
    run = subprocess.run([sys.executable, "-c", NO_PANGO, "oracle", "--out", str(tmp_path)],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 1
    assert run.stdout == ""  # WeasyPrint's own banner is not shown
    assert run.stderr.splitlines() == [f"error: {pdf.MISSING_PANGO}"]
    assert not list(tmp_path.iterdir())


def _sheet_layouts(tmp_path, monkeypatch):
    """(lay out a page linking tmp_path/page.css → its height in px, the stylesheets parsed so far)."""
    parsed = []
    make = pdf.PARSED_SHEETS.make_css
    monkeypatch.setattr(pdf.PARSED_SHEETS, "make_css", lambda *a, **k: parsed.append(k["url"]) or make(*a, **k))

    def page_height() -> float:
        rendered = pdf.layout_html('<link rel="stylesheet" href="page.css"><p>Roll 2d6.</p>', base_url=tmp_path,
                                   roots=[tmp_path])
        assert not rendered.fetcher.refused
        return pdf.measure(rendered)[0].height
    return page_height, parsed


def test_a_linked_stylesheet_is_parsed_once_and_again_when_it_is_edited(tmp_path, monkeypatch):
    (tmp_path / "page.css").write_text("@page { size: 100mm 100mm; margin: 10mm }")
    page_height, parsed = _sheet_layouts(tmp_path, monkeypatch)
    assert page_height() == page_height()
    assert len(parsed) == 1  # the second layout took the sheet as parsed for the first
    tall = page_height()
    (tmp_path / "page.css").write_text("@page { size: 100mm 150mm; margin: 10mm }")
    assert page_height() > tall  # the edit is read: its @page rule reaches the page
    assert len(parsed) == 2


def test_a_kept_stylesheet_that_is_refused_later_is_refused_once(tmp_path, monkeypatch):
    (tmp_path / "page.css").write_text("@page { size: 100mm 100mm }")
    page_height, _ = _sheet_layouts(tmp_path, monkeypatch)
    page_height()
    (tmp_path / "page.css").unlink()
    (tmp_path / "page.css").symlink_to("/etc/hostname")  # a link out of the folder
    with pytest.raises(pdf.RenderError) as caught:
        pdf.layout_html('<link rel="stylesheet" href="page.css"><p>x</p>', base_url=tmp_path, roots=[tmp_path])
    assert str(caught.value).count("file://") == 1  # one refusal, as before sheets were kept


def test_fonts_one_set_of_stylesheets_declares_never_reach_a_document_of_another(tmp_path):
    """A theme's @font-face family ("Theme Marks" in the dyslexia-friendly theme) loaded for one document must not
    be found by the next document of another theme, whose drawings name that family first: the PDF would embed
    a font a fresh process never sees."""
    shutil.copy(resources.data_dir("templates") / "fonts" / "atkinson-hyperlegible" / "AtkinsonHyperlegible-Bold.ttf",
                tmp_path / "marks.ttf")
    (tmp_path / "theme.css").write_text('@font-face { font-family: "Theme Marks"; src: url(marks.ttf); }')
    (tmp_path / "plain.css").write_text("@page { size: 80mm 80mm }")
    plain = '<link rel="stylesheet" href="plain.css"><p style="font-family: \'Theme Marks\', serif">Roll 2d6</p>'
    themed = plain.replace("plain.css", "theme.css")

    def written(html: str) -> tuple:
        data = pdf.write_pdf(pdf.layout_html(html, base_url=tmp_path, roots=[tmp_path]))
        with pikepdf.open(io.BytesIO(data)) as document:
            return data, {str(o.get("/BaseFont")).split("+")[-1] for o in document.objects
                          if isinstance(o, pikepdf.Dictionary) and o.get("/Type") == "/Font"}

    before, fonts = written(plain)
    assert any(name.startswith("Theme-Marks") for name in written(themed)[1])
    assert written(plain)[0] == before and not any(name.startswith("Theme-Marks") for name in fonts)


# WeasyPrint keeps one word of a line that fits when it measures the line wider than Pango fitted it: letter
# spacing (added once more) or the trailing space before an inline element (pdf._longest_fitting_first_line).
SWEEP = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>t</title><style>
@font-face {{ font-family: "Vollkorn"; src: url(fonts/vollkorn/Vollkorn-Regular.ttf); }}
p {{ font: 12pt "Vollkorn"; letter-spacing: {spacing}em; word-spacing: 0.16em; margin: 0 0 6pt; }}
</style></head><body>{paragraphs}</body></html>"""
SWEEP_TEXT = ("Every delve is a race against your own pack. Torches burn down, rope frays, and the dark keeps "
              "what it takes. ") * 2 + '<span style="white-space: nowrap">1–2</span> on a d6.'


def _lone_words(spacing: float) -> list:
    """Lines of one word above more lines of their paragraph, in paragraphs 200 to 260 pt wide."""
    from weasyprint.formatting_structure import boxes
    paragraphs = "".join(f'<p style="width: {200 + step * 0.3:.1f}pt">{SWEEP_TEXT}</p>' for step in range(200))
    rendered = pdf.layout_html(SWEEP.format(spacing=spacing, paragraphs=paragraphs), base_url=TEMPLATES,
                               roots=[TEMPLATES])
    lone = []
    for page in rendered.document.pages:
        for block in page._page_box.descendants():
            if isinstance(block, boxes.BlockBox) and block.element_tag == "p":
                lines = ["".join(t.text for t in line.descendants() if isinstance(t, boxes.TextBox))
                         for line in block.children if isinstance(line, boxes.LineBox)]
                lone += [line for line in lines[:-1] if len(line.split()) == 1]
    return lone


@pytest.mark.slow
@pytest.mark.parametrize("spacing", [0.035, 0])
def test_a_line_that_fits_keeps_all_its_words(spacing):
    assert _lone_words(spacing) == []


@pytest.mark.slow
@pytest.mark.parametrize("spacing", [0.035, 0])
def test_weasyprints_own_line_breaking_leaves_lone_words_in_the_sweep(spacing, monkeypatch):
    import weasyprint.layout.inline as inline  # the planted fault: the correction taken out
    monkeypatch.setattr(inline, "split_first_line", inline.split_first_line.__closure__[0].cell_contents)
    assert len(_lone_words(spacing)) >= 3


def _split_with(answers: dict):
    """The correction over a stand-in for WeasyPrint's split_first_line answering (text, width) from `answers`."""
    asked = []

    def split_first_line(text, style, context, max_width, spacing, is_line_start=True, minimum=False):
        asked.append((text, max_width))
        length, resume, width = answers[text, max_width]
        return "layout", length, resume, width, 10, 8
    return pdf._longest_fitting_first_line(split_first_line), asked


SPACED = {"letter_spacing": 0.5, "white_space": "normal"}


def test_a_line_that_fits_whole_is_weasyprints_own_and_asked_once():
    split, asked = _split_with({("Every delve", 100): (11, None, 99.9)})
    assert split("Every delve", SPACED, None, 100, 0)[1:4] == (11, None, 99.9) and len(asked) == 1


def test_a_letter_spaced_line_cut_to_one_word_keeps_the_line_pango_fits_less_one_spacing():
    split, _ = _split_with({("Every delve is", 100): (5, 6, 40), ("Every delve is", 99.5): (11, 12, 99.4)})
    assert split("Every delve is", SPACED, None, 100, 0)[1:4] == (11, 12, 99.4)
    split, _ = _split_with({("Every delve is", 100): (5, 6, 40), ("Every delve is", 99.5): (11, 12, 100.2)})
    assert split("Every delve is", SPACED, None, 100, 0)[1:4] == (5, 6, 40)  # the longer line does not fit
    split, _ = _split_with({("Every delve is", 100): (11, 12, 99), ("Every delve is", 99.5): (5, 6, 40)})
    assert split("Every delve is", SPACED, None, 100, 0)[1:4] == (11, 12, 99)  # never a shorter line


def test_text_whose_trailing_space_hangs_past_the_edge_fills_the_line_and_breaks_after_it():
    plain = {"letter_spacing": "normal", "white_space": "normal"}
    split, _ = _split_with({("turn each on ", 100): (4, 5, 30), ("turn each on", 100): (12, None, 99)})
    assert split("turn each on ", plain, None, 100, 0)[1:4] == (12, 13, 99)
    split, asked = _split_with({("turn each on ", 100): (4, 5, 30)})
    assert split("turn each on ", {**plain, "white_space": "pre-wrap"}, None, 100, 0)[1] == 4 and len(asked) == 1


# ---------------------------------------------------------------- pages of several layouts, a foot lowered
# The zine is written from the pages of two layouts (its chosen probe and the pages a probe leaves out) and its aids
# page's foot is moved down in place (paginate.zine.assembled): each must give what one layout of the whole gives.

SECTIONS = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>t</title>
<link rel="stylesheet" href="css/fonts.css"><style>@page { size: 74mm 105mm; margin: 5mm }
body { font-family: Vollkorn; font-size: 8pt } section { break-before: page } section:first-child { break-before: auto }
.tall { min-height: 90mm } p { margin: 0 0 1mm }  /* no margin meets the gap (zine.css's aids page has none) */</style></head><body>{}</body></html>"""


def _section(n: int, gap: str = "") -> str:
    spacer = f"<div style='height: {gap}'></div>" if gap else "<div></div>"
    return (f"<section id='s{n}' class='tall'><h2>Part {n}</h2><p>Roll 2d6 and read row {n}–{n + 5} "
            f"of the table.</p>{spacer}<div id='foot-{n}'><p>Foot of part {n}: <a href='#s1'>back</a></p></div></section>")


def _lay(body: str):
    return pdf.layout_html(SECTIONS.replace("{}", body), base_url=TEMPLATES, roots=[TEMPLATES])


def test_pages_of_two_layouts_written_as_one_are_the_whole_layouts_bytes():
    whole = pdf.write_pdf(_lay("".join(_section(n) for n in (1, 2, 3, 4))))
    odd, even = _lay(_section(1) + _section(3)), _lay(_section(2) + _section(4))
    assert pdf.write_pdf(pdf.combined([(odd, [0]), (even, [0]), (odd, [1]), (even, [1])])) == whole
    assert pdf.write_pdf(pdf.combined([(odd, [0]), (odd, [1]), (even, [0]), (even, [1])])) != whole  # order counts


@pytest.mark.parametrize("gap", [0.5, 37.25, 120.125])
def test_a_foot_lowered_in_place_is_the_page_laid_out_again_with_a_gap_above_it(gap):
    """Same bytes, so the foot's text, its link and its named destination all moved; the other pages untouched."""
    again = pdf.write_pdf(_lay(_section(1) + _section(2, f"{gap}px") + _section(3)))
    rendered = _lay(_section(1) + _section(2) + _section(3))
    before = pdf.measure(rendered)[1].boxes["foot-2"]
    pdf.lower(rendered, 1, "foot-2", gap)
    assert pdf.measure(rendered)[1].boxes["foot-2"] == pytest.approx((before[0] + gap, before[1] + gap))
    assert pdf.write_pdf(rendered) == again
    with pytest.raises(ValueError, match="no element 'foot-9' on page 2"):
        pdf.lower(rendered, 1, "foot-9", gap)


# ---------------------------------------------------------------- an SVG palette parsed once
# Every map, cover outline and legend icon carries the map's palette in its own <style>: WeasyPrint parsed each copy
# (pdf._svg_styles_parsed_once keeps what it made for each set of texts).

def _svg(css: str, body: str = '<rect class="a" width="8" height="8"/>') -> str:
    return f'<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20"><style>{css}</style>{body}</svg>'


def test_an_svg_palette_is_parsed_once_for_each_text_and_files_it_names_every_time():
    import xml.etree.ElementTree as ET
    from types import SimpleNamespace
    calls = []
    parse = pdf._svg_styles_parsed_once(lambda tree, *args: calls.append(tree) or len(calls))
    tree = lambda css: SimpleNamespace(etree_element=ET.fromstring(_svg(css)))
    assert [parse(tree(css), "u", None, None) for css in (".a{fill:red}", ".a{fill:red}", ".a{fill:blue}")] == [1, 1, 2]
    imported = '@import "x.css"; .a{fill:red}'
    assert [parse(tree(imported), "u", None, None) for _ in range(2)] == [3, 4]


def test_svgs_sharing_a_palette_draw_as_each_parsed_alone():
    """Three icons with one palette, two with another: the same bytes as WeasyPrint parsing every copy itself."""
    import weasyprint.svg
    palette, other = ".a { fill: #8a2a1f } .b { stroke: #222; stroke-width: 2 }", ".a { fill: #1f5a8a }"
    body = "".join(_svg(css, f'<rect class="a" width="{n}" height="8"/><path class="b" d="M0 0L{n} 9"/>')
                   for n, css in enumerate((palette, palette, other, palette, other), start=6))
    html = SECTIONS.replace("{}", f"<section><p>Icons</p>{body}</section>")
    kept = pdf.write_pdf(pdf.layout_html(html, base_url=TEMPLATES, roots=[TEMPLATES]))
    cached = weasyprint.svg.parse_stylesheets
    try:
        weasyprint.svg.parse_stylesheets = cached.__wrapped__
        alone = pdf.write_pdf(pdf.layout_html(html, base_url=TEMPLATES, roots=[TEMPLATES]))
    finally:
        weasyprint.svg.parse_stylesheets = cached
    with pikepdf.open(io.BytesIO(kept)) as drawn:  # and the palette's colour is painted
        streams = b"".join(o.read_bytes() for o in drawn.objects if isinstance(o, pikepdf.Stream) and "/Subtype" not in o)
    assert kept == alone and b"0.541176 0.164706 0.121569 rg" in streams


# Every kind of run tinyhtml5's tokenizer reads with `chars_until`: text, tags with double-, single-quoted and
# unquoted attribute values, a bare attribute, a comment, inline SVG, a CDATA section in it, entities.
EVERY_RUN = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>t &amp; u</title>
<style>p { color: black }</style></head><body><!-- a comment -- here -->
<p class="a" id='b' data-c=d hidden>Text &lt; more text</p><input disabled value=x>
<svg xmlns="http://www.w3.org/2000/svg"><text><![CDATA[a ] b]]></text><rect width="8" height='8'/></svg>
<p>Roll 2d6 <b>and</b> add one.</p></body></html>"""


def test_the_html_tokenizer_builds_no_pattern_while_parsing(monkeypatch):
    """tinyhtml5 files each `chars_until` pattern under the wrong key (pdf._seed_html_tokenizer_cache): seeded under
    the right ones, parsing finds every pattern it asks for and compiles none, and parses as it did."""
    import re

    import tinyhtml5
    from tinyhtml5 import inputstream
    compiled = []
    monkeypatch.setattr(inputstream, "re", type("Re", (), {"compile": staticmethod(
        lambda pattern: compiled.append(pattern) or re.compile(pattern))}))
    tree = tinyhtml5.parse(EVERY_RUN)
    assert compiled == []
    assert [p.text for p in tree.iter("{http://www.w3.org/1999/xhtml}p")] == ["Text < more text", "Roll 2d6 "]


def test_the_seeded_patterns_are_the_ones_the_tokenizer_would_build():
    from tinyhtml5 import inputstream
    for characters, opposite in pdf._html_tokenizer_stops():
        seeded = inputstream.characters_until_regex[(characters, opposite)]
        assert sorted(seeded.pattern) == sorted(f"[{'' if opposite else '^'}"
                                                + "".join(f"\\x{ord(c):02x}" for c in characters) + "]+")


def test_pydyf_page_references_are_built_once_per_page_count_and_stay_right():
    # WeasyPrint's tagging reads pdf.page_references for every tagged box; pydyf 0.13 built the whole tuple each time.
    import pydyf
    document = pydyf.PDF()
    seen = []
    for _ in range(3):
        page = pydyf.Dictionary({"Type": "/Page"})
        document.add_object(page)
        document.add_page(page)
        first = document.page_references
        assert document.page_references is first  # read again: the same tuple, not a new one
        assert first == tuple(f"{n} 0 R".encode("ascii") for n in document.pages["Kids"][::3])
        seen.append(len(first))
    assert seen == [1, 2, 3]


def _pages_html(count: int) -> str:
    return "<!doctype html><html><body>" + "".join(
        f'<p style="break-before: page">page {n}</p>' for n in range(1, count + 1)) + "</body></html>"


def test_a_layout_longer_than_wanted_stops_as_it_starts_the_page_after_and_gives_none(monkeypatch):
    """A zine's probe asks for `pages_at_most`: one that would run longer is not laid out past the page after,
    while the page limit (--max-pages) stays an error even when that comes first."""
    import weasyprint.layout.page as page_layout
    started = []
    real = page_layout.remake_page
    monkeypatch.setattr(page_layout, "remake_page", lambda index, *args: started.append(index) or real(index, *args))
    lay_out = functools.partial(pdf.layout_html, base_url=TEMPLATES, roots=[TEMPLATES])
    assert lay_out(_pages_html(3), pages_at_most=3).page_count == 3
    started.clear()
    assert lay_out(_pages_html(8), pages_at_most=3) is None
    assert started == [0, 1, 2]  # the fourth page was started, and stopped, before any of it was laid out
    with pytest.raises(pdf.RenderError, match="runs past 2 pages"):
        lay_out(_pages_html(8), pages_at_most=3, max_pages=2)


# A contents page as the rulebook sets it (book.css: .toc): dotted leaders to page numbers, a blank leader for a part's
# own line, titles long and short so each line's leader has a different number of repeats.
LEADERS = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>t</title>
<link rel="stylesheet" href="css/fonts.css"><style>@page { size: 105mm 148mm; margin: 10mm }
body { font-family: Vollkorn; font-size: 9pt } li { list-style: none }
li a::after { content: leader(". ") attr(data-page) } li.part a::after { content: leader(" ") attr(data-page) }
</style></head><body><ol>{}</ol></body></html>"""
ENTRIES = [("Tags", 10), ("How the Game Is Built", 7), ("Roleplaying, Alone", 7), ("Part one", 9),
           ("A title long enough to take most of the line before its leader", 112), ("Risk and Reward", 15)]


def _leaders_pdf(css: str = "") -> bytes:
    items = "".join(f'<li{" class=part" if title == "Part one" else ""}><a data-page="{page}">{title}</a></li>'
                    for title, page in ENTRIES)
    html = LEADERS.replace("font-size: 9pt }", f"font-size: 9pt; {css} }}").replace("{}", items)
    return pdf.write_pdf(pdf.layout_html(html, base_url=TEMPLATES, roots=[TEMPLATES]))


def _with_weasyprints_leaders(make):
    """make() with WeasyPrint's own handle_leader (a copy of the leader's text per repeat)."""
    import weasyprint.layout.inline as inline
    patched = inline.handle_leader
    try:
        inline.handle_leader = patched.__wrapped__
        return make()
    finally:
        inline.handle_leader = patched


def test_a_leader_is_drawn_as_one_run_with_every_dot_where_weasyprint_put_it():
    """pdf._leaders_in_one_run: every dot of every leader where WeasyPrint's copy per repeat put it (to a hundredth of a
    point: the run's advances are the font's widths as the PDF stores them), in far fewer text objects; the titles and
    numbers read back."""
    one_run = _leaders_pdf()
    copies = _with_weasyprints_leaders(_leaders_pdf)

    def dots(data: bytes) -> list:
        """(line, x) of every dot on the page, and the page's text."""
        document = pdfium.PdfDocument(data)
        page = document[0].get_textpage()
        found = sorted((round(page.get_charbox(i)[1], 1), page.get_charbox(i)[0]) for i in range(page.count_chars())
                       if page.get_text_range(i, 1) == ".")
        text = page.get_text_range()
        document.close()
        assert all(title.split()[0] in text and str(number) in text for title, number in ENTRIES)
        return found
    ours, theirs = dots(one_run), dots(copies)
    assert len(ours) == len(theirs) > 100
    assert all(a[0] == b[0] and abs(a[1] - b[1]) < 0.02 for a, b in zip(ours, theirs))

    def text_objects(data: bytes) -> int:
        with pikepdf.open(io.BytesIO(data)) as document:
            return sum(1 for _, operator in pikepdf.parse_content_stream(document.pages[0]) if str(operator) == "BT")
    assert text_objects(copies) > 100 + text_objects(one_run)  # a dotted leader is dozens of repeats
    assert text_objects(one_run) == 3 * len(ENTRIES) + 1  # a title, its leader, its number; the long title's 2nd line


@pytest.mark.parametrize("spaced", ["letter-spacing: 0.05em", "letter-spacing: -0.05em", "word-spacing: 0.1em",
                                    "letter-spacing: 0.02em; word-spacing: 0.08em"])  # the last, dyslexia-friendly's
def test_a_spaced_leader_keeps_weasyprints_copies(spaced):
    """Spaced, a run would not stand where the copies do (letter spacing drifted 0.17 pt across a line at 0.05em): the
    copies are kept, and the page is WeasyPrint's own, byte for byte."""
    assert _leaders_pdf(spaced) == _with_weasyprints_leaders(lambda: _leaders_pdf(spaced))
