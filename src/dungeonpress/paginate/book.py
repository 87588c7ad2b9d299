"""A book laid out part by part: each part's HTML → its PDF (cached, laid out in any order), bound into one book.

One WeasyPrint document per part (the cover, the contents, each chapter, the back matter) is laid out, written to
PDF and freed, so no process holds the whole book's boxes. A part's layout depends on nothing outside it,
so parts can be laid out at once in separate processes, and a cached part stays good when the parts before
it change length:
- every part starts on a right-hand page (a blank left-hand page is put before it when needed), so which
  side each of its pages falls on is fixed, and with it the page's margins and running head; or on a left-hand
  page, where it `opens` "left" (a pack's delve, its map facing its key);
- what does depend on where a part falls, the page numbers (and `counter(pages)`), is left out of the
  parts and laid out last as the book's *furniture*: one small document of empty pages, one per page of
  the book, with the same page names, whose margin boxes are stamped onto the book's pages as artifacts;
- the contents' page numbers are a second pass, laid out when every part's length is known
  (target-counter does not reach into another document); the first pass only measures them. Text that
  every edit changes (the rulebook's content hash) belongs in a part other than the contents, which then
  stay cached while no page number moves;
- links between parts are kept by stand-in anchors (the binder drops the stand-ins' destinations);
- a part sets its own running heads: a string one part sets (`string-set`) does not carry into the next;
- a long chapter may be cut into parts at a page break it has: the part that `continues` it gets no blank
  page and starts on whichever side the part before it leaves, so it is laid out for that side (LEFT_CSS
  makes WeasyPrint start it on a left-hand page; the side is in its HTML, so in its cache key), and its
  bookmarks go under the chapter's;
- a part that opens on `either_side` (a chapter of a book whose chapters open on the next page) is placed
  and laid out the same way, its bookmarks at the top level: when the parts before it change length by an
  odd number of pages it is laid out again for its other side (then cached for both).
- a book whose parts print no running heads (`heads`) has the furniture print them: each part says which strings
  (`string-set`) each of its pages sets, and the furniture's pages set the same, so `string()` there reads what it
  would have read in the book laid out whole;
- a book whose left- and right-hand pages differ only in their margins (`mirrored`: the same text width, the heads in
  the furniture) lays a part that lands on the other side out once: the binder moves its pages across by the
  difference in their left margins (the furniture's pages, laid out on the right sides, say where they are);
- a part may end in a tailpiece (Part.tailpiece): the worker that lays it out measures the white its last page
  leaves, lays a piece made to fill it out alone on a page like that one, and moves it in under the text
  (pdf.appended), so the part keeps its pages and is laid out once.
The binder (bind.py) keeps bookmarks, named destinations and one tagged structure tree.
"""

from __future__ import annotations

import hashlib
import html as markup
import json
import re
from dataclasses import dataclass, replace
from functools import partial

from dungeonpress.errors import RenderError

_IDS = re.compile(r'\bid="([^"]+)"')
_HREFS = re.compile(r'\bhref="#([^"]+)"')
_BODY = re.compile(r"<body[^>]*>")

# The furniture document draws only margin boxes: no page background (a print shop's cover tint), no crop
# marks (the parts have them), nothing in the pages themselves.
FURNITURE_CSS = ("@page { background: none !important; marks: none !important; } "
                 "html, body { background: none !important; margin: 0 !important; } "
                 ".furniture-page { break-before: page; height: 0; }")


@dataclass(frozen=True)
class Part:
    """One document of the book: `html(part_css, numbers)` is its HTML with `part_css` (see part_css) in a
    <style> after its stylesheets. Its page numbers must be left out (the furniture prints them).

    `numbers` maps every anchor of the other parts to its page number, for a part that prints them (the
    contents); it is empty on the first pass. `numbered` says the part reads `numbers`: it is laid out again
    once every other part is placed, and must keep its length.
    """

    name: str
    html: object
    numbered: bool = False
    continues: bool = False  # carries on the part before it (a chapter cut at a page break): no blank page before it
    either_side: bool = False  # opens the next page, whichever side it is: no blank page before it
    # tailpiece(part_css) -> what ends the part in a piece made to fill the white its last page leaves (a Tailpiece:
    # plain values a worker is sent with the part), or None.
    tailpiece: object = None
    # The side of the page a part that does not run on opens on: "right" (a blank page or a plate before it when the
    # part before ends on a right-hand page) or "left" (a pack's delve, its map facing its key: one before it when the
    # part before ends on a left-hand page).
    opens: str = "right"
    # refit(part_css, numbers) -> what lays the part out again where its first layout asks for it (a Refit, sent to the
    # worker like a tailpiece), or None.
    refit: object = None

    @property
    def runs_on(self) -> bool:
        """Whether the part starts where the part before it ends (no blank page), on either side."""
        return self.continues or self.either_side


WIDEST_NUMBER = "000"  # what a numbered part prints for a page number before the parts are placed (its length is kept)


def page_numbers(numbers: dict) -> dict:
    """The page numbers a numbered part prints: `numbers` once the parts are placed; before (empty), WIDEST_NUMBER
    for every anchor."""
    from collections import defaultdict
    return numbers or defaultdict(lambda: WIDEST_NUMBER)


# The root's break-before picks the side of a document's first page (WeasyPrint: layout/__init__.py): a part
# that carries on a chapter from a left-hand page starts on one, with no blank page before it.
LEFT_CSS = "html { break-before: left; }"


@dataclass(frozen=True)
class Job:
    """One document for a worker to lay out: a part, the contents with their numbers, or the book's furniture.

    `pad_to` (the last part): keep just enough spare notes pages for the book to end on a multiple of
    `pad_to` pages, for each even number of pages that may come before it (one LaidPart each).
    """

    name: str
    html: str
    pad_to: int = 0
    foreign: tuple = ()  # stand-in anchors it holds for other parts' anchors
    furniture: bool = False  # written untagged: the binder stamps it as artifacts
    continues: bool = False  # carries on a chapter (Part.continues): written with its headings under the chapter's
    tail: object = None  # a Tailpiece (below): the part ends in one where its last page has room
    refit: object = None  # a Refit (below): the layout it keeps of the part
    # With pad_to: the numbers of pages before it it is padded for (one LaidPart each); () every even number below
    # pad_to (a part that opens on a right-hand page).
    befores: tuple = ()
    # Laid out only to be measured, not written (its LaidPart has no PDF): a numbered part's first pass, whose pages
    # and anchors place the book but whose PDF the second pass replaces. Its tailpiece is left out too: a tailpiece
    # goes under the text of the last page, so the part keeps its pages and anchors without it.
    measure_only: bool = False
    heads: bool = False  # its LaidPart says which strings each page sets (the book's furniture prints the heads)

    @property
    def padded_for(self) -> tuple:
        return self.befores or tuple(range(0, self.pad_to, 2))


@dataclass(frozen=True)
class LaidPart:
    """A part as PDF bytes, with its page count, each of its anchors' page index (0-based, in the part), each
    page's name ("" the default page; None a blank page) and the white under the text of its last page. `before`:
    for the last part of a padded book, the number of pages before it (mod the padding) it was padded for.
    `start`: its first page in the book, once placed (0 while it is not)."""

    name: str
    data: bytes
    pages: int
    anchor_pages: dict  # each anchor the part holds -> its page index in the part
    warnings: tuple
    stand_ins: tuple  # names the part holds only as stand-ins for other parts' anchors
    page_names: tuple = ()
    before: int = 0
    start: int = 0
    end_room: float = 0.0  # CSS px of its last page's text area left white under its text
    # Each page's ((name, text), …): the strings its boxes set, in order (Job.heads; () otherwise).
    strings: tuple = ()
    margins: tuple = ()  # each page's (left, right) margin, CSS px

    def to_bytes(self) -> bytes:
        """The part as one line of JSON and its PDF after it (what a cache on disk keeps; nothing executable), with
        the PDF's sha256, so a file cut short is known (cache files are not synced: atomic.py)."""
        head = {"name": self.name, "pages": self.pages, "anchor_pages": self.anchor_pages,
                "warnings": list(self.warnings), "stand_ins": list(self.stand_ins),
                "page_names": list(self.page_names), "before": self.before, "end_room": self.end_room,
                "strings": [[list(pair) for pair in page] for page in self.strings],
                "margins": [list(page) for page in self.margins], "sha256": hashlib.sha256(self.data).hexdigest()}
        return json.dumps(head, sort_keys=True).encode() + b"\n" + self.data

    @classmethod
    def from_bytes(cls, data: bytes) -> "LaidPart":
        head, _, pdf_bytes = data.partition(b"\n")
        fields = json.loads(head)
        if fields["sha256"] != hashlib.sha256(pdf_bytes).hexdigest():
            raise ValueError("a laid-out part that is not whole")
        return cls(fields["name"], pdf_bytes, fields["pages"], fields["anchor_pages"], tuple(fields["warnings"]),
                   tuple(fields["stand_ins"]), tuple(fields["page_names"]), fields["before"],
                   end_room=fields["end_room"],
                   strings=tuple(tuple(tuple(pair) for pair in page) for page in fields["strings"]),
                   margins=tuple(tuple(page) for page in fields["margins"]))


def part_css(*, first: bool = False, last: bool = False) -> str:
    """The CSS of a part: the body's own margins only where the whole book has them (its first page's top,
    its last page's foot), so every line falls where it falls in the book laid out whole."""
    css = [] if first else ["body { margin-top: 0; }"]
    return " ".join(css + ([] if last else ["body { margin-bottom: 0; }"]))


def stand_ins(html: str) -> tuple[str, list]:
    """`html` with an empty, out-of-flow anchor for every internal link it makes to an id it does not hold.

    WeasyPrint drops a link to an anchor its document lacks; the stand-in keeps it, and the binder then
    points the link at the part that holds the anchor. Returns (the HTML, the stand-ins' names).
    """
    foreign = sorted(set(_HREFS.findall(html)) - set(_IDS.findall(html)))
    if not foreign:
        return html, []
    spans = "".join(f'<div id="{name}" class="stand-in" style="position: absolute"></div>' for name in foreign)
    body = _BODY.search(html)
    if body is None:
        raise RenderError("a book part has no <body> to hold its link targets")
    return html[:body.end()] + spans + html[body.end():], foreign


def furniture_html(html: str, page_names: list, strings: list | None = None) -> str:
    """The book's furniture: `html`'s head (the book's stylesheets) and one empty page per page of the book,
    named as that page is, so each gets the margin boxes (page numbers) the book's page would have had; and, with
    `strings` (each page's ((name, text), …)), setting the strings that page of the book sets, in order, so its
    running heads read them."""
    body = _BODY.search(html)
    if body is None:
        raise RenderError("the book's furniture has no <body>")
    strings = strings or [()] * len(page_names)
    pages = "".join(f'<div class="furniture-page" style="page: {markup.escape(name or "auto")}">'
                    + "".join(f'<div style="{markup.escape(f"string-set: {string} {_css_string(text)}")}"></div>'
                              for string, text in sets)
                    + "</div>"
                    for name, sets in zip(page_names, strings))
    return html[:body.end()] + pages + "</body></html>"


def _css_string(text: str) -> str:
    """`text` as a CSS string."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\a ") + '"'


def part_key(html: str, pad_to: int = 0, before: int = 0) -> str:
    """The cache key of a part: its HTML and how it is padded. The cache itself answers for everything else
    a PDF depends on (stylesheets, fonts, our code, library versions)."""
    return hashlib.sha256(f"{pad_to}/{before}\n{html}".encode()).hexdigest()


def lay_out_job(job: Job, lay_out, write) -> list:
    """Lay one job out, written to PDF bytes and freed: [LaidPart], one per padding of a padded last part.

    `lay_out(html) -> pdf.Rendered`, `write(rendered, heading_level=0) -> bytes` (tagged; the furniture is
    written untagged; a part that continues a chapter with heading_level=1, its headings under the chapter's
    h1 as in the book laid out whole). What a worker process runs; it reads nothing but the job.
    """
    from dungeonpress import pdf  # the engine is loaded where parts are laid out, not where they are bound
    from dungeonpress.paginate.pages import drop_spare_pages, spare_pages
    rendered = lay_out(job.html)
    if job.refit is not None:
        rendered = job.refit.refit(rendered, lay_out)
    if job.tail is not None and not job.measure_only:
        _end_in_tailpiece(rendered, job.tail, lay_out)
    if job.measure_only:
        write = _unwritten
    elif job.continues:
        write = partial(write, heading_level=1)
    if job.furniture:
        return [_laid(job, rendered, pdf.write_pdf(rendered, variant=None, tags=False))]
    if not job.pad_to:
        return [_laid(job, rendered, write(rendered))]
    spares = len(spare_pages(pdf.measure(rendered)))
    laid = []
    for before in job.padded_for:
        needed = -(before + rendered.page_count - spares) % job.pad_to
        padded = drop_spare_pages(rendered, spares - needed)
        if (before + padded.page_count) % job.pad_to:
            raise RenderError(f"{job.name} has {before + padded.page_count} pages after padding with {spares} "
                              f"spare notes pages (expected a multiple of {job.pad_to})")
        laid.append(replace(_laid(job, padded, write(padded)), before=before))
    return laid


def _unwritten(rendered, **kwargs) -> bytes:
    """What a part laid out only to be measured has for its PDF (Job.measure_only)."""
    return b""


class Refit:
    """What lays a part out again where its first layout asks for it (a key shared evenly by its pages, a map drawn
    shorter so its legend stays on its page), in the worker that lays it out. A subclass gives `refit(rendered,
    lay_out) -> the layout to keep` and `key`: text naming everything the layouts it may make depend on that the
    part's HTML does not say. It is sent to the worker, so it holds plain values."""

    key = ""

    def refit(self, rendered, lay_out):
        raise NotImplementedError


class Tailpiece:
    """What ends a part in a piece made to fill the white its last page leaves under its text (a map, an ornament).

    A subclass gives `fragment(room, pages)`: a document like the part's, with `pages` empty pages and then, on the
    page after them, the piece (an element of class TAILPIECE in an element of class `holder`, as the part's last
    page holds its text) made to fill `room` CSS px, or None where too small a piece fits. And `key`: text that
    names everything the piece depends on that the part's HTML does not say (the part cache's key holds it). It is
    sent to the worker that lays the part out, so it holds plain values.
    """

    key = ""
    holder = "chapter"  # the class of the element whose text on the last page the piece goes under

    def fragment(self, room: float, pages: int) -> str | None:
        raise NotImplementedError


TAILPIECE = "tailpiece"
TAILPIECE_TRIES = 3  # a piece that runs past the page's text is made smaller by what it ran over, this many times


def _end_in_tailpiece(rendered, tail: Tailpiece, lay_out) -> None:
    """End `rendered`'s last page in `tail`'s piece, laid out alone on a page like it and moved in under its text (in
    place; what laying the part out again with the piece at its end gives: pdf.appended), where one fits."""
    from dungeonpress import pdf
    last = rendered.page_count - 1
    room = pdf.measure(rendered)[last].white_under_text
    for _ in range(TAILPIECE_TRIES):
        html = tail.fragment(room, last)
        if html is None:
            return
        over = pdf.appended(rendered, lay_out(html), last, TAILPIECE, tail.holder)
        if over is None or over <= 0:  # it cannot be moved in, or it was
            return
        room -= over + 1  # ran over by `over` px: a piece that much smaller


def _laid(job: Job, rendered, data: bytes) -> LaidPart:
    from dungeonpress import pdf
    measured = pdf.measure(rendered)
    anchors = {}
    for index, page in enumerate(measured):
        for anchor in page.boxes:
            anchors.setdefault(anchor, index)
    own = {anchor: page for anchor, page in anchors.items() if anchor not in job.foreign}
    names = tuple(None if page.blank else page.name for page in measured)
    end_room = measured[-1].white_under_text if measured else 0.0
    return LaidPart(job.name, data, rendered.page_count, own, tuple(rendered.warnings), tuple(job.foreign), names,
                    end_room=round(end_room, 3), strings=pdf.strings_set(rendered) if job.heads else (),
                    margins=tuple((round(left, 6), round(right, 6)) for left, right in pdf.page_margins(rendered)))


def in_process(lay_out, write):
    """A runner for lay_out_book that lays every job out in this process, one after another."""
    return lambda jobs: [lay_out_job(job, lay_out, write) for job in jobs]


def lay_out_book(parts: list, run, *, furniture: Part, cache=None, pad_to: int = 0,
                 name: str = "the book", laid_out=None, plate=None, plate_page: str = "",
                 plates_continue: bool = False, heads: bool = False, mirrored: bool = False,
                 plate_strings: tuple = ()) -> tuple[bytes, list]:
    """The book bound from its parts, and every part as placed in it (LaidPart with its start, in order).

    `run(jobs) -> [[LaidPart, …] for each job]` lays jobs out (in this process: in_process; or in workers,
    in any order: no job reads another's result). `furniture.html(css, {})` gives the book's stylesheets
    with its page numbers kept. `cache` (a mapping, or None) holds laid parts by part_key; it must keep
    apart what the HTML does not say (stylesheets, fonts, templates, tool and library versions:
    cache.parts.PartCache does). `pad_to` pads the last part's spare pages.

    An edit that moves no page lays out only the parts whose HTML it changed. `laid_out()`, if given, is
    called once every part is laid out, before the book is bound (workers may end meanwhile).

    `plate(n, css, i) -> HTML`, if given, fills the pages left before parts that open on the other side (else
    blank): the n-th such page (from 0), before part i, is that one-page document of the kind `plate_page` names (""
    the default page), laid out with `css` (it opens on the side it falls on), placed as a part of its own with no
    bookmarks, its page number stamped as any page's. `plates_continue`: a plate's headings are tagged under the
    heading before it, as a part that continues a chapter's are (a pack's filler pages, under their delve's title).

    `heads`: the parts print no running heads (their CSS leaves them out); the furniture prints them from the strings
    each page of the book sets (a plate's page: `plate_strings`, ((name, text), …), as plates are laid out with the
    furniture). `mirrored` (with `heads`): a left- and a right-hand page differ only in their margins, so a part that
    opens on either side is laid out once, for a right-hand page, and moved across where it lands on a left-hand one
    (see the module's words).
    """
    if mirrored and not heads:
        raise ValueError("a mirrored book prints its running heads in the furniture")
    cache = {} if cache is None else cache
    last = len(parts) - 1

    # 1. Every part (the contents with stand-in numbers, which fix their length), from the cache or laid out.
    def css(i: int, left: bool = False) -> str:
        left = left or (parts[i].opens == "left" and not parts[i].runs_on)
        return part_css(first=i == 0, last=i == last) + (" " + LEFT_CSS if left else "")

    def job(i: int, left: bool = False, numbers: dict | None = None, before: int | None = None) -> Job:
        """Part i's job, with its tailpiece and refit if it has them: its first pass (no numbers; the last part padded
        for every number of pages that may come before it), or a numbered part's second, with every other part's page
        numbers (the last part padded for the `before` it was placed after)."""
        tail = parts[i].tailpiece(css(i, left)) if parts[i].tailpiece else None
        refit = parts[i].refit(css(i, left), numbers or {}) if parts[i].refit else None
        padded, befores = (pad_to, _befores(parts[i], pad_to, before)) if i == last and pad_to else (0, ())
        return replace(_job(parts[i], parts[i].html(css(i, left), numbers or {}), padded), tail=tail, refit=refit,
                       befores=befores, measure_only=parts[i].numbered and numbers is None, heads=heads)

    jobs = [job(i) for i in range(len(parts))]
    loading = _load_binder_meanwhile()
    laid = _cached_or_run(jobs, run, cache)

    # 2. Place them: each on a right-hand page, the last one padded for what comes before it; a part that
    #    runs on (it continues a chapter, or opens on either side) where it falls, laid out again for a
    #    left-hand page when that is where the part before it ends. Every part on the wrong side is laid out
    #    again at once; the first of them is then right for good (only parts before it place it), so each
    #    round settles one part at least, and the sides found are the only ones that agree with the layout.
    #    In a mirrored book no part is laid out again: a side changes where its pages go, not how many there are.
    left = set()
    while True:
        placed, blanks = _place(parts, laid, pad_to)
        wrong = [i for i, item in enumerate(placed) if parts[i].runs_on and (item.start % 2 == 0) != (i in left)]
        if not wrong or mirrored:
            break
        left ^= set(wrong)
        for i, variants in zip(wrong, _cached_or_run([job(i, left=i in left) for i in wrong], run, cache)):
            laid[i] = variants
    numbers = {anchor: item.start + page for item in placed for anchor, page in item.anchor_pages.items()}

    # 3. The contents with their numbers, the plates for the pages that would be blank, and the furniture for every
    #    page, laid out together (a plate takes a blank page's place: no page moves).
    waits = [i for i, blank in enumerate(blanks) if blank]  # the parts a plate or a blank page goes before
    plates = [Job(f"plate {n + 1}", plate(n, part_css() + ("" if parts[i].opens == "left" else " " + LEFT_CSS), i),
                  continues=plates_continue) for n, i in enumerate(waits)] if plate else []
    page_names = []  # a plate is one page of the kind plate_page names (checked once it is laid out); None a blank page
    strings = []  # the strings each page sets: a plate's page plate_strings, a blank page none
    for blank, item in zip(blanks, placed):
        page_names += [plate_page if plates else None] * blank + list(item.page_names)
        strings += [plate_strings if plates else ()] * blank + list(item.strings or [()] * item.pages)
    numbered = [i for i, part in enumerate(parts) if part.numbered]
    second = [job(i, i in left, numbers, before=(placed[i].start - 1) % pad_to if pad_to else None)
              for i in numbered] + plates
    second.append(Job("furniture", furniture_html(furniture.html(FURNITURE_CSS, {}), page_names,
                                                  strings if heads else None), furniture=True))
    *contents, (folios,) = _cached_or_run(second, run, cache)
    contents, laid_plates = contents[:len(numbered)], [item for (item,) in contents[len(numbered):]]
    for i, (item,) in zip(numbered, contents):
        if item.pages != placed[i].pages:
            raise RenderError(f"{name}: its {parts[i].name} took {item.pages} pages with page numbers, "
                              f"{placed[i].pages} without")
        placed[i] = replace(item, start=placed[i].start)
    for item in laid_plates:
        if item.pages != 1 or item.page_names != (plate_page,):
            raise RenderError(f"{name}: its {item.name} took {item.pages} pages (expected one page of the kind "
                              f"{plate_page or 'default'})")
    if folios.pages != len(page_names):
        raise RenderError(f"{name}: its page numbers took {folios.pages} pages for a book of {len(page_names)}")

    # 4. Bind: a plate or a blank page where a part had to wait for its side, the furniture stamped on the rest.
    if laid_out is not None:
        laid_out()
    loading.join()  # (done long since: no thread of ours outlives the book, as a process that forks next needs)
    from dungeonpress import bind  # pikepdf: loaded where the book is bound, not in the workers
    bound, before, continues, waiting = [], [], [], list(laid_plates)
    for blank, item, part in zip(blanks, placed, parts):
        if blank and waiting:
            bound.append(waiting.pop(0))
            before.append(False)
            continues.append(False)
        bound.append(item)
        before.append(blank and not plates)
        continues.append(part.continues)
    data = bind.bind([item.data for item in bound], drop_dests=[item.stand_ins for item in bound],
                     blank_before=before, furniture=folios.data,
                     stamped=[name is not None for name in page_names], continues=continues,
                     shifts=_shifts(bound, before, folios, name) if mirrored else None)
    return data, placed


def _shifts(bound: list, blank_before: list, folios: LaidPart, name: str) -> list:
    """For each bound part, how far (PDF points, rightwards) each of its pages is moved to sit where the book's page
    there sits: the furniture's page, laid out on the right side, has the left margin the book's page has; a page
    laid out for the other side of a mirrored book is that far from it. RenderError where a page and the book's are
    not as wide inside their margins (it would have been laid out otherwise)."""
    from dungeonpress.bind import PT_PER_PX
    shifts, at = [], 0
    for item, blank in zip(bound, blank_before):
        at += blank
        moves = []
        for (left, right), (book_left, book_right) in zip(item.margins, folios.margins[at:at + item.pages]):
            if abs((left + right) - (book_left + book_right)) > 0.01:
                raise RenderError(f"{name}: its {item.name} was laid out {left + right:.2f} px of margins wide, for a "
                                  f"page of {book_left + book_right:.2f}")
            moves.append(round((book_left - left) * PT_PER_PX, 4))
        shifts.append(tuple(moves) if any(moves) else ())
        at += item.pages
    return shifts


def _load_binder_meanwhile():
    """Import the binder (pikepdf) and the font tables it reads, in a thread, while the workers lay the parts out:
    this process only waits for them then, and the imports (about 0.06 s) would otherwise come after the last part.
    Returns the thread (joined before binding)."""
    import threading

    def load():
        try:
            from dungeonpress import bind  # noqa: F401
            from fontTools.ttLib.tables import _g_l_y_f, _h_e_a_d, _h_h_e_a, _h_m_t_x, _l_o_c_a, _m_a_x_p  # noqa: F401
        except Exception:  # (a broken install) said by the import where the book is bound, not by a thread's traceback
            pass
    thread = threading.Thread(target=load, name="load-binder", daemon=True)
    thread.start()
    return thread


def _place(parts: list, laid: list, pad_to: int) -> tuple[list, list]:
    """Each laid part (LaidPart) with its start, and whether a blank page goes before it."""
    last = len(parts) - 1
    placed, blanks, start = [], [], 1
    for i, variants in enumerate(laid):
        on_left = start % 2 == 0
        blanks.append(not parts[i].runs_on and on_left != (parts[i].opens == "left"))
        start += blanks[-1]
        item = next(v for v in variants if v.before == (start - 1) % pad_to) if i == last and pad_to else variants[0]
        placed.append(replace(item, start=start))
        start += item.pages
    return placed, blanks


def _befores(part: Part, pad_to: int, before: int | None) -> tuple:
    """The numbers of pages before it (mod pad_to) the padded last part is laid out for: the one it was placed after,
    or, before it is placed, every one it may be (every even one for a part that opens on a right-hand page)."""
    if before is not None:
        return (before,)
    return tuple(range(pad_to)) if part.runs_on else tuple(range(0, pad_to, 2))


def _job(part: Part, html: str, pad_to: int = 0) -> Job:
    html, foreign = stand_ins(html)
    return Job(part.name, html, pad_to, tuple(foreign), continues=part.continues)


def _keys(job: Job) -> list:
    html = "continues\n" + job.html if job.continues else job.html  # written otherwise (its heading levels)
    if job.measure_only:
        html = "measured\n" + html
    if job.heads:
        html = "heads\n" + html
    if job.tail is not None:
        html = f"tailpiece {job.tail.key}\n{html}"
    if job.refit is not None:
        html = f"refit {job.refit.key}\n{html}"
    return [part_key(html, job.pad_to, before) for before in (job.padded_for if job.pad_to else (0,))]


def _cached_or_run(jobs: list, run, cache) -> list:
    """[[LaidPart, …] for each job]: from the cache where every variant is there, the rest laid out by `run`."""
    found = []
    for job in jobs:
        try:
            found.append([cache[key] for key in _keys(job)])
        except KeyError:  # not there, or gone or damaged since: laid out again
            found.append(None)
    todo = [i for i, item in enumerate(found) if item is None]
    for i, variants in zip(todo, run([jobs[i] for i in todo]) if todo else []):
        for key, item in zip(_keys(jobs[i]), variants):
            cache[key] = item
        found[i] = variants
    return found
