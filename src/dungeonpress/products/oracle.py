"""The oracle card: the oracle's rules → a one-page A6 card with the answer grid and its exact odds."""

from __future__ import annotations

from dungeonpress.products.common import BuildContext, Command, Inputs, Job, NoOptions, Output, pdf_from_template
from dungeonpress.views.oracle import oracle_odds_view, oracle_strip_view


def build_oracle_card(ctx: BuildContext, opts: NoOptions) -> list[Output]:
    """`oracle-card.pdf`: every number on it computed from generate.oracle, none typed by hand."""
    return [Output("oracle-card.pdf", pdf_from_template(ctx, "oracle_card.html.j2", oracle=oracle_strip_view(),
                                                        odds=oracle_odds_view()))]


COMMANDS = (
    Command(
        name="oracle",
        help="the oracle on one A6 card: the answer grid with Conflict harm, and the exact odds (oracle-card.pdf)",
        run=build_oracle_card,
        example="dungeonpress oracle",
        build_all=(Job(),),
        order=95,
        inputs=Inputs(),  # every number on it is computed from the oracle's rules, none read from a table
        outputs=("oracle-card.pdf",),
    ),
)
