"""Blank character sheets: content → fillable and pencil sheet PDFs for each game and paper."""

from __future__ import annotations

from dataclasses import dataclass

from dungeonpress.products import options
from dungeonpress.products.common import BuildContext, Command, Inputs, Job, Output, pdf_from_template
from dungeonpress.views.oracle import oracle_strip_view
from dungeonpress.views.sheet import SPACE, dungeoneer_view, paperogue_view

GAMES = ("dungeoneer", "paperogue")
PAPERS = options.ALL_PAPERS
# The tables the sheets print from (views.sheet): light sources and twists on the Dungeoneer log, armour
# and the potions and scrolls to identify on the Paperogue sheet.
TABLES = ("light_sources", "twist", "paperogue_armor", "paperogue_potions", "paperogue_scrolls")


@dataclass(frozen=True)
class SheetOptions(options.Options):
    game: str | None = options.option(None, "which game's sheet (default: both)", choices=GAMES)
    paper: str | None = options.paper(help="paper size (default: all three)", choices=PAPERS)
    fillable: bool = options.switch("only the fillable PDF form (default: fillable and print)")
    print: bool = options.switch("only the version for pencil (default: fillable and print)")


def build_sheets(ctx: BuildContext, opts: SheetOptions) -> list[Output]:
    """Blank sheets: every game, paper and form asked for (by default all of them)."""
    games, papers = opts.chosen("game"), opts.chosen("paper")
    forms = [form for form in ("fillable", "print") if getattr(opts, form)] or ["fillable", "print"]
    jobs = [(game, paper, form) for game in games for paper in papers for form in forms]
    outputs = []
    for done, (game, paper, form) in enumerate(jobs):
        ctx.tick(done, len(jobs), f"{game} sheet, {paper}, {form}")
        data = render_sheet_pdf(ctx, game, paper, form == "fillable")
        outputs.append(Output(sheet_file_name(game, paper, form), data))
    ctx.tick(len(jobs), len(jobs), "sheets done")
    return outputs


def sheet_file_name(game: str, paper: str, form: str) -> str:
    """`sheet-dungeoneer-a4-fillable.pdf`; Paperogue's pencil sheet is plain `sheet-paperogue-a4.pdf`."""
    if game == "paperogue" and form == "print":
        return f"sheet-paperogue-{paper}.pdf"
    return f"sheet-{game}-{paper}-{form}.pdf"


def render_sheet_pdf(ctx: BuildContext, game: str, paper: str, fillable: bool) -> bytes:
    layout = SPACE[paper]
    if game == "dungeoneer":
        sheet = dungeoneer_view(ctx.content, layout, None, kicker="Character sheet")
        return sheet_pdf(ctx, "sheet_dungeoneer.html.j2", paper, fillable, [sheet], "Loner: Dungeoneer character sheet")
    sheet = paperogue_view(ctx.content, layout, None, kicker="Character sheet")
    return sheet_pdf(ctx, "sheet_paperogue.html.j2", paper, fillable, [sheet], "Paperogue character sheet")


def sheet_pdf(ctx: BuildContext, template: str, paper: str, fillable: bool, sheets: list, title: str,
              rules: list = (), odds: dict | None = None) -> bytes:
    """`rules` (the delve rules' sections) are printed on a page after the sheets, for pre-rolled delvers, with the
    oracle's exact `odds` (views.oracle.oracle_odds_view) under them when given."""
    form = "fillable" if fillable else "print"
    return pdf_from_template(ctx, template, forms=fillable, sheets=sheets, fillable=fillable, doc_title=title,
                             body_class=f"sheets paper-{paper} {form}", oracle=oracle_strip_view(), paper=paper,
                             rules=list(rules), odds=odds)


COMMANDS = (
    Command(
        name="sheet",
        help="blank character sheets: fillable PDF form and pencil version, A4, Letter and A5",
        run=build_sheets,
        options=SheetOptions,
        example="dungeonpress sheet --game dungeoneer --paper letter --fillable",
        build_all=(Job(),),
        order=50,
        inputs=Inputs(tables=TABLES),
        outputs=("sheet-dungeoneer-<paper>-fillable.pdf", "sheet-paperogue-<paper>.pdf"),
    ),
)
