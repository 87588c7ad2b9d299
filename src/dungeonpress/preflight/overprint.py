"""Text printed over text: a read-back page's letters in, the places where two lines' letters overlap out.

A table cell or a sidebar that overflows its column is laid out on top of whatever follows it, and
WeasyPrint says nothing: the page prints two lines in one place. Letters are paired through a grid,
never each with every other, so a page of thousands of letters stays cheap.
"""

from __future__ import annotations

from collections import defaultdict

import dungeonpress.preflight.boxes as boxes
from dungeonpress.preflight.reading import Document, imposed

# A letter's box runs from its baseline's descent up one font size (reading.py), so the boxes of
# two lines set solid (line-height 1) touch, and a tight heading's may graze the line below. Two
# letters print over each other when their boxes share this much of the smaller one's height and width.
MIN_OVERLAP_HEIGHT = 0.45
MIN_OVERLAP_WIDTH = 0.4
SAME_LINE = 0.2  # baselines closer than this share of the font size are one line (letters in sequence)


def check_overprint(doc: Document):
    """Letters of one line or box printed over the letters of another (an overflowing cell, a sidebar run long)."""
    if imposed(doc):
        return  # the reading-order PDF built alongside is checked; the imposition places the same pages
    for page in doc.pages:
        budget = boxes.Budget()
        try:
            pairs = overprinted(page.chars, page.width, page.height, budget)
        except boxes.TooMuchWork:
            yield page.number, "warning", f"overprint not checked: {len(page.chars)} letters are more than the check compares"
            continue
        if pairs:
            first, second = pairs[0]
            yield page.number, "error", (f"text printed over text in {len(pairs)} place(s): {_around(page.chars, first)!r} "
                                         f"over {_around(page.chars, second)!r}")


# Letters are paired through a grid of cells narrower than they are tall: two letters of one line side by side
# share a cell rarely, while a letter over another shares one always. (Square half-inch cells put a dozen
# letters of each line in one cell, and comparing them was most of the preflight's time.)
CELL_WIDE = 12.0  # points: two or three letters of body text
CELL_TALL = 36.0  # points: about two lines


def overprinted(chars: list, width: float, height: float, budget: boxes.Budget | None = None) -> list[tuple]:
    """(letter, letter) pairs from different lines, or out of sequence on one line, whose boxes overlap, in the
    order of the first letter, then the second.

    A letter drawn twice in the same place (a label's halo under its ink) is not overprinting.
    """
    budget = budget or boxes.Budget()
    last = (int(width // CELL_WIDE) + 1, int(height // CELL_TALL) + 1)
    cells: dict = defaultdict(list)
    first_cells = []  # each letter's first cell (column, row): a pair is compared in the first cell both cover
    for index, c in enumerate(chars):
        if c["x1"] <= c["x0"] or c["bottom"] <= c["top"]:
            first_cells.append(None)
            continue  # a box with no width or height overlaps nothing (_overlap)
        x0, x1 = _cell(c["x0"], CELL_WIDE, last[0]), _cell(c["x1"], CELL_WIDE, last[0])
        y0, y1 = _cell(c["top"], CELL_TALL, last[1]), _cell(c["bottom"], CELL_TALL, last[1])
        budget.spend((x1 - x0 + 1) * (y1 - y0 + 1))
        first_cells.append((x0, y0))
        box = (c["x0"], c["x1"], c["top"], c["bottom"], index)
        for column in range(x0, x1 + 1):
            for row in range(y0, y1 + 1):
                cells[(column, row)].append(box)
    found = []
    for cell, members in cells.items():
        budget.spend(len(members) * (len(members) - 1) // 2)
        for at, (ax0, ax1, atop, abottom, i) in enumerate(members):
            for b in range(at + 1, len(members)):
                bx0, bx1, btop, bbottom, j = members[b]
                if not (bx0 < ax1 and ax0 < bx1 and btop < abottom and atop < bbottom):
                    continue  # apart: most pairs, and the cheapest test
                if (max(first_cells[i][0], first_cells[j][0]), max(first_cells[i][1], first_cells[j][1])) != cell:
                    continue  # the pair shares an earlier cell, where it is compared
                if _overlap(chars[i], chars[j]):
                    found.append((i, j))
    found.sort()
    return [(chars[i], chars[j]) for i, j in found]


def _cell(value: float, size: float, last: int) -> int:
    """The grid column or row of a coordinate, within the page plus a cell round it."""
    return max(-1, min(last, int(value // size)))


def _overlap(a: dict, b: dict) -> bool:
    wide = min(a["x1"], b["x1"]) - max(a["x0"], b["x0"])
    tall = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
    narrow = min(a["x1"] - a["x0"], b["x1"] - b["x0"])
    short = min(a["bottom"] - a["top"], b["bottom"] - b["top"])
    if narrow <= 0 or short <= 0 or wide < MIN_OVERLAP_WIDTH * narrow or tall < MIN_OVERLAP_HEIGHT * short:
        return False
    if a["text"] == b["text"] and abs(a["x0"] - b["x0"]) < 0.5 and abs(a["top"] - b["top"]) < 0.5:
        return False  # the same letter drawn twice in one place: a halo or an outline under the ink
    same_line = abs(a["bottom"] - b["bottom"]) < SAME_LINE * min(a["size"], b["size"])
    if same_line and abs(a["order"][1] - b["order"][1]) <= 1:
        return False  # neighbours in one run of text: a kerned pair or an overhanging italic
    return True


def _around(chars: list, char: dict) -> str:
    """The letters of `char`'s line near it, so a finding names the words that collide."""
    line = [c for c in chars if abs(c["bottom"] - char["bottom"]) < 1 and abs(c["size"] - char["size"]) < 0.3
            and abs((c["x0"] + c["x1"]) / 2 - (char["x0"] + char["x1"]) / 2) < 12 * char["size"]]
    line.sort(key=lambda c: c["x0"])
    return "".join(c["text"] for c in line)[:30]


CHECKS = (check_overprint,)
