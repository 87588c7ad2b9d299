"""The Dunginoes kit: content and a seed → rules card and solo score sheet PDF, and domino map PDFs."""

from __future__ import annotations

from dataclasses import dataclass

from dungeonpress.dice import sub_rng
from dungeonpress.draw.dominoes import draw_domino_map
from dungeonpress.generate import dunginoes
from dungeonpress.products import options
from dungeonpress.views.dunginoes import fight_odds_view, legend_view, map_view, simulation_view
from dungeonpress.products.common import BuildContext, Command, Inputs, Job, Output, drawing_css, pdf_from_template

SIZES = (2, 28)  # a map needs two rooms; the set has 28 dominoes
DEFAULT_SIZE = 16
# The map's box on its A4 sheet (mm): the text width, and the height the heading, legend and the
# procedure's paragraph leave (the on-the-fly paragraph is longer).
# The tables it reads: the map's special encounters, and the risk and reward the key names by pips.
TABLES = ("dunginoes_specials", "dunginoes_risk", "dunginoes_reward")
MAP_BOX = {"before": (180.0, 212.0), "fly": (180.0, 204.0)}


@dataclass(frozen=True)
class DunginoesOptions(options.Options):
    size: int = options.option(DEFAULT_SIZE, f"rooms in each map, {SIZES[0]}-{SIZES[1]} (default {DEFAULT_SIZE})",
                               min=SIZES[0], max=SIZES[1])
    mode: str | None = options.option(None, "which map procedure: before (laid before the game) or fly (on the "
                                            "fly); default both", choices=dunginoes.MODES)


def build_dunginoes(ctx: BuildContext, opts: DunginoesOptions) -> list[Output]:
    """The rules card with score sheet, and one map for each mode asked for (both by default)."""
    # 1. Which maps.
    size = opts.size
    modes = opts.chosen("mode")
    seed = ctx.seed if ctx.seed is not None else 0

    # 2. The card, with odds simulated now from the rules, and the score sheet.
    ctx.tick(0, 1 + len(modes), "simulating Dunginoes games")
    simulation = dunginoes.simulate()
    outputs = [Output("dunginoes-rules.pdf", pdf_from_template(
        ctx, "dunginoes_rules.html.j2", sim=simulation_view(simulation), odds=fight_odds_view(),
        score_rows=list(range(1, 19))))]

    # 3. One map per mode, each from its own stream of the seed.
    css = drawing_css(ctx, "dominoes.css")
    for done, mode in enumerate(modes, start=1):
        ctx.tick(done, 1 + len(modes), f"laying the {mode} map")
        specials = ctx.content.tables.get("dunginoes_specials")
        dungeon = dunginoes.generate_map(sub_rng(seed, "dunginoes", "map", mode), size, mode, specials)
        outputs.append(Output(f"dunginoes-map-{seed}-{mode}.pdf", pdf_from_template(
            ctx, "dunginoes_map.html.j2", map=map_view(ctx.content, dungeon, seed),
            svg=draw_domino_map(dungeon, width_mm=MAP_BOX[mode][0], height_mm=MAP_BOX[mode][1], css=css),
            legend=legend_view(dungeon, css))))
    ctx.tick(1 + len(modes), 1 + len(modes), "Dunginoes done")
    return outputs


COMMANDS = (
    Command(
        name="dunginoes",
        help="the Dunginoes kit: rules card with solo score sheet, and domino dungeon maps",
        run=build_dunginoes,
        seeded=True,
        options=DunginoesOptions,
        example="dungeonpress dunginoes --seed 1234 --size 20 --mode before",
        build_all=(Job(seed=1234),),
        order=80,
        inputs=Inputs(tables=TABLES, packs=("dunginoes",)),
        outputs=("dunginoes-rules.pdf", "dunginoes-map-<seed>-<mode>.pdf"),
    ),
)
