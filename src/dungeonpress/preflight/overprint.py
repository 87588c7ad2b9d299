"""Text printed over text: a read-back page's letters in, the places where two lines' letters overlap out.

A table cell or a sidebar that overflows its column is laid out on top of whatever follows it, and
WeasyPrint says nothing: the page prints two lines in one place. Letters are paired through a grid
(boxes.Grid), never each with every other, so a page of thousands of letters stays cheap.
"""

from __future__ import annotations

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


def overprinted(chars: list, width: float, height: float, budget: boxes.Budget | None = None) -> list[tuple]:
    """(letter, letter) pairs from different lines, or out of sequence on one line, whose boxes overlap.

    A letter drawn twice in the same place (a label's halo under its ink) is not overprinting.
    """
    budget = budget or boxes.Budget()
    grid = boxes.Grid(chars, width, height, budget)
    found = []
    seen = set()
    for i, c in enumerate(chars):
        for cell in _cells(grid, c):
            for j in grid.cells.get(cell, ()):
                if j <= i or (i, j) in seen:
                    continue
                seen.add((i, j))
                budget.spend(1)
                if _overlap(c, chars[j]):
                    found.append((c, chars[j]))
    return found


def _cells(grid: boxes.Grid, c: dict):
    xs = range(grid._clamp(c["x0"], 0), grid._clamp(c["x1"], 0) + 1)
    ys = range(grid._clamp(c["top"], 1), grid._clamp(c["bottom"], 1) + 1)
    return [(x, y) for x in xs for y in ys]


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
