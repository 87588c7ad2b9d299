"""Content tables → Datasworn 0.1.0 rules packages (one per table `source:`, so each carries one licence).

Datasworn ids are paths (`oracle_rollable:loner_dungeoneer/encounters/minor_traps`) whose parts may
hold only a-z and `_`, so digits in our ids are spelled out (`adventure_things_1` → `adventure_things_one`).
"""

from __future__ import annotations

import re

from dungeonpress import export
from dungeonpress.export.licences import Terms, terms_for
from dungeonpress.model import Content, Row, Table

DATASWORN_VERSION = "0.1.0"
PACKAGES = {"core": "loner_core", "dungeoneer": "loner_dungeoneer", "dungeonpress": "dungeonpress",
            "paperogue": "paperogue", "dunginoes": "dunginoes", "solo-turns": "solo_turns"}
DIGITS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
# d66 is read as tens and units; a roller that knows only NdM must roll it as two dice, not 1d66.
DICE = {"d66": "1d6*10+1d6"}
UNKNOWN_URL = "about:blank"  # Datasworn requires a source address; some of our sources have none


def key(text: str) -> str:
    """A Datasworn dictionary key: lowercase letters and `_`, digits spelled out, never empty."""
    text = re.sub(r"\d", lambda m: f"_{DIGITS[int(m.group())]}_", text.lower())
    text = re.sub(r"[^a-z]+", "_", text).strip("_")
    return text or "tables"


def package_id(origin: str) -> str:
    return PACKAGES.get(origin) or key(origin)  # a user pack's credit becomes its own package


def collection_key(table: Table) -> str:
    return key(table.group or "tables")


def oracle_id(table: Table) -> str:
    return f"oracle_rollable:{package_id(table.origin)}/{collection_key(table)}/{key(table.id)}"


def source_info(terms: Terms) -> dict:
    """Datasworn's `_source`: title, authors, date, licence URL (null when there is none) and URL."""
    return {"title": terms.title, "authors": [{"name": name} for name in terms.authors], "date": terms.date,
            "license": terms.licence_url, "url": terms.url or UNKNOWN_URL}


def _row(table: Table, row: Row, index: int, content: Content, columns: int) -> dict:
    path = oracle_id(table).split(":", 1)[1]
    out = {"_id": f"oracle_rollable.row:{path}.{index}", "roll": {"min": row.low, "max": row.high}}
    if columns == 1:
        out["text"] = export.row_text(table, row)
    else:
        for n, (_, value) in enumerate(row.values):
            out["text" if n == 0 else f"text{n + 1}"] = str(value)
    target = content.tables.get(row.see) if row.see else None
    if target is not None and target.rolled:
        out["oracle_rolls"] = [{"oracle": oracle_id(target), "dice": None, "auto": False, "duplicates": "reroll",
                                "number_of_rolls": 1}]
    return out


def oracle_table(table: Table, content: Content) -> dict:
    """One table as OracleTableText (one column), Text2 or Text3; wider tables join their columns."""
    columns = len(table.columns) if len(table.columns) <= 3 else 1
    oracle_type = "table_text" if columns == 1 else f"table_text{columns}"
    headers = [title for _, title in table.columns]
    labels = {"roll": f"Roll ({table.die})", "text": headers[0] if columns > 1 or len(headers) == 1 else "Result"}
    for n in range(1, columns):
        labels[f"text{n + 1}"] = headers[n]
    return {
        "_id": oracle_id(table),
        "type": "oracle_rollable",
        "name": table.title,
        "oracle_type": oracle_type,
        "dice": DICE.get(table.die, f"1{table.die}" if table.die.startswith("d") else table.die),
        "column_labels": labels,
        "rows": [_row(table, row, i, content, columns) for i, row in enumerate(table.rows)],
        "_source": source_info(terms_for(table.origin)),
    }


def packages(content: Content) -> dict:
    """Package id → a Datasworn `ruleset` package holding that source's rolled tables, grouped as in the booklet."""
    out = {}
    for table in export.rolled_tables(content):
        pkg = package_id(table.origin)
        terms = terms_for(table.origin)
        package = out.get(pkg)
        if package is None:
            package = out[pkg] = {
                "_id": pkg, "type": "ruleset", "datasworn_version": DATASWORN_VERSION,
                "description": terms.credit,
                **{k: v for k, v in source_info(terms).items()},
                "rules": {"condition_meters": {}, "stats": {}, "impacts": {}, "special_tracks": {}, "tags": {}},
                "oracles": {}, "assets": {}, "moves": {},
            }
        coll = collection_key(table)
        collection = package["oracles"].setdefault(coll, {
            "_id": f"oracle_collection:{pkg}/{coll}", "type": "oracle_collection", "name": (table.group or "tables").capitalize(),
            "oracle_type": "tables", "contents": {}, "collections": {}, "_source": source_info(terms)})
        collection["contents"][key(table.id)] = oracle_table(table, content)
    return out
