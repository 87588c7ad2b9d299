"""preflight.tagged: a page's tables read from the PDF's structure tree, one piece a page, rows placed by marked content."""

from __future__ import annotations

import pikepdf

from dungeonpress.preflight import tagged
from dungeonpress.preflight.reading import open_pdf
from tests.test_preflight import PARA, make_pdf
from tests.test_preflight_layout import answer_rows

HEAD = "<thead><tr><th>Answer</th><th>Outcome</th></tr></thead>"


def _pieces(path):
    doc = open_pdf(path)
    try:
        return [tagged.table_pieces(page.pdf) for page in doc.pages]
    finally:
        doc.close()


def test_a_table_that_turns_the_page_is_a_piece_on_each_page_with_its_header_repeated(tmp_path):
    path = make_pdf(tmp_path, f"<p>{PARA}</p><table>{HEAD}{answer_rows(3)}</table><p>{PARA}</p>", css="td { padding: 0 3mm }")
    pieces = _pieces(path)
    assert [[(piece.head, len(piece.rows)) for piece in page] for page in pieces] == [[(1, 3)], [(1, 3)]]
    first, second = pieces[0][0], pieces[1][0]
    assert first.top < first.rows[0][0] < first.bottom  # the header above the rows, the rows top to bottom
    assert all(a[1] <= b[0] + 0.5 for a, b in zip(first.rows, first.rows[1:]))
    assert second.top < 60 and second.depth > 0  # overleaf, at the page's top


def test_rows_without_marked_content_and_untagged_pages_give_no_pieces(tmp_path):
    path = make_pdf(tmp_path, f"<table>{HEAD}<tr><td></td><td></td></tr></table><p>{PARA}</p>", name="empty.pdf")
    assert _pieces(path) == [[]]  # a table with no row drawn is no piece
    untagged = make_pdf(tmp_path, f"<table>{HEAD}{answer_rows(99)}</table>", name="untagged.pdf")
    with pikepdf.open(untagged, allow_overwriting_input=True) as opened:
        del opened.Root.StructTreeRoot
        opened.save(untagged)
    assert _pieces(untagged) == [[]]


def test_a_structure_tree_that_loops_is_read_and_passed(tmp_path):
    """A hostile file whose tree holds its own ancestor: pdfium builds each element once, and the walk is bounded
    (MAX_DEPTH, MAX_ELEMENTS) besides, so the check ends; the one row is still found once."""
    from tests.test_preflight import findings
    path = make_pdf(tmp_path, f"<table>{HEAD}{answer_rows(99)}</table><p>{PARA}</p>")
    with pikepdf.open(path, allow_overwriting_input=True) as opened:
        document = opened.Root.StructTreeRoot.K
        document = document[0] if isinstance(document, pikepdf.Array) else document
        first = document.K[0] if isinstance(document.K, pikepdf.Array) else document.K
        first.K = pikepdf.Array([*(first.K if isinstance(first.K, pikepdf.Array) else [first.K]), document])
        opened.save(path)
    assert [len(piece.rows) for page in _pieces(path) for piece in page] == [6]
    assert findings(path, "table_fragments") == []
