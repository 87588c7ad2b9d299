"""Table exports: content tables → JSON, CSV, Foundry VTT and Datasworn files under build/exports/."""

from __future__ import annotations

from dungeonpress.export.files import FORMATS, export_files
from dungeonpress.products.common import BuildContext, Command, Option, Output


def build_exports(ctx: BuildContext, options: dict) -> list[Output]:
    """Every rolled table (or the one `--table`) in the chosen format; all of it is made before anything is written."""
    files = export_files(ctx.content, options.get("format") or "json", only=options.get("table"),
                         bom=bool(options.get("bom")), version=ctx.version)
    return [Output(name, data) for name, data in files]


COMMANDS = (
    Command(
        name="tables",
        parent="export",
        help="export every random table as JSON, CSV, a Foundry VTT module or Datasworn JSON (build/exports/FORMAT/)",
        run=build_exports,
        options=(Option(("--format",), "json, csv, foundry or datasworn (default json)", default="json", choices=FORMATS),
                 Option(("--table",), "export only the table with this id (no index, module or bestiary)"),
                 Option(("--bom",), "CSV: start each file with a UTF-8 byte-order mark (for spreadsheets on Windows)",
                        flag=True)),
        example="dungeonpress export tables --format foundry",
    ),
)
