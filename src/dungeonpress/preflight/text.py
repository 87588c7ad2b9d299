"""Checks on the type of a read-back PDF: text layer, fonts, sizes, contrast, stranded headings, hyphenated narrow lines."""

from __future__ import annotations

import re

import dungeonpress.preflight.boxes as boxes
from dungeonpress.preflight.reading import HYPHENS, MM, Document, Page, imposed, luminance, paper_name, zine_pages

# The only families the project ships (templates/fonts/); anything else is a system fallback.
# "Paperogue Marks" is Vollkorn under another name (templates/css/paperogue.css) for lining figures.
# "Theme Marks" is Atkinson Hyperlegible under another name in the dyslexia-friendly theme's drawings.
# "Field Vollkorn" and "Field Atkinson" are the faces form fields are set in (templates/css/fonts.css).
SHIPPED_FAMILIES = ("Vollkorn", "Cinzel", "AtkinsonHyperlegible", "Paperogue-Marks", "Theme-Marks", "Field-Vollkorn",
                    "Field-Atkinson")
SHIPPED = tuple(f.replace("-", "") for f in SHIPPED_FAMILIES)

# Smallest sizes (pt) a reader can use, by the trim a reader holds: (running text, labels and dice numbers).
# An eight-page zine folds an A4 or Letter sheet into A7 panels, so its text is judged at A7.
MINIMUM_SIZES = {
    "A7": (7.0, 6.0),
    "A6": (7.5, 6.0),
    "A5": (8.5, 6.0),
    "half-letter": (8.5, 6.0),  # a Letter sheet folded once: held and read as an A5 page
    "A4": (9.0, 6.0),
    "letter": (9.0, 6.0),
}
RUNNING_TEXT_CHARS = 45     # a line this long is running text, not a label or a table cell
MIN_CONTRAST = 4.5          # WCAG AA for body text
HEADING_RATIO = 1.12        # a heading is set at least this much larger than the page's body text
NARROW_MEASURE_MM = 55      # table cells, labels and sidebars are narrower than this


def trim_of(doc: Document) -> str:
    """The page size a reader holds: zine panels are A7; imposed booklets are read as A5 pages."""
    name = doc.name.lower()
    if "zine" in name:
        return "A7"
    page = doc.pages[0]
    left, top, right, bottom = page.trim  # a print shop's page is read at its trimmed size, not with its bleed
    paper = paper_name(right - left, bottom - top) or "A4"
    if imposed(doc):
        return "A5"
    return paper


def check_text_layer(doc: Document):
    """Every glyph maps back to Unicode: what copy and paste, search and screen readers get.

    A glyph with no Unicode prints, but reads as nothing (pdftotext drops it). Fonts embedded whole
    do this to every glyph an OpenType feature picked: lining digits, small capitals, ligatures.
    """
    for page in doc.pages:
        lost = [c for c in page.all_chars if c["text"].startswith("(cid:")]
        if lost:
            where = next((s.text for s in page.segments if "(cid:" in s.text), "")
            where = where[max(0, where.find("(cid:") - 20):]
            shown = re.sub(r"\(cid:\d+\)", "\N{REPLACEMENT CHARACTER}", where)[:40]
            yield page.number, "error", (f"{len(lost)} glyph(s) with no Unicode: a reader, a search or a screen "
                                         f"reader gets nothing for them: {shown!r}")


def check_fonts(doc: Document):
    """Every font embedded, and every glyph set in a family the project ships."""
    for page in doc.pages:
        for name, embedded in page.fonts:
            if not embedded:
                yield page.number, "error", f"font {name} is not embedded"
        counts: dict = {}
        for c in page.chars:
            family = c["fontname"].split("+", 1)[-1]
            # Names come with or without hyphens ("Atkinson-Hyperlegible", "AtkinsonHyperlegible-Bold").
            if not family.replace("-", "").startswith(SHIPPED):
                counts.setdefault(family, []).append(c["text"])
        for family, glyphs in sorted(counts.items()):
            sample = "".join(dict.fromkeys(glyphs))[:12]
            yield page.number, "error", f"{len(glyphs)} glyph(s) set in {family}, a font the project does not ship: {sample!r}"


def check_text_size(doc: Document):
    trim = trim_of(doc)
    body_min, label_min = MINIMUM_SIZES[trim]
    for page in doc.pages:
        small = [c for c in page.chars if c["size"] < label_min - 0.05]
        if small:
            sizes = sorted({round(c["size"], 1) for c in small})
            sample = "".join(c["text"] for c in small[:20])
            yield page.number, "error", (f"{len(small)} character(s) at {', '.join(map(str, sizes))} pt, below the "
                                         f"{label_min} pt label minimum ({trim}): {sample!r}")
        running = [s for s in page.segments if len(s.text) >= RUNNING_TEXT_CHARS and _body_size(s) < body_min - 0.05
                   and not _in_table(s, page)]
        if running:
            sizes = sorted({_body_size(s) for s in running})
            yield page.number, "error", (f"{len(running)} line(s) of running text at {', '.join(map(str, sizes))} pt, "
                                         f"below the {body_min} pt body minimum ({trim}): {running[0].text[:40]!r}")


def _in_table(seg, page: Page) -> bool:
    """Is the line part of a table (the page's tagged structure says so)? A table's cells are not running text: a
    Paperogue level's room key at 6.2 pt ran its number, letter and a long entry into one 45-letter line (9 of 30
    levels)."""
    middle = ((seg.x0 + seg.x1) / 2, (seg.top + seg.bottom) / 2)
    return any(piece.holds(*middle) for piece in page.tables)


def _body_size(seg) -> float:
    """The size most of a line's letters are set in: a small-capitals label at one end does not make it small."""
    letters = {}
    for word in seg.words:
        size = round(word["size"], 1)
        letters[size] = letters.get(size, 0) + len(word["text"])
    return max(sorted(letters), key=lambda size: letters[size]) if letters else seg.size


def check_contrast(doc: Document):
    """Text at least 4.5:1 against the filled shape beneath it (the paper when there is none), and no
    letter under a shape painted after it (a badge or label drawn over a word hides it).

    Shapes are found through a grid (boxes.Grid), never by pairing each with every other; a page
    with more shapes piled on one another than boxes.WORK_BUDGET allows is named, not checked.
    """
    for page in doc.pages:
        budget = boxes.Budget()
        try:
            fills = backgrounds(page, budget)  # made once for both questions
            hidden = covered(page, fills, budget)
            low = low_contrast(page, MIN_CONTRAST, fills, budget)
        except boxes.TooMuchWork:
            yield page.number, "warning", (f"contrast not checked: {len(page.chars)} letters over "
                                           f"{len(page.rects) + len(page.curves)} shapes are more than the check compares")
            continue
        if hidden:
            yield page.number, "error", (f"{len(hidden)} character(s) hidden under a shape drawn over them: "
                                         f"{''.join(c['text'] for c in hidden[:20])!r}")
        bad: dict = {}
        for c, ratio in low:
            bad.setdefault(round(ratio, 1), []).append(c["text"])
        for ratio, glyphs in sorted(bad.items()):
            yield page.number, "error", f"{len(glyphs)} character(s) at contrast {ratio}:1 (minimum {MIN_CONTRAST}:1): {''.join(glyphs[:20])!r}"


def _fill_grid(page: Page, fills: list, budget: boxes.Budget) -> boxes.Grid:
    return boxes.Grid(fills, page.width, page.height, budget)


def covered(page: Page, fills: list, budget: boxes.Budget | None = None) -> list:
    """The letters whose middle lies under one of `fills` (the page's backgrounds) painted after them."""
    budget = budget or boxes.Budget()
    grid = _fill_grid(page, fills, budget)
    found = []
    for c in page.chars:
        x, y = (c["x0"] + c["x1"]) / 2, (c["top"] + c["bottom"]) / 2
        if any(r["painted"] > c["order"][0] for r in grid.under(x, y, budget)):
            found.append(c)
    return found


def low_contrast(page: Page, minimum: float, fills: list | None = None,
                 budget: boxes.Budget | None = None) -> list[tuple]:
    """(character, its contrast ratio) for each letter of the page below `minimum` against what lies under it.

    `fills`: the page's `backgrounds`, when the caller has them already.
    """
    budget = budget or boxes.Budget()
    fills = backgrounds(page, budget) if fills is None else fills
    grid = _fill_grid(page, fills, budget)
    pictures = boxes.Grid(page.images, page.width, page.height, budget)
    found = []
    for c in page.chars:
        x, y = (c["x0"] + c["x1"]) / 2, (c["top"] + c["bottom"]) / 2
        if pictures.under(x, y, budget):
            continue  # text over a picture: its background colour is unknown
        # What lies under a letter is the fill painted last before it (a cell over its panel, a badge
        # over a domino's pips); a fill painted after the letter would hide it, not lie under it.
        under = [r for r in grid.under(x, y, budget) if r["painted"] < c["order"][0]]
        background = max(under, key=lambda r: r["painted"])["non_stroking_color"] if under else (1.0,)
        ratio = _contrast(c["non_stroking_color"], background)
        if ratio < minimum:
            found.append((c, ratio))
    return found


def check_stranded_headings(doc: Document):
    """A heading with two or fewer lines under it, the last thing on its page, while its section runs on overleaf.

    The heading may stand anywhere on the page: a section whose table would not fit under its title
    leaves the title and a line alone above white space, which reads as stranded as one at the foot.
    A drawing under the heading's lines (a map, a figure) fills the page and is its content.
    """
    if imposed(doc) or zine_pages(doc):
        # A zine's panels are fixed: each holds its own part (cover, map, key, aids), and the zine's fit
        # (products/dungeon.py) keeps every key entry whole; a panel's foot is not a section's break.
        return
    for index, page in enumerate(doc.pages[:-1]):
        rows = content_rows(page)
        if not rows:
            continue
        nxt = content_rows(doc.pages[index + 1])
        if not nxt:
            continue
        # the next page runs the section on unless it opens with a heading as large as this one's
        # (a table's own smaller title overleaf still belongs to the section above)
        opens = nxt[0][0].size if is_heading(nxt[0], doc.pages[index + 1]) else 0.0
        for i, row in enumerate(rows):
            # a table's bold cell is not a heading (a large-print pack's "4–6 The Bleeding Maze…" in Delves Played)
            if not is_heading(row, page) or opens >= row[0].size - 0.5 or _in_table(row[0], page):
                continue
            below = [r for r in rows[i + 1:] if not is_heading(r, page)]
            if len(below) <= 2 and not _drawing_below(page, row):
                yield page.number, "error", f"heading {row[0].text[:40]!r} has {len(below)} line(s) under it at the end of the page"
                break


DRAWING_MIN_MM = 15  # a shape this tall under a heading's last line is a figure that belongs to it


def _drawing_below(page: Page, row) -> bool:
    """Shapes (or pictures) under the heading `row` reaching DRAWING_MIN_MM below it, above the folio: the
    section goes on in a drawing (a cover's emblem, a map, a notes page's ruled lines)."""
    last = max(s.bottom for s in row)
    foot = page.height - 12 * MM
    reach = [bottom for _, top, _, bottom, kind in page.ink if kind != "text" and top > last and bottom < foot]
    return bool(reach) and max(reach) - last >= DRAWING_MIN_MM * MM


def check_hyphenation(doc: Document):
    """A word broken with a hyphen inside a narrow measure (a table cell, a label, a sidebar)."""
    for page in doc.pages:
        segments = page.segments
        for seg in segments:
            if not seg.text or seg.text[-1] not in HYPHENS or len(seg.text) < 2 or not seg.text[-2].isalpha():
                continue
            nxt = _line_below(seg, segments)
            if nxt is None or not nxt.text[:1].islower():
                continue
            measure = _measure(seg, page)
            if measure < NARROW_MEASURE_MM * MM:
                word = seg.text.split()[-1] + nxt.text.split()[0]
                yield page.number, "error", f"{word!r} hyphenated in a {measure / MM:.0f} mm measure"


FULL_LINE = 0.8  # a line at least this share of the page's longest is full


def check_lone_words(doc: Document):
    """A word alone on a line of running text whose next line, in the same paragraph, is full: a bad line break.

    WeasyPrint 70 makes one where letter spacing (the dyslexia-friendly theme) brings the words that fit a line
    within the spacing of its measure: it opened the rulebook's Resources chapter with "Every" alone above a full
    line. A one-word line that ends a paragraph or opens a list item is not such a break: the next line must carry
    on the sentence (it starts in lower case) at the same left edge and size.
    """
    if imposed(doc) or zine_pages(doc):
        return
    for page in doc.pages:
        rows = [row for row in content_rows(page) if len(row) == 1]
        if not rows:
            continue
        longest = max(row[0].x1 - row[0].x0 for row in rows)
        lone = []
        for row, nxt in zip(rows, rows[1:]):
            seg, after = row[0], nxt[0]
            if (" " not in seg.text.strip() and abs(seg.size - page.body_size) < 0.3 and not is_heading(row, page)
                    and abs(after.x0 - seg.x0) < 1.0 and abs(after.size - seg.size) < 0.3 and after.text[:1].islower()
                    and after.x1 - after.x0 >= FULL_LINE * longest and after.top - seg.bottom < seg.size):
                lone.append(seg.text.strip())
        if lone:
            yield page.number, "warning", (f"{len(lone)} word(s) alone on a line above a full line of the same "
                                           f"paragraph: {', '.join(repr(w) for w in lone[:3])}")


# Where running heads and folios sit: a book page's outer 12 mm; a zine panel's 5 mm margins (zine.css), its head
# in the top margin and nothing in the foot one, so the last lines of a full panel are body text, not a folio.
RUNNING_BAND_MM = 12
ZINE_BAND_MM = 5


def content_rows(page: Page, band_mm: float = RUNNING_BAND_MM) -> list:
    """Rows of text without the running head and folio (short lines in the outer `band_mm`)."""
    edge = band_mm * MM
    out = []
    for row in page.rows:
        text = " ".join(s.text for s in row)
        if (row[0].top < edge or row[0].bottom > page.height - edge) and len(text) < 40:
            continue
        out.append(row)
    return out


def is_heading(row, page: Page) -> bool:
    if len(row) != 1:
        return False
    seg = row[0]
    # a lone letter is a map's compass "N" or a drop cap, never a heading; nor is a number, or a measure: a map's scale
    # ("30 ft"), large where a small dungeon's map is drawn large, over its legend at a page's foot (a pack of 3 rooms)
    if len(seg.text) > 60 or len(seg.text.strip()) < 2 or re.fullmatch(r"[\d\s.–-]+(ft|m|feet|miles?)?\.?", seg.text):
        return False
    return seg.size >= page.body_size * HEADING_RATIO or ("Cinzel" in seg.fontname and seg.size >= page.body_size * 0.9)


def backgrounds(page: Page, budget: boxes.Budget | None = None) -> list:
    """Filled shapes that can sit behind text; a border is drawn as two nested fills of one colour and is left out.

    Only fills of one colour whose top-left corners lie within RING_GAP of each other are compared.
    """
    budget = budget or boxes.Budget()
    fills = [r for r in (*page.rects, *page.curves) if r.get("fill")]
    rings = set()
    for i, j in boxes.close_pairs(fills, RING_GAP, budget, key=lambda r: r["non_stroking_color"]):
        if _nested_close(fills[j], fills[i]):
            rings.update((i, j))
    return [r for i, r in enumerate(fills) if i not in rings]


RING_GAP = 4.0  # points: the widest border drawn as two nested fills


def _nested_close(inner, outer, within: float = RING_GAP) -> bool:
    gaps = (inner["x0"] - outer["x0"], inner["top"] - outer["top"], outer["x1"] - inner["x1"], outer["bottom"] - inner["bottom"])
    # pdfium keeps path points as 32-bit floats: edges that coincide may differ by a few millionths of a point
    return all(-0.01 <= g <= within for g in gaps) and any(g > 0.01 for g in gaps)


def _line_below(seg, segments):
    best = None
    for other in segments:
        gap = other.top - seg.bottom
        if -0.5 < gap < seg.size * 1.2 and other.x0 < seg.x1 and other.x1 > seg.x0 - seg.size * 2:
            if best is None or other.top < best.top:
                best = other
    return best


def _measure(seg, page: Page) -> float:
    """How wide the column holding `seg` is: the widest line that starts where it starts, a few lines up or down."""
    reach = 4 * seg.size
    right = seg.x1
    for other in page.segments:
        if abs(other.x0 - seg.x0) <= 1.0 and other.top > seg.top - reach and other.top < seg.bottom + reach:
            right = max(right, other.x1)
    return right - seg.x0


def _contrast(fg, bg) -> float:
    a, b = sorted((luminance(fg), luminance(bg)), reverse=True)
    return (a + 0.05) / (b + 0.05)


CHECKS = (check_text_layer, check_fonts, check_text_size, check_contrast, check_stranded_headings, check_hyphenation,
          check_lone_words)
