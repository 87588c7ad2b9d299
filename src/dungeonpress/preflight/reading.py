"""Open a PDF with pdfium and give the checks its pages as characters, lines, segments and inked boxes."""

from __future__ import annotations

import ctypes
import functools
import itertools
import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as fpdf

from dungeonpress.model.paper import PAPER_MM
import dungeonpress.preflight.tagged as tagged

MM = 72 / 25.4

# The papers a page is recognised as (portrait, mm; landscape is matched too), by the name findings
# give them; the sizes are model.paper's.
PAPER_SIZES = {name: PAPER_MM[paper] for paper, name in
               (("a4", "A4"), ("letter", "letter"), ("a5", "A5"), ("a6", "A6"), ("a7", "A7"),
                                     ("half-letter", "half-letter"))}

# A die label in a table's first column: 1, 12, 2-3, 01–05, 66, 11+.
DIE_LABEL = re.compile(r"^\d{1,3}(?:\s*[–\-‐]\s*\d{1,3})?\+?$")
# Hyphens a line breaker inserts (U+2010, soft hyphen); a compound broken at its own "-" is not hyphenation.
HYPHENS = "‐\u00ad"
# Words: a gap wider than this (pt) or a baseline this far off starts a new word (pdfplumber's defaults,
# which the checks' thresholds were tuned on).
WORD_X_TOLERANCE = WORD_Y_TOLERANCE = 3
LIGATURES = {"ﬀ": "ff", "ﬃ": "ffi", "ﬄ": "ffl", "ﬁ": "fi", "ﬂ": "fl", "ﬆ": "st", "ﬅ": "st"}


class BadPDF(Exception):
    """A file preflight cannot read (shown as one line)."""


@dataclass
class Segment:
    """A run of words on one baseline with no wide gap: one line of one column or table cell."""

    x0: float
    x1: float
    top: float
    bottom: float
    text: str
    size: float
    fontname: str
    words: list = field(repr=False, default_factory=list)

    @property
    def bold(self) -> bool:
        return "Bold" in self.fontname or "Cinzel" in self.fontname


@dataclass
class Page:
    """One page read back: its characters, painted shapes, images, fonts and page boxes, in PDF points from the top left."""

    number: int
    width: float
    height: float
    pdf: object = field(repr=False)

    @cached_property
    def _content(self) -> dict:
        return _read_page(self.pdf)

    @property
    def all_chars(self) -> list:
        """Every character in content-stream order, spaces included (they end words)."""
        return self._content["chars"]

    @cached_property
    def chars(self) -> list:
        return [c for c in self.all_chars if c["text"].strip()]

    @property
    def rects(self) -> list:
        return self._content["rects"]

    @property
    def lines(self) -> list:
        return self._content["lines"]

    @property
    def curves(self) -> list:
        return self._content["curves"]

    @property
    def images(self) -> list:
        return self._content["images"]

    @property
    def panels(self) -> int:
        """How many forms the page draws at its top level (on an imposed sheet, one per reading page)."""
        return self._content["panels"]

    @property
    def fonts(self) -> list:
        """(base font name, embedded?) of every font the page's text is set in."""
        return self._content["fonts"]

    @cached_property
    def words(self) -> list:
        return _words(self.all_chars)

    @cached_property
    def rows(self) -> list[list[Segment]]:
        """Segments grouped by baseline, top to bottom; each row's segments left to right."""
        return _rows(self.words)

    @cached_property
    def segments(self) -> list[Segment]:
        return [s for row in self.rows for s in row]

    @cached_property
    def tables(self) -> list:
        """The tables the page's tagged structure holds (preflight.tagged.TablePiece); [] for an untagged page."""
        return tagged.table_pieces(self.pdf)

    @cached_property
    def body_size(self) -> float:
        """The size most characters on the page are set in."""
        counts: dict = {}
        for c in self.chars:
            counts[round(c["size"], 1)] = counts.get(round(c["size"], 1), 0) + 1
        return max(counts, key=counts.get) if counts else 0.0

    @cached_property
    def ink(self) -> list[tuple]:
        """(x0, top, x1, bottom, kind) of everything that puts ink on paper (white fills are not ink)."""
        boxes = [(c["x0"], c.get("ink_top", c["top"]), c["x1"], c.get("ink_bottom", c["bottom"]), "text")
                 for c in self.chars if not c.get("blank")]
        for kind, items in (("rect", self.rects), ("line", self.lines), ("curve", self.curves)):
            for item in items:
                if _inked(item):
                    boxes.append((item["x0"], item["top"], item["x1"], item["bottom"], kind))
        boxes.extend((i["x0"], i["top"], i["x1"], i["bottom"], "image") for i in self.images)
        return boxes

    @cached_property
    def trim(self) -> tuple:
        """(left, top, right, bottom) of the trimmed page in the frame the page is read in (the MediaBox's top-left):
        the whole page when it has no TrimBox; inside its bleed when it is made for a print shop."""
        media, trim = self.box("MediaBox"), self.box("TrimBox")
        if media is None or trim is None:
            return (0.0, 0.0, self.width, self.height)
        return (trim[0] - media[0], media[3] - trim[3], trim[2] - media[0], media[3] - trim[1])

    def box(self, name: str):
        """A page box (MediaBox, TrimBox, BleedBox, CropBox) as (x0, y0, x1, y1), or None when the page has none."""
        left, bottom, right, top = (ctypes.c_float() for _ in range(4))
        if not _BOX_GETTERS[name](self.pdf.raw, left, bottom, right, top):
            return None
        return (float(left.value), float(bottom.value), float(right.value), float(top.value))


_BOX_GETTERS = {"MediaBox": fpdf.FPDFPage_GetMediaBox, "TrimBox": fpdf.FPDFPage_GetTrimBox,
                "BleedBox": fpdf.FPDFPage_GetBleedBox, "CropBox": fpdf.FPDFPage_GetCropBox}


@dataclass
class Document:
    path: Path
    pages: list[Page]
    pdf: object = field(repr=False)

    @property
    def name(self) -> str:
        return self.path.name

    def close(self) -> None:
        for page in self.pages:
            page.pdf.close()
        self.pdf.close()


def open_pdf(path: Path, media_boxes: list | None = None) -> Document:
    """Open a PDF for the checks; `media_boxes` (impose.limits.check_limits) gives pages their inherited MediaBox.

    PDFium reads a MediaBox only from the page itself; the PDF standard lets a page inherit it from
    the page tree, so such a page is given its inherited box, in memory, before anything measures it.
    """
    if path.is_dir():
        raise BadPDF(f"{path}: is a folder, not a PDF")
    try:
        data_head = path.open("rb").read(1024)
    except OSError as exc:
        raise BadPDF(f"{path}: cannot read ({exc.strerror or exc})") from None
    if not data_head.startswith(b"%PDF-"):
        raise BadPDF(f"{path}: not a PDF (no %PDF- header)")
    with path.open("rb") as handle:
        handle.seek(0, 2)
        handle.seek(max(0, handle.tell() - 2048))
        if b"%%EOF" not in handle.read():
            raise BadPDF(f"{path}: truncated PDF (no %%EOF at the end)")
    try:
        pdf = pdfium.PdfDocument(path)
    except pdfium.PdfiumError as exc:
        if "password" in str(exc).lower():
            raise BadPDF(f"{path}: encrypted PDF (preflight reads only unencrypted files)") from None
        raise BadPDF(f"{path}: damaged PDF ({type(exc).__name__})") from None
    try:
        pages = []
        for i in range(len(pdf)):
            handle = pdf[i]
            if media_boxes and i < len(media_boxes) and handle.get_mediabox(fallback_ok=False) is None:
                handle.set_mediabox(*media_boxes[i])
            width, height = handle.get_size()
            pages.append(Page(i + 1, float(width), float(height), handle))
    except pdfium.PdfiumError as exc:
        pdf.close()
        raise BadPDF(f"{path}: damaged PDF ({type(exc).__name__})") from None
    if not pages:
        pdf.close()
        raise BadPDF(f"{path}: PDF has no pages")
    return Document(path, pages, pdf)


# --- reading one page through pdfium's C API -------------------------------------------------------
# The values match what pdfminer (which pdfplumber wraps) reports, so the checks' thresholds keep
# their meaning: a character's box runs from its origin over its advance and from its baseline's
# descent up one font size; a path is split into its subpaths, each a line, a rectangle or a curve
# bounded by its end points; shapes inside form XObjects are placed on the page.

def _read_page(page) -> dict:
    top = page.get_mediabox()[3]
    # "painted" counts text and path objects in the order they are drawn (the later one lies on top)
    out = {"chars": [], "rects": [], "lines": [], "curves": [], "images": [], "fonts": [], "panels": 0, "painted": 0}
    order: dict = {}
    fonts: dict = {}
    panel_of: dict = {}
    _walk(page.raw, fpdf.FPDFPage_CountObjects(page.raw), fpdf.FPDFPage_GetObject, (1, 0, 0, 1, 0, 0), top, out, order, fonts,
          panel_of)
    out["chars"] = _chars(page, top, order, panel_of)
    out["fonts"] = sorted(fonts.values())
    return out


def _walk(parent, count, get, matrix, top, out, order, fonts, panel_of, panel=None) -> None:
    """Every object drawn, forms opened in place; `panel` is the outermost form an object is inside.

    An imposed sheet draws each reading page as one form: `out["panels"]` counts them, and
    `panel_of` says which of them (by number) each text object belongs to.
    """
    for index in range(count):
        obj = get(parent, index)
        kind = fpdf.FPDFPageObj_GetType(obj)
        if kind == fpdf.FPDF_PAGEOBJ_TEXT:
            order[ctypes.cast(obj, ctypes.c_void_p).value] = out["painted"]
            out["painted"] += 1
            if panel is not None:
                panel_of[ctypes.cast(obj, ctypes.c_void_p).value] = panel
            font = fpdf.FPDFTextObj_GetFont(obj)
            key = ctypes.cast(font, ctypes.c_void_p).value
            if key not in fonts:
                fonts[key] = (_font_name(font), bool(fpdf.FPDFFont_GetIsEmbedded(font)))
        elif kind == fpdf.FPDF_PAGEOBJ_PATH:
            _path(obj, matrix, top, out)
            out["painted"] += 1
        elif kind == fpdf.FPDF_PAGEOBJ_IMAGE:
            x0, y0, x1, y1 = _bounds(obj, matrix)
            out["images"].append({"x0": x0, "x1": x1, "top": top - y1, "bottom": top - y0})
        elif kind == fpdf.FPDF_PAGEOBJ_FORM:
            if panel is None:
                out["panels"] += 1
            _walk(obj, fpdf.FPDFFormObj_CountObjects(obj), fpdf.FPDFFormObj_GetObject, _compose(_matrix(obj), matrix),
                  top, out, order, fonts, panel_of, out["panels"] - 1 if panel is None else panel)


def _font_name(font) -> str:
    size = fpdf.FPDFFont_GetBaseFontName(font, None, 0)
    buffer = ctypes.create_string_buffer(size)
    fpdf.FPDFFont_GetBaseFontName(font, buffer, size)
    return buffer.value.decode("utf-8", "replace")


def _matrix(obj) -> tuple:
    m = fpdf.FS_MATRIX()
    fpdf.FPDFPageObj_GetMatrix(obj, m)
    return (m.a, m.b, m.c, m.d, m.e, m.f)


def _compose(inner: tuple, outer: tuple) -> tuple:
    """The matrix that applies `inner`, then `outer`."""
    a, b, c, d, e, f = inner
    A, B, C, D, E, F = outer
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)


def _apply(m: tuple, x: float, y: float) -> tuple:
    return (m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5])


def _bounds(obj, matrix) -> tuple:
    left, bottom, right, upper = (ctypes.c_float() for _ in range(4))
    fpdf.FPDFPageObj_GetBounds(obj, left, bottom, right, upper)
    corners = [_apply(matrix, x, y) for x in (left.value, right.value) for y in (bottom.value, upper.value)]
    xs, ys = [p[0] for p in corners], [p[1] for p in corners]
    return min(xs), min(ys), max(xs), max(ys)


def _colour(getter, obj):
    r, g, b, a = (ctypes.c_uint() for _ in range(4))
    if not getter(obj, r, g, b, a):
        return None
    return (r.value / 255, g.value / 255, b.value / 255)


def _path(obj, matrix, top, out) -> None:
    fill_mode, stroke = ctypes.c_int(), ctypes.c_int()
    fpdf.FPDFPath_GetDrawMode(obj, fill_mode, stroke)
    width = ctypes.c_float()
    fpdf.FPDFPageObj_GetStrokeWidth(obj, width)
    style = {"fill": bool(fill_mode.value), "stroke": bool(stroke.value), "linewidth": float(width.value),
             "non_stroking_color": _colour(fpdf.FPDFPageObj_GetFillColor, obj),
             "stroking_color": _colour(fpdf.FPDFPageObj_GetStrokeColor, obj)}
    m = _compose(_matrix(obj), matrix)
    # pdfium keeps a path as points (a Bézier as three); rebuild the m/l/c/h operators pdfminer sees.
    ops: list = []
    x, y = ctypes.c_float(), ctypes.c_float()
    pending_curve = 0
    for index in range(fpdf.FPDFPath_CountSegments(obj)):
        segment = fpdf.FPDFPath_GetPathSegment(obj, index)
        kind = fpdf.FPDFPathSegment_GetType(segment)
        fpdf.FPDFPathSegment_GetPoint(segment, x, y)
        point = _apply(m, x.value, y.value)
        if kind == fpdf.FPDF_SEGMENT_BEZIERTO:
            pending_curve += 1
            if pending_curve < 3:
                continue  # a control point: pdfminer bounds a curve by its end points
            pending_curve = 0
            ops.append(("c", point))
        else:
            ops.append(("m" if kind == fpdf.FPDF_SEGMENT_MOVETO else "l", point))
        if fpdf.FPDFPathSegment_GetClose(segment):
            ops.append(("h", None))
    start = 0
    for index in range(1, len(ops) + 1):
        if index == len(ops) or ops[index][0] == "m":
            if ops[start][0] == "m":
                _subpath(ops[start:index], style, top, out)
            start = index


def _subpath(ops: list, style: dict, top: float, out: dict) -> None:
    """One subpath classed and bounded as pdfminer does (converter.paint_path)."""
    shape = "".join(op for op, _ in ops)
    pts = [p if op != "h" else ops[0][1] for op, p in ops]
    if len(shape) > 3 and shape[-2:] == "lh" and pts[-2] == pts[0]:
        shape = shape[:-2] + "h"
        pts.pop()
    if shape in ("mlh", "ml"):
        kind, corners = "lines", pts[:2]
    elif shape in ("mlllh", "mllll"):
        (x0, y0), (x1, y1), (x2, y2), (x3, y3), _ = pts
        square = (x0 == x1 and y1 == y2 and x2 == x3 and y3 == y0) or (y0 == y1 and x1 == x2 and y2 == y3 and x3 == x0)
        kind, corners = ("rects", [pts[0], pts[2]]) if pts[0] == pts[4] and square else ("curves", pts)
    else:
        kind, corners = "curves", pts
    xs, ys = [p[0] for p in corners], [p[1] for p in corners]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    out[kind].append({**style, "painted": out["painted"], "x0": x0, "x1": x1, "top": top - y1, "bottom": top - y0,
                      "width": x1 - x0, "height": y1 - y0})


def _address_getter(name: str):
    """A second handle on a pdfium function that returns an object as a plain address (hashable, cheap)."""
    from pypdfium2_raw.bindings import _libs
    function = _libs["pdfium"][name]  # item access makes a new handle; the bindings' own stays as it is
    function.restype = ctypes.c_void_p
    function.argtypes = [ctypes.c_void_p, ctypes.c_int]
    return function


_text_object_at = _address_getter("FPDFText_GetTextObject")


# How near a page's head or foot a character's ink is measured by its glyph (Page.ink): past the 5 mm the edge
# check asks for, with room to spare.
INK_BAND = 8 * MM
UNPLACED = 1 << 30  # the paint order of a character whose text object was not found: after everything


def _chars(page, top: float, order: dict, panel_of: dict) -> list:
    """Characters in content-stream order, each with its box, size, font name and fill colour.

    pdfium's text page orders characters by its own reading of the layout; they are put back in
    the order the content stream draws them, as the checks' word grouping expects. pdfium marks
    some of the file's own spaces as generated; those are kept (a space ends a word), the ones it
    invents at the origin of the next character are not. A ligature pdfium splits into several
    characters at one origin is one character again, as in pdfminer.
    """
    textpage = page.get_textpage()
    raw = textpage.raw
    styles: dict = {}
    box = fpdf.FS_RECTF()
    ox, oy = ctypes.c_double(), ctypes.c_double()
    glyph = [ctypes.c_double() for _ in range(4)]  # a glyph's own box: left, right, bottom, top
    glyph_refs = [ctypes.byref(value) for value in glyph]
    inked: dict = {}  # index → (bottom, top) of the glyph's ink, for characters near the page's head or foot
    entries = []
    for index in range(fpdf.FPDFText_CountChars(raw)):
        key = _text_object_at(raw, index)
        if key is None:
            continue  # a space or line break pdfium adds between text objects: not in the file
        if key not in styles:
            styles[key] = _text_style(raw, index)
        code = fpdf.FPDFText_GetUnicode(raw, index)
        if code == 2:
            text = "-"  # pdfium marks a hyphen that ends a line as U+0002
        elif fpdf.FPDFText_HasUnicodeMapError(raw, index):
            text = f"(cid:{code})"  # a glyph with no Unicode (pdfium gives its code), written as pdfminer writes it
        else:
            text = chr(code)
        fpdf.FPDFText_GetCharOrigin(raw, index, ox, oy)
        fpdf.FPDFText_GetLooseCharBox(raw, index, box)
        entries.append((index, key, text, bool(fpdf.FPDFText_IsGenerated(raw, index)), ox.value, oy.value,
                        box.left, box.right, box.bottom, box.top))
        if (box.bottom < INK_BAND or box.top > top - INK_BAND) and fpdf.FPDFText_GetCharBox(raw, index, *glyph_refs):
            # Near the page's head or foot, what the glyph inks rather than its font's box (Page.ink): a glyph another
            # font lends (Vollkorn's → in the dyslexia-friendly theme's Atkinson lines) has a deeper descent.
            inked[index] = (glyph[2].value, glyph[3].value)
    textpage.close()
    # The next origin along the line in the same text object ends a character's advance: pdfium's
    # loose box reaches over a glyph's overhang (an f, an italic), pdfminer's box does not.
    following: list = [None] * len(entries)
    for i in range(len(entries) - 2, -1, -1):
        here, there = entries[i], entries[i + 1]
        if there[1] == here[1] and abs(there[5] - here[5]) <= 0.01:
            following[i] = there[4] if there[4] != here[4] else following[i + 1]
    found = []
    last = None
    for i, (index, key, text, generated, x, y, left, right, low, high) in enumerate(entries):
        nxt = entries[i + 1] if i + 1 < len(entries) else None
        if generated and nxt is not None and nxt[1] == key and nxt[4] == x and nxt[5] == y:
            continue  # a space pdfium invents between spaced-out letters
        if last is not None and not generated and last[0] == (key, x, y):
            last[1]["text"] += text  # the rest of a ligature
            continue
        style = styles[key]
        size = style["size"]
        if not generated:  # where the font's descent puts the foot of the box, below the baseline
            style.setdefault("descent", (high - y) if style["flip_y"] else (y - low))
        descent = style.get("descent", 0.0)
        after = following[i]
        if style["flip_x"]:
            ends = [c for c in (None if generated else left, after) if c is not None and c < x]
            x0, x1 = (max(ends) if ends else x), x
        else:
            ends = [c for c in (None if generated else right, after) if c is not None and c > x]
            x0, x1 = x, (min(ends) if ends else x)
        if style["flip_y"]:
            char_top = top - (y + descent)
            char_bottom = char_top + size
        else:
            char_bottom = top - (y - descent)
            char_top = char_bottom - size
        if not style["upright"]:  # turned text (a map set on its side): the glyph's own box, turned with it
            x0, x1, char_top, char_bottom = left, right, top - high, top - low
        char = {"text": text, "x0": x0, "x1": x1, "top": char_top, "bottom": char_bottom, "size": size,
                "fontname": style["fontname"], "non_stroking_color": style["colour"], "upright": style["upright"],
                "order": (order.get(key, UNPLACED), index), "panel": panel_of.get(key)}
        if index in inked:
            if text.isspace() or generated:
                char["blank"] = True  # no ink at all
            else:
                char["ink_top"], char["ink_bottom"] = top - inked[index][1], top - inked[index][0]
        found.append(char)
        last = ((key, x, y), char)
    found.sort(key=lambda c: c["order"])
    return found


def _text_style(raw, index) -> dict:
    m = fpdf.FS_MATRIX()
    fpdf.FPDFText_GetMatrix(raw, index, m)
    scale = abs(m.d) if m.b == 0 and m.c == 0 else (abs(m.a * m.d - m.b * m.c)) ** 0.5
    size = fpdf.FPDFText_GetFontSize(raw, index) * scale
    name = ctypes.create_string_buffer(256)
    flags = ctypes.c_int()
    fpdf.FPDFText_GetFontInfo(raw, index, name, 256, flags)
    r, g, b, a = (ctypes.c_uint() for _ in range(4))
    colour = (r.value / 255, g.value / 255, b.value / 255) if fpdf.FPDFText_GetFillColor(raw, index, r, g, b, a) else None
    return {"size": size, "fontname": name.value.decode("utf-8", "replace"), "colour": colour,
            "upright": m.a * m.d > 0 and m.b * m.c <= 0, "flip_x": m.a < 0, "flip_y": m.d < 0}


def _words(chars: list) -> list:
    """Words as pdfplumber's extract_words(extra_attrs=["fontname", "size"]) makes them, from chars in stream order."""
    words = []
    for _, run in itertools.groupby(chars, key=lambda c: (c["upright"], c["fontname"], c["size"])):
        run = list(run)
        # cluster the run into lines by the top of each character (tolerance 3 pt, chained)
        tops = sorted(set(c["top"] for c in run))
        cluster, group, last = {}, 0, None
        for value in tops:
            if last is not None and value > last + WORD_Y_TOLERANCE:
                group += 1
            cluster[value] = group
            last = value
        for _, line in itertools.groupby(sorted(run, key=lambda c: cluster[c["top"]]), key=lambda c: cluster[c["top"]]):
            current: list = []
            for char in sorted(line, key=lambda c: c["x0"]):
                if char["text"].isspace():
                    if current:
                        words.append(_word(current))
                    current = []
                elif current and (char["x0"] < current[-1]["x0"] or char["x0"] > current[-1]["x1"] + WORD_X_TOLERANCE
                                  or abs(char["top"] - current[-1]["top"]) > WORD_Y_TOLERANCE):
                    words.append(_word(current))
                    current = [char]
                else:
                    current.append(char)
            if current:
                words.append(_word(current))
    return words


def _word(chars: list) -> dict:
    return {"text": "".join(LIGATURES.get(c["text"], c["text"]) for c in chars), "x0": min(c["x0"] for c in chars), "x1": max(c["x1"] for c in chars),
            "top": min(c["top"] for c in chars), "bottom": max(c["bottom"] for c in chars),
            "fontname": chars[0]["fontname"], "size": chars[0]["size"]}


def imposed(doc: Document) -> bool:
    """An imposed booklet: two reading pages side by side on each sheet side, in folding order, not reading order.

    Checks that follow the reading order (stranded headings, table fragments, fill) run on the
    reading-order PDF built alongside it, not on the imposition.
    """
    first = doc.pages[0]
    return "booklet" in doc.name.lower() and first.width > first.height


def zine_pages(doc: Document) -> bool:
    """A zine's reading copy: its eight panels as pages, in reading order (the sheet is landscape).

    A panel's edges are folds and cuts of the sheet, not the sheet's edge: the print checks of the
    sheet judge those; the reading checks (text, contrast, sizes at A7) run on the panels.
    """
    first = doc.pages[0]
    return "zine" in doc.name.lower() and first.width < first.height


def paper_name(width_pt: float, height_pt: float, tolerance_mm: float = 1.5) -> str | None:
    w, h = sorted((width_pt / MM, height_pt / MM))
    for name, (pw, ph) in PAPER_SIZES.items():
        if abs(w - pw) <= tolerance_mm and abs(h - ph) <= tolerance_mm:
            return name
    return None


def _inked(item: dict) -> bool:
    fill = item.get("fill") and not _white(item.get("non_stroking_color"))
    stroke = item.get("stroke") and not _white(item.get("stroking_color")) and (item.get("linewidth") or 0) > 0
    return bool(fill or stroke)


def _white(color) -> bool:
    return luminance(color) > 0.98


@functools.lru_cache(maxsize=4096)
def luminance(color) -> float:
    """WCAG relative luminance of a colour (grey, RGB or CMYK tuple); None counts as black."""
    rgb = to_rgb(color)
    def channel(c):
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def to_rgb(color) -> tuple:
    if color is None:
        return (0.0, 0.0, 0.0)
    if isinstance(color, (int, float)):
        color = (color,)
    color = tuple(float(c) for c in color if isinstance(c, (int, float)))
    if len(color) == 1:
        return color * 3
    if len(color) == 3:
        return color
    if len(color) == 4:
        c, m, y, k = color
        return ((1 - c) * (1 - k), (1 - m) * (1 - k), (1 - y) * (1 - k))
    return (0.0, 0.0, 0.0)


SIZE_STEP = 0.3  # pt: words closer in size than this belong to one run of text


def _rows(words: list) -> list[list[Segment]]:
    rows: list[list] = []
    # A word joins a row on the row's first word's baseline, not its last word's: on an imposed sheet, panels whose
    # lines stand a point or two apart chained two lines of an upside-down panel into one row (a zine's map legend read
    # as one 60-letter line of 6.6 pt "running text").
    for word in sorted(words, key=lambda w: (round(w["bottom"], 0), w["x0"])):
        if rows and abs(rows[-1][0]["bottom"] - word["bottom"]) <= 0.35 * word["size"]:
            rows[-1].append(word)
        else:
            rows.append([word])
    out = []
    for row in rows:
        row.sort(key=lambda w: w["x0"])
        segments: list[Segment] = []
        for word in row:
            last = segments[-1] if segments else None
            # A change of size starts a new segment: running text is set at one size, and a label or
            # note beside it in another size ("Potions identified" + its note) is a different element.
            if last and word["x0"] - last.x1 <= 1.2 * word["size"] and abs(word["size"] - last.size) <= SIZE_STEP:
                last.x1 = max(last.x1, word["x1"])
                last.top, last.bottom = min(last.top, word["top"]), max(last.bottom, word["bottom"])
                last.text += " " + word["text"]
                last.words.append(word)
            else:
                segments.append(Segment(word["x0"], word["x1"], word["top"], word["bottom"], word["text"],
                                        round(word["size"], 1), _base_font(word["fontname"]), [word]))
        out.append(segments)
    out.sort(key=lambda r: r[0].top)
    return out


def _base_font(name: str) -> str:
    return name.split("+", 1)[1] if "+" in name[:8] else name
