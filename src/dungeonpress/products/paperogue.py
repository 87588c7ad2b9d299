"""Pre-rolled Paperogue: the Paperogue tables and a seed → level sheets PDF and JSON, and the reference card."""

from __future__ import annotations

from dataclasses import dataclass

from dungeonpress.dice import sub_rng
from dungeonpress.errors import ContentErrors
from dungeonpress.generate import paperogue
from dungeonpress.products import options
from dungeonpress.views import data as data_views
from dungeonpress.views import paperogue as views
from dungeonpress.products.common import BuildContext, Command, Inputs, Job, Output, drawing_css, pdf_from_template
from dungeonpress.products.paper import SCORE_LINES

FORMATS = ("pdf", "json")

TREASURE_TABLES = ("paperogue_treasure_type", "paperogue_gold", "paperogue_armor", "paperogue_weapons",
                   "paperogue_potions", "paperogue_scrolls", "paperogue_magic_books", "paperogue_jewelry")
IDENTIFY_TABLES = ("paperogue_equipment_bonus", "paperogue_jewelry_effects", "paperogue_potion_effects",
                   "paperogue_scroll_effects")
CARD_TABLES = TREASURE_TABLES + IDENTIFY_TABLES + ("paperogue_spells", "paperogue_rules", "paperogue_level_steps",
                                                   "paperogue_monsters")


@dataclass(frozen=True)
class PaperogueOptions(options.Options):
    levels: int = options.option(3, f"how many levels, 1-{paperogue.MAX_LEVELS} (default 3)", min=1,
                                 max=paperogue.MAX_LEVELS)
    rooms_die: str = options.option("d20", "the die for rooms per level (default d20)", choices=paperogue.ROOMS_DICE)
    format: str | None = options.output_format(FORMATS, help="pdf (levels and card) or json (levels); default both")
    paper: str = options.paper("a4", help="paper for the level sheets (default a4)")


def build_levels(ctx: BuildContext, opts: PaperogueOptions) -> list[Output]:
    """A pre-rolled dungeon (one level per page) and its JSON, plus the reference card."""
    # 1. Options and content: everything is checked before anything is rolled.
    seed = ctx.seed if ctx.seed is not None else 0
    levels, rooms_die, paper = opts.levels, opts.rooms_die, opts.paper
    formats = opts.chosen("format")
    _require_card_tables(ctx)

    # 2. Roll the dungeon from its own stream of the seed.
    ctx.tick(0, 3, "rolling Paperogue levels")
    dungeon = paperogue.generate_paperogue(ctx.content, sub_rng(seed, "paperogue"), levels=levels,
                                           rooms_die=rooms_die)
    stem = f"paperogue-{seed}" + ("" if paper == "a4" else f"-{paper}")

    # 3. The outputs asked for: JSON, the level sheets and the card.
    outputs = []
    if "json" in formats:
        outputs.append(Output(f"paperogue-{seed}.json", data_views.encode_json(data_views.paperogue_data(dungeon, seed))))
    if "pdf" in formats:
        ctx.tick(1, 3, "drawing Paperogue levels")
        css = drawing_css(ctx, "paperogue-grid.css")
        pages = [views.level_view(level, dungeon, seed, paper, css) for level in dungeon.levels]
        data = pdf_from_template(ctx, "paperogue_levels.html.j2", pages=pages, legend=views.legend_view(css=css),
                                 paper=paper, about=views.about_view(dungeon, seed), score=SCORE_LINES)
        outputs.append(Output(f"{stem}.pdf", data))
        ctx.tick(2, 3, "setting the Paperogue reference card")
        outputs.append(Output("paperogue-reference.pdf",
                              pdf_from_template(ctx, "paperogue_reference.html.j2", card=views.card_view(ctx.content, css))))
    ctx.tick(3, 3, "Paperogue done")
    return outputs


def _require_card_tables(ctx: BuildContext) -> None:
    """Every table the reference card prints, with the columns it reads, or one error per problem."""
    columns = {"paperogue_treasure_type": ("initial", "treasure"), "paperogue_spells": ("spell", "effect"),
               "paperogue_rules": ("topic", "rule"), "paperogue_level_steps": ("step", "rule"),
               "paperogue_monsters": ("initial", "monster")}
    needs = {table_id: columns.get(table_id, ()) for table_id in CARD_TABLES}
    problems = ctx.content.table_problems(needs, needer="the Paperogue kit needs",
                                          purpose="for the Paperogue reference card", rolled=False)
    if problems:
        raise ContentErrors(problems)


# --- reference card ------------------------------------------------------------------------------


COMMANDS = (
    Command(
        name="paperogue",
        help="pre-rolled Paperogue levels drawn on the grid (PDF and JSON) and the Paperogue reference card",
        run=build_levels,
        seeded=True,
        options=PaperogueOptions,
        example="dungeonpress paperogue --seed 1234 --levels 3 --rooms-die d12",
        build_all=(Job(seed=1234),),
        order=70,
        inputs=Inputs(tables=paperogue.NEEDED + CARD_TABLES + views.CARD_NOTES, packs=("paperogue",)),
        outputs=("paperogue-<seed>.pdf", "paperogue-<seed>.json", "paperogue-reference.pdf"),
    ),
)
