"""bind: parts laid out apart become one PDF that reads, links, bookmarks and tags like the document laid out whole."""

from __future__ import annotations

import io

import pikepdf
import pypdf
import pytest

from dungeonpress import bind, build, pdf
from tests.conftest import pdf_outline

STYLE = ("<style>@page { size: 105mm 148mm; margin: 12mm; @bottom-center { content: counter(page) } } "
         "h1 { break-before: page; bookmark-level: 1 } h2 { bookmark-level: 2 } {extra}</style>")
CHAPTERS = [
    ("one", "<h1 id='one'>One</h1><p>First words. <a href='#three'>To three</a>.</p><h2 id='one-a'>One A</h2><p>More.</p>"),
    ("two", "<h1 id='two'>Two</h1>" + "<p>A line that fills the page again and again.</p>" * 30 + "<h2 id='two-a'>Two A</h2>"),
    ("three", "<h1 id='three'>Three</h1><p>Last. <a href='#one-a'>Back to one A</a>.</p>"),
]


def laid_out(body: str, extra: str = "") -> bytes:
    html = (f"<html lang='en'><head><title>Book</title>{STYLE.replace('{extra}', extra)}</head>"
            f"<body>{body}</body></html>")
    rendered = pdf.layout_html(html, base_url=build.TEMPLATES_DIR, roots=[build.TEMPLATES_DIR])
    return pdf.write_pdf(rendered)


def stand_ins(names) -> str:
    """Empty, out-of-flow anchors for names another part holds, so WeasyPrint keeps the links to them."""
    return "".join(f"<div id='{name}' style='position: absolute'></div>" for name in names)


@pytest.fixture(scope="module")
def books():
    """(the book laid out whole, the same book bound from its chapters laid out apart, each starting its page)."""
    whole = laid_out("".join(body for _, body in CHAPTERS))
    parts, drops, start = [], [], 1
    foreign = {"one": ["three"], "two": [], "three": ["one-a"]}
    for name, body in CHAPTERS:
        part = laid_out(stand_ins(foreign[name]) + body, f"@page :first {{ counter-reset: page {start} }}")
        parts.append(part)
        drops.append(foreign[name])
        start += len(pypdf.PdfReader(io.BytesIO(part)).pages)
    return whole, bind.bind(parts, drop_dests=drops), parts, drops


def texts(data: bytes) -> list:
    return [page.extract_text() for page in pypdf.PdfReader(io.BytesIO(data)).pages]


def test_every_page_reads_as_in_the_whole_document(books):
    whole, bound, _, _ = books
    assert len(texts(whole)) == 6
    assert texts(bound) == texts(whole)  # page numbers in the footers included


def test_bookmarks_and_named_destinations_point_at_the_same_pages(books):
    whole, bound, _, _ = books
    assert pdf_outline(bound) == pdf_outline(whole) == [(0, "One", 0), (1, "One A", 0), (0, "Two", 1), (1, "Two A", 4),
                                                (0, "Three", 5)]
    where = {}
    for data in (whole, bound):
        reader = pypdf.PdfReader(io.BytesIO(data))
        where[data] = {name: reader.get_destination_page_number(dest) for name, dest in reader.named_destinations.items()}
    assert where[bound] == where[whole] == {"one": 0, "one-a": 0, "two": 1, "two-a": 4, "three": 5}


def links(data: bytes) -> list:
    with pikepdf.open(io.BytesIO(data)) as book:
        return [(index, str(annot.Dest)) for index, page in enumerate(book.pages) for annot in page.obj.get("/Annots", [])]


def test_links_across_parts_are_kept(books):
    whole, bound, _, _ = books
    assert links(bound) == links(whole) == [(0, "three"), (5, "one-a")]


def structure(data: bytes) -> dict:
    """The checks a PDF/UA reader relies on: one Document element, and a ParentTree every page and link finds."""
    with pikepdf.open(io.BytesIO(data)) as book:
        root = book.Root.StructTreeRoot
        assert len(root.K) == 1 and root.K[0].S == "/Document"
        nums = root.ParentTree.Nums
        parent_tree = {int(nums[i]): nums[i + 1] for i in range(0, len(nums), 2)}
        pages = {page.objgen: index for index, page in enumerate(book.pages)}
        for index, page in enumerate(book.pages):
            entry = parent_tree[int(page.obj.StructParents)]
            assert all(pages[element.Pg.objgen] == index for element in entry)  # each marked content's element
            for annot in page.obj.get("/Annots", []):
                link = parent_tree[int(annot.StructParent)]
                assert link.S == "/Link" and link.Pg.objgen == page.objgen
        kinds = []

        def walk(element, depth):
            if isinstance(element, pikepdf.Dictionary) and "/S" in element:
                kinds.append(str(element.S))
                for kid in element.get("/K", []) if isinstance(element.get("/K"), pikepdf.Array) else [element.get("/K")]:
                    if isinstance(kid, pikepdf.Dictionary) and "/S" in kid:
                        assert kid.P.objgen == element.objgen
                        walk(kid, depth + 1)
        walk(root.K[0], 0)
        return {"keys": len(parent_tree), "kinds": kinds}


def test_one_structure_tree_with_a_valid_parent_tree(books):
    whole, bound, _, _ = books
    assert structure(bound) == structure(whole)  # the stand-ins' empty elements are taken off


def font_files(data: bytes) -> dict:
    """Embedded font name -> the distinct files stored under it."""
    with pikepdf.open(io.BytesIO(data)) as book:
        found: dict = {}
        for obj in book.objects:
            if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == "/FontDescriptor":
                stream = obj.get("/FontFile2") or obj.get("/FontFile3") or obj.get("/FontFile")
                found.setdefault(str(obj.FontName), set()).add(stream.objgen)
        return found


def test_binding_is_byte_identical_and_font_names_stay_unique(books):
    _, bound, parts, drops = books
    assert bind.bind(parts, drop_dests=drops) == bound
    assert all(len(files) == 1 for files in font_files(bound).values())  # a subset per part: a name per subset
    plain = laid_out("<p>Words without a heading.</p>")
    twice = bind.bind([plain, plain])
    assert font_files(twice) == {name: {next(iter(files))} for name, files in font_files(twice).items()}
    assert sum(len(files) for files in font_files(twice).values()) == \
        sum(len(files) for files in font_files(plain).values())  # the same file twice is stored once
    assert len(pypdf.PdfReader(io.BytesIO(twice)).pages) == 2


def test_a_name_in_two_parts_is_refused(books):
    _, _, parts, _ = books
    with pytest.raises(bind.BindError, match=r"^the destination 'one-a' is in two parts$"):
        bind.bind(parts)  # without dropping the stand-ins, 'one-a' is in the first part and the last


def test_the_subsets_of_one_font_the_parts_embed_are_stored_as_one_holding_every_parts_glyphs():
    # (a pack of six delves carried eight or nine subsets of each face: 235 kB of fonts where one document carried 40)
    first, second = laid_out("<p>abc abc</p>"), laid_out("<p>xyz xyz</p>")
    bound = bind.bind([first, second])
    [a], [b], [merged] = (list(drawn_glyphs(data).values()) for data in (first, second, bound))
    assert a - b and b - a and merged == a | b  # each part drew glyphs the other did not: the one file draws them all
    assert texts(bound) == texts(first) + texts(second)
    assert bind.bind([first, second]) == bound  # the same bytes every time


def test_a_book_bound_again_merges_only_the_subsets_it_has_not_merged_before(monkeypatch):
    """bind._kept_union: serve's book server binds the rulebook again after every edit, its fonts mostly unchanged."""
    first, second, third = laid_out("<p>abc abc</p>"), laid_out("<p>xyz xyz</p>"), laid_out("<p>klm klm</p>")
    merged = []
    monkeypatch.setattr(bind, "_union_of_subsets", lambda fonts, union=bind._union_of_subsets:
                        merged.append(len(fonts)) or union(fonts))
    monkeypatch.setattr(bind, "_UNIONS", {})
    bound = bind.bind([first, second])
    assert merged == [2] and bind.bind([first, second]) == bound and merged == [2]  # kept: the same bytes
    bind.bind([first, third])
    assert merged == [2, 2]  # other subsets: merged


def drawn_glyphs(data: bytes) -> dict:
    """Each embedded TrueType file of a PDF (by objgen) -> the glyph ids it draws something for."""
    from fontTools.ttLib import TTFont
    with pikepdf.open(io.BytesIO(data)) as book:
        files = {obj.FontFile2.objgen: obj.FontFile2.read_bytes() for obj in book.objects
                 if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == "/FontDescriptor"}
    drawn = {}
    for objgen, font_file in files.items():
        font = TTFont(io.BytesIO(font_file))
        glyphs = font["glyf"]
        drawn[objgen] = {gid for gid, name in enumerate(font.getGlyphOrder()) if glyphs[name].numberOfContours}
    return drawn


def test_a_moved_page_takes_its_links_destinations_and_figures_with_it():
    """A part laid out for the other side of a mirrored book is moved across by the binder (paginate.book): what it
    draws, its links' rectangles, the destinations on its pages and its figures' bounding boxes (in CSS px, as
    WeasyPrint writes them) move by the same amount; the part before it stays put."""
    figure = "<svg width='40' height='20' role='img'><title>A box</title><rect width='40' height='20'/></svg>"
    first = laid_out(stand_ins(["two"]) + "<h1 id='one'>One</h1><p><a href='#two'>To two</a></p>")
    second = laid_out(stand_ins(["one"]) + f"<h1 id='two'>Two</h1><p><a href='#one'>Back</a></p>{figure}")

    def facts(data):
        with pikepdf.open(io.BytesIO(data)) as book:
            flat = book.Root.Names.Dests.Names
            pages = {page.objgen: i for i, page in enumerate(book.pages)}
            dests = {str(flat[i]): float(flat[i + 1][2]) for i in range(0, len(flat), 2)}
            rects = [float(a.Rect[0]) for page in book.pages for a in page.obj.get("/Annots", [])]
            boxes, stack = [], [book.Root.StructTreeRoot]
            while stack:
                element = stack.pop()
                if isinstance(element, pikepdf.Dictionary):
                    if element.get("/S") == "/Figure":
                        boxes.append((pages[element.Pg.objgen], float(element.A.BBox[0])))
                    kids = element.get("/K")
                    stack.extend(kids if isinstance(kids, pikepdf.Array) else [kids] if kids is not None else [])
            return dests, rects, boxes
    kept = facts(bind.bind([first, second], drop_dests=[["two"], ["one"]]))
    moved = facts(bind.bind([first, second], drop_dests=[["two"], ["one"]], shifts=[(), (-6.0,)]))
    assert moved[0] == {"one": kept[0]["one"], "two": kept[0]["two"] - 6.0}
    assert moved[1] == [kept[1][0], kept[1][1] - 6.0]
    assert len(kept[2]) == 1 and moved[2] == [(1, kept[2][0][1] - 8.0)]  # 6 pt are 8 CSS px
    with pytest.raises(bind.BindError, match="nor its first part be moved"):
        bind.bind([first, second], shifts=[(-6.0,), ()])
