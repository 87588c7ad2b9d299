"""A zine's reading copy leaves out the note on folding and cutting the sheet: its text, its drawing and its tags."""

from __future__ import annotations

import io
from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
import pytest
from PIL import ImageChops

from dungeonpress import pdf
from dungeonpress.impose.reading_copy import FOLD_NOTE_ALT, without_fold_note

# The zine's two notes (templates/partials/dungeon_aids.html.j2): the diagram beside its words, and the short one, a
# red bar in the paragraph. Around them, text set in a colour the note's own spans set before it (WeasyPrint sets the
# fill colour inside each marked span, and the next span may draw with it).
PAGE = """<html lang="en"><head><title>Zine</title><style>
@page {{ size: 100mm 140mm; margin: 10mm }} body {{ font-family: serif; font-size: 10pt }}
.bar {{ display: inline-block; width: 5mm; height: 1.2pt; vertical-align: middle }}
</style></head><body><h1>Wandering</h1><p>Before the note.</p>{note}<p>After the note, in the same colour.</p>
</body></html>"""
DIAGRAM = ('<div class="foot"><div class="fold-cut"><div class="fold-art"><svg viewBox="0 0 40 20" width="20mm" '
           'height="10mm" role="img"><title>' + FOLD_NOTE_ALT + ': fold along the dashes</title>'
           '<path d="M0 10H40" stroke="#7a1f1f" stroke-width="2"/></svg></div>'
           '<p><strong>Cut</strong> only along the red line.</p></div></div>')
SHORT = ('<div class="foot"><p><svg class="bar" viewBox="0 0 50 12" preserveAspectRatio="none" role="img"><title>'
         + FOLD_NOTE_ALT + ': the red cut line</title><rect width="50" height="12" fill="#7a1f1f"/></svg>'
         '<strong>Cut</strong> only along the red line.</p></div>')
OTHER_FIGURE = ('<div><svg viewBox="0 0 10 10" width="10mm" height="10mm" role="img"><title>A map</title>'
                '<rect width="10" height="10"/></svg><p>A caption.</p></div>')


def laid_out(note: str, folder: Path) -> bytes:
    return pdf.write_pdf(pdf.layout_html(PAGE.format(note=note), base_url=folder, roots=(folder,)))


def text(data: bytes) -> str:
    document = pdfium.PdfDocument(data)
    try:
        return " ".join(" ".join(page.get_textpage().get_text_range().split()) for page in document)
    finally:
        document.close()


def line_top(data: bytes, words: str) -> float:
    """Where the first line holding `words` stands on page 1 (pdfium's y, from the page's foot)."""
    document = pdfium.PdfDocument(data)
    try:
        page = document[0]
        found = page.get_textpage().search(words).get_next()
        assert found is not None, words
        return page.get_textpage().get_charbox(found[0])[3]
    finally:
        document.close()


SCALE = 2  # pixels a point


def pixels(data: bytes):
    document = pdfium.PdfDocument(data)
    try:
        return document[0].render(scale=SCALE).to_pil().convert("RGB")
    finally:
        document.close()


def elements(data: bytes) -> list:
    """(type, alternative text) of every structure element, in tree order."""
    with pikepdf.open(io.BytesIO(data)) as doc:
        found = []

        def walk(node):
            if isinstance(node, pikepdf.Array):
                for kid in node:
                    walk(kid)
            elif isinstance(node, pikepdf.Dictionary) and "/S" in node:
                found.append((str(node.S), str(node.get("/Alt", ""))))
                walk(node.get("/K", pikepdf.Array()))
        walk(doc.Root.StructTreeRoot.K)
        return found


def marked_ids_agree(data: bytes) -> bool:
    """Every identifier a page's content marks is named by the page's ParentTree entry, for an element in the tree that
    lists it, and the entry names no other element."""
    with pikepdf.open(io.BytesIO(data)) as doc:
        in_tree = {}

        def walk(node, page):
            if isinstance(node, pikepdf.Array):
                for kid in node:
                    walk(kid, page)
            elif isinstance(node, pikepdf.Dictionary) and "/S" in node:
                here = node.get("/Pg", page)
                for kid in (node.K if isinstance(node.get("/K"), pikepdf.Array) else [node.get("/K")]):
                    if isinstance(kid, int):
                        in_tree[(here.objgen, int(kid))] = node.objgen
                    else:
                        walk(kid, here)
        walk(doc.Root.StructTreeRoot.K, None)
        nums = list(doc.Root.StructTreeRoot.ParentTree.Nums)
        entries = dict(zip((int(n) for n in nums[::2]), nums[1::2]))
        for page in doc.pages:
            marked = {int(i.operands[1].MCID) for i in pikepdf.parse_content_stream(page)
                      if str(i.operator) == "BDC" and isinstance(i.operands[1], pikepdf.Dictionary) and "/MCID" in i.operands[1]}
            entry = entries[int(page.obj.StructParents)]
            named = {n: e.objgen for n, e in enumerate(entry) if isinstance(e, pikepdf.Dictionary)}
            listed = {mcid: element for (where, mcid), element in in_tree.items() if where == page.obj.objgen}
            if named != {mcid: listed.get(mcid) for mcid in marked} or set(listed) != marked:
                return False
        return True


@pytest.mark.parametrize("note", [DIAGRAM, SHORT], ids=["diagram", "short"])
def test_the_note_leaves_the_text_the_tags_and_the_page_and_nothing_else_moves(note, tmp_path):
    data = laid_out(note, tmp_path)
    copy = without_fold_note(data)
    assert "Cut only along the red line." in text(data)
    assert text(copy) == text(data).replace(" Cut only along the red line.", "")
    assert any(alt.startswith(FOLD_NOTE_ALT) for _, alt in elements(data))
    assert not any(alt.startswith(FOLD_NOTE_ALT) for _, alt in elements(copy))
    kept = [kind for kind, _ in elements(copy)]
    assert kept.count("/H1") == 1 and kept.count("/P") == 2  # the heading and the two paragraphs round the note
    assert marked_ids_agree(data) and marked_ids_agree(copy)
    # The rest stands where it stood, in its colour; only the band of the page between the lines round it changed.
    before, after = line_top(data, "Before the note"), line_top(data, "After the note")
    assert line_top(copy, "After the note") == after
    page = pixels(data)
    changed = ImageChops.difference(page, pixels(copy)).getbbox()
    assert changed is not None and page.height - before * SCALE <= changed[1] and changed[3] <= page.height - after * SCALE


def test_a_pdf_without_the_note_is_given_back_as_it_was_and_other_figures_stay(tmp_path):
    data = laid_out(OTHER_FIGURE, tmp_path)
    assert without_fold_note(data) is data
    assert ("/Figure", "A map") in elements(data)


def test_the_reading_copy_is_the_same_bytes_each_time_and_keeps_its_title_and_metadata(tmp_path):
    data = laid_out(DIAGRAM, tmp_path)
    copy = without_fold_note(data)
    assert copy == without_fold_note(data)
    with pikepdf.open(io.BytesIO(data)) as before, pikepdf.open(io.BytesIO(copy)) as after:
        assert dict(before.docinfo) == dict(after.docinfo) and str(after.docinfo.Title) == "Zine"
        assert before.Root.Metadata.read_bytes() == after.Root.Metadata.read_bytes()
        assert str(after.Root.Lang) == "en" and len(after.pages) == len(before.pages)
