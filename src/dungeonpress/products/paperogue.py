"""The Paperogue kit: grid sizes and the Paperogue tables → blank graph-paper PDFs, pre-rolled level PDFs and JSON, and the reference card."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from dungeonpress import export
from dungeonpress.dice import sub_rng
from dungeonpress.errors import ContentErrors
from dungeonpress.generate import paperogue
from dungeonpress.products import options
from dungeonpress.views import paperogue as views
from dungeonpress.products.common import BuildContext, Command, Job, Output, pdf_from_template

GRIDS = ("square", "dot")
PAPERS = ("a4", "letter")
CELLS = ("5mm", "quarter-inch")
FORMATS = ("pdf", "json")

BLANK_LISTS = 3  # the seed: "write 1-6 three times"

# The seed's Step 5, one line of the tally each: (what, points).
SCORE_LINES = (("Gold", "\u00d7 1"), ("Kills, level 1", "\u00d7 1"), ("Kills, level 2", "\u00d7 2"),
               ("Kills, level 3", "\u00d7 3"), ("Items", "\u00d7 1"), ("HP left", "\u00d7 10"),
               ("Out alive", "+ 1000"))

TREASURE_TABLES = ("paperogue_treasure_type", "paperogue_gold", "paperogue_armor", "paperogue_weapons",
                   "paperogue_potions", "paperogue_scrolls", "paperogue_magic_books", "paperogue_jewelry")
IDENTIFY_TABLES = ("paperogue_equipment_bonus", "paperogue_jewelry_effects", "paperogue_potion_effects",
                   "paperogue_scroll_effects")
CARD_TABLES = TREASURE_TABLES + IDENTIFY_TABLES + ("paperogue_spells", "paperogue_rules")


# --- blank sheets --------------------------------------------------------------------------------

@dataclass(frozen=True)
class PaperOptions(options.Options):
    grid: str | None = options.option(None, "square or dot (default: both)", choices=GRIDS)
    cell: str | None = options.option(None, "5mm or quarter-inch squares (default: 5mm on A4, quarter-inch on "
                                            "Letter)", choices=CELLS)
    paper: str | None = options.paper(help="a4 or letter (default: both)")


@dataclass(frozen=True)
class PaperogueOptions(options.Options):
    levels: int = options.option(3, f"how many levels, 1-{paperogue.MAX_LEVELS} (default 3)", min=1,
                                 max=paperogue.MAX_LEVELS)
    rooms_die: str = options.option("d20", "the die for rooms per level (default d20)", choices=paperogue.ROOMS_DICE)
    format: str | None = options.output_format(FORMATS, help="pdf (levels and card) or json (levels); default both")
    paper: str = options.paper("a4", help="paper for the level sheets (default a4)")


def build_paper(ctx: BuildContext, opts: PaperOptions) -> list[Output]:
    """Blank Paperogue sheets: every grid × paper asked for (default: square and dot on A4 and Letter)."""
    # 1. Which sheets: each paper takes its usual cell size unless --cell says otherwise.
    grids = [opts.grid] if opts.grid else list(GRIDS)
    papers = [opts.paper] if opts.paper else list(PAPERS)
    jobs = [(g, p, opts.cell or views.DEFAULT_CELL[p]) for p in papers for g in grids]

    # 2. One single-page PDF per sheet.
    outputs = []
    for done, (grid_kind, paper, cell) in enumerate(jobs):
        ctx.tick(done, len(jobs), f"paper {grid_kind} {paper}")
        data = pdf_from_template(ctx, "paper_sheet.html.j2", sheet=views.blank_sheet_view(grid_kind, paper, cell),
                                 legend=views.legend_view(("down", "up")),
                                 lists=[{"level": n, "dice": f"{n}d10"} for n in range(1, BLANK_LISTS + 1)],
                                 score=SCORE_LINES)
        outputs.append(Output(sheet_name(grid_kind, paper, cell), data))
    ctx.tick(len(jobs), len(jobs), "paper done")
    return outputs


def sheet_name(grid_kind: str, paper: str, cell: str) -> str:
    """`paper-square-a4.pdf`; a cell size other than the paper's usual one is added to the name."""
    suffix = "" if cell == views.DEFAULT_CELL[paper] else f"-{cell}"
    return f"paper-{grid_kind}-{paper}{suffix}.pdf"


# --- pre-rolled levels ---------------------------------------------------------------------------

def build_levels(ctx: BuildContext, opts: PaperogueOptions) -> list[Output]:
    """A pre-rolled dungeon (one level per page) and its JSON, plus the reference card."""
    # 1. Options and content: everything is checked before anything is rolled.
    seed = ctx.seed if ctx.seed is not None else 0
    levels, rooms_die, paper = opts.levels, opts.rooms_die, opts.paper
    formats = [opts.format] if opts.format else list(FORMATS)
    _require_card_tables(ctx)

    # 2. Roll the dungeon from its own stream of the seed.
    ctx.tick(0, 3, "rolling Paperogue levels")
    dungeon = paperogue.generate_paperogue(ctx.content, sub_rng(seed, "paperogue"), levels=levels,
                                           rooms_die=rooms_die)
    stem = f"paperogue-{seed}" + ("" if paper == "a4" else f"-{paper}")

    # 3. The outputs asked for: JSON, the level sheets and the card.
    outputs = []
    if "json" in formats:
        outputs.append(Output(f"paperogue-{seed}.json", export.to_json(dungeon_json(dungeon, seed)).encode()))
    if "pdf" in formats:
        ctx.tick(1, 3, "drawing Paperogue levels")
        pages = [views.level_view(level, dungeon, seed, paper) for level in dungeon.levels]
        data = pdf_from_template(ctx, "paperogue_levels.html.j2", pages=pages, legend=views.legend_view(),
                                 paper=paper, about=views.about_view(dungeon, seed))
        outputs.append(Output(f"{stem}.pdf", data))
        ctx.tick(2, 3, "setting the Paperogue reference card")
        outputs.append(Output("paperogue-reference.pdf",
                              pdf_from_template(ctx, "paperogue_reference.html.j2", card=views.card_view(ctx.content))))
    ctx.tick(3, 3, "Paperogue done")
    return outputs


def _require_card_tables(ctx: BuildContext) -> None:
    """Every table the reference card prints, with the columns it reads, or one error per problem."""
    columns = {"paperogue_treasure_type": ("initial", "treasure"), "paperogue_spells": ("spell", "effect"),
               "paperogue_rules": ("topic", "rule")}
    needs = {table_id: columns.get(table_id, ()) for table_id in CARD_TABLES}
    problems = ctx.content.table_problems(needs, needer="the Paperogue kit needs",
                                          purpose="for the Paperogue reference card", rolled=False)
    if problems:
        raise ContentErrors(problems)


def dungeon_json(dungeon: paperogue.PaperogueDungeon, seed: int) -> dict:
    """The dungeon as plain data, with the seed and the readings it was rolled by."""
    data = dataclasses.asdict(dungeon)
    data["readings"] = [{"topic": topic, "reading": text} for topic, text in dungeon.readings]
    return {"game": "Paperogue", "seed": seed, **data}


# --- reference card ------------------------------------------------------------------------------


COMMANDS = (
    Command(
        name="paper",
        help="blank Paperogue graph-paper and dot-grid sheets with the room legend, monster lists and score tally",
        run=build_paper,
        options=PaperOptions,
        example="dungeonpress paper --grid dot --paper letter",
        build_all=(Job(),),
        order=60,
    ),
    Command(
        name="paperogue",
        help="pre-rolled Paperogue levels drawn on the grid (PDF and JSON) and the Paperogue reference card",
        run=build_levels,
        seeded=True,
        options=PaperogueOptions,
        example="dungeonpress paperogue --seed 1234 --levels 3 --rooms-die d12",
        build_all=(Job(seed=1234),),
        order=70,
    ),
)
