"""Turn content tables into export data (strings and dicts, no files): JSON and CSV here; Foundry VTT in
`export.foundry`, Datasworn in `export.datasworn`, licence terms in `export.licences`."""

from __future__ import annotations

import csv
import io

from dungeonpress.dice import DiceSpec
from dungeonpress.export.licences import Terms, terms_for
from dungeonpress.model import Content, Row, Table

FORMULAS = {"d66": "1d6 * 10 + 1d6", "2d6": "2d6"}  # d66: tens die then units die, as printed


def formula(table: Table) -> str:
    """A dice formula Foundry can evaluate that gives `table.die`'s odds exactly."""
    return FORMULAS.get(table.die, f"1{table.die}")


def die_odds(die: str) -> dict:
    """How many of the die's equally likely outcomes give each result (2d6: 7 → 6 of 36; d66: 1 each)."""
    if die == "2d6":
        counts = {}
        for a in range(1, 7):
            for b in range(1, 7):
                counts[a + b] = counts.get(a + b, 0) + 1
        return counts
    return {result: 1 for result in DiceSpec(die).results}


def row_weight(table: Table, row: Row) -> int:
    """A row's share of the die: the number of the die's outcomes that land on it."""
    odds = die_odds(table.die)
    return sum(n for result, n in odds.items() if row.low <= result <= row.high)


def rolled_tables(content: Content) -> list[Table]:
    return [t for t in content.tables.values() if t.rolled]


def licence_json(table: Table) -> dict:
    return terms_for(table.origin).as_json()


def table_json(table: Table) -> dict:
    """A table as plain data: id, title, die, columns and rows with their keys and links, and its licence."""
    return {
        "id": table.id,
        "title": table.title,
        "die": table.die,
        "source": table.origin,
        "group": table.group,
        "note": table.note,
        "columns": [{"key": key, "title": title} for key, title in table.columns],
        "rows": [_row_json(row) for row in table.rows],
        "licence": licence_json(table),
    }


def _row_json(row: Row) -> dict:
    out = {"roll": row.label, "low": row.low, "high": row.high, "values": dict(row.values)}
    if row.see:
        out["see"] = row.see
    if row.creature is not None:
        out["creature"] = row.creature
    return out


def roll_label(row: Row) -> str:
    """The roll as printed, with an en dash: spreadsheets read `1-3` as a date but leave `1–3` as text."""
    return str(row.low) if row.low == row.high else f"{row.low}\u2013{row.high}"


# A spreadsheet runs a cell that starts with one of these as a formula (`=HYPERLINK(…)`, `@SUM(…)`, `+cmd|…`),
# and tab or a line break can smuggle one in after a separator. OWASP's CSV-injection advice: start
# such a cell with a single quote, which spreadsheets show as text and do not evaluate.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\n")


def csv_cell(value):
    """A cell a spreadsheet reads as text: strings that could start a formula get a leading `'`; numbers pass.

    A carriage return becomes a line feed first: the writer quotes a cell holding a line feed (its
    line terminator) but not a lone CR, which spreadsheets would read as the start of a new row.
    """
    if not isinstance(value, str):
        return value
    value = value.replace("\r\n", "\n").replace("\r", "\n")
    return "'" + value if value.startswith(FORMULA_STARTS) else value


def table_csv(table: Table, *, bom: bool = False) -> str:
    """Header row, then one line per row: die, roll, low, high, the columns, licence and source.

    `low`/`high` are plain numbers for sorting and lookups; `bom` starts the text with a UTF-8
    byte-order mark so spreadsheet programs on Windows read `…`, `—` and `→` as UTF-8. The full
    credits go in CREDITS.txt beside the files; each row names its licence and source work. Text
    cells that a spreadsheet would run as a formula start with `'` (see `csv_cell`).
    """
    terms = terms_for(table.origin)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    header = ["die", "roll", "low", "high", *[title for _, title in table.columns], "licence", "source"]
    writer.writerow([csv_cell(cell) for cell in header])
    for row in table.rows:
        cells = [table.die, roll_label(row), row.low, row.high, *[value for _, value in row.values],
                 terms.licence, f"{terms.title} by {terms.authors[0]}"]
        writer.writerow([csv_cell(cell) for cell in cells])
    return ("\ufeff" if bom else "") + buffer.getvalue()


def row_text(table: Table, row: Row) -> str:
    """A row as one line: the value alone for one column, else `Header: value` parts."""
    if len(row.values) == 1:
        return str(row.values[0][1])
    headers = dict(table.columns)
    return "; ".join(f"{headers[key]}: {value}" for key, value in row.values)


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


BESTIARY_TERMS: Terms = terms_for("dungeonpress")  # the bestiary was written for this project's edition


def credits_text(origins) -> str:
    """A plain-text credits file for the given `source:` values, one paragraph each, in a fixed order."""
    parts = []
    for origin in sorted(set(origins)):
        terms = terms_for(origin)
        lines = [f"{terms.title} ({origin})", f"Authors: {', '.join(terms.authors)}", f"Licence: {terms.licence}"]
        if terms.licence_url:
            lines.append(f"Licence text: {terms.licence_url}")
        if terms.url:
            lines.append(f"Source: {terms.url}")
        lines.append(terms.credit)
        parts.append("\n".join(lines))
    return "\n\n".join(parts) + "\n"
