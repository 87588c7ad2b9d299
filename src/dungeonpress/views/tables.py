"""Tables, creatures and odds: content → rows, labels and percentages ready to print."""

from __future__ import annotations

import re

from dungeonpress.model import Content, Creature, Table

_COUNT = re.compile(r"^\s*(\d+)\b")
MAX_BOXES = 8  # more marks than this are written as a number, not drawn
FLOW_MAX = 32  # longest entry (characters) of a d66 list printed as two half-width columns


def roll_label(low: int, high: int) -> str:
    """`7`, or `1–3` with an en dash, as a printed table shows a range."""
    return str(low) if low == high else f"{low}–{high}"


def die_label(table: Table) -> str:
    return {"none": "", "d66": "d66", "2d6": "2d6"}.get(table.die, table.die)


def boxes_for(value) -> int:
    """How many durability boxes a value such as '3 uses' or 2 draws (0: none, e.g. 'permanent')."""
    match = _COUNT.match(str(value))
    count = int(match.group(1)) if match else 0
    return count if count <= MAX_BOXES else 0


def table_view(table: Table, content: Content, *, columns: tuple | None = None, note: bool = True) -> dict:
    """Everything a template needs to print a table, with links to the tables and creatures it names.

    `columns` keeps only those column keys (a quick reference prints the short ones).
    """
    keep = columns or tuple(key for key, _ in table.columns)
    rows = []
    for row in table.rows:
        cells = []
        for key, value in row.values:
            if key not in keep:
                continue
            cells.append({"text": str(value), "boxes": boxes_for(value) if key == "durability" else 0})
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
    return {
        "id": table.id,
        "anchor": f"table-{table.id}",
        "title": table.title,
        "note": table.note if note else "",
        "die": die_label(table),
        "rolled": table.rolled,
        "headers": [header for key, header in table.columns if key in keep],
        "rows": rows,
        # a one-column d66 list is long and narrow: print rows side by side (11 beside 41) to halve
        # its height, as one table that may still break between rows
        "flow": flow,
        "pairs": [(rows[i], rows[i + half] if i + half < len(rows) else None) for i in range(half)] if flow else [],
        "show_title": True,
        # fits on one A5 page, so it is never split and its heading is kept with it
        "keep": flow or len(rows) <= 14,
        "wide": len(keep) >= 3,
    }


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


