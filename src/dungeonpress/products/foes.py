"""Foe and NPC cards: the bestiary, or a rolled dungeon's inhabitants and rivals → sheets of cut-out cards."""

from __future__ import annotations

from dataclasses import dataclass

from dungeonpress.dice import sub_rng
from dungeonpress.generate import character as rivals, dungeon as dungeons
from dungeonpress.products import options
from dungeonpress.products.common import BuildContext, Command, Inputs, Job, Output, pdf_from_template
from dungeonpress.views import foes as views
from dungeonpress.views import tables as table_views
from dungeonpress.views.oracle import oracle_strip_view

DECKS = ("bestiary", "dungeon")
SIZES = tuple(views.CARD_SIZES)
DEFAULT_PAPER = {"3x5": "letter", "a7": "a4"}  # index cards are an American size, A7 an ISO one
DEFAULT_ROOMS = 8  # as `dungeonpress dungeon`: the same seed and rooms give the same inhabitants
RIVALS = 2  # rival delvers rolled for a dungeon deck
TWIST_AT = 3  # the twist counter's boxes: at three marks, a twist (rulebook, The Twist Counter)


@dataclass(frozen=True)
class FoesOptions(options.Options):
    deck: str | None = options.option(None, "bestiary (every creature) or dungeon (one rolled dungeon's "
                                            "inhabitants and rivals, from --seed); default: bestiary", choices=DECKS)
    size: str | None = options.option(None, "card size: 3x5 (inches) or a7; default: both", choices=SIZES)
    paper: str | None = options.paper(help="sheet to print on (default: letter for 3x5 cards, a4 for A7)")
    rooms: int | None = options.option(None, f"rooms of the rolled dungeon (default: {DEFAULT_ROOMS}; --deck dungeon)",
                                       min=2, max=40)


def build_foes(ctx: BuildContext, opts: FoesOptions) -> list[Output]:
    """One PDF of card sheets per size: the deck's cards (eight A7 or four 3x5 a sheet, cut marks shared),
    an oracle and a twist card, and blank foe cards making the last sheet whole."""
    deck = opts.deck or "bestiary"
    aids = [{"kind": "oracle", "title": "Oracle", "oracle": oracle_strip_view()},
            {"kind": "twist", "title": "Twist", "table": table_views.table_view(ctx.content.table("twist"),
                                                                                 ctx.content, note=False),
             "counter_boxes": list(range(TWIST_AT))}]
    outputs = []
    for size in opts.chosen("size"):
        paper = opts.paper or DEFAULT_PAPER[size]
        geometry = views.sheet_geometry(size, paper)
        cards, label = deck_cards(ctx, deck, opts.rooms or DEFAULT_ROOMS, per_sheet=geometry["per_sheet"],
                                  extra=len(aids))
        cards = views.with_blanks([views.fit_text(card, size, ctx.theme) for card in cards] + aids, geometry["per_sheet"])
        data = pdf_from_template(ctx, "foes.html.j2", sheets=views.sheets(cards, geometry), geometry=geometry,
                                 size=size, paper=paper, deck_label=label,
                                 doc_title=f"Foe and NPC cards: {label} ({size.upper()} cards)")
        outputs.append(Output(f"foe-cards-{deck if deck == 'bestiary' else f'dungeon-{ctx.seed}'}-{size}-{paper}.pdf",
                              data))
    return outputs


def deck_cards(ctx: BuildContext, deck: str, rooms: int, per_sheet: int = 8, extra: int = 2) -> tuple[list, str]:
    """The creature and rival cards of a deck, and its name as printed on the cards.

    A dungeon deck rolls two rivals, or one when the second would be the only card on a sheet of its own
    (with the `extra` cards that follow the deck's).
    """
    if deck == "bestiary":
        return [views.creature_card(c) for c in ctx.content.creatures], "the bestiary"
    from dungeonpress.generate.character import generate_character
    from dungeonpress.products.dungeon import roll_dungeon  # the very dungeon `dungeonpress dungeon` rolls
    dungeon = roll_dungeon(ctx, ctx.seed, rooms)
    cards = [views.creature_card(creature, where) for creature, where in views.inhabitants(dungeon)]
    rivals = RIVALS - 1 if (len(cards) + RIVALS + extra) % per_sheet == 1 else RIVALS
    cards += [views.rival_card(generate_character(ctx.content, sub_rng(ctx.seed, "rival", str(n))), n)
              for n in range(1, rivals + 1)]
    # Cut out, a dungeon's cards still say which dungeon they belong to.
    return [card | {"deck": f"seed {ctx.seed}"} for card in cards], f"{dungeon.name} (seed {ctx.seed})"


COMMANDS = (
    Command(
        name="foes",
        help="foe and NPC cards to cut out: the bestiary or a rolled dungeon's inhabitants, 3x5 in or A7, "
             "with an oracle and a twist card (foe-cards-*.pdf)",
        run=build_foes,
        options=FoesOptions,
        seeded=True,
        example="dungeonpress foes --deck dungeon --seed 1234 --size a7",
        build_all=(Job(seed=1234), Job({"deck": "dungeon", "size": "a7"}, seed=1234)),
        order=96,
        # the twist card; a dungeon deck rolls the dungeon `dungeon` rolls and rival delvers
        inputs=Inputs(tables=("twist", *dungeons.NEEDED, *rivals.NEEDED, *rivals.DURABILITY_TABLES)),
        outputs=("foe-cards-bestiary-<size>-<paper>.pdf", "foe-cards-dungeon-<seed>-<size>-<paper>.pdf"),
    ),
)
