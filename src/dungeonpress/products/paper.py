"""Blank Paperogue paper: grid sizes → graph-paper and dot-grid sheet PDFs with the room legend, lists and score tally."""

from __future__ import annotations

from dataclasses import dataclass

from dungeonpress.products import options
from dungeonpress.products.common import BuildContext, Command, Inputs, Job, Output, drawing_css, pdf_from_template
from dungeonpress.views import paperogue as views

GRIDS = ("square", "dot")
CELLS = ("5mm", "quarter-inch")

BLANK_LISTS = 3  # the seed: "write 1-6 three times"

# The seed's Step 5, one line of the tally each: (what, points).
SCORE_LINES = (("Gold", "\u00d7 1"), ("Kills, level 1", "\u00d7 1"), ("Kills, level 2", "\u00d7 2"),
               ("Kills, level 3", "\u00d7 3"), ("Items", "\u00d7 1"), ("HP left", "\u00d7 10"),
               ("Out alive", "+ 1000"))


@dataclass(frozen=True)
class PaperOptions(options.Options):
    grid: str | None = options.option(None, "square or dot (default: both)", choices=GRIDS)
    cell: str | None = options.option(None, "5mm or quarter-inch squares (default: 5mm on A4, quarter-inch on "
                                            "Letter)", choices=CELLS)
    paper: str | None = options.paper(help="a4 or letter (default: both)")


def build_paper(ctx: BuildContext, opts: PaperOptions) -> list[Output]:
    """Blank Paperogue sheets: every grid × paper asked for (default: square and dot on A4 and Letter)."""
    # 1. Which sheets: each paper takes its usual cell size unless --cell says otherwise.
    jobs = [(g, p, opts.cell or views.DEFAULT_CELL[p]) for p in opts.chosen("paper") for g in opts.chosen("grid")]

    # 2. One single-page PDF per sheet.
    outputs = []
    css = drawing_css(ctx, "paperogue-grid.css")
    for done, (grid_kind, paper, cell) in enumerate(jobs):
        ctx.tick(done, len(jobs), f"paper {grid_kind} {paper}")
        data = pdf_from_template(ctx, "paper_sheet.html.j2", sheet=views.blank_sheet_view(grid_kind, paper, cell, css),
                                 legend=views.legend_view(("down", "up"), css),
                                 lists=[{"level": n, "dice": f"{n}d10"} for n in range(1, BLANK_LISTS + 1)],
                                 score=SCORE_LINES)
        outputs.append(Output(sheet_name(grid_kind, paper, cell), data))
    ctx.tick(len(jobs), len(jobs), "paper done")
    return outputs


def sheet_name(grid_kind: str, paper: str, cell: str) -> str:
    """`paper-square-a4.pdf`; a cell size other than the paper's usual one is added to the name."""
    suffix = "" if cell == views.DEFAULT_CELL[paper] else f"-{cell}"
    return f"paper-{grid_kind}-{paper}{suffix}.pdf"


COMMANDS = (
    Command(
        name="paper",
        help="blank Paperogue graph-paper and dot-grid sheets with the room legend, monster lists and score tally",
        run=build_paper,
        options=PaperOptions,
        example="dungeonpress paper --grid dot --paper letter",
        build_all=(Job(),),
        order=60,
        inputs=Inputs(packs=()),  # blank paper: no table, no pack
        outputs=("paper-{square,dot}-{a4,letter}.pdf",),
    ),
)
