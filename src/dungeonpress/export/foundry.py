"""Content tables and bestiary → Foundry VTT documents: RollTables, bestiary JournalEntries, module.json.

Written for Foundry v13 (13.341) with the v12 fields kept where they do not clash (see docs/vtt.md).
"""

from __future__ import annotations

import hashlib
import html
import json
import string

from dungeonpress import export
from dungeonpress.export import leveldb
from dungeonpress.export.licences import terms_for
from dungeonpress.model import Content, Creature, Row, Table

MODULE_ID = "dungeonpress"
CORE_VERSION = "13.341"  # the Foundry release the documents are written for (`_stats.coreVersion`)
MINIMUM_VERSION = "12"
TABLES_PACK = "roll-tables"
BESTIARY_PACK = "bestiary"
ID_ALPHABET = string.ascii_letters + string.digits  # the characters of Foundry's randomID()

# The fields each Foundry version stores for a TableResult (v12 BaseTableResult / v13 BaseTableResult.defineSchema).
RESULT_FIELDS_V12 = frozenset({"_id", "type", "text", "img", "documentCollection", "documentId", "weight", "range",
                               "drawn", "flags", "_stats"})
RESULT_FIELDS_V13 = frozenset({"_id", "type", "name", "img", "description", "documentUuid", "weight", "range",
                               "drawn", "flags", "_stats"})
RESULT_TYPES_V12 = frozenset({"text", "document", "pack"})
RESULT_TYPES_V13 = frozenset({"text", "document"})
# The embedded collections of each pack collection, as the Foundry CLI (lib/package.mjs HIERARCHY) stores
# them: each embedded document under its own key, the parent holding only their ids.
EMBEDDED = {"tables": ("results",), "journal": ("pages", "categories")}


def foundry_id(*parts: str) -> str:
    """A 16-character id in Foundry's alphabet, the same for the same parts (sha256, base 62)."""
    number = int.from_bytes(hashlib.sha256("/".join(parts).encode()).digest(), "big")
    chars = []
    for _ in range(16):
        number, index = divmod(number, len(ID_ALPHABET))
        chars.append(ID_ALPHABET[index])
    return "".join(chars)


def table_id(table_key: str) -> str:
    return foundry_id(MODULE_ID, "RollTable", table_key)


def result_id(table: Table, row: Row) -> str:
    return foundry_id(MODULE_ID, "TableResult", table.id, str(row.low))


def creature_id(key: int) -> str:
    return foundry_id(MODULE_ID, "JournalEntry", "creature", str(key))


def table_uuid(table_key: str) -> str:
    return f"Compendium.{MODULE_ID}.{TABLES_PACK}.RollTable.{table_id(table_key)}"


def creature_uuid(key: int) -> str:
    return f"Compendium.{MODULE_ID}.{BESTIARY_PACK}.JournalEntry.{creature_id(key)}"


def stats() -> dict:
    """`_stats` without clock values, so the same content gives the same bytes."""
    return {"coreVersion": CORE_VERSION, "systemId": None, "systemVersion": None, "createdTime": None,
            "modifiedTime": None, "lastModifiedBy": None}


def _paragraph(text: str) -> str:
    return f"<p>{html.escape(text, quote=False)}</p>"


def _result(table: Table, row: Row, content: Content) -> dict:
    text = export.row_text(table, row)
    result = {
        "_id": result_id(table, row),
        "type": "text",
        "name": str(row.values[0][1]),
        "description": html.escape(text, quote=False),
        "text": html.escape(text, quote=False),  # v12 reads `text`; v13 keeps `description` when both are given
        "img": "icons/svg/d20-black.svg",
        "weight": export.row_weight(table, row),
        "range": [row.low, row.high],
        "drawn": False,
        "flags": {},
        "_stats": stats(),
    }
    target = content.tables.get(row.see) if row.see else None
    if target is not None and target.rolled:  # only rolled tables are in the pack
        result.update(type="document", name=target.title, documentUuid=table_uuid(target.id))
    elif row.creature is not None and _has_creature(content, row.creature):
        creature = content.creature(row.creature)
        result.update(type="document", name=creature.name, documentUuid=creature_uuid(creature.key))
    return result


def _has_creature(content: Content, key: int) -> bool:
    return any(c.key == key for c in content.creatures)


def roll_table(table: Table, content: Content) -> dict:
    """A RollTable document: v13 result shape (name/description/documentUuid) with `text` kept for v12."""
    terms = terms_for(table.origin)
    description = (_paragraph(table.note) if table.note else "") + _paragraph(terms.credit)
    return {
        "_id": table_id(table.id),
        "name": table.title,
        "img": "icons/svg/d20-grey.svg",
        "description": description,
        "results": [_result(table, row, content) for row in table.rows],
        "formula": export.formula(table),
        "replacement": True,
        "displayRoll": True,
        "folder": None,
        "sort": 0,
        "ownership": {"default": 0},
        "flags": {MODULE_ID: {"id": table.id, "die": table.die, "source": table.origin, "licence": terms.licence,
                              "licence_url": terms.licence_url, "authors": list(terms.authors)}},
        "_stats": stats(),
    }


def pack_source(document: dict, collection: str, embedded: str) -> dict:
    """A document as the fvtt CLI's JSON pack source: `_key` on it and on each embedded document."""
    out = {"_key": f"!{collection}!{document['_id']}", **document}
    out[embedded] = [{"_key": f"!{collection}.{embedded}!{document['_id']}.{child['_id']}", **child}
                     for child in document[embedded]]
    return out


def pack_entries(documents: list[dict], collection: str) -> list[tuple[str, bytes]]:
    """The LevelDB entries of a compendium pack, keyed as the Foundry CLI's compilePack writes them.

    `!tables!<id>` holds the table with `results` as a list of result ids; each result is under
    `!tables.results!<tableId>.<resultId>`. Values are compact JSON (classic-level's json encoding).
    """
    entries = []
    for document in documents:
        parent = dict(document)
        for embedded in EMBEDDED.get(collection, ()):
            children = document.get(embedded, [])
            parent[embedded] = [child["_id"] for child in children]
            for child in children:
                entries.append((f"!{collection}.{embedded}!{document['_id']}.{child['_id']}", _json_value(child)))
        entries.append((f"!{collection}!{document['_id']}", _json_value(parent)))
    return sorted(entries)


def _json_value(document: dict) -> bytes:
    return json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def creature_journal(creature: Creature) -> dict:
    """A JournalEntry with one text page holding a bestiary entry."""
    terms = export.BESTIARY_TERMS
    facts = [("Tier", creature.tier), ("Concept", creature.concept), ("Skills", ", ".join(creature.skills)),
             ("Frailty", creature.frailty), ("Gear", ", ".join(creature.gear))]
    if creature.living:
        facts += [("Goal", creature.goal), ("Motive", creature.motive), ("Nemesis", creature.nemesis)]
    items = "".join(f"<li><strong>{name}:</strong> {html.escape(str(value), quote=False)}</li>"
                    for name, value in facts)
    content = f"<ul>{items}</ul>" + (_paragraph(creature.description) if creature.description else "") \
        + _paragraph(terms.credit)
    journal_id = creature_id(creature.key)
    page = {"_id": foundry_id(MODULE_ID, "JournalEntryPage", "creature", str(creature.key)),
            "name": creature.name, "type": "text", "title": {"show": True, "level": 1},
            "text": {"content": content, "format": 1}, "sort": 0, "ownership": {"default": -1}, "flags": {},
            "_stats": stats()}
    return {"_id": journal_id, "name": f"{creature.key} {creature.name}", "pages": [page], "categories": [],
            "folder": None,
            "sort": creature.key, "ownership": {"default": 0},
            "flags": {MODULE_ID: {"key": creature.key, "licence": terms.licence}}, "_stats": stats()}


def module_manifest(version: str, tables: list[Table]) -> dict:
    """module.json: the module's id, the Foundry versions it is written for, its two compendium packs."""
    origins = sorted({t.origin for t in tables})
    return {
        "id": MODULE_ID,
        "title": "dungeonpress: Loner tables",
        "description": "Every random table of Loner, Loner: Dungeoneer and the games printed with them as roll "
                       "tables, and the bestiary as journal entries. Licences per table: see LICENCE.txt.",
        "version": version,
        "compatibility": {"minimum": MINIMUM_VERSION, "verified": CORE_VERSION},
        "authors": [{"name": name} for name in ("the dungeonpress project", "Roberto Bisceglie")],
        "license": "LICENCE.txt",
        "packs": [
            {"name": TABLES_PACK, "label": "Loner tables (dungeonpress)", "path": f"packs/{TABLES_PACK}",
             "type": "RollTable", "ownership": {"PLAYER": "OBSERVER", "ASSISTANT": "OWNER"}},
            {"name": BESTIARY_PACK, "label": "Loner bestiary (dungeonpress)", "path": f"packs/{BESTIARY_PACK}",
             "type": "JournalEntry", "ownership": {"PLAYER": "OBSERVER", "ASSISTANT": "OWNER"}},
        ],
        "flags": {MODULE_ID: {"sources": origins}},
    }


def bundle(content: Content, version: str, warnings: list | None = None) -> dict:
    """Every file of the module folder, path (relative to the folder) → data, text or bytes.

    The packs are LevelDB folders Foundry loads as they are (`packs/<pack>/`), beside their JSON
    sources (`packs/_source/<pack>/`). Where LevelDB cannot be written (no plyvel), only the
    sources are written and a line saying what is missing goes to `warnings`.
    """
    tables = export.rolled_tables(content)
    files = {"module.json": module_manifest(version, tables),
             "LICENCE.txt": export.credits_text([t.origin for t in tables] + ["dungeonpress"])}
    table_documents = [roll_table(table, content) for table in tables]
    journals = [creature_journal(creature) for creature in content.creatures]
    for table, document in zip(tables, table_documents):
        files[f"packs/_source/{TABLES_PACK}/{table.id}.json"] = pack_source(document, "tables", "results")
    for creature, document in zip(content.creatures, journals):
        files[f"packs/_source/{BESTIARY_PACK}/{creature.key}.json"] = pack_source(document, "journal", "pages")
    try:
        for pack, collection, documents in ((TABLES_PACK, "tables", table_documents),
                                            (BESTIARY_PACK, "journal", journals)):
            for name, data in leveldb.database_files(pack_entries(documents, collection)).items():
                files[f"packs/{pack}/{name}"] = data
    except leveldb.Unavailable as exc:
        if warnings is not None:
            warnings.append(f"Foundry module: compendium packs written as JSON sources only, not as the LevelDB "
                            f"folders Foundry loads: {exc}")
    return files
