"""Turn content tables into JSON, CSV and Foundry VTT RollTable documents (strings, no files)."""

from __future__ import annotations

import csv
import io
import json

from dungeonpress.model import Content, Row, Table

FORMULAS = {"d66": "1d6 * 10 + 1d6", "2d6": "2d6"}  # d66: tens die then units die, as printed


def formula(table: Table) -> str:
    """A dice formula Foundry can evaluate that gives `table.die`'s odds exactly."""
    return FORMULAS.get(table.die, f"1{table.die}")


def rolled_tables(content: Content) -> list[Table]:
    return [t for t in content.tables.values() if t.rolled]


def table_json(table: Table) -> dict:
    """A table as plain data: id, title, die, columns and rows with their keys and links."""
    return {
        "id": table.id,
        "title": table.title,
        "die": table.die,
        "source": table.origin,
        "group": table.group,
        "note": table.note,
        "columns": [{"key": key, "title": title} for key, title in table.columns],
        "rows": [_row_json(row) for row in table.rows],
    }


def _row_json(row: Row) -> dict:
    out = {"roll": row.label, "low": row.low, "high": row.high, "values": dict(row.values)}
    if row.see:
        out["see"] = row.see
    if row.creature is not None:
        out["creature"] = row.creature
    return out


def to_json(data) -> str:
    """Stable JSON text: keys in a fixed order, UTF-8 kept readable, newline at the end."""
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def table_csv(table: Table) -> str:
    """One header row (roll, then the column headers) and one line per row."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["roll", *[title for _, title in table.columns]])
    for row in table.rows:
        writer.writerow([row.label, *[value for _, value in row.values]])
    return buffer.getvalue()


def row_text(table: Table, row: Row) -> str:
    """A row as one line: the value alone for one column, else `Header: value` parts."""
    if len(row.values) == 1:
        return str(row.values[0][1])
    headers = dict(table.columns)
    return "; ".join(f"{headers[key]}: {value}" for key, value in row.values)


def table_foundry(table: Table, content: Content) -> dict:
    """A Foundry VTT RollTable: v13 result shape (name/description) with `text` kept for v12."""
    results = []
    for row in table.rows:
        text = row_text(table, row)
        if row.creature is not None:
            text += f" (see Bestiary {row.creature}: {content.creature(row.creature).name})"
        results.append({
            "type": "text",
            "name": str(row.values[0][1]),
            "description": text,
            "text": text,
            "img": "icons/svg/d20-black.svg",
            "weight": row.high - row.low + 1,
            "range": [row.low, row.high],
            "drawn": False,
        })
    return {
        "name": table.title,
        "description": table.note,
        "formula": formula(table),
        "replacement": True,
        "displayRoll": True,
        "img": "icons/svg/d20-grey.svg",
        "results": results,
        "flags": {"dungeonpress": {"id": table.id, "die": table.die}},
    }


def bestiary_json(content: Content) -> list:
    """Every creature with all of its fields (non-living ones without goal, motive, nemesis)."""
    out = []
    for c in content.creatures:
        item = {"key": c.key, "name": c.name, "tier": c.tier, "living": c.living, "concept": c.concept,
                "skills": list(c.skills), "frailty": c.frailty, "gear": list(c.gear)}
        if c.living:
            item.update(goal=c.goal, motive=c.motive, nemesis=c.nemesis)
        item["description"] = c.description
        out.append(item)
    return out
