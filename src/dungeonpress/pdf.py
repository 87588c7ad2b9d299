"""Turn an HTML string into PDF bytes with WeasyPrint, reading only our own files."""

from __future__ import annotations

import functools
import hashlib
import io
import logging
import mimetypes
import os
import re
import unicodedata
import urllib.parse
import urllib.request
from contextlib import contextmanager, redirect_stdout
from dataclasses import dataclass, field
from pathlib import Path

from dungeonpress import cascade, resources, sealed
from dungeonpress.errors import RenderError

# Pango is a system library pip cannot install. Without it WeasyPrint prints a banner of its own and
# raises OSError on import: a user who installed us with pip or pipx gets one line saying what to do
# instead (the same words `make` says).
MISSING_PANGO = ("WeasyPrint needs the Pango library, which is not installed (Debian/Ubuntu: sudo apt-get "
                 "install libpango-1.0-0 libpangoft2-1.0-0; macOS: brew install pango; Windows: use WSL)")
try:
    with io.StringIO() as _banner, redirect_stdout(_banner):
        import weasyprint
        from weasyprint.text.ffi import harfbuzz_subset
        from weasyprint.urls import FatalURLFetchingError, URLFetcher, URLFetcherResponse
except OSError:
    raise RenderError(MISSING_PANGO) from None

MAX_RESOURCE_BYTES = 20_000_000  # no font, image or stylesheet of ours is near this


class SealedFetcher(URLFetcher):
    """Serve `file:` URLs that resolve inside `roots` (symlinks and `..` resolved first), refuse the rest.

    WeasyPrint's default fetcher reads any local file and any URL; content packs may come
    from strangers, so everything outside our folders is refused and remembered.
    """

    def __init__(self, roots):
        super().__init__(allowed_protocols=("file", "data"))
        self.roots = [Path(root).resolve() for root in roots]
        self.refused: list[str] = []

    def fetch(self, url, headers=None):
        problem = self._problem(url)
        if problem:
            self.refused.append(f"{url} ({problem})")
            raise ValueError(f"refused {url}: {problem}")
        if url.startswith("data:"):
            return super().fetch(url, headers)
        path = self._path(url)
        try:  # the same sealed read the loader uses: links out, FIFOs, devices and huge files refused
            body = sealed.read_bytes(path, self.roots, MAX_RESOURCE_BYTES)
        except sealed.Refused as exc:
            self.refused.append(f"{url} ({exc})")
            raise ValueError(f"refused {url}: {exc}") from None
        too_large = image_too_large(body)
        if too_large:
            self.refused.append(f"{url} ({too_large})")
            raise ValueError(f"refused {url}: {too_large}")
        mime, _ = mimetypes.guess_type(path.name)
        return URLFetcherResponse(url, body=body, headers={"Content-Type": mime or "application/octet-stream"})

    def _path(self, url: str) -> Path:
        parts = urllib.parse.urlsplit(url)
        return Path(urllib.request.url2pathname(parts.path))

    def _problem(self, url: str) -> str | None:
        """Why `url` may not be read before opening it (scheme, host, containment), or None."""
        scheme = url.split(":", 1)[0].lower()
        if scheme == "data":
            return None
        if scheme != "file":
            return "only files under content/ and templates/ may be used; no network"
        parts = urllib.parse.urlsplit(url)
        if parts.netloc not in ("", "localhost"):
            return f"file URL names host '{parts.netloc}'"
        outside = sealed.outside_problem(self._path(url), self.roots)
        if outside:
            return "outside content/ and templates/" + (f": {outside}" if " is a link to " in outside else "")
        return None


MAX_IMAGE_PIXELS = 40_000_000  # a 600 dpi A4 page is 35 Mpx; a 109 kB PNG can claim 900 Mpx


def image_too_large(body: bytes) -> str | None:
    """"image too large" for a PNG, GIF or JPEG whose header claims more than MAX_IMAGE_PIXELS, else None.

    Decoding such a file takes gigabytes; its header says so in a few bytes, so it is read first.
    """
    size = None
    if body[:8] == b"\x89PNG\r\n\x1a\n" and len(body) >= 24:
        size = int.from_bytes(body[16:20], "big"), int.from_bytes(body[20:24], "big")
    elif body[:6] in (b"GIF87a", b"GIF89a") and len(body) >= 10:
        size = int.from_bytes(body[6:8], "little"), int.from_bytes(body[8:10], "little")
    elif body[:2] == b"\xff\xd8":
        size = _jpeg_size(body)
    if size and size[0] * size[1] > MAX_IMAGE_PIXELS:
        return f"image too large: {size[0]} x {size[1]} pixels (at most {MAX_IMAGE_PIXELS:,} pixels)"
    return None


def _jpeg_size(body: bytes):
    at = 2
    while at + 9 < len(body) and body[at] == 0xFF:
        marker, length = body[at + 1], int.from_bytes(body[at + 2:at + 4], "big")
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):  # a start-of-frame segment
            return int.from_bytes(body[at + 7:at + 9], "big"), int.from_bytes(body[at + 5:at + 7], "big")
        at += 2 + length
    return None


@dataclass
class Rendered:
    """A laid-out document, the warnings WeasyPrint logged while doing it, and how to write it."""

    document: object
    warnings: list
    fetcher: SealedFetcher

    @property
    def page_count(self) -> int:
        return len(self.document.pages)


# Not a print problem: without the system's HarfBuzz-Subset, WeasyPrint subsets fonts with
# fontTools, which embeds the same glyphs. Every other warning is reported.
_BENIGN = ("Using fontTools instead of HarfBuzz-Subset",)


class _Collect(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.messages = []

    def emit(self, record):
        message = record.getMessage()
        if not message.startswith(_BENIGN):
            self.messages.append(message)


@contextmanager
def _warnings_collected():
    handler = _Collect()
    loggers = [logging.getLogger("weasyprint"), logging.getLogger("weasyprint.progress")]
    for logger in loggers:
        logger.addHandler(handler)
    old = loggers[0].propagate
    loggers[0].propagate = False  # the warnings are reported by us, once, in our words
    try:
        yield handler.messages
    finally:
        loggers[0].propagate = old
        for logger in loggers:
            logger.removeHandler(handler)


class ParsedSheets:
    """Our linked stylesheets parsed once a process, with the fonts their @font-face rules load.

    WeasyPrint reads, parses and checks every `<link rel=stylesheet>` of every document it lays out; a zine
    is laid out three or four times while its fit is found, a book in twenty parts, a warm worker roll after
    roll, and that parse was a sixth of a zine's layout. Documents that link the same stylesheets (the same
    files with the same bytes, read through a sealed fetcher before each layout) share a set: one
    FontConfiguration, and each of those sheets parsed once for it. An edited file makes a new set; a file
    that cannot be read gets no set, and the layout reads it and reports it as WeasyPrint always did.
    Fonts are never shared between sets: a theme's @font-face fonts loaded for one document would be found
    by the next one's drawings, which name them first (the dyslexia-friendly "Theme Marks").

    A kept sheet has its own list of @page rules (WeasyPrint shares one list among a document's sheets and
    reads each sheet's list in turn: the same rules, in the same order, reach the page).
    """

    SETS = 24  # sets of sheets kept (products × themes a process builds); the oldest is let go

    def __init__(self, make_css):
        self.make_css = make_css  # WeasyPrint's own CSS class
        self.sets: dict = {}  # the linked sheets' ((url, sha256), …) → (FontConfiguration, {(url, media): CSS})

    def fonts_for(self, html: str, base_url: str, roots):
        """The FontConfiguration to lay `html` out with: its set's, or a new one when a link cannot be read
        (the layout then reports it) or the document declares fonts of its own in a <style> element."""
        from weasyprint.text.fonts import FontConfiguration
        key = self._key(html, base_url, roots)
        if key is None:
            return FontConfiguration()
        if key not in self.sets:
            while len(self.sets) >= self.SETS:
                self.sets.pop(next(iter(self.sets)))
            self.sets[key] = (FontConfiguration(), {})
        return self.sets[key][0]

    def parsed(self, html: str, base_url: str, roots) -> bool:
        """Whether a document like `html` was laid out here before: its sheets parsed, their fonts loaded."""
        key = self._key(html, base_url, roots)
        return key in self.sets and bool(self.sets[key][1])

    @staticmethod
    def _key(html: str, base_url: str, roots) -> tuple | None:
        """The set `html`'s linked sheets make (their URLs and digests); None for a document with fonts of its own
        in a <style> element, or a link that cannot be read (the layout then reports it)."""
        if _INLINE_FONT_FACE.search(html):
            return None
        reader, links = SealedFetcher(roots), []
        for href in _LINKED_SHEET.findall(html):
            url = urllib.parse.urljoin(base_url, href)
            try:
                links.append((url, hashlib.sha256(reader.fetch(url).read()).hexdigest()))
            except Exception:  # noqa: BLE001 - the layout itself fetches it and says what is wrong
                return None
        return tuple(links)

    def css(self, *args, url=None, url_fetcher=None, font_config=None, **kwargs):
        """What weasyprint.css's find_stylesheets calls for each stylesheet of a document (CSS's arguments)."""
        found = next(((key, sheets) for key, (fonts, sheets) in self.sets.items() if fonts is font_config), None)
        if args or found is None or url not in dict(found[0]):
            # a <style> element (short, the document's own), a document not laid out with a set's fonts, or a
            # sheet its set was not keyed by: WeasyPrint's own way
            return self.make_css(*args, url=url, url_fetcher=url_fetcher, font_config=font_config, **kwargs)
        sheets, media = found[1], kwargs.get("media_type")
        if (url, media) not in sheets:
            kwargs["page_rules"] = None  # a list of its own (see the class's note)
            sheets[url, media] = self.make_css(url=url, url_fetcher=url_fetcher, font_config=font_config, **kwargs)
        return sheets[url, media]


_LINKED_SHEET = re.compile(r'<link\s+rel="stylesheet"\s+href="([^"]+)"\s*/?>')
_INLINE_FONT_FACE = re.compile(r"<style[^>]*>[^<]*@font-face", re.I)


def _keep_parsed_sheets() -> ParsedSheets:
    import weasyprint.css
    sheets = ParsedSheets(weasyprint.CSS)
    weasyprint.css.CSS = sheets.css  # the name find_stylesheets builds each linked sheet with
    return sheets


PARSED_SHEETS = _keep_parsed_sheets()


def _longest_fitting_first_line(split_first_line):
    """WeasyPrint's split_first_line, corrected where it keeps one word of a line that fits.

    Pango breaks a line to fit the width; WeasyPrint then measures the line again, and where that measure is
    wider than what Pango fitted it takes the line for a first word that cannot fit and keeps only that word
    ("Every" alone above a full line). Two measures are wider (text/line_break.py, still so in WeasyPrint's
    newest source): letter-spaced text gets one more letter spacing added (line_size), under 0.5 pt in the
    dyslexia-friendly theme; and text followed by an inline element (a `.nobr` range, a bold word) keeps
    its trailing space, which Pango lets hang past the edge. When a line breaks, this asks again with the
    width less one letter spacing and with the trailing space left off, and keeps the longest line that
    fits. Text that fits, or that was never cut short, gets WeasyPrint's own layout byte for byte.
    """
    def split(text, style, context, max_width, justification_spacing, is_line_start=True, minimum=False):
        first = split_first_line(text, style, context, max_width, justification_spacing, is_line_start, minimum)
        if first[2] is None or max_width is None or max_width == float("inf"):
            return first
        spacing = style["letter_spacing"]
        spacing = spacing if spacing != "normal" and spacing > 0 else 0
        tries = [(text, max_width - spacing)] if spacing else []
        if style["white_space"] in ("normal", "pre-line") and text.endswith(" "):
            tries += [(text.rstrip(" "), width) for width in sorted({max_width, max_width - spacing})]
        best = first
        for kept, width in tries:
            found = split_first_line(kept, style, context, width, justification_spacing, is_line_start, minimum)
            if found[2] is None and kept != text:  # the whole text but its trailing space: break after it
                found = found[:2] + (len(text.encode()),) + found[3:]
            if found[1] > best[1] and found[3] <= max_width:
                best = found
        return best
    return split


def _fit_letter_spaced_lines() -> None:
    import weasyprint.layout.inline
    weasyprint.layout.inline.split_first_line = _longest_fitting_first_line(
        weasyprint.layout.inline.split_first_line)  # the name split_text_box and preferred widths call


_fit_letter_spaced_lines()


SVG_STYLES_KEPT = 64  # distinct sets of SVG <style> text kept parsed (a theme's palettes: a few each)


def _svg_styles_parsed_once(parse_stylesheets):
    """WeasyPrint's parser of an inline SVG's <style> elements, keeping what it made for each set of style texts.

    Every map, cover outline and legend icon carries the map's whole palette (inline SVG takes no document rules):
    a zine lays out thirteen copies, a pack of six about forty, and WeasyPrint tokenised each and compiled its
    selectors to Python again (a fifth of the zine's layout of its cover, map and oracle). The two matchers it
    returns depend only on that text, and are only read after; text with @import or @font-face (which read
    files and add fonts) is parsed every time, as WeasyPrint does.
    """
    kept = {}

    @functools.wraps(parse_stylesheets)  # __wrapped__ is WeasyPrint's own
    def parse(tree, url, font_config, url_fetcher):
        texts = tuple(element.text for element in tree.etree_element.iter()
                      if element.tag == "{http://www.w3.org/2000/svg}style" and element.text)
        if any("@import" in text or "@font-face" in text for text in texts):
            return parse_stylesheets(tree, url, font_config, url_fetcher)
        if texts not in kept:
            if len(kept) >= SVG_STYLES_KEPT:
                kept.pop(next(iter(kept)))  # the oldest
            kept[texts] = parse_stylesheets(tree, url, font_config, url_fetcher)
        return kept[texts]
    return parse


def _parse_svg_styles_once() -> None:
    import weasyprint.svg
    weasyprint.svg.parse_stylesheets = _svg_styles_parsed_once(weasyprint.svg.parse_stylesheets)  # SVG.__init__'s name


_parse_svg_styles_once()


def _html_tokenizer_stops() -> list:
    """The (characters, opposite) keys tinyhtml5's tokenizer passes to `chars_until` (tokenizer.py, tinyhtml5 2.1)."""
    from tinyhtml5.constants import ascii_letters, space_characters
    unquoted_value_ends = frozenset(("&", ">", '"', "'", "=", "<", "`", "\u0000")) | space_characters
    stops = [("&", "<", "\u0000"), ("<", "\u0000"), "\u0000", ("<", "-", "\u0000"), ('"', "&", "\u0000"),
             ("'", "&", "\u0000"), unquoted_value_ends, ">", ("-", "\u0000"), "]"]
    return [(space_characters, True), (ascii_letters, True)] + [(stop, False) for stop in stops]


def _seed_html_tokenizer_cache() -> None:
    """Fill tinyhtml5's cache of `chars_until` patterns under the keys it looks them up by.

    tinyhtml5 2.1 stores each pattern it builds with `characters = cache[(characters, opposite)] = regex`,
    which assigns `characters` first and so files the pattern under the pattern itself: the lookup never
    hits, and every attribute value and run of text builds its pattern again (a listcomp over the
    characters, then re.compile's own cache). Seeded here with the same patterns it would build, the
    lookups hit. About 0.03 s of a zine's 0.16 s of HTML parsing, measured over its four documents.
    """
    try:
        from tinyhtml5 import inputstream
        cache = inputstream.characters_until_regex
    except (ImportError, AttributeError):  # another version keeps its cache elsewhere: nothing to seed
        return
    for characters, opposite in _html_tokenizer_stops():
        pattern = "".join(f"\\x{ord(character):02x}" for character in characters)
        cache.setdefault((characters, opposite), re.compile(f"[{pattern if opposite else '^' + pattern}]+"))


_seed_html_tokenizer_cache()


def _page_references_once() -> None:
    """Make pydyf's `PDF.page_references` build its tuple once per page count, not once per look-up.

    pydyf 0.13 builds the tuple of every page's reference each time the property is read, and WeasyPrint's tagging
    reads it for every tagged box (tags.py: `pdf.page_references[page_number]`): 18,859 times in the rulebook laid
    out as one document of 111 pages, two million references made and dropped. Pages are only ever appended to
    `Kids`, so the tuple made for a page count stays right until the next page; the same references, the same bytes.
    """
    try:
        import pydyf
        built = pydyf.PDF.page_references
    except (ImportError, AttributeError):  # another version: nothing to mend
        return
    if not isinstance(built, property) or getattr(built.fget, "kept_per_page_count", False):
        return

    def page_references(pdf):
        kids = pdf.pages["Kids"]
        kept = pdf.__dict__.get("_page_references_kept")
        if kept is None or kept[0] != len(kids):
            kept = pdf.__dict__["_page_references_kept"] = (len(kids), built.fget(pdf))
        return kept[1]

    page_references.kept_per_page_count = True
    pydyf.PDF.page_references = property(page_references)


_page_references_once()


def _leaders_in_one_run(handle_leader, split_first_line):
    """WeasyPrint's handle_leader, its leader drawn as one run of text where it made a text box per repeat.

    WeasyPrint 70 fills a leader (`leader(". ")`) with one copy of the leader's text box for each repeat, placed from
    the line's right edge leftwards so the dots of every line stand in columns. Each copy is drawn as a text object
    of its own (BT, font, matrix, one glyph pair, ET): the rulebook's contents drew 6,738 of them on three pages,
    three quarters of the time it took to lay them out and write them. The same repeats, shaped as one string and set
    where the leftmost copy was, put every glyph where it was, to a hundredth of a point (the run advances by the
    font's widths as the PDF stores them; where the shaped run's width is not the copies' to that, they are kept).
    Spaced text keeps its copies: letter spacing, written into the run glyph by glyph, drifted 0.0075 pt a repeat
    from where the copies stand (0.17 pt across a line at 0.05em), and word spacing made the run 0.3 px a repeat
    shorter than the copies.
    """
    from weasyprint.layout.leader import leader_index

    @functools.wraps(handle_leader)
    def handle(context, line, containing_block):
        handle_leader(context, line, containing_block)
        index, leader = leader_index(line)
        copies = leader.children if index is not None else ()
        if len(copies) < 2:
            return
        first = min(copies, key=lambda box: box.position_x)
        if first.style["letter_spacing"] not in ("normal", 0) or first.style["word_spacing"]:
            return  # spaced: the copies stay (see above)
        text = first.text * len(copies)
        layout, _, _, width, _, _ = split_first_line(text, first.style, context, None, 0)
        if abs(width - first.width * len(copies)) > 0.01 or abs(
                max(box.position_x for box in copies) - first.position_x - first.width * (len(copies) - 1)) > 0.01:
            return  # advances that do not add up (or repeats not side by side): the copies stay
        run = first.copy_with_text(text)
        run.pango_layout, run.width = layout, width
        leader.children = (run,)
    return handle


def _draw_leaders_in_one_run() -> None:
    import weasyprint.layout.inline
    from weasyprint.text.line_break import split_first_line
    weasyprint.layout.inline.handle_leader = _leaders_in_one_run(
        weasyprint.layout.inline.handle_leader, split_first_line)  # the name iter_line_boxes calls


_draw_leaders_in_one_run()


def _cascade_without_unread_work() -> None:
    import weasyprint.css
    cascade.install(weasyprint.__version__, weasyprint.css)  # merging and computing only what is read (cascade.py)


_cascade_without_unread_work()

MAX_PAGES = 1000  # pages one document may lay out (--max-pages); the rulebook has about 110


class _PageLimit(BaseException):
    """Raised inside WeasyPrint's layout loop when it starts a page past the limit (a BaseException,
    so no `except Exception` inside WeasyPrint swallows it); `page` is the page it started."""

    def __init__(self, page: int):
        super().__init__(page)
        self.page = page


class _PageCounter(logging.Handler):
    """Counts the pages WeasyPrint lays out, from its progress log ("Step 5 - Creating layout - Page N")."""

    def __init__(self, limit: int):
        super().__init__(logging.INFO)
        self.limit = limit

    def emit(self, record):
        if record.msg.startswith("Step 5 - Creating layout - Page") and record.args and record.args[0] > self.limit:
            raise _PageLimit(record.args[0])


@contextmanager
def _pages_counted(limit: int | None):
    if not limit:
        yield
        return
    logger = logging.getLogger("weasyprint.progress")
    counter, level = _PageCounter(limit), logger.level
    logger.addHandler(counter)
    logger.setLevel(logging.INFO)
    try:
        yield
    finally:
        logger.setLevel(level)
        logger.removeHandler(counter)


def laid_out_before(html: str, *, base_url: Path, roots) -> bool:
    """Whether this process has laid out a document linking the same stylesheets as `html` (their fonts loaded)."""
    return PARSED_SHEETS.parsed(html, base_url.resolve().as_uri() + "/", roots)


def layout_html(html: str, *, base_url: Path, roots, forms: bool = False, max_pages: int | None = MAX_PAGES,
                pages_at_most: int | None = None) -> Rendered | None:
    """Lay out `html` (relative URLs resolve against `base_url`); raise RenderError on a refused fetch.

    `forms` applies WeasyPrint's form stylesheet while laying out, so inputs become PDF form fields.
    Layout stops with a RenderError as it starts page `max_pages + 1`. With `pages_at_most`, a document
    that turns out longer than that is not wanted (a zine's probe too long to fit): layout stops as it
    starts the page after and gives None, instead of laying out and making pages no one reads.
    """
    fetcher, base = SealedFetcher(roots), base_url.resolve().as_uri() + "/"
    fonts = PARSED_SHEETS.fonts_for(html, base, roots)
    limit = min(max_pages or MAX_PAGES, pages_at_most) if pages_at_most else max_pages
    with _warnings_collected() as messages:
        try:
            with _pages_counted(limit):
                document = weasyprint.HTML(string=html, base_url=base, url_fetcher=fetcher).render(
                    pdf_forms=forms, font_config=fonts)
        except _PageLimit as stop:
            if pages_at_most and stop.page <= (max_pages or MAX_PAGES):
                return None
            raise RenderError(f"the document runs past {max_pages:,} pages (page limit; raise it with "
                              f"--max-pages)") from None
        except FatalURLFetchingError as exc:  # a BaseException: `except Exception` would miss it
            raise RenderError(f"could not fetch a resource: {exc}") from None
        except RecursionError:
            raise RenderError("document nested too deeply to lay out") from None
    if fetcher.refused:
        raise RenderError("refused to read: " + "; ".join(fetcher.refused))
    missing = missing_glyphs(document)
    if missing:
        messages.append(missing)
    return Rendered(document=document, warnings=list(messages), fetcher=fetcher)


FONTS_DIR = resources.data_dir("templates") / "fonts"


@functools.cache
def bundled_coverage() -> frozenset:
    """Every code point some font in templates/fonts/ has a glyph for (their cmaps, read once)."""
    from fontTools.ttLib import TTFont  # WeasyPrint's own dependency
    found: set = set()
    for path in sorted(FONTS_DIR.rglob("*.[ot]tf")):
        found |= set(TTFont(path, lazy=True).getBestCmap())
    return frozenset(found)


def missing_glyphs(document) -> str | None:
    """One warning line naming the characters no bundled font has, with where they are, or None.

    Pango logs nothing when it falls back: such a character prints as a .notdef box, or in
    whatever system font has it (and then the bytes depend on the machine). So the laid-out
    text is checked against our own fonts' cmaps.
    """
    covered, found, count = bundled_coverage(), {}, 0
    for page in document.pages:
        boxes = [page._page_box]
        while boxes:
            box = boxes.pop()
            boxes.extend(reversed(getattr(box, "children", ())))  # reading order
            for char in getattr(box, "text", "") or "":
                if ord(char) in covered or unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp"):
                    continue
                count += 1
                found.setdefault(char, " ".join(box.text.split())[:40])
    if not found:
        return None
    where = "; ".join(f"U+{ord(c):04X} {c!r} in {text!r}" for c, text in list(found.items())[:5])
    return f"{count} character(s) no bundled font has (printed as a box or in a system font): {where}"


def page_text(rendered: Rendered, index: int) -> str:
    """The text painted on one page, box by box in reading order (what its PDF text should read back as).

    Hidden boxes are left out, and so are form fields' values: a viewer draws those from the field.
    """
    found, boxes = [], [rendered.document.pages[index]._page_box]
    while boxes:
        box = boxes.pop()
        if box.style["visibility"] != "visible" or getattr(box, "element_tag", None) in FORM_TAGS:
            continue
        boxes.extend(reversed(getattr(box, "children", ())))
        found.append(getattr(box, "text", "") or "")
    return "".join(found)


FORM_TAGS = ("input", "textarea", "select", "button")


OFF_PAGE_SLACK = 1.0  # CSS px a letter may reach past the page edge (an italic's overhang)


def text_off_page(rendered: Rendered) -> list[str]:
    """One line for each page where laid-out text reaches past the edge of the page, or none.

    WeasyPrint lays an unbreakable word (or a table of them) out past the page and prints what
    fits: the rest is silently lost. Each text box is measured against its page after layout;
    the characters beyond the edge are counted in proportion to the part of the box outside.
    """
    found = []
    for number, page in enumerate(rendered.document.pages, start=1):
        off, sample = 0, ""
        boxes = [page._page_box]
        while boxes:
            box = boxes.pop()
            boxes.extend(getattr(box, "children", ()))
            text = getattr(box, "text", None)
            if not text or not text.strip():
                continue
            x0, y0 = box.position_x, box.position_y
            x1, y1 = x0 + box.width, y0 + box.height
            if x0 >= -OFF_PAGE_SLACK and y0 >= -OFF_PAGE_SLACK and x1 <= page.width + OFF_PAGE_SLACK \
                    and y1 <= page.height + OFF_PAGE_SLACK:
                continue
            inside_w = max(0.0, min(x1, page.width) - max(x0, 0.0))
            inside_h = max(0.0, min(y1, page.height) - max(y0, 0.0))
            shown = (inside_w / box.width if box.width else 0.0) * (inside_h / box.height if box.height else 0.0)
            lost = round(len(text) * (1 - shown))
            if lost:
                off += lost
                sample = sample or " ".join(text.split())[:30]
        if off:
            found.append(f"page {number}: {off:,} character(s) of text run off the page, from {sample!r}")
    return found


@dataclass(frozen=True)
class PageMeasure:
    """One laid-out page as plain numbers: its height and the top and bottom of each anchor's box, in CSS px.

    What page fitting (dungeonpress.paginate) reads of a layout; the engine's own objects stay in this module.
    """

    height: float
    boxes: dict  # anchor (element id) -> (top, bottom) of its box on this page
    name: str = ""  # the page's name (CSS `page`: "cover", "sheet"…; "" for the default page)
    blank: bool = False  # a page a forced break to a left or right page left empty
    text_bottom: float = 0.0  # where the page's text area ends (its bottom margin begins)
    text_top: float = 0.0  # where the page's text area begins (its top margin ends)
    # Where the document's flow ends on the page (the root box's foot, its last margin in it). Not compared: a page laid
    # out in another document (a probe's half, a part) ends its flow elsewhere while its boxes fall where they fell.
    flow_bottom: float = field(default=0.0, compare=False)

    @property
    def white_under_text(self) -> float:
        """CSS px of the text area left white under the page's text (its flow's end)."""
        return max(0.0, self.text_bottom - self.flow_bottom)


def measure(rendered: Rendered) -> tuple:
    """Every page of a laid-out document as a PageMeasure, in order."""
    return tuple(PageMeasure(page.height, {name: (top, bottom) for name, (_, top, _, bottom) in page.anchors.items()},
                             page._page_box.page_type.name, page._page_box.page_type.blank,
                             page._page_box.content_box_y() + page._page_box.height, page._page_box.content_box_y(),
                             _flow_bottom(page._page_box))
                 for page in rendered.document.pages)


def strings_set(rendered: Rendered) -> tuple:
    """Each page's strings (`string-set`), in order: ((name, text), …), as WeasyPrint collects them for its margin
    boxes (layout/__init__.py, layout_document): what a running head on that page reads."""
    pages = []
    for page in rendered.document.pages:
        found = []
        for box in page._page_box.descendants():
            if box.string_set and box.string_set != "none":
                found.extend((name, text) for name, text in box.string_set)
        pages.append(tuple(found))
    return tuple(pages)


def page_margins(rendered: Rendered) -> tuple:
    """Each page's (left, right) margin in CSS px: which side of a spread its @page rules laid it out for."""
    return tuple((page._page_box.margin_left, page._page_box.margin_right) for page in rendered.document.pages)


def _flow_bottom(page_box) -> float:
    """The foot of the page's root box (the html element's part on the page), its last child's margin included: where
    the text on the page ends (the margin boxes follow the root among the page box's children)."""
    root = page_box.children[0] if page_box.children else None
    return root.border_box_y() + root.border_height() if root is not None else page_box.content_box_y()


def keep_only(rendered: Rendered, indices) -> Rendered:
    """The same document with only the pages at `indices` (a copy: nothing is laid out again)."""
    kept = set(indices)
    pages = [page for i, page in enumerate(rendered.document.pages) if i in kept]
    return Rendered(document=rendered.document.copy(pages), warnings=rendered.warnings, fetcher=rendered.fetcher)


def combined(parts) -> Rendered:
    """One document of pages taken from several layouts, in the order given (nothing is laid out again).

    `parts` is a sequence of (Rendered, page indices); the first gives the metadata. WeasyPrint writes pages of
    several documents as one (Document.copy), its structure tree built page by page as for one document; the
    layouts should share their stylesheets, so they share one FontConfiguration and each font is embedded once.
    """
    first = parts[0][0]
    pages = [rendered.document.pages[i] for rendered, indices in parts for i in indices]
    warnings = []
    for rendered, _ in parts:
        warnings.extend(w for w in rendered.warnings if w not in warnings)
    return Rendered(document=first.document.copy(pages), warnings=warnings, fetcher=first.fetcher)


def lower(rendered: Rendered, index: int, anchor: str, gap: float) -> None:
    """Move the element with id `anchor` on page `index`, and all it holds, `gap` px down the page (in place).

    What laying the page out again with an empty block `gap` tall just above that element gives, when nothing
    follows it in its page, its page's height does not depend on it (a min-height page whose foot it is) and no
    margin meets that block (margins collapse through an empty block, not through one `gap` tall).
    """
    from weasyprint.document import Page
    from weasyprint.layout.background import layout_box_backgrounds

    page = rendered.document.pages[index]
    _, box = _parent_of(page._page_box, _with_id(anchor)) or (None, None)
    if box is None:
        raise ValueError(f"no element '{anchor}' on page {index + 1}")
    if any(_fetches_images(inner) for inner in _subtree(box)):
        raise ValueError(f"'{anchor}' on page {index + 1} has a background image: it cannot be moved once laid out")
    box.translate(0, gap)
    layout_box_backgrounds(page._page_box, box, get_image_from_uri=None)  # placed where the box was: again
    # a Page gathers its anchors, links and bookmarks when made: make it again from the moved boxes
    rendered.document.pages[index] = Page(page._page_box)


def moved_across(target: Rendered, source: Rendered, index: int, anchor: str, cls: str, *,
                 by_class: bool = False) -> bool:
    """On page `index`, put the element of class `cls` that `source`'s page holds after the element with id `anchor`
    (`by_class`: the outermost element of class `anchor`) in `target`'s, where laying `target` out again with it there
    would put it (in place); False, changing nothing, where either page lacks them, their columns differ or a box of it
    has a background image.

    What that layout gives when the element fits on the page below `anchor` and nothing follows it there: `source` is
    a layout of that element alone in a block like `anchor`'s parent, on a page of the same number and type. Its
    margin-box top goes to `anchor`'s border-box foot, lower by what the margins at `anchor`'s foot (collapsing
    with its own top margin) add. The boxes are `target`'s page's from then on (its layout shares them, as
    `combined`'s pages do).
    """
    from weasyprint.document import Page

    page, other = target.document.pages[index], source.document.pages[index]
    found = _parent_of(page._page_box, _with_class(anchor) if by_class else _with_id(anchor))
    theirs = _parent_of(other._page_box, _with_class(cls))
    if found is None or theirs is None:
        return False
    (parent, box), (their_parent, moved) = found, theirs
    if (parent.content_box_x(), parent.width) != (their_parent.content_box_x(), their_parent.width) or \
            any(_fetches_images(inner) for inner in _subtree(moved)):
        return False
    _move_under(page, box, moved, _top_under(box, moved))
    at = parent.children.index(box) + 1
    parent.children = [*parent.children[:at], moved, *parent.children[at:]]
    target.document.pages[index] = Page(page._page_box)  # its anchors, links and bookmarks gathered again
    return True


def appended(target: Rendered, source: Rendered, index: int, cls: str, holder: str) -> float | None:
    """On page `index`, put the element of class `cls` that `source`'s page holds at the end of what the outermost
    element of class `holder` holds on `target`'s, where laying `target` out again with it there would put it (in
    place), if it ends above the page's text foot. Returns how far past that foot it would end (≤ 0: it was put there;
    > 0: nothing changed), or None, changing nothing, where either page lacks them, their columns differ or a box of
    it has a background image.

    `source` is a layout of that element alone at the start of an element of class `holder`, on a page of the same
    number and type, after forced breaks (which keep its top margin whole, as it is under `target`'s text). The boxes
    holding it on `target`'s page grow to hold it, as they would. (A rulebook chapter's tailpiece moved in this way
    falls exactly where the chapter laid out again with it puts it.)
    """
    from weasyprint.document import Page

    page, other = target.document.pages[index], source.document.pages[index]
    chain, theirs = _chain_to(page._page_box, _with_class(holder)), _parent_of(other._page_box, _with_class(cls))
    if chain is None or theirs is None:
        return None
    into, (their_parent, moved) = chain[-1], theirs
    flowing = [child for child in into.children if child.is_in_normal_flow()]
    if not flowing or (into.content_box_x(), into.width) != (their_parent.content_box_x(), their_parent.width) or \
            any(_fetches_images(inner) for inner in _subtree(moved)):
        return None
    top = _top_under(flowing[-1], moved)
    bottom = top + moved.margin_top + moved.border_height()
    text_foot = page._page_box.content_box_y() + page._page_box.height
    if bottom > text_foot:
        return bottom - text_foot
    _move_under(page, flowing[-1], moved, top)
    into.children = [*into.children, moved]
    for holding in chain:  # each box that holds it reaches down to it, as a layout with it would make them
        holding.height = max(holding.height, bottom - holding.content_box_y())
    target.document.pages[index] = Page(page._page_box)  # its anchors, links and bookmarks gathered again
    return bottom - text_foot


def _top_under(box, moved) -> float:
    """Where `moved`'s margin box starts when it follows `box` in the flow: at `box`'s border-box foot, lower by what
    the margins at that foot (collapsing with `moved`'s top margin) add."""
    return box.border_box_y() + box.border_height() + max(0.0, _foot_margin(box) - moved.margin_top)


def _move_under(page, box, moved, top: float) -> None:
    """Put `moved`'s margin box at `top` on `page` (in place), under `box`. Backgrounds are placed on a page once it is
    laid out, where each box then was: the moved boxes' are placed again (colours only: the callers refuse a box
    that fetches an image)."""
    from weasyprint.layout.background import layout_box_backgrounds
    moved.translate(0, top - moved.position_y)
    layout_box_backgrounds(page._page_box, moved, get_image_from_uri=None)


def _chain_to(box, wanted) -> list | None:
    """The boxes from `box`'s first child down to the outermost box under it (depth first) that `wanted` holds for."""
    for child in box.all_children():
        if wanted(child):
            return [child]
        found = _chain_to(child, wanted)
        if found is not None:
            return [child, *found]
    return None


def _subtree(box):
    yield box
    for child in box.all_children():
        yield from _subtree(child)


def _fetches_images(box) -> bool:
    """Whether placing `box`'s background would fetch an image (a background, border or mask image from a URL)."""
    style = box.style
    return any(kind == "url" for kind, _ in style["background_image"]) or \
        style["border_image_source"][0] == "url" or style["mask_border_source"][0] == "url"


def _foot_margin(box) -> float:
    """The largest bottom margin at `box`'s foot: its own and its last children's that collapse through it."""
    largest = box.margin_bottom or 0.0
    while box.children and not (box.padding_bottom or box.border_bottom_width):
        flowing = [child for child in box.children if child.is_in_normal_flow()]
        if not flowing or not hasattr(flowing[-1], "margin_bottom"):
            break
        box = flowing[-1]
        largest = max(largest, box.margin_bottom or 0.0)
    return largest


def _parent_of(box, wanted):
    """(parent box, box) of the outermost box under `box` (depth first) that `wanted` holds for, or None."""
    for child in box.all_children():  # every box has them (none for text and replaced boxes)
        if wanted(child):
            return box, child
        found = _parent_of(child, wanted)
        if found is not None:
            return found
    return None


def _with_id(anchor: str):
    return lambda box: box.element is not None and box.element.get("id") == anchor and box.element_tag != "html"


def _with_class(cls: str):
    return lambda box: box.element is not None and cls in (box.element.get("class") or "").split()


# Fonts are always subset. With HarfBuzz-Subset WeasyPrint uses it; without it, fontTools. Embedding
# whole fonts instead is wrong, not just larger: WeasyPrint then maps text from the font's cmap alone,
# so glyphs that OpenType features choose (lining and tabular digits, small capitals, ligatures) get
# no Unicode, and copy, search and screen readers lose every digit. fontTools' subsetter is
# deterministic but for one thing: it stamps the font's `head.modified` with the time of the run,
# unless SOURCE_DATE_EPOCH (the reproducible-builds convention it honours) says otherwise.
SUBSET_FONTS = harfbuzz_subset is not None  # which subsetter is used, recorded in the manifest
FONT_EPOCH = "946684800"  # FIXED_DATE below, in seconds since 1970


@contextmanager
def _fixed_font_timestamp():
    """SOURCE_DATE_EPOCH set to FONT_EPOCH while fonts are subset, then put back as it was."""
    old = os.environ.get("SOURCE_DATE_EPOCH")
    os.environ["SOURCE_DATE_EPOCH"] = FONT_EPOCH
    try:
        yield
    finally:
        if old is None:
            del os.environ["SOURCE_DATE_EPOCH"]
        else:
            os.environ["SOURCE_DATE_EPOCH"] = old


# Every reading PDF is tagged (PDF/UA-1: structure tree, language, title shown by readers): a
# screen reader follows headings, lists and table headers, and maps carry their alternative text.
TAGGED_VARIANT = "pdf/ua-1"
# PDF/X for print shops. WeasyPrint 70 offers PDF/X-1a, -3, -4 and -5g. It draws in RGB, which
# PDF/X-1a forbids (CMYK only); PDF/X-4 and -5g write a random document ID (no byte-identical
# rebuilds). PDF/X-3 allows colour-managed RGB: it is written with WeasyPrint's sRGB profile as the
# output intent, the shop converting to its own press profile.
PRINT_VARIANT = "pdf/x-3"
# PDF/X needs creation and modification dates; a fixed one keeps rebuilds byte-identical.
FIXED_DATE = "2000-01-01T00:00:00+00:00"


def write_pdf(rendered: Rendered, *, forms: bool = False, variant: str | None = TAGGED_VARIANT,
              tags: bool = True, heading_level: int = 0) -> bytes:
    """PDF bytes for a laid-out document, with a fixed identifier so rebuilds are byte-identical.

    `variant` is a WeasyPrint PDF variant: PDF/UA-1 (tagged) unless PRINT_VARIANT is asked for,
    which is tagged as well. `tags=False` (with `variant=None`) writes no structure: a book's page
    furniture, which the binder stamps onto the pages as artifacts. `heading_level`: the level of the
    heading the document's first heading comes under (1 for a part carrying on a book's chapter).
    """
    digest = hashlib.sha256(repr([(p.width, p.height) for p in rendered.document.pages]).encode())
    options = {"pdf_identifier": digest.hexdigest()[:32].encode(), "pdf_forms": forms,
               "pdf_tags": tags}
    if tags:
        options["finisher"] = _finish_forms if forms else _finish
        if heading_level:
            import functools
            options["finisher"] = functools.partial(options["finisher"], heading_level=heading_level)
    if variant:
        options["pdf_variant"] = variant
    if variant and variant.startswith("pdf/x"):
        options["output_intent"] = "srgb"
        metadata = rendered.document.metadata
        metadata.created = metadata.created or FIXED_DATE
        metadata.modified = metadata.modified or FIXED_DATE
    with _warnings_collected() as messages, _fixed_font_timestamp():
        data = rendered.document.write_pdf(**options)
    # WeasyPrint logs each .notdef it draws, once per occurrence; the layout check already named them.
    named = {code for w in rendered.warnings for code in re.findall(r"U\+([0-9A-F]{4,6}) ", w)}
    rendered.warnings.extend(m for m in messages
                             if not (m.startswith(".notdef glyph") and m.rpartition("(U+")[2].rstrip(")") in named))
    return data


def _finish_forms(document, pdf, heading_level: int = 0) -> None:
    _finish(document, pdf, heading_level)
    _checkbox_appearances(document, pdf)


def _finish(document, pdf, heading_level: int = 0) -> None:
    """What WeasyPrint's tags leave for a screen reader to guess: header scopes, heading levels."""
    by_reference = {obj.reference: obj for obj in pdf.objects if hasattr(obj, "reference")}
    _header_scopes(pdf, by_reference)
    _nested_headings(pdf, by_reference, heading_level)


def _nested_headings(pdf, by_reference: dict, last: int = 0) -> None:
    """Tag headings so their levels never skip one (H1, H2, H3 …), in reading order.

    Our templates pick h2, h3 or h4 for a heading's size within its product (a sheet starts at h2, a
    table's title is an h4 under a section's h2); a screen reader lists headings by level and takes a
    skipped level for a missing section. So each heading is tagged at most one level below the one
    before it (the first under `last`); what is printed does not change.
    """
    root = by_reference.get(pdf.catalog.get("StructTreeRoot"))
    stack = [root] if root is not None else []
    while stack:
        element = stack.pop()
        if not isinstance(element, dict):
            continue
        kind = element.get("S", "")
        if isinstance(kind, str) and len(kind) == 3 and kind.startswith("/H") and kind[2] in "123456":
            last = min(int(kind[2]), last + 1)
            element["S"] = f"/H{last}"
        kids = element.get("K", ())
        kids = kids if isinstance(kids, (list, tuple)) else [kids]
        stack.extend(by_reference.get(kid) for kid in reversed(kids) if isinstance(kid, bytes))


def _header_scopes(pdf, by_reference: dict) -> None:
    """Give every table header cell (/TH) the /Scope a screen reader needs to name a cell's headers.

    WeasyPrint links data cells to header IDs but writes no scope: a header in a row of data cells
    heads that row (the dice of a roll table, the label of a score line), any other heads its column.
    """
    for obj in pdf.objects:
        if not isinstance(obj, dict) or obj.get("S") != "/TH":
            continue
        row = by_reference.get(obj.get("P"))
        kids = [by_reference.get(kid) for kid in (row or {}).get("K", ()) if isinstance(kid, bytes)]
        scope = "/Row" if any(isinstance(kid, dict) and kid.get("S") == "/TD" for kid in kids) else "/Column"
        attributes = obj.get("A")
        if not isinstance(attributes, dict):
            import pydyf  # WeasyPrint's own PDF writer, only ever reached through this module
            attributes = obj["A"] = pydyf.Dictionary({"O": "/Table"})
        attributes["Scope"] = scope


def _checkbox_appearances(document, pdf) -> None:
    """Give WeasyPrint's checkboxes what every viewer needs to draw them.

    The form asks viewers to regenerate appearances (NeedAppearances, so text fields show their
    values). Poppler then redraws checkboxes from /DA and the /MK caption, which WeasyPrint leaves
    out, and shows them blank; MuPDF uses the stored /AP. So each checkbox gets a ZapfDingbats /DA
    with a check caption, and an explicit empty "Off" appearance beside WeasyPrint's "on" one.
    """
    import pydyf  # WeasyPrint's own PDF writer, only ever reached through this module

    acroform = pdf.catalog.get("AcroForm")
    if acroform is None:
        return
    # ZapfDingbats goes into the form's own resources (a copy of the page's, which WeasyPrint shares),
    # never into the page's: viewers supply it for form fields, and the page's fonts all stay embedded.
    resources = acroform["DR"]
    if isinstance(resources, bytes):
        resources = pdf.objects[int(resources.split()[0])]
    fonts = resources.get("Font") or {}
    if isinstance(fonts, bytes):
        fonts = pdf.objects[int(fonts.split()[0])]
    zapf = pydyf.Dictionary({"Type": "/Font", "Subtype": "/Type1", "BaseFont": "/ZapfDingbats"})
    pdf.add_object(zapf)
    form_fonts = pydyf.Dictionary(dict(fonts))
    form_fonts["ZaDb"] = zapf.reference
    acroform["DR"] = pydyf.Dictionary({"Font": form_fonts})
    for reference in acroform["Fields"]:
        field = pdf.objects[int(reference.split()[0])]
        if field.get("FT") != "/Btn" or "Kids" in field or "Parent" in field:
            continue
        x0, y0, x1, y1 = (float(v) for v in field["Rect"])
        off = pydyf.Stream(extra={"Type": "/XObject", "Subtype": "/Form",
                                  "BBox": pydyf.Array((0, 0, abs(x1 - x0), abs(y1 - y0)))})
        pdf.add_object(off)
        field["AP"]["N"]["Off"] = off.reference
        field["DA"] = pydyf.String("/ZaDb 0 Tf 0 g")
        field["MK"]["CA"] = pydyf.String("4")  # ZapfDingbats "4" is the check mark


def native_versions() -> dict:
    """The C libraries under WeasyPrint that shape the bytes (recorded in build/manifest.json)."""
    from weasyprint.text.ffi import harfbuzz, pango
    number = pango.pango_version()
    # WeasyPrint declares only hb_version_atleast: the version is the highest one it accepts.
    version = [0, 0, 0]
    for place in range(3):
        while version[place] < 999 and harfbuzz.hb_version_atleast(*version[:place], version[place] + 1,
                                                                   *[0] * (2 - place)):
            version[place] += 1
    return {"pango": f"{number // 10000}.{number // 100 % 100}.{number % 100}",
            "harfbuzz": ".".join(map(str, version)), "harfbuzz-subset": SUBSET_FONTS}


def html_to_pdf(html: str, *, base_url: Path, roots, forms: bool = False) -> tuple[bytes, list]:
    """Lay out and write in one call: (PDF bytes, WeasyPrint warnings)."""
    rendered = layout_html(html, base_url=base_url, roots=roots, forms=forms)
    return write_pdf(rendered, forms=forms), rendered.warnings
