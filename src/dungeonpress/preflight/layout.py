"""Checks on the pages of a read-back PDF: table fragments, empty pages, ink near the edge, sizes, folds, print boxes."""

from __future__ import annotations

import functools
import re
from collections import Counter
from pathlib import PurePath

import dungeonpress.preflight.tagged as tagged
from dungeonpress.preflight.reading import DIE_LABEL, MM, Document, Page, imposed, paper_name, zine_pages
from dungeonpress.preflight.text import RUNNING_BAND_MM, ZINE_BAND_MM, content_rows, is_heading

SAFE_EDGE_MM = 5        # home printers leave about 5 mm unprinted on every side
MIN_FILL = 0.2          # a page whose content spans less than this share of its height looks abandoned
MIN_BLEED_MM = 3        # print shops ask for 3 mm of art beyond the trim
PANEL_SLACK = 0.5       # points a letter's box may reach over its panel's edge (an italic's overhang)
FRAGMENT_ROWS = 4       # this many table rows or fewer alone on a page is a fragment (a table breaks with five or more)
# ...unless they are this share of the page's body deep: three rows of five lines each at 14 pt (large print's tables
# of sentences) are a table's worth of reading, where three one-line rows read as another, smaller table.
DEEP_PIECE = 0.25
PAPER_IN_NAME = re.compile(r"(?:^|[-_.])(a4|a5|a6|half-letter|letter)(?:[-_.]|$)")


def check_table_fragments(doc: Document):
    """A table that turns the page with four rows or fewer on one side of the turn (under five rows, and shallower than
    a quarter of the page's body). A tagged PDF says which rows are whose; an untagged one is read line by line."""
    if imposed(doc):
        return
    band = ZINE_BAND_MM if zine_pages(doc) else RUNNING_BAND_MM
    pieces = [page.tables for page in doc.pages]
    if any(pieces):
        yield from _tagged_fragments(doc, pieces, band)
        return
    for index, page in enumerate(doc.pages):
        rows = content_rows(page, band)
        prev = content_rows(doc.pages[index - 1], band) if index else []
        nxt = content_rows(doc.pages[index + 1], band) if index + 1 < len(doc.pages) else []
        head = _leading_table_rows(rows[1:] if rows and _is_header_row(rows[0]) else rows)
        if head and len(head) <= FRAGMENT_ROWS and prev and _is_table_row(prev[-1]):
            yield page.number, "error", _CARRIED.format(len(head))
        tail = _leading_table_rows(list(reversed(rows)))
        if tail and len(tail) <= FRAGMENT_ROWS and len(tail) < len(rows) and nxt and _starts_with_table(nxt):
            yield page.number, "error", _LEFT.format(len(tail))


_CARRIED = "{} table row(s) carried over alone from the page before"
_LEFT = "a table starts with {} row(s) at the foot of the page and runs on overleaf"


def _tagged_fragments(doc: Document, pieces: list, band: float):
    """Where a page's last table ends its body and the next page's first table opens that page's, the two are one
    table turning the page (WeasyPrint tags each page's piece as a Table of its own); each side needs five rows."""
    lines = functools.cache(lambda index: content_rows(doc.pages[index], band))  # a page is both after and before
    for index in range(len(doc.pages) - 1):
        page, after = doc.pages[index], doc.pages[index + 1]
        if not pieces[index] or not pieces[index + 1]:
            continue
        ending, opening = pieces[index][-1], pieces[index + 1][0]
        rows, rows_after = lines(index), lines(index + 1)
        if not rows or not rows_after:
            continue
        # no line of the page begins below the piece, and none ends above the next one
        if min(s.top for s in rows[-1]) > ending.bottom or max(s.bottom for s in rows_after[0]) < opening.top:
            continue
        if _fragment(ending, page, band):
            yield page.number, "error", _LEFT.format(len(ending.rows))
        if _fragment(opening, after, band):
            yield after.number, "error", _CARRIED.format(len(opening.rows))


def _fragment(piece: tagged.TablePiece, page, band: float) -> bool:
    return len(piece.rows) <= FRAGMENT_ROWS and piece.depth < DEEP_PIECE * (page.height - 2 * band * MM)


def check_fill(doc: Document):
    """A page with some content that covers under a fifth of its height (blank pages and covers are left alone)."""
    if imposed(doc):
        return
    for page in doc.pages[1:]:
        ink = [b for b in page.ink if b[4] != "text" or _in_body(b, page)]
        text_rows = content_rows(page)
        if not text_rows or not ink:  # only running heads or folios: nothing in the body to measure
            continue
        top = min(b[1] for b in ink)
        bottom = max(b[3] for b in ink)
        if (bottom - top) < MIN_FILL * page.height:
            yield page.number, "warning", f"content fills {100 * (bottom - top) / page.height:.0f}% of the page height"


def check_edges(doc: Document):
    """No ink within 5 mm of the sheet edge, unless it runs off the edge (bleed). A print shop's page is measured
    from its trim, and what lies wholly outside the trim is its printer's marks."""
    if zine_pages(doc):
        return  # a panel's edge is a fold of the sheet, whose own edges are checked on the sheet
    safe = SAFE_EDGE_MM * MM
    for page in doc.pages:
        near = []
        left, upper, right, lower = page.trim
        for x0, top, x1, bottom, kind in page.ink:
            if x1 <= left + 0.01 or x0 >= right - 0.01 or bottom <= upper + 0.01 or top >= lower - 0.01:
                continue  # in the bleed, outside the trim: crop marks and the like, cut away
            if x0 <= left + 0.5 or top <= upper + 0.5 or x1 >= right - 0.5 or bottom >= lower - 0.5:
                continue  # art that runs to or past the sheet edge is bleed
            gap = min(x0 - left, top - upper, right - x1, lower - bottom)
            if gap < safe - 0.01:
                near.append((gap, kind))
        if near:
            gap, kind = min(near)
            kinds = sorted({k for _, k in near})
            yield page.number, "error", (f"{len(near)} mark(s) ({', '.join(kinds)}) within {SAFE_EDGE_MM} mm of the sheet "
                                         f"edge, the nearest {gap / MM:.1f} mm ({kind})")


def check_panels(doc: Document):
    """On an imposed sheet, no letter of a reading page runs past the panel it is printed in.

    Imposition clips each page to its panel, so a table wider than its page loses its last letters
    there, and nothing else on the sheet shows it: a mini zine is 4 x 2 panels, a booklet 2 x 1.
    """
    grid = None if zine_pages(doc) else (4, 2) if "zine" in doc.name.lower() else (2, 1) if imposed(doc) else None
    if grid is None:
        return
    for page in doc.pages:
        if not page.panels:
            continue
        width, height = page.width / grid[0], page.height / grid[1]
        # the panel a reading page fills is the one most of its letters sit in (creep and bleed move
        # the form's own origin off the panel's corner)
        votes: dict = {}
        for c in page.chars:
            if c.get("panel") is not None:
                cell = (int((c["x0"] + c["x1"]) / 2 // width), int((c["top"] + c["bottom"]) / 2 // height))
                votes.setdefault(c["panel"], Counter())[cell] += 1
        cells = {panel: count.most_common(1)[0][0] for panel, count in votes.items()}
        cut = [c for c in page.chars if c.get("panel") is not None
               and not _within(c, _cell_box(cells[c["panel"]], width, height), PANEL_SLACK)]
        if cut:
            text = "".join(c["text"] for c in cut[:30])
            yield page.number, "error", f"{len(cut)} character(s) run past the edge of their page and are cut off: {text!r}"


def _cell_box(cell: tuple, width: float, height: float) -> tuple:
    col, row = cell
    return (col * width, row * height, (col + 1) * width, (row + 1) * height)


def _within(char: dict, cell: tuple, slack: float) -> bool:
    x0, top, x1, bottom = cell
    return (char["x0"] >= x0 - slack and char["x1"] <= x1 + slack
            and char["top"] >= top - slack and char["bottom"] <= bottom + slack)


def check_page_size(doc: Document):
    """Pages the same size, a paper the project knows, and the paper the file name claims."""
    first = doc.pages[0]
    claim = PAPER_IN_NAME.search(doc.name.lower())
    for page in doc.pages:
        trim = page.box("TrimBox") or page.box("MediaBox")
        width, height = trim[2] - trim[0], trim[3] - trim[1]
        paper = paper_name(width, height)
        if abs(page.width - first.width) > 1 or abs(page.height - first.height) > 1:
            yield page.number, "error", (f"page is {page.width / MM:.0f}×{page.height / MM:.0f} mm, page 1 is "
                                         f"{first.width / MM:.0f}×{first.height / MM:.0f} mm")
        if paper is None and not zine_pages(doc):  # a Letter sheet's zine panel is an eighth of it, no paper size
            yield page.number, "warning", f"page is {width / MM:.1f}×{height / MM:.1f} mm, not a paper size the project prints on"
        elif claim and page.number == 1 and paper.lower() != claim.group(1) and not imposed(doc):
            yield page.number, "error", f"file name says {claim.group(1)} but the page is {paper}"
        crop = page.box("CropBox")
        media = page.box("MediaBox")
        if crop and media and any(abs(a - b) > 0.5 for a, b in zip(crop, media)):
            yield page.number, "warning", "CropBox differs from MediaBox: viewers and printers may disagree on the page"


# Character sheets, blank or pre-rolled, are loose sheets (each delver's two sides, then the rules page),
# printed a page to a sheet side and never folded, whatever their paper: they need no multiple of 4.
LOOSE_SHEETS = ("characters-", "sheet-")


def check_page_count(doc: Document):
    """Folded booklets need a multiple of 4 pages; a duplex imposition needs an even number of sheet sides."""
    count = len(doc.pages)
    left, top, right, bottom = doc.pages[0].trim
    paper = paper_name(right - left, bottom - top)
    if imposed(doc):
        if count % 2:
            yield 0, "error", f"{count} sheet sides: a double-sided imposition needs an even number"
    elif paper in ("A5", "A6", "A7") and count > 4 and count % 4 and not _loose_sheets(doc):
        yield 0, "error", f"{count} pages: a folded {paper} booklet needs a multiple of 4 (add {(-count) % 4})"


def _loose_sheets(doc: Document) -> bool:
    return PurePath(doc.name).name.lower().startswith(LOOSE_SHEETS)


def check_print_boxes(doc: Document):
    """For a print shop: TrimBox and BleedBox on every page, nested in the MediaBox, 3 mm bleed where art touches the trim."""
    for page in doc.pages:
        media, trim, bleed = page.box("MediaBox"), page.box("TrimBox"), page.box("BleedBox")
        missing = [name for name, box in (("TrimBox", trim), ("BleedBox", bleed)) if box is None]
        if missing:
            yield page.number, "error", f"no {' or '.join(missing)}"
            continue
        if not (_inside(trim, bleed) and _inside(bleed, media)):
            yield page.number, "error", "TrimBox must lie inside BleedBox, and BleedBox inside MediaBox"
            continue
        margin = min(trim[0] - bleed[0], trim[1] - bleed[1], bleed[2] - trim[2], bleed[3] - trim[3])
        if margin < MIN_BLEED_MM * MM - 0.01 and _art_touches_trim(page, trim):
            yield page.number, "error", f"full-bleed art with {margin / MM:.1f} mm of bleed (a print shop needs {MIN_BLEED_MM} mm)"


def _inside(inner, outer) -> bool:
    return (inner[0] >= outer[0] - 0.01 and inner[1] >= outer[1] - 0.01
            and inner[2] <= outer[2] + 0.01 and inner[3] <= outer[3] + 0.01)


def _art_touches_trim(page: Page, trim) -> bool:
    # the page is read from the top-left of the MediaBox; the trim in the same frame:
    media = page.box("MediaBox")
    left, right = trim[0] - media[0], trim[2] - media[0]
    top, bottom = media[3] - trim[3], media[3] - trim[1]
    for x0, y0, x1, y1, kind in page.ink:
        if kind != "text" and (x0 <= left + 0.5 or y0 <= top + 0.5 or x1 >= right - 0.5 or y1 >= bottom - 0.5):
            return True
    return False


def _in_body(box, page: Page) -> bool:
    edge = 12 * MM
    return box[1] >= edge and box[3] <= page.height - edge


def _is_table_row(row) -> bool:
    return len(row) >= 2 and bool(DIE_LABEL.match(row[0].text.strip()))


def _leading_table_rows(rows) -> list:
    """Table rows from the start of `rows` (continuation lines of a cell count with their row)."""
    out = []
    for row in rows:
        if _is_table_row(row):
            out.append(row)
        elif out and len(row) >= 1 and row[0].x0 > out[-1][0].x1:
            continue  # a wrapped cell line belongs to the row above
        else:
            break
    return out


def _is_header_row(row) -> bool:
    """A repeated table header: several cells, all bold, none a die label."""
    return len(row) >= 2 and all("Bold" in s.fontname for s in row) and not _is_table_row(row)


def _starts_with_table(rows) -> bool:
    """The page opens by continuing a table (its rows, or its repeated header then rows), not with a new title."""
    if rows and _is_header_row(rows[0]):
        rows = rows[1:]
    return bool(rows) and _is_table_row(rows[0])


CHECKS = (check_table_fragments, check_fill, check_edges, check_panels, check_page_size, check_page_count)
SHOP_CHECKS = (check_print_boxes,)
