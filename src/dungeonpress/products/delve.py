"""The solo turn-procedure kit: content and a seed → procedure card and turn-log PDF, and a pre-rolled delve log."""

from __future__ import annotations

from dataclasses import dataclass

from dungeonpress.dice import sub_rng
from dungeonpress.generate import delve
from dungeonpress.products import options
from dungeonpress.views import tables as views
from dungeonpress.views.delve import appendices_view, delve_view, log_pages_view
from dungeonpress.products.common import BuildContext, Command, Inputs, Job, Output, html_from_template, layout, \
    pdf_from_template, write
from dungeonpress.views.notes import grid_page, notes_view

TURNS = (1, 200)
DEFAULT_TURNS = 36


@dataclass(frozen=True)
class DelveOptions(options.Options):
    turns: int = options.option(DEFAULT_TURNS, f"turns to pre-roll, {TURNS[0]}-{TURNS[1]} (default {DEFAULT_TURNS})",
                                min=TURNS[0], max=TURNS[1])
    light: str = options.option("torch", "the light source carried (default torch)", choices=delve.LIGHTS)
    no_map: bool = options.switch("the delver does not map: wandering checks every fourth turn, 1 in 10 a turn "
                                  "to get lost")


def build_delve(ctx: BuildContext, opts: DelveOptions) -> list[Output]:
    """The procedure card with appendices and blank turn log, and one pre-rolled delve log."""
    from dungeonpress import pdf  # loaded when a product is made, not for --help
    from dungeonpress.paginate import pages
    # 1. Check that the content has every table, column and monster line the procedure rolls on.
    turns, light, mapping = opts.turns, opts.light, not opts.no_map
    delve.check_content(ctx.content)
    seed = ctx.seed if ctx.seed is not None else 0

    # 2. The card, appendices A-F with every table they name, and the blank turn log.
    ctx.tick(0, 2, "solo procedure card")
    tables = {name: views.table_view(ctx.content.table(name), ctx.content) for name in delve.TABLES}
    appendices = appendices_view(ctx.content, lambda table: tables[table.id])
    # Spare turn-log pages make up a booklet that folds in fours, whatever the look's type size.
    booklet = layout(ctx, html_from_template(ctx, "delve_procedure.html.j2", tables=tables, appendices=appendices,
                                             log_pages=log_pages_view()))
    card = write(ctx, pages.pad_to_multiple(booklet, 4, "solo-procedure.pdf"))
    # The card alone, both sides, to print on card stock and keep at the table.
    card_only = pdf_from_template(ctx, "delve_procedure.html.j2", tables=tables, appendices=[], log_pages=[],
                                  card_only=True)

    # 3. The pre-rolled delve, from its own stream of the seed.
    ctx.tick(1, 2, "rolling the delve")
    rolled = delve.generate_delve(sub_rng(seed, "delve"), ctx.content, turns=turns, light=light, mapping=mapping)
    # A long log (or a large look) runs past four pages: notes pages make it fold in fours too. It is
    # laid out again with just the notes it needs, so its "page n of m" counts the pages printed.
    log_view = delve_view(rolled, seed)
    rendered = layout(ctx, html_from_template(ctx, "delve_log.html.j2", delve=log_view, notes_pages=[]))
    notes = spare_pages(-rendered.page_count % 4, log_view) if rendered.page_count > 4 and rendered.page_count % 4 else []
    # The way out ends the log part-way down its page: the room left takes a grid to map on (laid out again with
    # it, the page count kept; else without), so the last page is not left half white.
    map_height = log_map_height(pdf.measure(rendered))
    if notes or map_height:
        # With a page of squares to follow for every level, the room under the way out takes ruled lines for notes,
        # not one more grid; with fewer, its grid maps the first level.
        lines = sum("grid" in page for page in notes) >= log_view["deepest"]
        again = layout(ctx, html_from_template(ctx, "delve_log.html.j2", delve=log_view, notes_pages=notes,
                                               map_height=map_height, way_out_lines=lines))
        if map_height and again.page_count != rendered.page_count + len(notes):
            again = layout(ctx, html_from_template(ctx, "delve_log.html.j2", delve=log_view, notes_pages=notes))
        rendered = again
    log = write(ctx, pages.pad_to_multiple(rendered, 4, f"delve-{seed}.pdf") if rendered.page_count > 4 else rendered)
    ctx.tick(2, 2, "delve done")
    return [Output("solo-procedure.pdf", card), *booklets(ctx, card, "solo-procedure"),
            Output("solo-procedure-card.pdf", card_only),
            Output(f"delve-{seed}.pdf", log), *booklets(ctx, log, f"delve-{seed}")]


def booklets(ctx: BuildContext, reading: bytes, name: str) -> list[Output]:
    """The A5 pages imposed two to a side for saddle stitching on A4 and on US Letter (at 100%, as the other A5
    booklets), to print at home and fold: none for a log shorter than one folded sheet (fewer than four pages)."""
    from dungeonpress import impose  # loaded when a product is made, not for --help
    if impose.page_count(reading) % 4:
        return []
    return [Output(f"{name}-booklet-{paper}.pdf",
                   impose.impose_booklet(reading, paper, reading_copy=ctx.named(f"{name}.pdf")))
            for paper in ("a4", "letter")]


LOG_GRID_SQUARES = (25, 32)  # 125 x 160 mm: a log page's text block (126 mm wide) under its heading, in every theme


def spare_pages(count: int, log_view: dict) -> list:
    """The `count` pages a delve log is padded with: a page of squares for each level a mapping delver reaches (the
    deepest ones when there are fewer pages than levels), then ruled notes. Three pages of bare lines were the back of
    the dyslexia-friendly log of seed 1234 (five pages of log, then Notes, Notes, Notes)."""
    maps = min(count, log_view["deepest"]) if log_view["mapping"] else 0
    pages = notes_view(count)
    for n, page in enumerate(pages[:maps]):
        level = log_view["deepest"] - maps + n + 1
        pages[n] = grid_page(page["id"], heading=f"Map · Level {level}", squares=LOG_GRID_SQUARES)
    return pages


LOG_FOOT_MM = 13.0  # delve.css: the log page's bottom margin
MAP_GAP_MM = 5.0  # the grid's margin above it and a little to spare
MIN_MAP_MM = 30.0  # less room than this is left white: a grid this small maps nothing
PX_PER_MM = 96 / 25.4


def log_map_height(measured) -> str:
    """The height (a CSS length) of the grid that fills the room under the way out on its page, or "" if too little."""
    from dungeonpress.paginate.pages import anchor_boxes  # loaded when a product is made, not for --help
    where = anchor_boxes(measured).get("delve-way-out")
    if where is None:
        return ""
    page, _, bottom = where
    room_mm = (measured[page].height - bottom) / PX_PER_MM - LOG_FOOT_MM - MAP_GAP_MM
    return f"{room_mm:.2f}mm" if room_mm >= MIN_MAP_MM else ""


COMMANDS = (
    Command(
        name="delve",
        help="the solo turn-procedure kit: procedure card, turn log, appendices A-F, and a pre-rolled delve log",
        run=build_delve,
        seeded=True,
        options=DelveOptions,
        example="dungeonpress delve --seed 1234 --turns 24 --light lantern --no-map",
        build_all=(Job(seed=1234),),
        order=90,
        inputs=Inputs(tables=tuple(delve.NEEDED) + delve.TABLES),
        outputs=("solo-procedure.pdf", "solo-procedure-booklet-a4.pdf", "solo-procedure-booklet-letter.pdf",
                 "solo-procedure-card.pdf", "delve-<seed>.pdf", "delve-<seed>-booklet-a4.pdf",
                 "delve-<seed>-booklet-letter.pdf"),
    ),
)
