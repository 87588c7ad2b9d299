"""Content → every export file of one format as (path under the output folder, bytes), nothing written."""

from __future__ import annotations

from dungeonpress import export
from dungeonpress.errors import RenderError, UsageError
from dungeonpress.export import datasworn, foundry
from dungeonpress.model import Content, Table
from dungeonpress.views.data import encode_json

FORMATS = ("json", "csv", "foundry", "datasworn")


def export_files(content: Content, fmt: str, *, only: str | None = None, bom: bool = False,
                 version: str = "", warnings: list | None = None) -> list[tuple[str, bytes]]:
    """All files of `fmt` for every rolled table, or for the one table `only` (then no index, bundle or bestiary).

    What could not be made (the Foundry packs' LevelDB folders without plyvel) is said in `warnings`.

    Raises RenderError for an unknown format and UsageError for a table id that has no export (one line
    each), before anything is made.
    """
    if fmt not in FORMATS:
        raise RenderError(f"unknown export format '{fmt}' (expected {', '.join(FORMATS)})")
    tables = export.rolled_tables(content)
    if only:
        if only not in content.tables:
            # A usage mistake (exit 2), though only the loaded content can tell.
            raise UsageError(f"--table: no table '{only}' in the content (`dungeonpress tables` lists the ids)")
        if not content.tables[only].rolled:
            raise UsageError(f"--table: table '{only}' is read, not rolled (die: none), so it has no export")
        tables = [content.tables[only]]
    make = {"json": _json_files, "csv": _csv_files, "foundry": _foundry_files, "datasworn": _datasworn_files}[fmt]
    return make(content, tables, only=only, bom=bom, version=version, warnings=warnings)


def _dump(data) -> bytes:
    return encode_json(data)  # the one JSON encoding every product writes


def _json_files(content, tables, *, only, **_):
    files = [(f"exports/json/{t.id}.json", _dump(export.table_json(t))) for t in tables]
    if not only:
        index = {"format": "dungeonpress-tables/1",
                 "licences": {o: export.terms_for(o).as_json() for o in sorted({t.origin for t in tables})},
                 "tables": [{"id": t.id, "title": t.title, "die": t.die, "source": t.origin, "file": f"{t.id}.json"}
                            for t in tables]}
        files.append(("exports/json/index.json", _dump(index)))
        bestiary = {"licence": export.BESTIARY_TERMS.as_json(), "creatures": export.bestiary_json(content)}
        files.append(("exports/json/bestiary.json", _dump(bestiary)))
    return files


def _csv_files(content, tables, *, bom, **_):
    files = [(f"exports/csv/{t.id}.csv", export.table_csv(t, bom=bom).encode()) for t in tables]
    files.append(("exports/csv/CREDITS.txt", export.credits_text(t.origin for t in tables).encode()))
    return files


def _foundry_files(content, tables, *, only, version, warnings, **_):
    files = [(f"exports/foundry/{t.id}.json", _dump(foundry.roll_table(t, content))) for t in tables]
    if not only:
        for path, data in foundry.bundle(content, version, warnings).items():
            name = f"exports/foundry/module/{foundry.MODULE_ID}/{path}"
            if isinstance(data, str):
                data = data.encode()
            files.append((name, data if isinstance(data, bytes) else _dump(data)))
    return files


def _datasworn_files(content, tables, *, only, **_):
    files = []
    for pkg, data in datasworn.packages(content).items():
        if only:
            data = _cut_to(data, content.tables[only])
            if data is None:
                continue
        files.append((f"exports/datasworn/{pkg}.json", _dump(data)))
    return files


def _cut_to(package: dict, table: Table) -> dict | None:
    """The package holding only `table` and its collection (None: the table is in another package)."""
    if datasworn.package_id(table.origin) != package["_id"]:
        return None
    coll, name = datasworn.collection_key(table), datasworn.key(table.id)
    collection = package["oracles"][coll]
    return dict(package, oracles={coll: dict(collection, contents={name: collection["contents"][name]})})
