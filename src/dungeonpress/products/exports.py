"""Table exports: content tables → JSON, CSV and Foundry VTT RollTable files under build/exports/."""

from __future__ import annotations

from dataclasses import dataclass

from dungeonpress import export
from dungeonpress.products import options
from dungeonpress.products.common import BuildContext, Command, Job, Output

FORMATS = ("json", "csv", "foundry")


def build_exports(ctx: BuildContext, opts: "ExportOptions") -> list[Output]:
    """One file per rolled table in the chosen format, plus the bestiary and an index (JSON only)."""
    fmt = opts.format
    tables = export.rolled_tables(ctx.content)
    outputs = []
    for table in tables:
        if fmt == "json":
            outputs.append(Output(f"exports/json/{table.id}.json", export.to_json(export.table_json(table)).encode()))
        elif fmt == "csv":
            outputs.append(Output(f"exports/csv/{table.id}.csv", export.table_csv(table).encode()))
        else:
            data = export.table_foundry(table, ctx.content)
            outputs.append(Output(f"exports/foundry/{table.id}.json", export.to_json(data).encode()))
    if fmt == "json":
        index = [{"id": t.id, "title": t.title, "die": t.die, "file": f"{t.id}.json"} for t in tables]
        outputs.append(Output("exports/json/index.json", export.to_json(index).encode()))
        outputs.append(Output("exports/json/bestiary.json", export.to_json(export.bestiary_json(ctx.content)).encode()))
    return outputs


@dataclass(frozen=True)
class ExportOptions(options.Options):
    format: str = options.output_format(FORMATS, "json", help="json, csv or foundry (default json)")


COMMANDS = (
    Command(
        name="tables",
        parent="export",
        help="export every random table as JSON, CSV or Foundry VTT RollTable files (build/exports/FORMAT/)",
        run=build_exports,
        options=ExportOptions,
        example="dungeonpress export tables --format foundry",
        build_all=tuple(Job({"format": fmt}) for fmt in FORMATS),
        order=30,
    ),
)
