"""Tables, creatures and odds: content → rows, labels and percentages ready to print."""

from __future__ import annotations

import re

from dungeonpress.model import Content, Creature, Table

_COUNT = re.compile(r"^\s*(\d+)\b")
MAX_BOXES = 8  # more marks than this are written as a number, not drawn
FLOW_MAX = 32  # longest entry (characters) of a d66 list printed as two half-width columns
# Longest entry of a two-up d66 list whose pairs stay on one line at large print's 14 pt on an A5 page. A list with
# more than LARGE_WRAPPED_PAIRS of its 18 pairs longer wraps them to two lines and runs over a page, which split it
# evenly over two half-empty pages: large print sets it as one list instead (large-print.css), flowing on with the
# next table. (Inspiration's Things and Oppositions wrap 10-14 pairs, Minor Treasures 18; the character lists 1-5.)
LARGE_PAIR_CHARS = 18
LARGE_WRAPPED_PAIRS = 6
ROLL_WIDTH = 8  # percent of the measure for the roll column (about 2.8 em on an A5 page)
SHORT_CELL = 12  # a cell this short (characters) is a label: its column never wraps it
MANY_COLUMNS = 5  # a table with this many columns (besides the roll) is set row by row in large print
TALL_ROW_CHARS = 60  # a table whose rows hold this many characters on average has rows of several lines in large type
DEEP_ROW_LINES = 3  # ...and one whose rows take this many lines on average there: three of them are a quarter page
LONG_NOTE_CHARS = 140  # a note this long is three lines or more in large print: it may end a page above its table
MEASURE_CHARS = 80  # characters of table text across an A5 measure, for sizing columns by their words
MOVE_STEPS = (1, 2, 3, 5, 8, 13)  # percent of the measure one balancing move gives a column
PHRASE_OVERFLOW_WEIGHT = 5  # table lines one line past two in a phrase cell counts as
# Large print's 14 pt takes about 49 characters across the measure the standard size sets 80 in (the tables booklet's
# 8.6 pt). There a table of sentences is balanced for the fewest lines alone: kept to two lines, its names took almost
# half the measure from the sentences beside them, whose rows then ran a line or two longer (the booklet's Appendix F
# rows 10-12 missed their page by 7 mm and left it half white, p131).
LARGE_MEASURE_CHARS = 49
EXHAUSTIVE_COLUMNS = 3  # tables of this many columns or fewer try every split of the measure
CELL_PADDING_CHARS = 2  # characters of a column's width its cell padding takes


def roll_label(low: int, high: int) -> str:
    """`7`, or `1–3` with an en dash, as a printed table shows a range."""
    return str(low) if low == high else f"{low}–{high}"


def title_parts(title: str) -> dict:
    """A title as its words before the last and its last word: a contents line keeps the last word on the
    line of its leader and page number, so a title that fills its line never leaves them alone below it."""
    lead, _, last = title.rpartition(" ")
    return {"lead": lead, "last": last}


def title_order(title: str) -> tuple:
    """A title as a sort key that reads numbers as numbers: "Table 2" before "Table 10", as a contents page runs.
    Splitting on digit runs puts text at even places and numbers at odd ones, so two keys always compare like with like."""
    return tuple(int(part) if i % 2 else part.casefold() for i, part in enumerate(re.split(r"(\d+)", title)))


def long_note(note: str) -> bool:
    """A table's note of three lines or more at 14 pt: large print lets it end a page, the table opening the next
    under its header (large-print.css), as a section's long lead-in may (render.py: long-lead)."""
    return len(note) >= LONG_NOTE_CHARS


def die_label(table: Table) -> str:
    return {"none": "", "d66": "d66", "2d6": "2d6"}.get(table.die, table.die)


def boxes_for(value) -> int:
    """How many durability boxes a value such as '3 uses' or 2 draws (0: none, e.g. 'permanent')."""
    match = _COUNT.match(str(value))
    count = int(match.group(1)) if match else 0
    return count if count <= MAX_BOXES else 0


def table_view(table: Table, content: Content, *, columns: tuple | None = None, note: bool = True,
               large: bool = False) -> dict:
    """Everything a template needs to print a table, with links to the tables and creatures it names.

    `columns` keeps only those column keys (a quick reference prints the short ones); `large` sizes a table of
    sentences' columns for large print (LARGE_MEASURE_CHARS).
    """
    keep = columns or tuple(key for key, _ in table.columns)
    header_of = dict(table.columns)
    rows = []
    for row in table.rows:
        cells = []
        for key, value in row.values:
            if key not in keep:
                continue
            boxes = boxes_for(value) if key == "durability" else 0
            # one item per box to draw; the column's header names the cell where the row is set as a list
            cells.append({"text": str(value), "boxes": list(range(boxes)), "header": header_of.get(key, "")})
        see = content.tables.get(row.see) if row.see else None
        creature = _creature(content, row.creature)
        rows.append({
            "label": roll_label(row.low, row.high) if table.rolled else "",
            "cells": cells,
            "see_id": see.id if see else "",
            "see_title": see.title if see else "",
            "creature_key": creature.key if creature else "",
            "creature_name": creature.name if creature else "",
        })
    single = len(keep) == 1
    # short one-column d66 lists (names, tags) print rows side by side; long entries would wrap
    # into a pair of tables taller than a page, so they stay one list that can break between rows
    flow = single and table.die == "d66" and max(len(str(v)) for row in table.rows for _, v in row.values) <= FLOW_MAX
    half = (len(rows) + 1) // 2
    tall = sum(len(cell["text"]) for row in rows for cell in row["cells"]) >= TALL_ROW_CHARS * max(len(rows), 1)
    headers = [h for k, h in table.columns if k in keep]
    widths = [] if flow else column_widths(rows, headers, table.rolled) if not (large and tall) else \
        column_widths(rows, headers, table.rolled, measure_chars=LARGE_MEASURE_CHARS, phrase_weight=0)
    return {
        "id": table.id,
        "anchor": f"table-{table.id}",
        "title": table.title,
        "title_parts": title_parts(table.title),
        "note": table.note if note else "",
        "long_note": long_note(table.note if note else ""),
        "die": die_label(table),
        "rolled": table.rolled,
        "headers": [header for key, header in table.columns if key in keep],
        "rows": rows,
        # a one-column d66 list is long and narrow: print rows side by side (11 beside 41) to halve
        # its height, as one table that may still break between rows
        "flow": flow,
        "pairs": [(rows[i], rows[i + half] if i + half < len(rows) else None) for i in range(half)] if flow else [],
        # the same rows as one list too, which only large print shows (LARGE_PAIR_CHARS)
        "long_entries": flow and wrapped_pairs(rows, half) > LARGE_WRAPPED_PAIRS,
        "show_title": True,
        # fits on one A5 page, so it is never split and its heading is kept with it
        "keep": flow or len(rows) <= 14,
        "wide": len(keep) >= 3,
        # too many columns to keep whole words at a large type size: large print sets each row as a list
        "many": len(keep) >= MANY_COLUMNS,
        # rows of sentences: in large print four of them fill a quarter page or more, so such a table may turn the
        # page with fewer than the usual five rows on each side, and three where its rows are deeper (large-print.css)
        "tall": tall,
        "deep": tall and large_lines_per_row(rows, widths, table.rolled) >= DEEP_ROW_LINES,
        "widths": widths,
    }


def wrapped_pairs(rows: list, half: int) -> int:
    """How many of a two-up list's pairs (row n beside row n + half) hold an entry too long for one line in large
    print (LARGE_PAIR_CHARS)."""
    longest = [max((len(cell["text"]) for cell in row["cells"]), default=0) for row in rows] + [0]
    return sum(max(longest[i], longest[min(i + half, len(rows))]) > LARGE_PAIR_CHARS for i in range(half))


def column_widths(rows: list, headers: list, rolled: bool, *, measure_chars: int = MEASURE_CHARS,
                  phrase_weight: int = PHRASE_OVERFLOW_WEIGHT) -> list[int]:
    """Designed column widths in percent (roll column first when rolled), so the table lays out fixed.

    A column's share follows its average text, but never falls below its longest word (or header),
    so no word has to be broken; WeasyPrint then need not measure every cell. `measure_chars` is how many
    characters the measure holds at the printed size, `phrase_weight` what a phrase cell's third line costs.
    """
    if not headers:
        return []
    count = len(headers)
    texts = [[str(r["cells"][i]["text"]) + (" →" + r["see_title"] if r["see_title"] else "") + (" (Bestiary 00)" if r["creature_key"] else "")
              if i < len(r["cells"]) else "" for r in rows] for i in range(count)]
    average = [max(sum(len(t) for t in col) / max(len(col), 1), 1.0) for col in texts]
    # A column of short answers ("Yes, and…") keeps each on one line; otherwise no word is broken.
    longest = [max([len(t) if len(t) <= SHORT_CELL else max(len(w) for w in t.split()) for t in col if t.strip()]
                   + [len(w) for w in headers[i].split()] + [3]) + 2
               for i, col in enumerate(texts)]
    room = 100 - (ROLL_WIDTH if rolled else 0)
    floors = [100 * n / measure_chars for n in longest]
    if sum(floors) > room:
        # the longest words together are wider than the measure: share it by those words (some will
        # break) rather than let the rounding below take the overflow out of one column, below zero
        floors = [room * f / sum(floors) for f in floors]
    total = sum(average)
    shares = [max(room * a / total, f) for a, f in zip(average, floors)]
    # take back what the floors added from the columns above their floor, in proportion
    excess = sum(shares) - room
    flexible = [s - f for s, f in zip(shares, floors)]
    spare = sum(flexible)
    if excess > 0 and spare > 0:
        shares = [s - excess * x / spare for s, x in zip(shares, flexible)]
    widths = [int(round(s)) for s in shares]
    widths[widths.index(max(widths))] += room - sum(widths)
    widths = _balance_lines(texts, widths, [min(int(f + 0.999), w) for f, w in zip(floors, widths)], measure_chars,
                            phrase_weight)
    return ([ROLL_WIDTH] if rolled else []) + widths


def large_lines_per_row(rows: list, widths: list[int], rolled: bool) -> float:
    """About how many lines a row takes on average at large print's 14 pt (LARGE_MEASURE_CHARS across the measure),
    each row as deep as its most wrapped cell; `widths` are the columns' designed percentages, roll column first."""
    if not rows or not widths:
        return 1.0
    shares = widths[1:] if rolled else widths
    chars = [max(4, round(w * LARGE_MEASURE_CHARS / 100) - CELL_PADDING_CHARS) for w in shares]
    return sum(max([wrapped_lines(cell["text"], width) for cell, width in zip(row["cells"], chars)] or [1])
               for row in rows) / len(rows)


def wrapped_lines(text: str, chars: int) -> int:
    """How many lines `text` takes, wrapped at spaces, in a column `chars` characters wide (an estimate)."""
    lines, used = 1, 0
    for word in text.split():
        if used and used + 1 + len(word) > chars:
            lines, used = lines + 1, len(word)
        else:
            used += (1 if used else 0) + len(word)
    return lines


def _balance_lines(texts: list, widths: list[int], floors: list[int], measure_chars: int = MEASURE_CHARS,
                   phrase_weight: int = PHRASE_OVERFLOW_WEIGHT) -> list[int]:
    """Move the measure between columns while that makes the table shorter in lines.

    Shares by average length set a column of short phrases (a trap's trigger) three or four words to a
    line beside a long one: the rows are as tall as that narrow cell. Each move must lower the table's
    height in lines (the tallest cell of each row, summed, and a phrase cell's lines past two) or, at
    the same height, its wrapped cells.
    """
    if len(widths) < 2:
        return widths
    widths = list(widths)
    cache: dict = {}

    # A column of short phrases beside a column of prose should read in one or two lines: each third
    # or later line of a phrase cell costs as much as a line more of the table's height.
    prose = max(range(len(widths)), key=lambda i: sum(map(len, texts[i])))

    def lines(column: int, width: int) -> tuple:
        """(each cell's lines, what its lines past two cost, its lines in all) of a column at a width, once."""
        if (column, width) not in cache:
            chars = max(1, int(width * measure_chars / 100) - CELL_PADDING_CHARS)
            cells = [wrapped_lines(t, chars) for t in texts[column]]
            overflow = 0 if column == prose else phrase_weight * sum(n - 2 for n in cells if n > 2)
            cache[column, width] = (cells, overflow, sum(cells))
        return cache[column, width]

    def cost(ws: list[int]) -> tuple:  # (the table's height in lines with its phrase overflow, its wrapped lines)
        per_column = [lines(i, w) for i, w in enumerate(ws)]
        height = sum(map(max, zip(*(cells for cells, _, _ in per_column))))
        return height + sum(overflow for _, overflow, _ in per_column), sum(total for _, _, total in per_column)

    if len(widths) <= EXHAUSTIVE_COLUMNS:  # few columns: try every split of the measure, in whole percents
        total = sum(widths)
        splits = [[a, total - a] for a in range(floors[0], total - floors[1] + 1)] if len(widths) == 2 else [
            [a, b, total - a - b] for a in range(floors[0], total + 1) for b in range(floors[1], total - a - floors[2] + 1)]
        return min(splits or [widths], key=lambda ws: (cost(ws), sum(abs(w - v) for w, v in zip(ws, widths))))
    widths, best = list(widths), cost(widths)
    for _ in range(200):  # each move strictly lowers the cost, so this ends well before
        # moves of several sizes: a column's lines drop in steps, so one percent alone often changes nothing
        moves = [(cost(trial), trial) for giver in range(len(widths)) for taker in range(len(widths))
                 for step in MOVE_STEPS if giver != taker and widths[giver] - step >= floors[giver]
                 for trial in [[w - step * (i == giver) + step * (i == taker) for i, w in enumerate(widths)]]]
        found, trial = min(moves, default=(best, widths))
        if found >= best:
            break
        best, widths = found, trial
    return widths


def _creature(content: Content, key) -> Creature | None:
    if key is None:
        return None
    try:
        return content.creature(key)
    except KeyError:
        return None


def creature_view(creature: Creature) -> dict:
    return {
        "key": creature.key,
        "name": creature.name,
        "tier": creature.tier.capitalize(),
        "living": creature.living,
        "concept": creature.concept,
        "skills": ", ".join(creature.skills),
        "frailty": creature.frailty,
        "gear": ", ".join(creature.gear),
        "goal": creature.goal or "",
        "motive": creature.motive or "",
        "nemesis": creature.nemesis or "",
        "description": creature.description,
    }


def media_view(content: Content) -> list:
    return [{"type": g.type, "works": [{"title": w.title, "creator": w.creator, "year": w.year, "note": w.note}
                                       for w in g.works]} for g in content.media]


