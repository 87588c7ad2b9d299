"""The tables booklet: every random table of every pack → a compact A5 reference PDF and its booklets."""

from __future__ import annotations

import re

from dungeonpress.export import rolled_tables
from dungeonpress.views import tables as views
from dungeonpress.views.notes import SPARE_ID, own_table_page
from dungeonpress.products import options
from dungeonpress.products.common import BuildContext, Command, Inputs, Job, Output, html_from_template, layout, \
    write

# The spare pages that pad the booklet to a multiple of four (those not needed are dropped from the end): empty
# tables to write one's own in, a d66 one, then a d6 and a 2d6, then another d66, rather than bare ruled notes (large
# print p138 and p139, standard p62 and p63, were two Notes pages before the back cover).
SPARE_PAGES = (("d66",), ("d6", "2d6"), ("d66",))
# Empty rows for creatures of one's own under the bestiary at a glance (tables.css: .own-creatures), in CSS px: a row,
# and the block's title, note (two lines at large print's 14 pt) and header with the space above them.
OWN_CREATURE_ROW_PX = 9 * 96 / 25.4
OWN_CREATURES_HEAD_PX = 42 * 96 / 25.4
MIN_OWN_CREATURES = 4  # fewer rows than this are left white: a page that full needs none (the standard booklet's p61)
PACK_TITLES = {"core": "Loner core", "dungeoneer": "Loner: Dungeoneer", "dungeonpress": "Loner: Dungeoneer, filled tables",
               "paperogue": "Paperogue", "dunginoes": "Dunginoes", "solo-turns": "Solo turn procedure"}


def build_tables_booklet(ctx: BuildContext, opts: options.PrintShopOptions) -> list[Output]:
    """`tables.pdf` (A5 pages) and `tables-booklet-a4.pdf` / `-letter.pdf` (saddle-stitch)."""
    from dungeonpress import impose, pdf  # loaded when a product is made, not for --help
    from dungeonpress.paginate import pages
    # 1. Group the rolled tables by the game they come from (core first), then by their group.
    by_origin: dict[str, list] = {}
    for table in sorted(rolled_tables(ctx.content), key=lambda t: (t.group, t.title)):
        by_origin.setdefault(table.origin, []).append(views.table_view(table, ctx.content, large=ctx.theme == "large-print"))
    order = list(PACK_TITLES)  # then a user pack's own credits, whatever text they are
    origins = sorted(by_origin, key=lambda o: (order.index(o) if o in order else len(order), o))
    sections = [{"title": PACK_TITLES.get(o, o), "title_parts": views.title_parts(PACK_TITLES.get(o, o)), "anchor": "pack-" + re.sub(r"[^a-z0-9-]+", "-", o.lower()), "tables": by_origin[o]} for o in origins]
    bestiary = [views.creature_view(c) for c in ctx.content.creatures]

    def booklet_html(own_creatures: int = 0) -> str:
        return html_from_template(ctx, "tables.html.j2", sections=sections, bestiary=bestiary,
                                  own_creatures=list(range(own_creatures)), notes_pages=spare_pages(),
                                  digest=ctx.content.digest[:12], page_css=opts.page_css(),
                                  stacked_glance=ctx.theme == "large-print")

    # 2. Lay out. Where the bestiary's last page has room for a few rows (dyslexia-friendly p71 was 43% full), it ends
    #    in empty rows to write one's own creatures in; laid out again with them, kept if the pages stay as they were.
    rendered = layout(ctx, booklet_html())
    own = own_creature_rows(pdf.measure(rendered), bestiary)
    if own:
        again = layout(ctx, booklet_html(own))
        if again.page_count == rendered.page_count:
            rendered = again

    # 3. Pad to whole sheets and impose.
    reading = write(ctx, pages.pad_to_multiple(rendered, 4, "tables.pdf"), print_shop=opts.pdf_x)
    return [Output("tables.pdf", reading),
            *(Output(f"tables-{opts.binding}-{paper}.pdf",
                     impose.impose_bound(reading, paper, opts.signatures, creep_mm=opts.creep_mm,
                                         reading_copy=ctx.named("tables.pdf")))
              for paper in ("a4", "letter"))]


def own_creature_rows(measured, bestiary: list) -> int:
    """How many empty rows for creatures of one's own fit under the bestiary's last row, with their title, note and
    header (0 when fewer than MIN_OWN_CREATURES do: the page is full enough)."""
    from dungeonpress.paginate import pages  # loaded when a product is made, not for --help
    if not bestiary:
        return 0
    room = pages.room_under(measured, f"creature-{bestiary[-1]['key']}")
    rows = int((room - OWN_CREATURES_HEAD_PX) // OWN_CREATURE_ROW_PX)
    return rows if rows >= MIN_OWN_CREATURES else 0


def spare_pages() -> list:
    """The booklet's spare pages (ids notes-1…, as paginate.pages looks for): pages of empty tables."""
    return [own_table_page(f"{SPARE_ID}{n}", dice) for n, dice in enumerate(SPARE_PAGES, start=1)]


COMMANDS = (
    Command(
        name="tables",
        parent="build",
        help="every random table of the system as a compact A5 reference booklet (build/tables.pdf)",
        run=build_tables_booklet,
        options=options.PrintShopOptions,
        example="dungeonpress build tables",
        build_all=(Job(),),
        order=20,
        inputs=Inputs(every=True),
        outputs=("tables.pdf", "tables-booklet-a4.pdf", "tables-booklet-letter.pdf"),
    ),
)
