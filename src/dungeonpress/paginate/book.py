"""A book laid out part by part: each part's HTML at its first page number → its PDF (cached), bound into one book.

One WeasyPrint document per part (the front matter, each chapter, the back matter) is laid out, written to
PDF and freed before the next, so no process holds the whole book's boxes; a part whose HTML, starting page
and tools are unchanged comes from the cache. What one document gave survives: page numbers (each part's
first page is numbered on from the last: `@page :first { counter-reset: page N }`, and an even first page
is a left-hand page), running heads (each part sets its own), the contents' page numbers (laid out last,
from where the other parts put each anchor: target-counter does not reach into another document), links
between parts (stand-in anchors keep them; the binder drops the stand-ins' destinations), bookmarks and
the tagged structure (bind).
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass

from dungeonpress import bind, pdf
from dungeonpress.errors import RenderError
from dungeonpress.paginate.pages import drop_spare_pages, spare_pages

_IDS = re.compile(r'\bid="([^"]+)"')
_HREFS = re.compile(r'\bhref="#([^"]+)"')
_BODY = re.compile(r"<body[^>]*>")


@dataclass(frozen=True)
class Part:
    """One document of the book: `html(page_css, numbers)` is its HTML with `page_css` (start_css: where its
    pages start) in a <style> after its stylesheets.

    `numbers` maps every anchor of the other parts to its page number, for a part that prints them (the
    contents); it is empty on the first pass. `numbered` says the part reads `numbers`: it is laid out last.
    """

    name: str
    html: object
    numbered: bool = False


@dataclass(frozen=True)
class LaidPart:
    """A part as PDF bytes, with its page count and each of its anchors' page index (0-based, in the part)."""

    name: str
    start: int
    data: bytes
    pages: int
    anchor_pages: dict  # each anchor the part holds -> its page index in the part
    warnings: tuple
    stand_ins: tuple  # names the part holds only as stand-ins for other parts' anchors

    def to_bytes(self) -> bytes:
        """The part as one line of JSON and its PDF after it (what a cache on disk keeps; nothing executable)."""
        head = {"name": self.name, "start": self.start, "pages": self.pages, "anchor_pages": self.anchor_pages,
                "warnings": list(self.warnings), "stand_ins": list(self.stand_ins)}
        return json.dumps(head, sort_keys=True).encode() + b"\n" + self.data

    @classmethod
    def from_bytes(cls, data: bytes) -> "LaidPart":
        head, _, pdf_bytes = data.partition(b"\n")
        fields = json.loads(head)
        return cls(fields["name"], fields["start"], pdf_bytes, fields["pages"], fields["anchor_pages"],
                   tuple(fields["warnings"]), tuple(fields["stand_ins"]))


def start_css(start: int, *, first: bool = False, last: bool = False) -> str:
    """The CSS of a part whose first page is page `start`: pages numbered on from it, an even first page a
    left-hand page, and the body's own margins only where the whole book has them (its first page's top,
    its last page's foot), so every line falls where it falls in the book laid out whole."""
    css = f"@page :first {{ counter-reset: page {start}; }}"
    if not first:
        css += " body { margin-top: 0; }"
    if not last:
        css += " body { margin-bottom: 0; }"
    return css + (" html { break-before: left; }" if start % 2 == 0 else "")


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


def part_key(html: str, pad_to: int = 0, before: int = 0) -> str:
    """The cache key of a part: its HTML (its start page included) and how it is padded. The cache itself
    answers for everything else a PDF depends on (stylesheets, fonts, our code, library versions)."""
    return hashlib.sha256(f"{pad_to}/{before}\n{html}".encode()).hexdigest()


def lay_out_part(name: str, html: str, start: int, lay_out, write, *, pad_to: int = 0,
                 before: int = 0, foreign: tuple = ()) -> LaidPart:
    """Lay one part out, written to PDF bytes and freed. `pad_to`: drop spare notes pages so the book
    (`before` pages ahead of this part) ends on a multiple of `pad_to` pages."""
    rendered = lay_out(html)
    if pad_to:
        spares = len(spare_pages(pdf.measure(rendered)))
        needed = -(before + rendered.page_count - spares) % pad_to
        rendered = drop_spare_pages(rendered, spares - needed)
        if (before + rendered.page_count) % pad_to:
            raise RenderError(f"{name} has {before + rendered.page_count} pages after padding with {spares} "
                              f"spare notes pages (expected a multiple of {pad_to})")
    anchors = {}
    for index, page in enumerate(pdf.measure(rendered)):
        for anchor in page.boxes:
            anchors.setdefault(anchor, index)
    data = write(rendered)
    own = {anchor: page for anchor, page in anchors.items() if anchor not in foreign}
    return LaidPart(name, start, data, rendered.page_count, own, tuple(rendered.warnings), tuple(foreign))


def lay_out_book(parts: list, lay_out, write, *, cache=None, pad_to: int = 0,
                 name: str = "the book") -> tuple[bytes, list]:
    """The book bound from its parts, and every part as laid out (LaidPart, in order).

    `lay_out(html) -> pdf.Rendered`, `write(rendered) -> bytes`. The numbered part (the contents) is laid out
    twice: once to learn its length, which places every later part, and last with their page numbers.
    `cache` (a mapping, or None) holds laid parts by part_key; it must keep apart what the HTML does not say
    (stylesheets, fonts, templates, tool and library versions: build.PartCache does). `pad_to` pads the last
    part's spare pages.
    """
    cache = {} if cache is None else cache
    first_pass = {}
    start, laid = 1, []
    for index, part in enumerate(parts):
        last = index == len(parts) - 1
        if part.numbered:  # placed by its length now (laid out with stand-in numbers; cached), numbered at the end
            probe = _cached_or_laid(part, start, {}, lay_out, write, cache, first=index == 0, last=last)
            first_pass[part.name] = probe.pages
            laid.append(None)
            start += probe.pages
            continue
        item = _cached_or_laid(part, start, {}, lay_out, write, cache, first=index == 0, last=last,
                               pad_to=pad_to if last else 0, before=start - 1)
        laid.append(item)
        start += item.pages
    numbers = {anchor: item.start + page for item in laid if item is not None for anchor, page in item.anchor_pages.items()}
    for index, part in enumerate(parts):
        if laid[index] is None:
            starts_at = 1 + sum(first_pass.get(p.name, 0) if laid[i] is None else laid[i].pages
                                for i, p in enumerate(parts[:index]))
            item = _cached_or_laid(part, starts_at, numbers, lay_out, write, cache, first=index == 0,
                                   last=index == len(parts) - 1)
            if item.pages != first_pass[part.name]:
                raise RenderError(f"{name}: its {part.name} took {item.pages} pages with page numbers, "
                                  f"{first_pass[part.name]} without")
            laid[index] = item
    return bind.bind([item.data for item in laid], drop_dests=[item.stand_ins for item in laid]), laid


def _cached_or_laid(part: Part, start: int, numbers: dict, lay_out, write, cache, *, first: bool, last: bool,
                    pad_to: int = 0, before: int = 0) -> LaidPart:
    html, foreign = stand_ins(part.html(start_css(start, first=first, last=last), numbers))
    key = part_key(html, pad_to, before)
    if key in cache:
        try:
            return cache[key]
        except KeyError:  # gone or damaged since: laid out again
            pass
    item = lay_out_part(part.name, html, start, lay_out, write, pad_to=pad_to, before=before, foreign=tuple(foreign))
    cache[key] = item
    return item
