"""paginate.book: a book laid out part by part reads like the book laid out whole; unchanged parts come from the cache."""

from __future__ import annotations

import io

import pypdf
import pytest

from dungeonpress import build, pdf
from dungeonpress.errors import RenderError
from dungeonpress.paginate import book

STYLE = ("@page { size: 105mm 148mm; margin: 12mm; @bottom-center { content: counter(page) } } "
         "@page :left { @top-left { content: string(chapter) } } @page :right { @top-right { content: string(chapter) } } "
         "h1 { string-set: chapter content(); bookmark-level: 1 } section { break-before: page } "
         ".toc a::after { content: leader('. ') target-counter(attr(href), page) }")
NUMBERED = ".toc a::after { content: leader('. ') attr(data-page) }"


def chapter(n: int, lines: int) -> str:
    return f"<section><h1 id='c{n}'>Chapter {n}</h1>" + "<p>A line of the chapter, long enough to wrap once.</p>" * lines \
        + ("<p><a href='#c1'>Back to the first</a></p>" if n > 1 else "") + "</section>"


def toy_book(lines: dict):
    """(HTML of the whole book, its parts): contents, chapters of `lines[n]` paragraphs, spare notes pages."""
    def front(numbers=None):
        pages = {n: "" if numbers is None else f" data-page='{numbers['c' + str(n)]}'" for n in lines}
        entries = "".join(f"<li><a href='#c{n}'{pages[n]}>Chapter {n}</a></li>" for n in lines)
        return f"<section class='toc'><h1 id='contents' style='string-set: none'>Contents</h1><ol>{entries}</ol></section>"
    notes = "".join(f"<section id='notes-{n}'>Notes</section>" for n in (1, 2, 3))
    chapters = {n: chapter(n, count) for n, count in lines.items()}

    def doc(body, css=""):
        return f"<html lang='en'><head><title>Toy</title><style>{STYLE} {css}</style></head><body>{body}</body></html>"

    whole = doc(front() + "".join(chapters.values()) + notes)
    parts = [book.Part("contents", lambda css, numbers: doc(front(numbers or {f"c{n}": "000" for n in lines}),
                                                            css + " " + NUMBERED), numbered=True)]
    parts += [book.Part(f"chapter {n}", lambda css, numbers, body=body: doc(body, css)) for n, body in chapters.items()]
    parts.append(book.Part("notes", lambda css, numbers: doc(notes, css)))
    return whole, parts


class Layouts:
    """lay_out that counts what it was asked to lay out."""

    def __init__(self):
        self.count = 0

    def __call__(self, html):
        self.count += 1
        return pdf.layout_html(html, base_url=build.TEMPLATES_DIR, roots=[build.TEMPLATES_DIR])


def texts(data: bytes) -> list:
    return [" ".join(page.extract_text().split()) for page in pypdf.PdfReader(io.BytesIO(data)).pages]


def whole_book(html: str) -> bytes:
    from dungeonpress.paginate.pages import pad_to_multiple
    return pdf.write_pdf(pad_to_multiple(Layouts()(html), 4, "toy"))


LINES = {1: 8, 2: 30, 3: 5}  # chapter 2 starts on a left-hand page, chapter 3 on a right-hand one


def test_start_css_numbers_on_and_keeps_the_bodys_margins_where_the_book_has_them():
    assert book.start_css(1, first=True) == "@page :first { counter-reset: page 1; } body { margin-bottom: 0; }"
    assert book.start_css(6, last=True) == ("@page :first { counter-reset: page 6; } body { margin-top: 0; } "
                                            "html { break-before: left; }")


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
    bound, laid = book.lay_out_book(parts, Layouts(), pdf.write_pdf, pad_to=4, name="toy")
    assert texts(bound) == texts(whole_book(whole))  # page numbers, running heads and contents' numbers included
    assert [(p.name, p.start, p.pages) for p in laid] == [("contents", 1, 1), ("chapter 1", 2, 2), ("chapter 2", 4, 4),
                                                          ("chapter 3", 8, 1), ("notes", 9, 0)]  # 8 pages: no spare kept
    reader = pypdf.PdfReader(io.BytesIO(bound))
    assert {name: reader.get_destination_page_number(dest) for name, dest in reader.named_destinations.items()
            if not name.startswith("notes")} == {"contents": 0, "c1": 1, "c2": 3, "c3": 7}
    assert book.lay_out_book(parts, Layouts(), pdf.write_pdf, pad_to=4)[0] == bound  # byte-identical


@pytest.mark.slow  # lays the book out three times
def test_an_edited_part_is_laid_out_again_and_the_rest_comes_from_the_cache():
    cache: dict = {}
    _, parts = toy_book(LINES)
    first = Layouts()
    book.lay_out_book(parts, first, pdf.write_pdf, cache=cache, pad_to=4)
    again = Layouts()
    book.lay_out_book(parts, again, pdf.write_pdf, cache=cache, pad_to=4)
    assert again.count == 0  # every part comes from the cache, both passes of the contents too
    whole, edited = toy_book({1: 8, 2: 29, 3: 5})  # one paragraph less in chapter 2: same page count
    after_edit = Layouts()
    bound, _ = book.lay_out_book(edited, after_edit, pdf.write_pdf, cache=cache, pad_to=4)
    assert after_edit.count == 1  # chapter 2 alone: the contents' numbers did not move
    assert texts(bound) == texts(whole_book(whole))


@pytest.mark.slow  # lays the toy book out
def test_contents_that_grow_with_their_numbers_are_an_error():
    _, parts = toy_book(LINES)
    front = parts[0]
    parts[0] = book.Part("contents", lambda css, numbers: front.html(css, numbers).replace(
        "</ol>", "</ol>" + "<p>more</p>" * 40 if numbers and "000" not in numbers.values() else "</ol>"), numbered=True)
    with pytest.raises(RenderError, match=r"^toy: its contents took \d+ pages with page numbers, 1 without$"):
        book.lay_out_book(parts, Layouts(), pdf.write_pdf, pad_to=4, name="toy")
