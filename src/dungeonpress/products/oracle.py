"""The oracle card: the oracle's rules → a one-page A6 card with the answer grid and its exact odds."""

from __future__ import annotations

from dungeonpress.products.common import BuildContext, Command, Inputs, Job, NoOptions, Output, pdf_from_template
from dungeonpress.generate.oracle import TWIST_AT
from dungeonpress.views import tables as table_views
from dungeonpress.views.oracle import oracle_odds_view, oracle_strip_view


def build_oracle_card(ctx: BuildContext, opts: NoOptions) -> list[Output]:
    """`oracle-card.pdf`: every number on it computed from generate.oracle, none typed by hand."""
    # The twist table closes the card: the equal dice it counts are on the card, and it fills the card's foot.
    twist = table_views.table_view(ctx.content.table("twist"), ctx.content)
    return [Output("oracle-card.pdf", pdf_from_template(ctx, "oracle_card.html.j2", oracle=oracle_strip_view(),
                                                        odds=oracle_odds_view(), twist=twist,
                                                        counter_boxes=list(range(TWIST_AT))))]


COMMANDS = (
    Command(
        name="oracle",
        help="the oracle on one A6 card: the answer grid with Conflict harm, and the exact odds (oracle-card.pdf)",
        run=build_oracle_card,
        example="dungeonpress oracle",
        build_all=(Job(),),
        order=95,
        inputs=Inputs(tables=("twist",)),  # every number on it is computed from the oracle's rules; the twist table is read
        outputs=("oracle-card.pdf",),
    ),
)
