"""The solo turn procedure product: its PDFs and log are named, stable and hold the delve."""

from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader

from dungeonpress import build, cli
from dungeonpress.products import delve as product
from tests.conftest import SHARED, slow_fixture, standard_build


@pytest.fixture(scope="module")
@slow_fixture
def built():
    """`build all`'s delve job (seed 1234, default options) in the standard theme, made once per run:
    ((WeasyPrint's warnings, {name: bytes}), None). The same bytes from another process with another hash
    seed: test_reliability_faults.py (R1)."""
    assert product.DelveOptions() == product.DelveOptions(turns=36, light="torch")
    outputs, warnings = standard_build("delve")
    return (warnings, outputs), None


@pytest.mark.slow
def test_outputs_are_named_and_byte_identical(built):
    (warnings, first), _ = built
    assert sorted(first) == ["delve-1234-booklet-a4.pdf", "delve-1234-booklet-letter.pdf", "delve-1234.pdf",
                             "solo-procedure-booklet-a4.pdf", "solo-procedure-booklet-letter.pdf",
                             "solo-procedure-card.pdf", "solo-procedure.pdf"]
    assert warnings == []


def _halves(data: bytes) -> list:
    """Each sheet side's (left half, right half) text, its white space made single spaces."""
    import pypdfium2 as pdfium
    document = pdfium.PdfDocument(data)
    try:
        sides = []
        for page in document:
            width, height = page.get_size()
            text = page.get_textpage()
            sides.append(tuple(" ".join(text.get_text_bounded(left=x0, right=x1, bottom=0, top=height).split())
                               for x0, x1 in ((0, width / 2), (width / 2, width))))
        return sides
    finally:
        document.close()


@pytest.mark.slow
def test_the_kit_and_the_log_come_imposed_to_fold_on_a4_and_letter(built):
    """As the rulebook's and the tables' A5 pages do: two to a side in saddle-stitch order, on A4 and on Letter (the kit
    was A5 pages only: a player printing at home had to impose it). Read back: each side holds the reading pages its
    place in the fold asks for."""
    import pypdfium2 as pdfium
    from dungeonpress import impose
    (_, outputs), _ = built
    for name in ("solo-procedure", "delve-1234"):
        document = pdfium.PdfDocument(outputs[f"{name}.pdf"])
        pages = [" ".join(page.get_textpage().get_text_range().split()) for page in document]
        document.close()
        for paper, size in (("a4", (842, 595)), ("letter", (792, 612))):
            imposed = outputs[f"{name}-booklet-{paper}.pdf"]
            sides = _halves(imposed)
            assert len(sides) == len(pages) // 2
            assert [tuple(round(v) for v in p.get_size()) for p in pdfium.PdfDocument(imposed)] == [size] * len(sides)
            order = impose.booklet_order(len(pages))
            for (left, right), (left_text, right_text) in zip(order, sides):
                assert left_text[:40] in pages[left] and right_text[:40] in pages[right], (name, paper, left, right)


@pytest.mark.slow
def test_procedure_pdf_holds_card_appendices_and_log(built):
    (_, outputs), _ = built
    text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(outputs["solo-procedure.pdf"])).pages)
    flat = " ".join(text.split())
    for heading in ("Encounter Check", "Appendix A", "Appendix F", "Turn Log", "Solo D&D Play"):
        assert heading.upper() in flat.upper()


def test_the_booklet_prints_every_table_its_appendices_name(built, content):
    from dungeonpress.generate import delve
    (_, outputs), _ = built
    pages = PdfReader(io.BytesIO(outputs["solo-procedure.pdf"])).pages
    assert len(pages) % 4 == 0  # folds as a booklet
    flat = " ".join(" ".join(p.extract_text() for p in pages).split()).upper()
    named = set(re.findall(r"APPENDIX [A-F]\d?", flat))
    titles = {content.table(t).title.upper() for ids in delve.APPENDIX_TABLES.values() for t in ids}
    for title in titles:
        assert title in flat
    assert named == {title.split(":")[0] for title in titles} | set(f"APPENDIX {x}" for x in "ABCDEF")


@pytest.mark.slow
def test_delve_log_lists_every_turn_and_the_way_out(built):
    (_, outputs), _ = built
    pages = PdfReader(io.BytesIO(outputs["delve-1234.pdf"])).pages
    text = " ".join(" ".join(p.extract_text() for p in pages).split())
    assert "18 wandering checks" in text
    assert [int(n) for n, total in re.findall(r"PAGE (\d+) OF (\d+)", text.upper()) if int(total) == len(pages)] \
        == list(range(1, len(pages) + 1))


def test_cli_refuses_bad_turns(tmp_path):
    err = io.StringIO()
    status = cli.main(["delve", "--seed", "1", "--turns", "0", "--quiet", "--out", str(tmp_path)],
                      stdout=io.StringIO(), stderr=err)
    assert status == 2
    assert err.getvalue() == "dungeonpress delve: error: --turns must be a whole number from 1 to 200 (got 0)\n"
    assert cli.main(["delve", "--light", "moon"], stdout=io.StringIO(), stderr=io.StringIO()) == 2


# Loner: Dungeoneer's own words, which a kit for Basic/Expert D&D must never use. Whole words only:
# "stage", "tagline", "harmless" and "plucky" are fine; "Luck", "Gear tag" and "durability" are not.
LONER_TERMS = re.compile(r"\b(tags?|oracles?|luck|harm|fatigue|durability)\b", re.IGNORECASE)
ALLOWED = {"fatigue"}  # the post's own word for the rest every sixth turn; a Fatigue *tag* is Loner's


def loner_terms(text: str) -> list:
    """The Loner terms in `text`, with words hyphenated across a line joined again first."""
    joined = re.sub(r"[-\u00ad]\s*\n\s*", "", text)
    found = {m.group(0).lower() for m in LONER_TERMS.finditer(joined)}
    tags = {m.group(0).lower() for m in re.finditer(r"\bfatigue\s+tags?\b", joined, re.IGNORECASE)}
    return sorted((found - ALLOWED) | tags)


@pytest.mark.parametrize("text, found", [
    ("Set the stage; a tagline; harmless; plucky", []),
    ("Fatigue and resting: rest every sixth turn", []),
    ("gain a Fatigue tag", ["fatigue tag", "tag"]),
    ("a Gear tag loses 1 durability", ["durability", "tag"]),
    ("ask the Oracle, then roll Harm and Luck", ["harm", "luck", "oracle"]),
    ("its dura-\nbility", ["durability"]),
])
def test_loner_terms_are_whole_words(text, found):
    assert loner_terms(text) == found


def test_no_loner_term_in_the_kit_or_the_delve_log(built):
    (_, outputs), _ = built
    for name, data in outputs.items():
        text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)
        assert len(text) > 2000, name
        assert loner_terms(text) == [], name


def test_no_loner_term_in_any_table_or_template_of_the_kit(content):
    from dungeonpress.generate import delve
    words = []
    for table_id in delve.TABLES:
        table = content.table(table_id)
        words += [table.title, table.note or ""] + [str(v) for row in table.rows for _, v in row.values]
    for template in ("delve_procedure.html.j2", "delve_log.html.j2"):
        source = (build.TEMPLATES_DIR / template).read_text(encoding="utf-8")
        words.append(re.sub(r"<[^>]*>|\{[{%#].*?[}%#]\}", " ", source, flags=re.S))  # the words it prints
    assert loner_terms("\n".join(words)) == []


@pytest.mark.slow  # lays a whole kit out with a long log
def test_the_booklet_keeps_whole_turn_log_pages_and_a_long_log_folds(content):
    """Spare turn-log pages pad the booklet to whole sheets; notes pages do the same for a log past four pages."""
    ctx = build.context_for(content, seed=7)
    outputs = {o.name: o.data for o in product.build_delve(ctx, product.DelveOptions(turns=60, light="candle",
                                                                                    no_map=True))}
    booklet = PdfReader(io.BytesIO(outputs["solo-procedure.pdf"])).pages
    text = " ".join(" ".join(p.extract_text() for p in booklet).split())
    logs = re.findall(r"TURN LOG TURNS (\d+)[–-](\d+)", text.upper())
    assert len(booklet) % 4 == 0 and len(logs) >= 2
    assert [int(a) for a, _ in logs] == [1 + 24 * n for n in range(len(logs))]  # the kept pages run on unbroken
    log = PdfReader(io.BytesIO(outputs["delve-7.pdf"])).pages
    assert len(log) > 4 and len(log) % 4 == 0
    footers = re.findall(r"PAGE (\d+) OF (\d+)", " ".join(p.extract_text() for p in log).upper())
    assert footers and {int(total) for _, total in footers} == {len(log)}  # the notes pages are counted


# ---------------------------------------------------------------- words that never part (issue 27: "Procedure based /
# on" and "(Appendix / A)" were read across line breaks)

def test_an_appendix_letter_and_based_on_never_part_at_a_line_end(built):
    """'Appendix A' and 'based on' are joined by no-break spaces: no line of the kit or the log ends before them."""
    import pypdfium2 as pdfium
    (_, outputs), _ = built
    templates = build.TEMPLATES_DIR
    assert re.search(r"Appendix [A-F]\b", (templates / "delve_procedure.html.j2").read_text()) is None
    for name in ("solo-procedure.pdf", "solo-procedure-card.pdf", "delve-1234.pdf"):
        document = pdfium.PdfDocument(outputs[name])
        lines = [line.strip() for i in range(len(document))
                 for line in document[i].get_textpage().get_text_range().replace("\r", "").split("\n")]
        assert any("Appendix" in line for line in lines) or name == "delve-1234.pdf"
        for line in lines:
            assert not re.search(r"\bAppendix$|\bbased$", line), (name, line)


# ---------------------------------------------------------------- the way out's page: its room holds a grid to map on
# (seed 1234's log ended half-way down its fourth page, the rest white)

def test_the_grid_fills_the_room_under_the_way_out_and_a_little_room_is_left_white():
    from dungeonpress.pdf import PageMeasure
    height = 210 * product.PX_PER_MM  # an A5 page, in CSS px
    ends_at = {mm: (PageMeasure(height, {"delve-way-out": (10.0, mm * product.PX_PER_MM)}),) for mm in (100, 170)}
    assert product.log_map_height(ends_at[100]) == f"{210 - 100 - product.LOG_FOOT_MM - product.MAP_GAP_MM:.2f}mm"
    assert product.log_map_height(ends_at[170]) == ""  # 22 mm: less than MIN_MAP_MM
    assert product.log_map_height((PageMeasure(height, {}),)) == ""


@pytest.mark.slow
def test_the_delve_logs_last_page_maps_as_you_go_down_to_its_foot(built):
    (_, outputs), _ = built
    pages = PdfReader(io.BytesIO(outputs["delve-1234.pdf"])).pages
    assert len(pages) == 4
    last = pages[-1].extract_text()
    assert "MAP AS YOU GO" in last.upper() and last.upper().index("THE WAY OUT") < last.upper().index("MAP AS YOU GO")
    assert all("MAP AS YOU GO" not in page.extract_text().upper() for page in pages[:-1])


@pytest.mark.slow  # lays a whole kit out with a long log
def test_a_delver_who_does_not_map_gets_lines_for_notes_under_the_way_out(content):
    ctx = build.context_for(content, seed=1234)
    outputs = {o.name: o.data for o in product.build_delve(ctx, product.DelveOptions(no_map=True))}
    pages = PdfReader(io.BytesIO(outputs["delve-1234.pdf"])).pages
    way_out = next(page.extract_text() for page in pages if "The way out" in page.extract_text()
                   or "THE WAY OUT" in page.extract_text().upper())
    assert "NOTES" in way_out.upper() and "MAP AS YOU GO" not in way_out.upper()
    assert len(pages) % 4 == 0


# ---------------------------------------------------------------- a long log's spare pages (issue 27: the
# dyslexia-friendly log of seed 1234 ran to five pages and was padded with three pages of bare ruled lines)

def test_a_mapping_delvers_spare_pages_are_a_map_for_each_level_then_notes():
    log = {"mapping": True, "deepest": 2}
    heads = [page["heading"] for page in product.spare_pages(3, log)]
    assert heads == ["Map · Level 1", "Map · Level 2", "Notes"]
    assert [page["heading"] for page in product.spare_pages(1, log)] == ["Map · Level 2"]  # the deepest first kept
    assert all(not page.get("grid") for page in product.spare_pages(3, {"mapping": False, "deepest": 2}))
    grid = product.spare_pages(1, log)[0]["grid"]
    assert (grid["width"], grid["height"]) == (125.0, 160.0)


@pytest.mark.builds("dyslexia-friendly/delve/0")
def test_the_dyslexia_friendly_logs_spare_pages_map_its_levels():
    made, _ = SHARED.result("dyslexia-friendly/delve/0")
    pages = [page.extract_text() for page in PdfReader(io.BytesIO(made["delve-1234.pdf"])).pages]
    assert len(pages) == 8
    heads = [text.strip().splitlines()[0] for text in pages[5:]]
    assert heads == ["Map · Level 1", "Map · Level 2", "Notes"], heads
    way_out = pages[4]
    assert "The way out" in way_out and "Notes" in way_out and "Map as you go" not in way_out  # lines, not a third grid
