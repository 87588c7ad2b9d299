"""Table exports: content tables → JSON, CSV, a Foundry VTT module or Datasworn JSON under build/exports/."""

from __future__ import annotations

from dataclasses import dataclass

from dungeonpress.export.files import FORMATS, export_files
from dungeonpress.products import options
from dungeonpress.products.common import BuildContext, Command, Inputs, Job, Output


@dataclass(frozen=True)
class ExportOptions(options.Options):
    format: str = options.output_format(FORMATS, "json", help="json, csv, foundry or datasworn (default json)")
    table: str | None = options.option(None, "export only the table with this id (no index, module or bestiary)")
    bom: bool = options.switch("CSV: start each file with a UTF-8 byte-order mark (for spreadsheets on Windows)")


def build_exports(ctx: BuildContext, opts: ExportOptions) -> list[Output]:
    """Every rolled table (or the one `--table`) in the chosen format; all of it is made before anything is written."""
    files = export_files(ctx.content, opts.format, only=opts.table, bom=opts.bom, version=ctx.version,
                         warnings=ctx.warnings)
    return [Output(name, data) for name, data in files]


COMMANDS = (
    Command(
        name="tables",
        parent="export",
        help="export every random table as JSON, CSV, a Foundry VTT module or Datasworn JSON (build/exports/FORMAT/)",
        run=build_exports,
        options=ExportOptions,
        example="dungeonpress export tables --format foundry",
        build_all=tuple(Job({"format": fmt}) for fmt in FORMATS),
        order=30,
        inputs=Inputs(every=True),
        outputs=("exports/<format>/",),
    ),
)
