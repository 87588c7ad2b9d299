"""Pre-rolled characters: content and a seed → N filled character sheets in one PDF, and JSON with every roll."""

from __future__ import annotations

from dataclasses import dataclass

from dungeonpress.dice import sub_rng
from dungeonpress.generate import character as dungeoneer
from dungeonpress.generate import paperogue_character as paperogue
from dungeonpress.generate.character import generate_character
from dungeonpress.generate.paperogue_character import generate_paperogue_character
from dungeonpress.products import options
from dungeonpress.products.common import BuildContext, Command, Inputs, Job, Output
from dungeonpress.products.dungeon import delve_rules
from dungeonpress.views.oracle import oracle_odds_view
from dungeonpress.products.sheet import GAMES, PAPERS, TABLES as SHEET_TABLES, sheet_pdf
from dungeonpress.views import data as data_views
from dungeonpress.views.sheet import SPACE, dungeoneer_view, paperogue_view

FORMATS = ("pdf", "json")
MAX_CHARACTERS = 100  # a pre-rolled stack, not a census


@dataclass(frozen=True)
class CharacterOptions(options.Options):
    count: int = options.option(1, f"how many characters, 1-{MAX_CHARACTERS} (default: 1)", min=1,
                                max=MAX_CHARACTERS)
    game: str | None = options.option(None, "dungeoneer (default) or paperogue", choices=GAMES)
    format: str | None = options.output_format(FORMATS, help="pdf or json (default: both)")
    paper: str | None = options.paper(help="paper size of the PDF (default: a4)", choices=PAPERS)


NO_ROOM_FOR_ODDS = ("dyslexia-friendly",)  # themes whose rules page the delve rules fill alone

def build_characters(ctx: BuildContext, opts: CharacterOptions) -> list[Output]:
    """Pre-rolled characters: N filled sheets in one PDF, and the same characters as JSON."""
    # 1. Roll: each character has its own stream, so character 3 is the same whatever the count.
    game = opts.game or "dungeoneer"
    count = opts.count
    paper = opts.paper or options.DEFAULT_PAPER
    formats = opts.chosen("format")
    generate = generate_character if game == "dungeoneer" else generate_paperogue_character
    characters = [generate(ctx.content, sub_rng(ctx.seed, "character", game, str(n))) for n in range(1, count + 1)]

    # 2. Write what was asked for.
    stem = f"characters-{ctx.seed}" if game == "dungeoneer" else f"characters-{game}-{ctx.seed}"
    outputs = []
    if "pdf" in formats:
        ctx.tick(0, 1, f"laying out {count} pre-rolled {game} character(s)")
        layout = SPACE[paper]
        if game == "dungeoneer":
            sheets = [dungeoneer_view(ctx.content, layout, c, kicker=f"Pre-rolled delver {n} · seed {ctx.seed}",
                                    legend="Grey numbers: the d66 rolls", anchor=f"sheet-{n}")
                      for n, c in enumerate(characters, start=1)]
            # The sheets name the Oracle, tags, twists, Harm & Luck, Stress and Fatigue: a page after them says
            # what each is (the delve rules every pre-rolled dungeon prints), so the stack plays as printed.
            # On A4 and Letter the rules fill half the page: the oracle's exact odds take the room left (A5's one
            # column has none; nor has the dyslexia theme's wider type, where the odds ran onto a page of their own).
            odds = oracle_odds_view() if paper != "a5" and ctx.theme not in NO_ROOM_FOR_ODDS else None
            data = sheet_pdf(ctx, "sheet_dungeoneer.html.j2", paper, False, sheets, f"Pre-rolled delvers, seed {ctx.seed}",
                             rules=delve_rules(ctx, "c"), odds=odds)
        else:
            sheets = [paperogue_view(ctx.content, layout, c, kicker=f"Pre-rolled rogue {n} · seed {ctx.seed}",
                                     legend="Grey numbers: the rolls", anchor=f"sheet-{n}")
                      for n, c in enumerate(characters, start=1)]
            data = sheet_pdf(ctx, "sheet_paperogue.html.j2", paper, False, sheets, f"Pre-rolled rogues, seed {ctx.seed}")
        outputs.append(Output(f"{stem}.pdf", data))
        ctx.tick(1, 1, "characters done")
    if "json" in formats:
        record = data_views.characters_data(game, ctx.seed, ctx.version, characters)
        outputs.append(Output(f"{stem}.json", data_views.encode_json(record)))
    return outputs


COMMANDS = (
    Command(
        name="character",
        help="pre-rolled characters: N filled sheets in one PDF, and JSON with every roll",
        run=build_characters,
        seeded=True,
        options=CharacterOptions,
        example="dungeonpress character --seed 1234 --count 4 --game dungeoneer",
        build_all=(Job({"count": 4}, seed=1234),),
        order=55,
        inputs=Inputs(tables=dungeoneer.NEEDED + dungeoneer.DURABILITY_TABLES + paperogue.NEEDED + SHEET_TABLES,
                      chapters=("delve_rules",)),  # the rules page after the sheets
        outputs=("characters-<seed>.pdf", "characters-<seed>.json"),
    ),
)
