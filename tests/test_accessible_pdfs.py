"""Tagged PDFs: structure tree, language, title, bookmarks, table headers, figure alternative text; metadata everywhere."""

from __future__ import annotations

import io
from collections import Counter
from pathlib import Path

import pikepdf
import pytest

from dungeonpress import impose, pdf
from tests.conftest import slow_fixture, standard_build


def structure(data: bytes) -> tuple[dict, Counter, list]:
    """(catalog facts, count of each structure type, every Figure's /Alt) of a PDF."""
    with pikepdf.open(io.BytesIO(data)) as doc:
        root = doc.Root
        facts = {"lang": str(root.get("/Lang", "")), "title": str(doc.docinfo.get("/Title", "")),
                 "author": str(doc.docinfo.get("/Author", "")),
                 "marked": bool(root.get("/MarkInfo", {}).get("/Marked", False)),
                 "tree": "/StructTreeRoot" in root, "outlines": _outline_count(root)}
        kinds, alts = Counter(), []
        stack = [root.StructTreeRoot] if facts["tree"] else []
        seen = set()
        while stack:
            node = stack.pop()
            if isinstance(node, pikepdf.Array):
                stack.extend(node)
                continue
            if not isinstance(node, pikepdf.Dictionary) or node.objgen in seen and node.objgen != (0, 0):
                continue
            seen.add(node.objgen)
            if "/S" in node:
                kinds[str(node.S)] += 1
                if node.S == "/Figure":
                    alts.append(str(node.get("/Alt", "")))
            if "/K" in node:
                stack.append(node.K)
        return facts, kinds, alts


def _outline_count(root) -> int:
    if "/Outlines" not in root or "/First" not in root.Outlines:
        return 0
    count, stack = 0, [root.Outlines.First]
    while stack:
        item = stack.pop()
        count += 1
        if "/Next" in item:
            stack.append(item.Next)
        if "/First" in item:
            stack.append(item.First)
    return count


# The products read here are `build all`'s own jobs in the standard theme, made once per run and shared with
# the product, theme and preflight tests.
@pytest.fixture(scope="module")
@slow_fixture
def oracle():
    outputs, warnings = standard_build("oracle")
    assert warnings == []
    return next(iter(outputs.values()))  # the card (the oracle command's first output)


def test_the_oracle_card_is_tagged_with_language_title_and_table_headers(oracle):
    facts, kinds, _ = structure(oracle)
    assert facts["tree"] and facts["marked"]
    assert facts["lang"] == "en" and facts["title"] == "Oracle card"
    assert kinds["/Table"] == 3 and kinds["/TH"] >= 10 and kinds["/TD"] >= 20 and kinds["/H1"] == 1  # grid, odds, twist


def test_every_answer_cell_names_its_row_and_column_headers(oracle):
    """The grid's dice column is `<th scope=row>`: a reader hears "2, Chance higher: Yes" for a cell."""
    with pikepdf.open(io.BytesIO(oracle)) as doc:
        headers = {str(o.ID): "row" for o in doc.objects
                   if isinstance(o, pikepdf.Dictionary) and o.get("/S") == "/TH" and "/ID" in o}
        cells = [[str(h) for h in o.A.Headers] for o in doc.objects
                 if isinstance(o, pikepdf.Dictionary) and o.get("/S") == "/TD" and "/A" in o and "/Headers" in o.A]
    assert len(headers) >= 10 and len(cells) >= 20
    named_twice = [c for c in cells if len(c) == 2 and all(h in headers for h in c)]
    assert len(named_twice) >= 6, cells[:5]  # the answer grid: three rows of dice, two columns


@pytest.fixture(scope="module")
@slow_fixture
def booklet_reading():
    return standard_build("dungeon", 2)[0]  # the dungeon booklet, seed 1234


def test_dungeon_booklet_maps_and_figures_carry_alternative_text(booklet_reading):
    reading = next(data for name, data in booklet_reading.items() if name.endswith(".pdf") and "booklet" not in name)
    facts, kinds, alts = structure(reading)
    assert facts["tree"] and facts["lang"] == "en" and facts["title"]
    assert kinds["/Figure"] >= 2 and all(alts), alts
    assert any(alt.lower().startswith("map of ") for alt in alts)


def test_imposed_booklets_keep_title_author_and_language(booklet_reading):
    imposed = [data for name, data in booklet_reading.items() if "booklet" in name and name.endswith(".pdf")]
    assert imposed
    for data in imposed:
        facts, _, _ = structure(data)
        assert facts["lang"] == "en" and facts["title"].endswith("(imposed for printing)") and facts["author"]


def test_imposition_copies_metadata_of_any_weasyprint_pdf(tmp_path):
    html = ('<html lang="fr"><head><title>Carnet</title><meta name="author" content="A. Auteur"></head><body>'
            + "".join(f'<p style="break-before: page">page {i}</p>' for i in range(4)) + "</body></html>")
    data, _ = pdf.html_to_pdf(html, base_url=tmp_path, roots=(tmp_path,))
    facts, _, _ = structure(impose.impose_booklet(data, "a4"))
    assert facts == facts | {"lang": "fr", "title": "Carnet (imposed for printing)", "author": "A. Auteur"}


@pytest.mark.slow
def test_rulebook_is_tagged_with_bookmarks_headings_and_table_headers(content):
    data = standard_build("rulebook")[0]["dungeoneer-rulebook.pdf"]  # the reading copy, laid out as pages
    facts, kinds, alts = structure(data)
    assert facts["tree"] and facts["marked"] and facts["lang"] == "en"
    assert facts["title"] == content.book.title and "Bisceglie" in facts["author"]
    assert facts["outlines"] >= len(content.book.chapters)
    assert kinds["/H1"] >= len(content.book.chapters) and kinds["/TH"] >= 50 and kinds["/Table"] >= 20
    assert alts and all(alts)


def test_every_header_cell_has_its_scope(oracle):
    """A screen reader names a cell by its headers: row headers head rows of data cells, the rest head columns."""
    with pikepdf.open(io.BytesIO(oracle)) as doc:
        scopes = Counter(str(o.A.get("/Scope")) for o in doc.objects
                         if isinstance(o, pikepdf.Dictionary) and o.get("/S") == "/TH")
    assert scopes == Counter({"/Column": 10, "/Row": 9})  # three tables' header rows; the grid's and the twists' rolls


def test_an_imposed_sheet_is_a_tagged_artifact_that_names_its_reading_copy(booklet_reading):
    name, sheet = next((n, d) for n, d in booklet_reading.items() if "booklet" in n and n.endswith(".pdf"))
    reading = next(n for n in booklet_reading if n.endswith("-a5.pdf"))
    with pikepdf.open(io.BytesIO(sheet)) as doc:
        assert doc.Root.MarkInfo.Marked and "/StructTreeRoot" in doc.Root
        note = str(doc.docinfo.Subject)
        assert note.endswith(f"the tagged copy for reading and screen readers is {reading}.")
        assert str(doc.Root.StructTreeRoot.K[0].Alt) == note
        meta = doc.open_metadata()
        assert meta["dc:description"] == note and meta["pdfuaid:part"] == "1"
        for page in doc.pages:  # everything on a print sheet is an artifact to a screen reader
            stream = page.Contents.read_bytes()
            assert stream.startswith(b"/Artifact BMC\n") and stream.endswith(b"\nEMC")


@pytest.mark.slow
def test_the_zine_comes_with_its_pages_as_a_tagged_reading_copy():
    outputs = standard_build("dungeon", 0)[0]  # the A4 zine, seed 1234
    assert sorted(outputs) == ["dungeon-1234-zine-a4.pdf", "dungeon-1234-zine-reading.pdf", "dungeon-1234.json"]
    facts, kinds, alts = structure(outputs["dungeon-1234-zine-reading.pdf"])
    assert facts["tree"] and facts["marked"] and facts["lang"] == "en" and facts["title"]
    assert kinds["/H1"] + kinds["/H2"] >= 4 and kinds["/Figure"] >= 1 and all(alts)
    with pikepdf.open(io.BytesIO(outputs["dungeon-1234-zine-reading.pdf"])) as doc:
        assert len(doc.pages) == 8
    with pikepdf.open(io.BytesIO(outputs["dungeon-1234-zine-a4.pdf"])) as doc:
        assert str(doc.docinfo.Subject).endswith("dungeon-1234-zine-reading.pdf.")


# Warnings of the PDF/UA checker we accept, each with why. None today: every file of `build all`
# passes it with neither errors nor warnings.
ACCEPTED_WARNINGS: dict = {}


PDF_UA_SHARES = 4  # the files are checked in four tests, which the suite's two workers share (about 100 s in all)


@pytest.mark.slow
@pytest.mark.builds("theme:standard")
@pytest.mark.parametrize("share", range(PDF_UA_SHARES))
def test_every_pdf_of_build_all_passes_an_independent_pdf_ua_checker(content, tmp_path, share):
    """pdfua (PyPI) checks the machine-checkable part of PDF/UA-1 and WCAG 2.1 on its own reading of each file
    (every fourth file of build all's, by name, in each of the four tests)."""
    pdfua = pytest.importorskip("pdfua")
    from tests.test_themes import built_in
    problems = []
    made = built_in(content, "standard")
    for name, data in sorted(made.items())[share::PDF_UA_SHARES]:
        (tmp_path / name).write_bytes(data)
        report = pdfua.validate(str(tmp_path / name))
        for finding in report.findings:
            if finding.severity.name in ("ERROR", "WARNING") and finding.rule_id not in ACCEPTED_WARNINGS:
                problems.append(f"{name}: {finding.rule_id} {finding.severity.name}: {finding.message[:100]}")
    assert len(made) >= 30 and not problems, problems[:10]


def reading_problems(name: str, data: bytes) -> list[str]:
    """What the PDF/UA checker does not look at: title and language, headings that never skip a level
    in reading order, every figure's alternative text, bookmarks past four pages, labelled form fields."""
    problems = []
    with pikepdf.open(io.BytesIO(data)) as doc:
        root = doc.Root
        if not str(root.get("/Lang", "")) or not str(doc.docinfo.get("/Title", "")):
            problems.append("no language or no title")
        print_sheet = str(doc.docinfo.get("/Subject", "")).startswith("Imposed for printing")
        outlines = root.get("/Outlines")
        # A print sheet's pages are in folding order: its reading copy carries the bookmarks.
        if len(doc.pages) > 4 and not print_sheet and (outlines is None or "/First" not in outlines):
            problems.append(f"{len(doc.pages)} pages and no bookmarks")
        levels, figures = [], []
        stack = [root.StructTreeRoot] if "/StructTreeRoot" in root else []
        while stack:
            node = stack.pop()
            if isinstance(node, pikepdf.Array):
                stack.extend(reversed(list(node)))
                continue
            if not isinstance(node, pikepdf.Dictionary):
                continue
            kind = str(node.get("/S", ""))
            if kind in {f"/H{n}" for n in range(1, 7)}:
                levels.append(int(kind[2]))
            elif kind == "/Figure":
                figures.append(str(node.get("/Alt", node.get("/ActualText", ""))))
            if "/K" in node:
                stack.append(node.K)
        skips = [(a, b) for a, b in zip([0, *levels], levels) if b > a + 1]
        if skips:
            problems.append(f"heading levels skip: {skips[:3]}")
        if not all(figures):
            problems.append(f"{figures.count('')} of {len(figures)} figures without alternative text")
        if "/AcroForm" in root:
            unlabelled = [f for f in root.AcroForm.Fields if not str(f.get("/TU", ""))]
            if unlabelled:
                problems.append(f"{len(unlabelled)} form fields without a label")
    return [f"{name}: {p}" for p in problems]


def test_reading_problems_finds_a_skipped_level_and_a_bare_figure(tmp_path):
    html = ('<html lang="en"><head><title>t</title></head><body><h1>a</h1><h3>b</h3>'
            '<svg width="10" height="10"><rect width="5" height="5"/></svg></body></html>')
    data = pdf.write_pdf(pdf.layout_html(html, base_url=tmp_path, roots=(tmp_path,)))
    # levels are tagged nested (h3 after h1 becomes H2), so only the figure is left to find
    assert reading_problems("t.pdf", data) == ["t.pdf: 1 of 1 figures without alternative text"]


@pytest.mark.slow
@pytest.mark.builds("theme:standard")
def test_every_pdf_of_build_all_reads_in_order_with_titles_alt_text_and_bookmarks(content):
    from tests.test_themes import built_in
    problems = [p for name, data in sorted(built_in(content, "standard").items())
                for p in reading_problems(name, data)]
    assert not problems, problems[:10]
