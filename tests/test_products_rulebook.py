"""The rulebook PDF as a reader gets it: pages, contents, bookmarks, fonts, booklet order, rebuilds."""

from __future__ import annotations

import io
import re

import pikepdf
import pytest
from pypdf import PdfReader

from dungeonpress import build
from dungeonpress.impose import booklet_order
from dungeonpress.products import rulebook
from tests.conftest import SHARED
from tests.conftest import SMALL_PACK, pdf_outline, slow_fixture, small_pack_book

A5 = (419.53, 595.28)
SHEETS = {"a4": (841.89, 595.28), "letter": (792.0, 612.0)}


@pytest.fixture(scope="module")
@slow_fixture
def built(content):
    """The rulebook as `build all` makes it in the standard theme (shared with the theme tests when they run)."""
    def here():
        ctx = build.context_for(content)
        outputs = {o.name: o.data for o in rulebook.build_rulebook(ctx, rulebook.RulebookOptions())}
        return outputs, ctx.warnings
    return SHARED.result("standard/rulebook/0", here)


@pytest.fixture(scope="module")
@slow_fixture
def reader(built):
    return PdfReader(io.BytesIO(built[0]["dungeoneer-rulebook.pdf"]), strict=True)


@pytest.fixture(scope="module")
@slow_fixture
def page_texts(reader):
    return [page.extract_text() for page in reader.pages]


@pytest.mark.slow
def test_no_weasyprint_warnings(built):
    assert built[1] == []


def test_outputs_and_page_sizes(built, reader):
    assert sorted(built[0]) == ["dungeoneer-rulebook-booklet-a4.pdf", "dungeoneer-rulebook-booklet-letter.pdf",
                                "dungeoneer-rulebook.pdf"]
    assert len(reader.pages) % 4 == 0 and len(reader.pages) >= 60
    for page in reader.pages:
        assert (round(float(page.mediabox.width), 2), round(float(page.mediabox.height), 2)) == A5
    for paper, size in SHEETS.items():
        sheets = PdfReader(io.BytesIO(built[0][f"dungeoneer-rulebook-booklet-{paper}.pdf"]), strict=True)
        assert len(sheets.pages) == len(reader.pages) // 2
        for page in sheets.pages:
            assert (round(float(page.mediabox.width), 2), round(float(page.mediabox.height), 2)) == size


@pytest.mark.slow
def test_contents_page_numbers_match_the_headings(page_texts):
    contents = next(i for i, text in enumerate(page_texts) if text.startswith("Contents"))
    entries = []
    for text in page_texts[contents:contents + 3]:
        for line in text.splitlines():
            match = re.match(r"^(.*?)[ .]*?(\d+)$", line.strip())
            # not the tailpiece under the entries (its map's room numbers, its command's --rooms 6)
            if match and match.group(1).strip() and not line.startswith("Contents") and "dungeonpress" not in line:
                entries.append((match.group(1).rstrip(" ."), int(match.group(2))))
    assert len(entries) > 40
    for title, number in entries:
        assert number > contents + 1, f"contents entry {title!r} has page {number}"
        body = page_texts[number - 1]
        assert title.split()[0] in body, f"{title!r} is not on page {number}"


@pytest.mark.slow
def test_chapters_and_sections_are_bookmarked(reader):
    top = [item.title for item in reader.outline if not isinstance(item, list)]
    for chapter in ("Introduction", "Characters", "Playing the Game", "Dungeon Generator", "Creatures & Foes",
                    "Quick Reference", "Character Sheet"):
        assert chapter in top
    assert any(isinstance(item, list) and len(item) >= 3 for item in reader.outline)


def test_every_font_is_embedded_and_ours(built):
    with pikepdf.open(io.BytesIO(built[0]["dungeoneer-rulebook.pdf"])) as pdf:
        names = set()
        for page in pdf.pages:
            for font in page.Resources.get("/Font", {}).values():
                descendant = font.get("/DescendantFonts", [font])[0]
                descriptor = descendant.FontDescriptor
                assert any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")), font.BaseFont
                names.add(str(font.BaseFont).split("+", 1)[-1])
    assert names and all(name.startswith(("Vollkorn", "Cinzel")) for name in names), names


def test_the_book_quotes_the_rules_it_computes(page_texts):
    text = "\n".join(page_texts)
    assert "Designer" in text and "Yes, but" in text
    assert "8.3%" in text and "14.4%" in text  # Yes-and, plain and with advantage
    assert "Grand hall with high ceilings (4)" in text.replace("\n", " ") or "Grand hall" in text


def test_no_placeholder_is_left(page_texts):
    text = "\n".join(page_texts)
    for placeholder in ("[Creature Name]", "[Bestiary", "[[", "]]", "DPDIRECTIVE", "TODO"):
        assert placeholder not in text


def test_booklet_pages_are_in_saddle_stitch_order(built, reader):
    count = len(reader.pages)
    sides = booklet_order(count)
    assert sides[0] == (count - 1, 0) and sides[1] == (1, count - 2)
    with pikepdf.open(io.BytesIO(built[0]["dungeoneer-rulebook-booklet-a4.pdf"])) as pdf, \
            pikepdf.open(io.BytesIO(built[0]["dungeoneer-rulebook.pdf"])) as source:
        for side, (left, right) in zip(pdf.pages[:4], sides[:4]):
            forms = side.Resources.XObject
            assert forms["/P0"].read_bytes() == source.pages[left].as_form_xobject().read_bytes()
            assert forms["/P1"].read_bytes() == source.pages[right].as_form_xobject().read_bytes()


def test_booklet_shares_fonts_and_stays_small(built):
    reading = len(built[0]["dungeoneer-rulebook.pdf"])
    assert len(built[0]["dungeoneer-rulebook-booklet-a4.pdf"]) < reading * 1.3


def whole_book(content, plates_before: tuple = (), tailpieces: dict | None = None, theme: str = "standard") -> bytes:
    """The rulebook laid out as one document, as it was made before it was laid out part by part: the reference.
    `plates_before` (plates_faced) puts a plate where the book made of parts has one, `tailpieces` (tailpieces_in its
    named destinations) a tailpiece of the same size where it has one."""
    from dungeonpress import pdf
    from dungeonpress.paginate.pages import pad_to_multiple
    ctx = build.context_for(content, theme=theme)
    html = rulebook.book_html(ctx, rulebook.RulebookOptions(), plates_before, tailpieces)
    return pdf.write_pdf(pad_to_multiple(pdf.layout_html(html, base_url=ctx.templates_dir, roots=ctx.roots), 4, "book"))


PLATE_TEXT = "Roll it again as a zine"


def plates_faced(data: bytes) -> tuple:
    """What each plate of a rulebook faces, in order: the chapter (0-based) or "back" that opens on the next page."""
    import pypdfium2 as pdfium
    reader = PdfReader(io.BytesIO(data))
    opening = {}
    for name, dest in reader.named_destinations.items():
        opening.setdefault(reader.get_destination_page_number(dest), set()).add(name)
    document = pdfium.PdfDocument(data)
    plates = [i for i in range(len(document)) if PLATE_TEXT in document[i].get_textpage().get_text_range()]
    document.close()
    faced = []
    for page in plates:
        names = opening.get(page + 1, set())
        chapters = {int(m.group(1)) - 1 for m in map(re.compile(r"c(\d+)-").match, names) if m}
        faced.append(chapters.pop() if len(chapters) == 1 else "back" if "quick-reference" in names else None)
    return tuple(faced)


def book_facts(data: bytes) -> dict:
    """What a reader of the book meets: each page's text, bookmarks, named destinations, links, tags."""
    import pypdfium2 as pdfium
    reader = PdfReader(io.BytesIO(data))
    # Each page's text as pdfium reads it: both books are read the same way, and pypdf took 3.7 s a book, pdfium 0.27 s.
    document = pdfium.PdfDocument(data)
    texts = [document[index].get_textpage().get_text_range() for index in range(len(document))]
    document.close()
    facts = {"texts": texts, "outline": pdf_outline(data),
             "dests": {name: reader.get_destination_page_number(d) for name, d in reader.named_destinations.items()}}
    with pikepdf.open(io.BytesIO(data)) as book:
        facts["links"] = [(i, str(a.Dest)) for i, page in enumerate(book.pages) for a in page.obj.get("/Annots", [])]
        root = book.Root.StructTreeRoot
        nums = root.ParentTree.Nums
        parent_tree = {int(nums[i]): nums[i + 1] for i in range(0, len(nums), 2)}
        pages = {page.objgen: i for i, page in enumerate(book.pages)}
        for i, page in enumerate(book.pages):  # every marked content and link finds its element, on its own page
            assert all(pages[element.Pg.objgen] == i for element in parent_tree[int(page.obj.StructParents)])
            assert all(parent_tree[int(a.StructParent)].Pg.objgen == page.objgen for a in page.obj.get("/Annots", []))
        kinds = []

        def tags(element):
            if isinstance(element, pikepdf.Dictionary) and "/S" in element:
                kinds.append(str(element.S))
                kids = element.get("/K")
                for kid in kids if isinstance(kids, pikepdf.Array) else [kids]:
                    tags(kid)
        assert len(root.K) == 1
        tags(root.K[0])
        facts["tags"], facts["parent tree keys"] = kinds, len(parent_tree)
        facts["page labels"] = repr(book.Root.get("/PageLabels"))
    return facts


def placed(data: bytes) -> dict:
    """Where a reader is taken: each named destination's (page, left, top), each link's (page, rectangle), in points."""
    with pikepdf.open(io.BytesIO(data)) as pdf:
        pages = {page.objgen: i for i, page in enumerate(pdf.pages)}
        flat = pdf.Root.Names.Dests.Names
        dests = {str(flat[i]): (pages[flat[i + 1][0].objgen], float(flat[i + 1][2]), float(flat[i + 1][3]))
                 for i in range(0, len(flat), 2)}
        links = [(i, tuple(float(v) for v in annot.Rect)) for i, page in enumerate(pdf.pages)
                 for annot in page.obj.get("/Annots", [])]
    return {"dests": dests, "links": links}


def close(a: dict, b: dict, within: float = 0.01) -> bool:
    return (a["dests"].keys() == b["dests"].keys() and len(a["links"]) == len(b["links"])
            and all(a["dests"][n][0] == b["dests"][n][0] and abs(a["dests"][n][1] - b["dests"][n][1]) <= within
                    and abs(a["dests"][n][2] - b["dests"][n][2]) <= within for n in a["dests"])
            and all(i == j and all(abs(x - y) <= within for x, y in zip(r, s))
                    for (i, r), (j, s) in zip(a["links"], b["links"])))


@pytest.mark.slow
def test_the_book_laid_out_part_by_part_is_the_book_laid_out_whole(built, content):
    """Every page's text (page numbers and running heads included), the contents' numbers, bookmarks, named
    destinations, links and the structure tree are those of the book laid out as one document."""
    data = built[0]["dungeoneer-rulebook.pdf"]
    # Introduction, Exploration, the Dungeon Generator, Inspiration and the first appendix open after a right-hand page
    assert plates_faced(data) == (0, 3, 4, 9, 10)
    tailpieces = rulebook.tailpieces_in(PdfReader(io.BytesIO(data)).named_destinations)
    # the contents, Playing the Game, the Dungeon Generator, Creatures & Foes, Adventure Tables' third piece, Inspiration
    assert sorted(tailpieces) == [(-1, 0), (2, 0), (4, 0), (7, 0), (8, 2), (9, 0)]
    assert book_facts(data) == book_facts(whole_book(content, plates_faced(data), tailpieces))


@pytest.mark.slow  # lays the large-print book out whole
@pytest.mark.builds("large-print/rulebook/0")
def test_a_large_print_book_whose_chapters_are_moved_across_is_the_book_laid_out_whole(content):
    """Its chapters open on either side: each is laid out once, for a right-hand page, and one that lands on a
    left-hand page is moved across by the 2 mm its margins differ, its running heads printed over the bound pages
    from the strings its pages set. Every page's text, bookmarks, destinations, links and tags, and where each link
    and destination sits, are those of the book laid out as one document."""
    outputs, _ = SHARED.result("large-print/rulebook/0")
    data = next(d for name, d in outputs.items() if name.startswith(rulebook.NAME) and "booklet" not in name)
    reader = PdfReader(io.BytesIO(data))
    chapters = [page for depth, _, page in pdf_outline(data) if depth == 0]
    assert any(page % 2 == 1 for page in chapters)  # a chapter opens on a left-hand page (0-based odd)
    whole = whole_book(content, plates_faced(data), rulebook.tailpieces_in(reader.named_destinations), "large-print")
    assert book_facts(data) == book_facts(whole)
    assert close(placed(data), placed(whole))


@pytest.mark.slow
def test_the_left_hand_pages_a_chapter_opening_leaves_hold_plates_of_rolled_delves_not_white(built):
    """Were blank (p6, 26, 32, 90, 100): each holds a map of a delve the Dungeon Generator rolled, and its command."""
    import pypdfium2 as pdfium
    data = built[0]["dungeoneer-rulebook.pdf"]
    document = pdfium.PdfDocument(data)
    texts = [" ".join(document[i].get_textpage().get_text_range().split()) for i in range(len(document))]
    document.close()
    assert [n + 1 for n, text in enumerate(texts) if not text] == []  # no page left white
    plates = [n + 1 for n, text in enumerate(texts) if PLATE_TEXT in text]
    assert plates == [6, 26, 32, 90, 100] and all(n % 2 == 0 for n in plates)  # left-hand pages, each facing an opening
    for n, seed in zip(plates, rulebook.PLATE_SEEDS):
        assert f"{PLATE_TEXT}: dungeonpress dungeon --seed {seed} " in texts[n - 1] and texts[n - 1].endswith(f" {n}")
    with pikepdf.open(io.BytesIO(data)) as book:
        figures = []

        def walk(element):
            if isinstance(element, pikepdf.Dictionary) and "/S" in element:
                if str(element.S) == "/Figure" and str(element.get("/Alt", "")).startswith("Map of "):
                    figures.append(str(element.Alt))
                kids = element.get("/K")
                for kid in kids if isinstance(kids, pikepdf.Array) else [kids]:
                    walk(kid)
        walk(book.Root.StructTreeRoot.K[0])
    tails = [n + 1 for n, text in enumerate(texts) if TAILPIECE_TEXT in text]
    # each map a figure a screen reader names (the book's other maps are its tailpieces), in the order of its pages
    assert len(figures) == len(plates) + len(tails)
    for alt, n in zip(figures, sorted(plates + tails)):
        assert alt[len("Map of "):] in texts[n - 1]  # the delve its caption names


TAILPIECE_TEXT = "rooms the Dungeon Generator rolled. Play them as a zine: dungeonpress dungeon --seed"


@pytest.mark.slow
def test_a_chapter_that_ends_with_half_its_last_page_white_ends_in_a_map_drawn_to_fill_it(built, tmp_path):
    """Were 44%, 59%, 45%, 58%, 49% and 46% full (p5, p25, p38, p58, p88, p99): the contents, Playing the Game, the
    Dungeon Generator, Creatures & Foes and Inspiration end in a tailpiece, six rooms the generator rolled, the map as
    tall as the white allows, and the command; so does the piece of Adventure Tables that ends with Dungeon Name
    Adjectives (the book is cut before Dungeon Name Places, which opens the next page)."""
    import pypdfium2 as pdfium
    from tests.test_page_fill import page_fills
    data = built[0]["dungeoneer-rulebook.pdf"]
    document = pdfium.PdfDocument(data)
    texts = [" ".join(document[i].get_textpage().get_text_range().split()) for i in range(len(document))]
    document.close()
    reader = PdfReader(io.BytesIO(data))
    tailpieces = rulebook.tailpieces_in(reader.named_destinations)
    pages = {(chapter, piece): reader.get_destination_page_number(
        reader.named_destinations[f"tailpiece-c{chapter + 1}-p{piece + 1}-{height}"]) + 1
        for (chapter, piece), height in tailpieces.items()}
    assert pages == {(-1, 0): 5, (2, 0): 25, (4, 0): 38, (7, 0): 58, (8, 2): 88, (9, 0): 99}
    assert [n + 1 for n, text in enumerate(texts) if TAILPIECE_TEXT in text] == [5, 25, 38, 58, 88, 99]  # one a page
    opens = {(8, 2): "c9-dungeon-name-places"}  # the piece's end: the next piece opens overleaf
    for (chapter, piece), n in pages.items():
        seed = rulebook.PIECE_TAILPIECE_SEEDS[piece] if (chapter, piece) in opens else \
            rulebook.CONTENTS_TAILPIECE_SEED if chapter < 0 else rulebook.TAILPIECE_SEEDS[chapter]
        assert f"6 {TAILPIECE_TEXT} {seed} --rooms 6 " in texts[n - 1]
        assert texts[n - 1].endswith(f" {n}") or chapter < 0  # its page number (the contents' pages have none)
        assert tailpieces[chapter, piece] >= rulebook.TAILPIECE_LEAST_MM
        # the chapter's last page: the next chapter opens overleaf, or after a plate
        following = n if PLATE_TEXT not in texts[n] else n + 1
        assert any(name.startswith(opens.get((chapter, piece), f"c{chapter + 2}-")) for name, dest in
                   reader.named_destinations.items() if reader.get_destination_page_number(dest) == following)
    fills = dict(page_fills(data, tmp_path))
    assert [f"p{n} {100 * fills[n]:.0f}%" for n in pages.values() if fills[n] < 0.7] == []
    assert len([n for n, fill in fills.items() if fill < 0.6]) <= 1  # p93, 57%: were eight pages under 60% (session 19)


def test_a_packs_own_book_keeps_its_blank_pages_the_plates_are_this_books(content):
    assert rulebook.has_plates(build.context_for(content))
    assert not rulebook.has_plates(build.context_for(build.load_content([SMALL_PACK])))


# ---------------------------------------------------------------- the fast tier: a 12-page book from tests/fixtures

@pytest.fixture(scope="module")
def small_book():
    """The small fixture pack's book (three short chapters, three tables) as the rulebook product makes it."""
    outputs, warnings = small_pack_book()  # laid out once, whichever worker runs these (test_paginate_book reads it too)
    return outputs, warnings, PdfReader(io.BytesIO(outputs["dungeoneer-rulebook.pdf"]), strict=True)


@pytest.mark.slow  # lays the small book out a second time, whole
def test_small_book_laid_out_part_by_part_is_the_small_book_laid_out_whole(small_book):
    assert book_facts(small_book[0]["dungeoneer-rulebook.pdf"]) == book_facts(whole_book(build.load_content([SMALL_PACK])))


def test_small_book_is_sixteen_a5_pages_and_a_booklet_of_eight_sides(small_book):
    outputs, warnings, reader = small_book
    assert warnings == []
    assert sorted(outputs) == ["dungeoneer-rulebook-booklet-a4.pdf", "dungeoneer-rulebook.pdf"]
    assert len(reader.pages) == 16  # each of its three chapters opens on a right-hand page
    assert {(round(float(p.mediabox.width), 2), round(float(p.mediabox.height), 2)) for p in reader.pages} == {A5}
    assert len(PdfReader(io.BytesIO(outputs["dungeoneer-rulebook-booklet-a4.pdf"])).pages) == 8


def test_small_book_contents_bookmarks_and_tables(small_book):
    texts = [page.extract_text() for page in small_book[2].pages]
    contents = next(i for i, text in enumerate(texts) if text.startswith("Contents"))
    entries = [re.match(r"^(.*?)[ .]*?(\d+)$", line.strip()) for line in texts[contents].splitlines()[1:]]
    entries = [(m.group(1).rstrip(" ."), int(m.group(2))) for m in entries if m]
    assert [title for title, _ in entries][:3] == ["Starting Out", "What You Need", "Making a Delver"]
    for title, number in entries:
        assert title.split()[0] in texts[number - 1], f"{title!r} is not on page {number}"
    top = [item.title for item in small_book[2].outline if not isinstance(item, list)]
    assert {"Starting Out", "Weather and Light", "Hazards", "Quick Reference", "Character Sheet"} <= set(top)
    text = "\n".join(texts)
    assert "Flooded floor" in text and "Glowing moss" in text and "The way back is shut" in text
    assert "[[" not in text


# ---------------------------------------------------------------- long chapters cut into parts (PART_BREAKS)

def test_a_chapter_is_cut_before_each_part_break_heading_which_opens_a_page(monkeypatch):
    monkeypatch.setattr(rulebook, "PART_BREAKS", ("later", "last"))
    html = ('<h1 id="c4-tables">Tables</h1><p>a</p><h2 id="c4-later">Later</h2><div><p>b</p></div>'
            '<h2 id="c4-last">Last</h2><p>c</p>')
    whole, pieces = rulebook.cut_at_part_breaks(html, "c4", where="rules/04.md")
    assert str(whole) == html.replace('id="c4-later">', 'id="c4-later" class="part-break">').replace(
        'id="c4-last">', 'id="c4-last" class="part-break">')
    assert [str(p) for p in pieces] == [whole[:whole.index("<h2")], whole[whole.index("<h2"):whole.index('<h2 id="c4-last"')],
                                        whole[whole.index('<h2 id="c4-last"'):]]
    assert rulebook.cut_at_part_breaks("<h1 id=\"c5-x\">X</h1><p>y</p>", "c5", where="w") == ("<h1 id=\"c5-x\">X</h1><p>y</p>",
                                                                                           ["<h1 id=\"c5-x\">X</h1><p>y</p>"])


def test_a_part_break_heading_inside_another_element_is_an_error_naming_the_chapter(monkeypatch):
    from dungeonpress.errors import RenderError
    monkeypatch.setattr(rulebook, "PART_BREAKS", ("later",))
    with pytest.raises(RenderError, match=r"^rules/04\.md: a part break's heading is inside another element"):
        rulebook.cut_at_part_breaks('<h1 id="c4-t">T</h1><div class="box"><h2 id="c4-later">Later</h2></div>', "c4",
                                    where="rules/04.md")


def test_a_part_break_heading_kept_with_its_table_is_cut_before_what_keeps_them(monkeypatch):
    monkeypatch.setattr(rulebook, "PART_BREAKS", ("later",))
    whole, pieces = rulebook.cut_at_part_breaks('<h1 id="c4-t">T</h1><div class="keep"><h2 id="c4-later">Later</h2>'
                                                '<table></table></div>', "c4", where="rules/04.md")
    assert [str(p) for p in pieces] == ['<h1 id="c4-t">T</h1>',
                                        '<div class="keep"><h2 id="c4-later" class="part-break">Later</h2><table></table></div>']


def test_a_running_head_is_written_as_a_css_string():
    assert rulebook.css_string('Creatures & "Foes" \\ x') == '"Creatures & \\"Foes\\" \\\\ x"'


def test_the_adventure_tables_are_four_parts_each_carrying_on_the_one_before(content):
    ctx = build.context_for(content)
    parts = rulebook.book_parts(ctx, rulebook.RulebookOptions())
    cut = [(p.name, p.continues) for p in parts if p.name.startswith("chapter 9")]
    assert cut == [("chapter 9 (1 of 4)", False), ("chapter 9 (2 of 4)", True), ("chapter 9 (3 of 4)", True),
                   ("chapter 9 (4 of 4)", True)]
    last = next(p for p in parts if p.name == "chapter 9 (4 of 4)").html("", {})  # cut before the heading's keep block
    assert '<section class="chapter continued" style="string-set: chapter &#34;Adventure Tables&#34;">\n<div class="keep">' \
        '<h2 id="c9-dungeon-name-places" class="part-break">' in last
    carried_on = next(p for p in parts if p.name == "chapter 9 (3 of 4)").html("", {})
    assert '<section class="chapter continued" style="string-set: chapter &#34;Adventure Tables&#34;">' in carried_on
    assert carried_on.count("<h2 ") > 5 and 'id="c9-hostile-monsters" class="part-break"' in carried_on
    assert "<h1" not in carried_on.split("<body")[1] and 'id="c9-stress-tags"' not in carried_on
    assert 'id="c9-adventure-gear" class="part-break"' in next(p for p in parts if p.name == "chapter 9 (2 of 4)").html("", {})


def test_the_contents_are_measured_with_the_widest_page_number_before_the_chapters_are_placed(content):
    """Laid out first to be measured (paginate.book), the contents print WIDEST_NUMBER for every entry: a title whose
    number would take it to two lines does so then too, and the contents keep their length once numbered."""
    from dungeonpress.paginate.book import WIDEST_NUMBER
    contents = next(p for p in rulebook.book_parts(build.context_for(content), rulebook.RulebookOptions())
                    if p.name == "contents")
    entries = contents.html("", {}).count("<li class=")
    assert entries > 40 and contents.html("", {}).count(f'data-page="{WIDEST_NUMBER}"') == entries


@pytest.mark.slow  # lays the small book out, then the two parts an edit changes
def test_editing_a_table_lays_out_its_chapter_and_the_cover_again_not_the_contents(tmp_path):
    import shutil
    pack = tmp_path / "small_pack"
    shutil.copytree(SMALL_PACK, pack)
    cache: dict = {}

    def book(laid: list) -> bytes:
        ctx = build.context_for(build.load_content([pack]))
        ctx.part_cache = cache
        ctx.run_parts = lambda fn, jobs: (laid.extend(job.name for job in jobs), [fn(job) for job in jobs])[1]
        return rulebook.build_rulebook(ctx, rulebook.RulebookOptions(layout="pages"))[0].data

    first: list = []
    book(first)
    assert first == ["cover", "contents", "chapter 1", "chapter 2", "chapter 3", "back matter",
                     "contents", "furniture"]  # then the contents with their numbers, and the page numbers
    table = pack / "tables" / "fixture_weather.yaml"
    table.write_text(table.read_text().replace("Cold mist", "Cold fog"))
    edited: list = []
    data = book(edited)
    # the colophon's content hash changed, and the chapter that prints the table: nothing else moved
    assert sorted(edited) == ["chapter 2", "cover"]
    texts = [page.extract_text() for page in PdfReader(io.BytesIO(data)).pages]
    assert any("Cold fog" in text for text in texts) and not any("Cold mist" in text for text in texts)
    assert build.load_content([pack]).digest[:12] in texts[1]  # the credits page's colophon


@pytest.mark.slow  # reads the content four times
def test_an_edit_renders_again_only_the_chapters_that_read_what_it_changed(tmp_path, monkeypatch):
    import shutil
    from dungeonpress import render
    from dungeonpress.cache.chapters import ChapterCache
    pack = tmp_path / "small_pack"
    shutil.copytree(SMALL_PACK, pack)
    rendered: list = []
    render_chapter = render.render_chapter
    monkeypatch.setattr(render, "render_chapter", lambda templates, text, prefix, *args, **kwargs: (
        rendered.append(prefix), render_chapter(templates, text, prefix, *args, **kwargs))[1])

    def views():
        rendered.clear()
        ctx = build.context_for(build.load_content([pack]))
        ctx.chapter_cache = ChapterCache(tmp_path / "chapters", [pack])
        return rulebook.chapter_views(ctx), ctx

    first, _ = views()
    assert rendered == ["c1", "c2", "c3"]
    again, ctx = views()
    assert rendered == []  # every chapter read back
    ctx.chapter_cache = None
    assert again == rulebook.chapter_views(ctx) == first  # the same HTML and headings as rendered here, ...
    assert [type(part) for view in again for part in view["pieces"]] == [type(part) for view in first
                                                                          for part in view["pieces"]]  # ... as markup
    table = pack / "tables" / "fixture_weather.yaml"  # printed in chapter 2
    table.write_text(table.read_text().replace("Cold mist", "Cold fog"))
    edited, _ = views()
    assert rendered == ["c2"] and "Cold fog" in edited[1]["html"] and edited[0] == first[0]
    chapter = pack / "rules" / "03-hazards.md"
    chapter.write_text(chapter.read_text().replace("## Getting Out", "## Getting Away"))
    edited, _ = views()
    assert rendered == ["c3"] and edited[2]["headings"][-1][2] == "c3-getting-away"


def test_a_chapters_inputs_name_the_tables_and_creatures_its_tables_rows_point_to(content):
    import dataclasses
    from dungeonpress import render
    ctx = build.context_for(content)
    number, chapter, row = next((n, c, row) for n, c in enumerate(content.book.chapters, start=1)
                                for name, arg, _ in render.chapter_directives(c.text) if name == "table" for row in content.tables[arg].rows if row.see)

    def inputs(changed) -> str:
        changed_ctx = build.context_for(changed)
        found = list(zip(render.chapter_directives(chapter.text), render.text_round_directives(chapter.text)))
        return rulebook.chapter_inputs(changed_ctx, number, chapter, found)

    seen = content.tables[row.see]
    retitled = dataclasses.replace(content, tables={**content.tables, row.see: dataclasses.replace(seen, title="Else")})
    assert inputs(content) == inputs(content)
    assert inputs(retitled) != inputs(content)  # its row prints the title of the table it points to
    unrelated = next(t for t in content.tables.values() if t.id not in inputs(content))
    other = dataclasses.replace(content, tables={**content.tables, unrelated.id: dataclasses.replace(unrelated, title="X")})
    assert inputs(other) == inputs(content)
    assert rulebook.chapter_inputs(ctx, number, chapter, [(("unknown", None, None), "")]) is None


@pytest.mark.slow  # lays out the contents and the Dungeon Generator twice each
def test_a_tailpiece_moved_in_falls_where_the_part_laid_out_again_with_it_puts_it(content):
    """The worker moves the tailpiece's boxes under the part's text (pdf.appended) instead of laying the part out again:
    the figure's box, and the part's pages, are those the part laid out with the figure at its end has."""
    from dungeonpress import pdf
    from dungeonpress.paginate import book
    ctx = build.context_for(content)
    parts = {part.name: part for part in rulebook.book_parts(ctx, rulebook.RulebookOptions())}

    def lay_out(html):
        return pdf.layout_html(html, base_url=ctx.templates_dir, roots=ctx.roots)
    for name in ("contents", "chapter 5"):
        html, tail = parts[name].html(book.part_css(), {}), parts[name].tailpiece(book.part_css())
        moved = lay_out(html)
        book._end_in_tailpiece(moved, tail, lay_out)
        last = pdf.measure(moved)[-1]
        (anchor,) = [a for a in last.boxes if a.startswith("tailpiece-")]
        figure = rulebook.tailpiece_figure(ctx.templates_dir, tail.view(int(anchor.rsplit("-", 1)[1])))
        at = html.rindex("</section>")  # the figure at the end of the part's text, as the book laid out whole has it
        again = lay_out(html[:at] + figure + html[at:])
        assert again.page_count == moved.page_count
        assert pdf.measure(again)[-1].boxes[anchor] == pytest.approx(last.boxes[anchor], abs=0.01), name
