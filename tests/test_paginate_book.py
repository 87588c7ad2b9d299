"""paginate.book: a book laid out part by part reads like the book laid out whole; unchanged parts come from the
cache, even when the parts before them change length; the rulebook's parts laid out in two worker processes
(build.PartWorkers) give the same bytes, chapters open on right-hand pages, page numbers are stamped artifacts."""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, replace
from pathlib import Path

import pikepdf
import pypdf
import pytest
from pypdf import PdfReader

from dungeonpress import build, pdf
from dungeonpress.errors import RenderError
from dungeonpress.paginate import book
from dungeonpress.products import rulebook
from tests.conftest import pdf_outline

STYLE = ("@page { size: 105mm 148mm; margin: 12mm; @bottom-center { content: counter(page) } } "
         "@page :left { @top-left { content: string(chapter) } } @page :right { @top-right { content: string(chapter) } } "
         "@page :blank { @top-left { content: none } @top-right { content: none } @bottom-center { content: none } } "
         "h1 { string-set: chapter content(); bookmark-level: 1 } section { break-before: right } "
         ".toc a::after { content: leader('. ') target-counter(attr(href), page) }")
NUMBERED = ".toc a::after { content: leader('. ') attr(data-page) }"
NO_FOLIOS = "@page { @bottom-center { content: none } }"  # a part prints no page numbers: the furniture does


def chapter(n: int, lines: int) -> str:
    return f"<section class='chapter'><h1 id='c{n}'>Chapter {n}</h1>" + "<p>A line of the chapter, long enough to wrap once.</p>" * lines \
        + ("<p><a href='#c1'>Back to the first</a></p>" if n > 1 else "") + "</section>"


def toy_book(lines: dict):
    """(HTML of the whole book, its parts): contents, chapters of `lines[n]` paragraphs, spare notes pages."""
    def front(numbers=None):
        pages = {n: "" if numbers is None else f" data-page='{numbers['c' + str(n)]}'" for n in lines}
        entries = "".join(f"<li><a href='#c{n}'{pages[n]}>Chapter {n}</a></li>" for n in lines)
        return f"<section class='toc'><h1 id='contents' style='string-set: none'>Contents</h1><ol>{entries}</ol></section>"
    # the last part sets its own running head, as every part must: a string set in another part is not carried over
    notes = "<section style='string-set: chapter \"The end\"'>Last words</section>" + "".join(f"<div id='notes-{n}' style='break-before: page'>Notes</div>"
                                                       for n in (1, 2, 3))
    chapters = {n: chapter(n, count) for n, count in lines.items()}

    def doc(body, css=""):
        return f"<html lang='en'><head><title>Toy</title><style>{STYLE} {css}</style></head><body>{body}</body></html>"

    whole = doc(front() + "".join(chapters.values()) + notes)
    parts = [book.Part("contents", lambda css, numbers: doc(front(numbers or {f"c{n}": "000" for n in lines}),
                                                            f"{css} {NO_FOLIOS} {NUMBERED}"), numbered=True)]
    parts += [book.Part(f"chapter {n}", lambda css, numbers, body=body: doc(body, f"{css} {NO_FOLIOS}"))
              for n, body in chapters.items()]
    parts.append(book.Part("notes", lambda css, numbers: doc(notes, f"{css} {NO_FOLIOS}")))
    return whole, parts


FURNITURE = book.Part("furniture", lambda css, numbers: f"<html><head><style>{STYLE} {css}</style></head><body></body></html>")


class Layouts:
    """A runner for lay_out_book (in this process) that counts the documents it was asked to lay out."""

    def __init__(self):
        self.count = 0

    def lay_out(self, html):
        self.count += 1
        return pdf.layout_html(html, base_url=build.TEMPLATES_DIR, roots=[build.TEMPLATES_DIR])

    def __call__(self, jobs):
        return book.in_process(self.lay_out, pdf.write_pdf)(jobs)


def bound(parts, runner=None, **kwargs):
    return book.lay_out_book(parts, runner or Layouts(), furniture=FURNITURE, pad_to=4, **kwargs)


def texts(data: bytes) -> list:
    return [" ".join(page.extract_text().split()) for page in pypdf.PdfReader(io.BytesIO(data)).pages]


def whole_book(html: str) -> bytes:
    from dungeonpress.paginate.pages import pad_to_multiple
    return pdf.write_pdf(pad_to_multiple(Layouts().lay_out(html), 4, "toy"))


LINES = {1: 8, 2: 30, 3: 5}  # chapter 1 takes 2 pages, chapter 2 4, chapter 3 1


def test_part_css_keeps_the_bodys_margins_where_the_book_has_them_and_says_nothing_of_where_it_starts():
    assert book.part_css(first=True) == "body { margin-bottom: 0; }"
    assert book.part_css(last=True) == "body { margin-top: 0; }"
    assert book.part_css() == "body { margin-top: 0; } body { margin-bottom: 0; }"


def test_the_furniture_has_one_named_page_for_every_page_of_the_book():
    html = book.furniture_html("<html><head><style>x</style></head><body class='b'><p>gone</p></body></html>",
                               ["cover", "", None, "notes"])
    assert html == ("<html><head><style>x</style></head><body class='b'>"
                    '<div class="furniture-page" style="page: cover"></div><div class="furniture-page" style="page: auto"></div>'
                    '<div class="furniture-page" style="page: auto"></div><div class="furniture-page" style="page: notes"></div>'
                    "</body></html>")


def test_stand_ins_hold_only_the_links_to_other_parts():
    html, names = book.stand_ins("<html><body class='x'><a href=\"#far\">f</a><a href=\"#near\">n</a>"
                                 "<p id=\"near\">here</p></body></html>")
    assert names == ["far"]
    assert html.startswith("<html><body class='x'><div id=\"far\" class=\"stand-in\" style=\"position: absolute\"></div>")
    assert book.stand_ins("<body><p id=\"a\"><a href=\"#a\">a</a></p></body>") == \
        ("<body><p id=\"a\"><a href=\"#a\">a</a></p></body>", [])


@pytest.mark.slow  # lays out two books of eight pages, one of them part by part
def test_a_book_laid_out_part_by_part_reads_like_the_whole_book():
    whole, parts = toy_book(LINES)
    data, laid = bound(parts, name="toy")
    assert texts(data) == texts(whole_book(whole))  # page numbers, running heads and contents' numbers included
    assert [(p.name, p.start, p.pages) for p in laid] == [("contents", 1, 1), ("chapter 1", 3, 2), ("chapter 2", 5, 4),
                                                          ("chapter 3", 9, 1), ("notes", 11, 2)]  # one spare kept
    reader = pypdf.PdfReader(io.BytesIO(data))
    assert len(reader.pages) == 12  # blank pages 2 and 10: chapter 1 and the notes open on right-hand pages
    assert {name: reader.get_destination_page_number(dest) for name, dest in reader.named_destinations.items()
            if not name.startswith("notes")} == {"contents": 0, "c1": 2, "c2": 4, "c3": 8}
    assert bound(parts)[0] == data  # byte-identical


def test_a_numbered_parts_first_pass_is_measured_and_not_written():
    """Its PDF would be replaced by the second pass: the first only places the book (Job.measure_only)."""
    whole, parts = toy_book(LINES)
    sent, cache = [], {}

    class Recording(Layouts):
        def __call__(self, jobs):
            sent.extend(jobs)
            return super().__call__(jobs)
    data, laid = bound(parts, Recording(), cache=cache)
    assert [job.measure_only for job in sent if job.name == "contents"] == [True, False]
    assert not any(job.measure_only for job in sent if job.name != "contents")
    assert sorted(len(item.data) > 0 for item in cache.values() if item.name == "contents") == [False, True]
    assert texts(data) == texts(whole_book(whole)) and laid[0].data  # the book holds the written contents


@pytest.mark.slow  # lays out two books of twelve pages
def test_a_plate_takes_each_blank_pages_place_with_its_page_number_and_nothing_else_moves():
    whole, parts = toy_book(LINES)
    plain, _ = bound(parts, name="toy")

    def plate(n, css, before):
        return (f"<html lang='en'><head><title>Toy</title><style>{STYLE} {css} {NO_FOLIOS}</style></head><body>"
                f"<figure><p>Plate {n + 1}</p></figure></body></html>")
    data, laid = bound(parts, name="toy", plate=plate)
    before, after = texts(plain), texts(data)
    assert len(after) == len(before) == 12
    assert [i for i, text in enumerate(before) if not text] == [1, 9]  # blank: chapter 1 and the notes open on the right
    assert after[1] == "Plate 1 2" and after[9] == "Plate 2 10"  # the plates, with their page numbers stamped
    assert [text for i, text in enumerate(after) if i not in (1, 9)] == [text for i, text in enumerate(before) if i not in (1, 9)]
    assert [(p.name, p.start) for p in laid] == [("contents", 1), ("chapter 1", 3), ("chapter 2", 5), ("chapter 3", 9),
                                                 ("notes", 11)]
    reader = pypdf.PdfReader(io.BytesIO(data))
    assert {name: reader.get_destination_page_number(dest) for name, dest in reader.named_destinations.items()
            if not name.startswith("notes")} == {"contents": 0, "c1": 2, "c2": 4, "c3": 8}
    assert pdf_outline(data) == pdf_outline(plain)  # a plate has no bookmark
    with pikepdf.open(io.BytesIO(data)) as made:
        nums = made.Root.StructTreeRoot.ParentTree.Nums
        parent_tree = {int(nums[i]): nums[i + 1] for i in range(0, len(nums), 2)}
        assert sorted(parent_tree) == list(range(len(parent_tree)))  # one structure tree, each page a key of its own
        assert len(parent_tree[int(made.pages[1].obj.StructParents)]) > 0  # the plate's text is tagged


@dataclass(frozen=True)
class ToyTailpiece(book.Tailpiece):
    """A block that fills the white under a chapter, `over` px taller than that white (made smaller when it runs over)."""

    n: int
    over: float

    @property
    def key(self) -> str:
        return f"toy {self.n} {self.over}"

    def fragment(self, room, pages):
        if room < 40:
            return None
        block = f"<div class='tailpiece' id='tail-{self.n}' style='height: {room - 20 + self.over:.0f}px; margin-top: 5px'>" \
            f"Tailpiece of chapter {self.n}</div>"
        breaks = "<div style='break-after: page'></div>" * pages
        return f"<html lang='en'><head><title>Toy</title><style>{STYLE} {NO_FOLIOS}</style></head><body>" \
            f"<section class='chapter'>{breaks}{block}</section></body></html>"


@pytest.mark.slow  # lays out the toy book twice, and a tailpiece alone for each chapter (one of them twice)
def test_a_tailpiece_fills_the_white_a_chapter_ends_in_and_moves_no_page():
    _, parts = toy_book(LINES)
    plain, laid_plain = bound(parts, name="toy")
    over = {1: 0.0, 2: 30.0, 3: 1000.0}  # px more than the white: fits; fits made smaller; never fits
    tailed = [replace(part, tailpiece=lambda css, n=int(part.name[-1]): ToyTailpiece(n, over[n]))
              if part.name.startswith("chapter") else part for part in parts]
    counted = Layouts()
    data, laid = bound(tailed, counted, name="toy")
    assert counted.count == 5 + 3 + 1 + 2  # each part; a tailpiece for each chapter, one again smaller; contents, furniture
    before, after = texts(plain), texts(data)
    ends = {part.name: part.start + part.pages - 2 for part in laid}  # each part's last page (0-based)
    assert all(part.end_room > 80 for part in laid_plain[1:4])  # each chapter leaves white to fill
    for n in (1, 2):  # the tailpiece at the end of its chapter's last page, above the page number
        assert after[ends[f"chapter {n}"]] == before[ends[f"chapter {n}"]].replace(
            f" Chapter {n} ", f" Tailpiece of chapter {n} Chapter {n} ")
    assert "Tailpiece" not in after[ends["chapter 3"]]  # it never fitted: the chapter as it was
    assert [text for i, text in enumerate(after) if i not in (ends["chapter 1"], ends["chapter 2"])] == \
        [text for i, text in enumerate(before) if i not in (ends["chapter 1"], ends["chapter 2"])]
    assert [part.end_room < 60 for part in laid[1:4]] == [True, True, False]  # the white is filled where it fitted
    assert pdf_outline(data) == pdf_outline(plain)
    reader = pypdf.PdfReader(io.BytesIO(data))
    dests = {name: reader.get_destination_page_number(dest) for name, dest in reader.named_destinations.items()}
    assert dests["tail-1"] == ends["chapter 1"] and dests["tail-2"] == ends["chapter 2"] and "tail-3" not in dests
    with pikepdf.open(io.BytesIO(data)) as made:  # one structure tree, the tailpiece's text tagged on its page
        nums = made.Root.StructTreeRoot.ParentTree.Nums
        parent_tree = {int(nums[i]): nums[i + 1] for i in range(0, len(nums), 2)}
        assert sorted(parent_tree) == list(range(len(parent_tree)))


@pytest.mark.slow  # lays the book out three times
def test_an_edited_part_is_laid_out_again_and_the_rest_comes_from_the_cache():
    cache: dict = {}
    _, parts = toy_book(LINES)
    bound(parts, cache=cache)
    again = Layouts()
    bound(parts, again, cache=cache)
    assert again.count == 0  # every part comes from the cache, both passes of the contents and the furniture too
    whole, edited = toy_book({1: 8, 2: 29, 3: 5})  # one paragraph less in chapter 2: same page count
    after_edit = Layouts()
    data, _ = bound(edited, after_edit, cache=cache)
    assert after_edit.count == 1  # chapter 2 alone: the contents' numbers and the furniture did not move
    assert texts(data) == texts(whole_book(whole))
    whole, longer = toy_book({1: 40, 2: 29, 3: 5})  # chapter 1 grows by three pages: every later page moves
    after_growth = Layouts()
    data, _ = bound(longer, after_growth, cache=cache)
    assert after_growth.count == 3  # chapter 1, the contents with their new numbers, the furniture: no other part
    assert texts(data) == texts(whole_book(whole))


@pytest.mark.slow  # lays the toy book out
def test_contents_that_grow_with_their_numbers_are_an_error():
    _, parts = toy_book(LINES)
    front = parts[0]
    parts[0] = book.Part("contents", lambda css, numbers: front.html(css, numbers).replace(
        "</ol>", "</ol>" + "<p>more</p>" * 40 if numbers and "000" not in numbers.values() else "</ol>"), numbered=True)
    with pytest.raises(RenderError, match=r"^toy: its contents took \d+ pages with page numbers, 1 without$"):
        bound(parts, name="toy")


# ---------------------------------------------------------------- the rulebook's parts in two worker processes

SMALL_PACK = Path(__file__).parent / "fixtures" / "small_pack"


def small_book(run_parts=None) -> bytes:
    ctx = build.context_for(build.load_content([SMALL_PACK]))
    ctx.run_parts = run_parts
    return rulebook.build_rulebook(ctx, rulebook.RulebookOptions(layout="pages"))[0].data


@pytest.fixture(scope="module")
def in_one_process():
    """The small book laid out in one process: the run's shared layout of it (the reading copy is the same bytes
    whether or not the booklet is asked for too), not a second one."""
    from tests.conftest import small_pack_book
    return small_pack_book()[0]["dungeoneer-rulebook.pdf"]


@pytest.mark.slow  # starts two worker processes, each importing WeasyPrint
def test_part_workers_answer_in_the_jobs_order_and_a_workers_error_is_raised_here():
    workers = build.PartWorkers(2)
    try:
        assert workers(len, ["aaa", "b", "cc", "dddd"]) == [3, 1, 2, 4]
        with pytest.raises(ValueError, match="invalid literal"):
            workers(int, ["1", "x"])
    finally:
        workers.close()


@pytest.mark.slow  # lays the small book out again, in two worker processes
def test_the_book_laid_out_in_two_workers_is_the_book_laid_out_in_one_process(in_one_process):
    workers = build.PartWorkers(2)
    try:
        assert small_book(workers) == in_one_process
    finally:
        workers.close()


def test_every_chapter_and_the_back_matter_open_on_a_right_hand_page(in_one_process):
    reader = PdfReader(io.BytesIO(in_one_process))
    opened = {item.title: reader.get_destination_page_number(item) + 1 for item in reader.outline
              if not isinstance(item, list)}
    assert {"Starting Out", "Weather and Light", "Hazards", "Quick Reference"} <= set(opened)
    assert all(opened[title] % 2 == 1 for title in ("Starting Out", "Weather and Light", "Hazards", "Quick Reference"))


def test_blank_pages_hold_nothing_and_are_tagged_like_weasyprints(in_one_process):
    with pikepdf.open(io.BytesIO(in_one_process)) as book:
        nums = book.Root.StructTreeRoot.ParentTree.Nums
        parent_tree = {int(nums[i]): nums[i + 1] for i in range(0, len(nums), 2)}
        blank = [i for i, page in enumerate(book.pages) if isinstance(page.obj.Contents, pikepdf.Stream)
                 and not page.obj.Contents.read_bytes().strip()]
        assert blank == [3, 9]  # before the first chapter (the front matter takes three pages) and the back matter
        assert len(parent_tree[int(book.pages[3].obj.StructParents)]) == 0
        assert sorted(parent_tree) == list(range(len(parent_tree)))  # each page and link has a key of its own


def test_page_numbers_are_stamped_as_artifacts_on_numbered_pages_only(in_one_process):
    texts = [page.extract_text() for page in PdfReader(io.BytesIO(in_one_process)).pages]
    with pikepdf.open(io.BytesIO(in_one_process)) as book:
        stamped = [i for i, page in enumerate(book.pages)
                   if "/Furniture" in page.obj.Resources.get("/XObject", {})]
        for i in stamped:
            assert b"/Artifact BMC q /Furniture Do Q EMC" in book.pages[i].obj.Contents[-1].read_bytes()
    assert stamped == [4, 5, 6, 7, 8, 12, 13, 14]  # the chapters and the notes (not the covers, front matter, sheets)
    assert all(texts[i].rstrip().endswith(str(i + 1)) for i in stamped)


@pytest.mark.slow
def test_a_worker_that_dies_is_one_line_not_a_traceback():
    workers = build.PartWorkers(2)
    try:
        with pytest.raises(RenderError, match=r"^a worker laying out the book's parts stopped"):
            workers(_die, [1, 2])
    finally:
        workers.close()


def _die(_job):
    import os
    os._exit(1)


# ---------------------------------------------------------------- a chapter cut into two parts at a page break

NARROW_LEFT = "@page :left { margin-right: 40mm }"  # lines wrap otherwise on a left-hand page: a page's side shows in its text
LINE = "<p>A line of the chapter, long enough to wrap once.</p>"


def cut_chapter_book(before: int):
    """(the book as one document, its parts): chapter 1 cut where its section Later opens a page, `before` lines in."""
    head = f"<section><h1 id='c1'>Chapter 1</h1>{LINE * before}"
    tail = f"<h2 id='c1-later' style='break-before: page; margin-top: 0'>Later</h2>{LINE * 12}<p><a href='#c1'>Back</a></p>"
    last = f"<section><h1 id='c2'>Chapter 2</h1>{LINE * 3}<p><a href='#c1-later'>Later</a></p></section>"

    def doc(body, css=""):
        return f"<html lang='en'><head><title>Cut</title><style>{STYLE} {NARROW_LEFT} {css}</style></head><body>{body}</body></html>"

    def part(name, body, **kwargs):
        return book.Part(name, lambda css, numbers: doc(body, f"{css} {NO_FOLIOS}"), **kwargs)

    carried_on = "<section style=\"break-before: auto; string-set: chapter 'Chapter 1'\">" + tail + "</section>"
    return doc(head + tail + "</section>" + last), [part("chapter 1", head + "</section>"),
                                                     part("chapter 1 (2 of 2)", carried_on, continues=True),
                                                     part("chapter 2", last)]


def headings(data: bytes) -> list:
    with pikepdf.open(io.BytesIO(data)) as pdf_file:
        found = []

        def walk(element):
            if isinstance(element, pikepdf.Array):
                for kid in element:
                    walk(kid)
            elif isinstance(element, pikepdf.Dictionary) and "/S" in element:
                if str(element.S) in ("/H1", "/H2", "/H3"):
                    found.append(str(element.S))
                kids = element.get("/K")
                for kid in kids if isinstance(kids, pikepdf.Array) else [kids]:
                    walk(kid)
        walk(pdf_file.Root.StructTreeRoot.K)
        return found


@pytest.mark.slow  # lays out four small books, two of them part by part
@pytest.mark.parametrize("before, side", [(8, "right"), (3, "left")])
def test_a_chapter_cut_at_a_page_break_reads_like_the_chapter_laid_out_whole(before, side):
    whole_html, parts = cut_chapter_book(before)
    cache: dict = {}
    layouts = Layouts()
    data, laid = book.lay_out_book(parts, layouts, furniture=FURNITURE, cache=cache, name="cut")
    whole = pdf.write_pdf(Layouts().lay_out(whole_html))
    assert laid[1].start % 2 == (1 if side == "right" else 0)  # no blank page before it: it starts where chapter 1 ends
    assert laid[1].start == laid[0].start + laid[0].pages
    assert texts(data) == texts(whole)  # its lines wrap for its side; running heads and page numbers as in the whole
    assert pdf_outline(data) == pdf_outline(whole)  # Later under Chapter 1
    assert pdf_outline(data)[1][:2] == (1, "Later")
    assert headings(data) == headings(whole) == ["/H1", "/H2", "/H1"]
    # laid out first for a right-hand page (as every part is), then for the left one it falls on
    assert layouts.count == (4 if side == "right" else 5)
    again = Layouts()
    assert book.lay_out_book(parts, again, furniture=FURNITURE, cache=cache, name="cut")[0] == data
    assert again.count == 0


# ---------------------------------------------------------------- chapters that open on the next page, either side

RUN_ON = "section.run-on { break-before: page }"


def either_side_book(lines: dict):
    """(the book as one document, its parts): chapters of `lines[n]` paragraphs, each opening the next page, left or
    right, and notes that open on a right-hand page. Lines wrap otherwise on a left-hand page."""
    notes = "<section style='string-set: chapter \"The end\"'>Last words</section>" + "".join(
        f"<div id='notes-{n}' style='break-before: page'>Notes</div>" for n in (1, 2, 3))
    chapters = {n: chapter(n, count).replace("<section class='chapter'>", "<section class='chapter run-on'>", 1)
                for n, count in lines.items()}

    def doc(body, css=""):
        return (f"<html lang='en'><head><title>Run on</title><style>{STYLE} {NARROW_LEFT} {RUN_ON} {css}</style></head>"
                f"<body>{body}</body></html>")

    parts = [book.Part(f"chapter {n}", lambda css, numbers, body=body: doc(body, f"{css} {NO_FOLIOS}"), either_side=True)
             for n, body in chapters.items()]
    parts.append(book.Part("notes", lambda css, numbers: doc(notes, f"{css} {NO_FOLIOS}")))
    return doc("".join(chapters.values()) + notes), parts


@pytest.mark.slow  # lays out two small books, one of them part by part
def test_chapters_that_open_on_either_side_leave_no_blank_page_and_read_like_the_whole_book():
    whole_html, parts = either_side_book({1: 4, 2: 30, 3: 5})
    layouts, cache = Layouts(), {}
    data, laid = bound(parts, layouts, cache=cache, name="run on")
    whole = whole_book(whole_html)
    assert texts(data) == texts(whole)  # each chapter's lines wrap for the side it opens on; heads and numbers as whole
    assert [(p.name, p.start) for p in laid] == [("chapter 1", 1), ("chapter 2", 2), ("chapter 3", 7), ("notes", 9)]
    reader = pypdf.PdfReader(io.BytesIO(data))
    blank = [i + 1 for i, page in enumerate(reader.pages) if not page.extract_text().strip()]
    assert blank == [8]  # only before the notes, which still open on a right-hand page
    assert layouts.count == 6  # four parts, chapter 2 again for the left-hand page it falls on, the furniture
    again = Layouts()
    assert bound(parts, again, cache=cache, name="run on")[0] == data
    assert again.count == 0


# A book whose sides differ only in their margins: the same width inside them, the inner margin wider.
MIRRORED = "@page :left { margin: 12mm 15mm 12mm 9mm } @page :right { margin: 12mm 9mm 12mm 15mm }"
NO_HEADS = "@page :left { @top-left { content: none } } @page :right { @top-right { content: none } }"


def mirrored_book(lines: dict):
    """either_side_book with mirrored margins, its parts printing no running heads (the furniture prints them)."""
    def mirrored(html: str) -> str:  # (and its links quoted as paginate.book finds them: kept across parts)
        return html.replace(NARROW_LEFT, MIRRORED).replace("href='#c1'", 'href="#c1"')
    whole_html, parts = either_side_book(lines)
    parts = [replace(part, html=lambda css, numbers, html=part.html: mirrored(html(f"{css} {NO_HEADS}", numbers)))
             for part in parts]
    return mirrored(whole_html), parts


@pytest.mark.slow  # lays out two small books, one of them part by part
def test_a_mirrored_book_lays_each_chapter_out_once_and_moves_one_on_a_left_hand_page_across():
    """Chapters 2 and 3 open on left-hand pages: laid out for right-hand ones, their pages are moved across by the
    margins' difference, their links and destinations with them; the heads, printed by the furniture from the strings each page
    sets, and every line read as in the book laid out whole."""
    from tests.test_products_rulebook import close, placed
    whole_html, parts = mirrored_book({1: 4, 2: 30, 3: 5})
    layouts = Layouts()
    furniture = replace(FURNITURE, html=lambda css, numbers: FURNITURE.html(css, numbers).replace(
        "</style>", f" {MIRRORED}</style>", 1))
    data, laid = book.lay_out_book(parts, layouts, furniture=furniture, pad_to=4, name="mirrored", heads=True,
                                   mirrored=True)
    whole = whole_book(whole_html)
    assert [(p.name, p.start) for p in laid] == [("chapter 1", 1), ("chapter 2", 2), ("chapter 3", 6), ("notes", 7)]
    assert texts(data) == texts(whole) and "Chapter 2" in texts(data)[2]  # its head on its second page
    assert layouts.count == 5  # four parts, once each, and the furniture
    assert close(placed(data), placed(whole))
    with pikepdf.open(io.BytesIO(data)) as pdf_file:  # moved: 6 mm, in points
        drawn = [b"".join(stream.read_bytes() for stream in page.Contents) for page in pdf_file.pages]
        moved = [re.search(rb"^q 1 0 0 1 (-?[0-9.]+) 0 cm$", page, re.M) for page in drawn]
        # chapters 2 and 3 (pages 2-6), laid out right-hand page first: a right-hand page moved left, a left-hand right
        assert [float(m.group(1)) if m else None for m in moved] == [None, -17.0079, 17.0079, -17.0079, 17.0079,
                                                                    -17.0079, None, None]
    with pytest.raises(ValueError, match="prints its running heads in the furniture"):
        book.lay_out_book(parts, layouts, furniture=furniture, mirrored=True)


def test_a_mirrored_page_moves_by_the_margins_difference_and_one_of_another_width_is_an_error():
    def laid(name, *margins):
        return book.LaidPart(name, b"", len(margins), {}, (), (), ("",) * len(margins), margins=margins)
    folios = laid("furniture", (56.7, 34.0), (34.0, 56.7), (56.7, 34.0))  # right, left, right: as the book's pages are
    # chapter 2 laid out right-hand page first, placed on pages 2-3: its pages move 22.7 px left, then right
    assert book._shifts([laid("chapter 1", (56.7, 34.0)), laid("chapter 2", (56.7, 34.0), (34.0, 56.7))],
                        [False, False], folios, "toy") == [(), (-17.025, 17.025)]
    with pytest.raises(RenderError, match="toy: its chapter 2 was laid out 100.70 px of margins wide, for a page of 90.70"):
        book._shifts([laid("chapter 1", (56.7, 34.0)), laid("chapter 2", (56.7, 44.0))], [False, False], folios, "toy")


def test_the_furniture_sets_the_strings_each_page_of_the_book_set_quoted_as_css():
    html = book.furniture_html("<html><body></body></html>", ["", None],
                               [(("chapter", 'The "Deep" \\ End'),), ()])
    assert html.count('class="furniture-page"') == 2
    assert 'string-set: chapter &quot;The \\&quot;Deep\\&quot; \\\\ End&quot;' in html


@pytest.mark.slow  # lays out a small book part by part
def test_a_padded_last_part_that_runs_on_keeps_the_spare_pages_the_page_it_starts_on_needs():
    # (a pack's back matter follows its last delve on whichever page that ends: an odd number of pages before it too)
    _, parts = either_side_book({1: 4})
    data, laid = bound([parts[0], book.Part("notes", parts[-1].html, either_side=True)], name="run on")
    pages = texts(data)
    assert [item.start for item in laid] == [1, 2] and len(pages) == 4  # one page before the notes, two spares kept
    assert pages[1].startswith("Last words") and [page.startswith("Notes") for page in pages[2:]] == [True, True]


def test_the_workers_are_let_go_once_every_part_is_laid_out_and_before_the_book_is_bound(monkeypatch):
    from dungeonpress import bind
    events: list = []

    def run(jobs):  # two pages a part, and the furniture a page for each page of the book
        events.append("laid out: " + ", ".join(job.name for job in jobs))
        return [[book.LaidPart(job.name, b"", pages, {}, (), (), ("",) * pages)]
                for job in jobs for pages in [job.html.count('class="furniture-page"') if job.furniture else 2]]

    monkeypatch.setattr(bind, "bind", lambda parts, **kwargs: events.append("bound") or b"%PDF-")
    parts = [book.Part(name, lambda css, numbers: "<html><body><p>Text</p></body></html>") for name in ("one", "two")]
    book.lay_out_book(parts, run, furniture=FURNITURE, laid_out=lambda: events.append("workers let go"))
    assert events == ["laid out: one, two", "laid out: furniture", "workers let go", "bound"]


def test_a_part_that_opens_on_a_left_hand_page_gets_a_plate_of_the_named_kind_before_it_where_it_would_open_right(
        monkeypatch):
    # (a pack's delves: each map faces its key; a filler page, the room log of the delve before, goes where needed)
    from dungeonpress import bind
    lengths = {"front": 2, "delve 1": 4, "delve 2": 3}
    plates, jobs_seen = [], []

    def run(jobs):
        jobs_seen.extend(jobs)
        return [[book.LaidPart(job.name, b"", pages, {}, (), (), (name,) * pages)]
                for job in jobs for pages, name in [(job.html.count('class="furniture-page"'), "") if job.furniture
                                                    else (lengths.get(job.name, 1), "dbook-a5")]]

    def plate(n, css, before):
        plates.append((n, before, "break-before: left" in css))
        return "<html><body><p>A room log</p></body></html>"
    monkeypatch.setattr(bind, "bind", lambda parts, **kwargs: b"%PDF-")
    parts = [book.Part("front", lambda css, numbers: "<html><body><p>Front</p></body></html>"),
             *[book.Part(name, lambda css, numbers: f"<html><head><style>{css}</style></head><body><p>A delve</p></body></html>",
                         opens="left")
               for name in ("delve 1", "delve 2")]]
    _, laid = book.lay_out_book(parts, run, furniture=FURNITURE, plate=plate, plate_page="dbook-a5",
                                plates_continue=True)
    assert [item.start for item in laid] == [1, 4, 8]  # delve 1 on p4 after the plate on p3; delve 2 on p8 as it fell
    assert plates == [(0, 1, False)]  # before part 1, on a right-hand page
    assert [job.continues for job in jobs_seen if job.name.startswith("plate")] == [True]
    delve = next(job for job in jobs_seen if job.name == "delve 1")
    assert book.LEFT_CSS in delve.html  # laid out as it falls: from a left-hand page
