"""Open a PDF with pdfplumber and give the checks its pages as lines, segments and inked boxes."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import pdfplumber
from pdfminer.pdfdocument import PDFEncryptionError, PDFPasswordIncorrect
from pdfminer.pdfparser import PDFSyntaxError
from pdfminer.psparser import PSException

MM = 72 / 25.4

# Paper sizes the project prints on (portrait, mm); landscape is matched too.
PAPER_SIZES = {"A4": (210, 297), "letter": (215.9, 279.4), "A5": (148, 210), "A6": (105, 148), "A7": (74, 105)}

# A die label in a table's first column: 1, 12, 2-3, 01–05, 66, 11+.
DIE_LABEL = re.compile(r"^\d{1,3}(?:\s*[–\-‐]\s*\d{1,3})?\+?$")
# Hyphens a line breaker inserts (U+2010, soft hyphen); a compound broken at its own "-" is not hyphenation.
HYPHENS = "‐\u00ad"


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
    number: int
    width: float
    height: float
    plumber: object = field(repr=False)

    @cached_property
    def chars(self) -> list:
        return [c for c in self.plumber.chars if c["text"].strip()]

    @cached_property
    def words(self) -> list:
        return self.plumber.extract_words(extra_attrs=["fontname", "size"], keep_blank_chars=False, use_text_flow=False)

    @cached_property
    def rows(self) -> list[list[Segment]]:
        """Segments grouped by baseline, top to bottom; each row's segments left to right."""
        return _rows(self.words)

    @cached_property
    def segments(self) -> list[Segment]:
        return [s for row in self.rows for s in row]

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
        boxes = [(c["x0"], c["top"], c["x1"], c["bottom"], "text") for c in self.chars]
        for kind, items in (("rect", self.plumber.rects), ("line", self.plumber.lines), ("curve", self.plumber.curves)):
            for item in items:
                if _inked(item):
                    boxes.append((item["x0"], item["top"], item["x1"], item["bottom"], kind))
        boxes.extend((i["x0"], i["top"], i["x1"], i["bottom"], "image") for i in self.plumber.images)
        return boxes

    def box(self, name: str):
        """A page box (MediaBox, TrimBox, BleedBox, CropBox) as (x0, y0, x1, y1), or None."""
        from pdfminer.pdftypes import resolve1
        value = resolve1(self.plumber.page_obj.attrs.get(name))
        return tuple(float(resolve1(v)) for v in value) if value else None


@dataclass
class Document:
    path: Path
    pages: list[Page]
    plumber: object = field(repr=False)

    @property
    def name(self) -> str:
        return self.path.name

    def close(self) -> None:
        self.plumber.close()


def open_pdf(path: Path) -> Document:
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
        plumber = pdfplumber.open(path)
        pages = [Page(i + 1, float(p.width), float(p.height), p) for i, p in enumerate(plumber.pages)]
    except (PDFPasswordIncorrect, PDFEncryptionError):
        raise BadPDF(f"{path}: encrypted PDF (preflight reads only unencrypted files)") from None
    except (PDFSyntaxError, PSException, ValueError, KeyError, TypeError) as exc:
        raise BadPDF(f"{path}: damaged PDF ({type(exc).__name__})") from None
    except Exception as exc:  # pdfplumber wraps parser errors in its own PdfminerException
        cause = exc.args[0] if exc.args else None
        if isinstance(cause, (PDFPasswordIncorrect, PDFEncryptionError)) or "password" in str(exc).lower():
            raise BadPDF(f"{path}: encrypted PDF (preflight reads only unencrypted files)") from None
        raise BadPDF(f"{path}: damaged PDF ({type(exc).__name__})") from None
    if not pages:
        raise BadPDF(f"{path}: PDF has no pages")
    return Document(path, pages, plumber)


def imposed(doc: Document) -> bool:
    """An imposed booklet: two reading pages side by side on each sheet side, in folding order, not reading order.

    Checks that follow the reading order (stranded headings, table fragments, fill) run on the
    reading-order PDF built alongside it, not on the imposition.
    """
    first = doc.pages[0]
    return "booklet" in doc.name.lower() and first.width > first.height


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


def luminance(color) -> float:
    """WCAG relative luminance of a pdfplumber colour (grey, RGB or CMYK tuple); None counts as black."""
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


def _rows(words: list) -> list[list[Segment]]:
    rows: list[list] = []
    for word in sorted(words, key=lambda w: (round(w["bottom"], 0), w["x0"])):
        if rows and abs(rows[-1][-1]["bottom"] - word["bottom"]) <= 0.35 * word["size"]:
            rows[-1].append(word)
        else:
            rows.append([word])
    out = []
    for row in rows:
        row.sort(key=lambda w: w["x0"])
        segments: list[Segment] = []
        for word in row:
            last = segments[-1] if segments else None
            if last and word["x0"] - last.x1 <= 1.2 * word["size"]:
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
