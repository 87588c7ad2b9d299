"""The tables booklet: every random table of every pack → a compact A5 reference PDF and its booklets."""

from __future__ import annotations

import re
from dataclasses import dataclass

from dungeonpress.export import rolled_tables
from dungeonpress.views import tables as views
from dungeonpress.views.notes import OWN_TABLE_ROWS, SPARE_ID, own_table, own_table_page
from dungeonpress.products import options
from dungeonpress.paginate.book import Refit, stand_ins
from dungeonpress.products.common import BOOK_NO_FOLIOS_CSS, BOOK_NO_HEADS_CSS, BuildContext, Command, Inputs, Job, \
    Output, PartLayout, layout, template_globals, write

# The spare pages that pad the booklet to a multiple of four (those not needed are dropped from the end): empty
# tables to write one's own in, a d66 one, then a d6 and a 2d6, then another d66, rather than bare ruled notes (large
# print p138 and p139, standard p62 and p63, were two Notes pages before the back cover).
SPARE_PAGES = (("d66",), ("d6", "2d6"), ("d66",))
# Empty rows for creatures of one's own under the bestiary at a glance (tables.css: .own-creatures), in CSS px: a row,
# and the block's title, note (two lines at large print's 14 pt) and header with the space above them.
OWN_CREATURE_ROW_PX = 9 * 96 / 25.4
OWN_CREATURES_HEAD_PX = 42 * 96 / 25.4
MIN_OWN_CREATURES = 4  # fewer rows than this are left white: a page that full needs none (the standard booklet's p61)
# A table of one's own in the white a table leaves when the next opens overleaf (tables.css: .own-after), in CSS px: its
# title and note (a line each at large print's 14 pt) with the space above them, its name line, and a row.
OWN_TABLE_HEAD_PX = 16 * 96 / 25.4
OWN_TABLE_NAME_PX = 8.5 * 96 / 25.4
OWN_TABLE_ROW_PX = 6.6 * 96 / 25.4
OWN_TABLE_DICE = ("d66", "2d6", "d6")  # the largest that fits is chosen
# Mid-game, only a page left this much white or more gets one (at a game's end any room for one does): a page a little
# short between two tables of a game reads as a page turn, not as a gap to fill.
OWN_TABLE_WHITE = 0.5
PACK_TITLES = {"core": "Loner core", "dungeoneer": "Loner: Dungeoneer", "dungeonpress": "Loner: Dungeoneer, filled tables",
               "paperogue": "Paperogue", "dunginoes": "Dunginoes", "solo-turns": "Solo turn procedure"}


def build_tables_booklet(ctx: BuildContext, opts: options.PrintShopOptions, by_parts: bool = True) -> list[Output]:
    """`tables.pdf` (A5 pages) and `tables-booklet-a4.pdf` / `-letter.pdf` (saddle-stitch).

    `by_parts` (the way it is made): each game's tables laid out as a document of their own, in the run's part workers,
    and bound (lay_out_parts); otherwise the booklet laid out whole, as one document (what the parts are checked
    against)."""
    from dungeonpress import impose  # loaded when a product is made, not for --help
    if by_parts and hasattr(ctx.run_parts, "start"):  # its workers import WeasyPrint while the HTML is made
        ctx.run_parts.start()
    booklet = Booklet.of(ctx, opts)
    reading = lay_out_parts(ctx, opts, booklet) if by_parts else lay_out_whole(ctx, opts, booklet)
    return [Output("tables.pdf", reading),
            *(Output(f"tables-{opts.binding}-{paper}.pdf",
                     impose.impose_bound(reading, paper, opts.signatures, creep_mm=opts.creep_mm,
                                         reading_copy=ctx.named("tables.pdf")))
              for paper in ("a4", "letter"))]


@dataclass(frozen=True)
class Booklet:
    """What the booklet shows, in order: the games' sections of tables (core first), and the bestiary at a glance."""

    context: dict  # the template's context (its globals, the sections, the bestiary, the spare pages)

    @property
    def sections(self) -> list:
        return self.context["sections"]

    @property
    def bestiary(self) -> list:
        return self.context["bestiary"]

    @classmethod
    def of(cls, ctx: BuildContext, opts: options.PrintShopOptions) -> "Booklet":
        # Group the rolled tables by the game they come from (core first), then by their group, in title order.
        by_origin: dict[str, list] = {}
        for table in sorted(rolled_tables(ctx.content), key=lambda t: (t.group, views.title_order(t.title))):
            by_origin.setdefault(table.origin, []).append(
                views.table_view(table, ctx.content, large=ctx.theme == "large-print"))
        order = list(PACK_TITLES)  # then a user pack's own credits, whatever text they are
        origins = sorted(by_origin, key=lambda o: (order.index(o) if o in order else len(order), o))
        sections = [{"title": PACK_TITLES.get(o, o), "title_parts": views.title_parts(PACK_TITLES.get(o, o)),
                     "anchor": "pack-" + re.sub(r"[^a-z0-9-]+", "-", o.lower()), "tables": by_origin[o]}
                    for o in origins]
        sections = with_own_tables(sections, {})  # none yet: laying out finds where they go (fitted)
        bestiary = [views.creature_view(c) for c in ctx.content.creatures]
        context = template_globals(ctx, TEMPLATE) | dict(
            sections=sections, bestiary=bestiary, own_creatures=[], notes_pages=spare_pages(),
            digest=ctx.content.digest[:12], page_css=opts.page_css(), stacked_glance=ctx.theme == "large-print",
            moved=None)
        return cls(context)


TEMPLATE = "tables.html.j2"
# A part prints neither page numbers nor running heads: where it falls is not known while it is laid out, and the
# furniture (paginate.book) prints both, the heads from the strings each page sets.
NO_FURNITURE_CSS = f"{BOOK_NO_FOLIOS_CSS} {BOOK_NO_HEADS_CSS}"
# The contents' page numbers, printed from the numbers paginate.book gives (target-counter does not reach another part).
CONTENTS_NUMBERS_CSS = '.contents .last::after { content: leader(". ") attr(data-page); }'


@dataclass(frozen=True)
class PartHtml:
    """The booklet's template for one part, rendered in whichever process lays it out (plain values, sent to a
    worker): `part` is "front", "section", "bestiary", "back" or "furniture"; None the whole booklet."""

    templates_dir: str
    context: dict
    css: str  # the part's CSS (paginate.book.part_css and NO_FURNITURE_CSS), "" for the booklet laid out whole
    part: str | None = None

    def render(self, **overrides) -> str:
        from dungeonpress import render  # loaded when a product is made, not for --help
        from pathlib import Path
        return render.render_template(Path(self.templates_dir), TEMPLATE, **(self.context | overrides),
                                      part=self.part, part_css=self.css)

    def own_tables_html(self, own_creatures: int = 0, own_tables: dict | None = None, moved: list | None = None) -> str:
        """The part with `own_creatures` rows for creatures of one's own and the tables of one's own `own_tables`
        (anchor -> die) in it; or, with `moved`, those alone, each on its page (moved_own_tables)."""
        html = self.render(sections=with_own_tables(self.context["sections"], own_tables or {}),
                           own_creatures=list(range(own_creatures)), moved=moved)
        return html if moved else stand_ins(html)[0]  # as paginate.book made the part's first layout


@dataclass(frozen=True)
class OwnTablesRefit(Refit):
    """A part's tables, and the bestiary, ending in tables and rows of one's own where their pages leave room (fitted):
    done in the worker that lays the part out, on its own pages."""

    page: PartHtml
    key = "own tables"

    def refit(self, rendered, lay_out):
        return fitted(rendered, lay_out, self.page.own_tables_html, self.page.context["sections"],
                      self.page.context["bestiary"])


def lay_out_parts(ctx: BuildContext, opts: options.PrintShopOptions, booklet: Booklet) -> bytes:
    """The reading PDF, padded to whole sheets: the front (cover and contents, its page numbers a second pass), each
    game's section, the bestiary and the back (the spare pages, just enough kept to fold whole sheets, and the back
    cover) laid out apart (paginate.book), in the run's part workers, and bound. Each opens the page after the part
    before it, whichever side that is; the booklet's two sides differ only in their margins, so none is laid out
    twice for its side (paginate.book's `mirrored`) unless the pages have a bleed, whose printer's marks do not move."""
    from dungeonpress.paginate import book
    templates = str(ctx.templates_dir)

    def page(css: str, part: str, **context) -> PartHtml:
        return PartHtml(templates, booklet.context | context, f"{css} {NO_FURNITURE_CSS}", part)

    def front(css: str, numbers: dict) -> str:
        return page(f"{css} {CONTENTS_NUMBERS_CSS}", "front").render(page_numbers=book.page_numbers(numbers))

    def section(n: int) -> book.Part:
        shown = booklet.sections[n]

        def own(css: str, numbers: dict) -> OwnTablesRefit:
            return OwnTablesRefit(page(css, "section", sections=[shown], bestiary=[]))
        return book.Part(shown["anchor"], lambda css, numbers: own(css, numbers).page.render(), either_side=True,
                         refit=own)

    def bestiary(css: str, numbers: dict) -> OwnTablesRefit:
        return OwnTablesRefit(page(css, "bestiary", sections=[]))

    parts = [book.Part("front", front, numbered=True),
             *[section(n) for n in range(len(booklet.sections))],
             *([book.Part("bestiary", lambda css, numbers: bestiary(css, numbers).page.render(), either_side=True,
                          refit=bestiary)] if booklet.bestiary else []),
             book.Part("back", lambda css, numbers: page(css, "back").render(), either_side=True)]
    furniture = book.Part("furniture", lambda css, numbers: PartHtml(templates, booklet.context, css,
                                                                     "furniture").render())
    worker = PartLayout(ctx.templates_dir, tuple(ctx.roots), ctx.max_pages, opts.pdf_x)
    run = ctx.run_parts or (lambda fn, jobs: [fn(job) for job in jobs])
    reading, laid = book.lay_out_book(parts, lambda jobs: run(worker, jobs), furniture=furniture,
                                      cache=ctx.part_cache, pad_to=4, name="tables.pdf",
                                      laid_out=getattr(ctx.run_parts, "release", None), heads=True,
                                      mirrored=not opts.page_css())
    ctx.warnings.extend(warning for part in laid for warning in part.warnings)
    return reading


def lay_out_whole(ctx: BuildContext, opts: options.PrintShopOptions, booklet: Booklet) -> bytes:
    """The reading PDF, padded to whole sheets, laid out as one document."""
    from dungeonpress.paginate import pages
    whole = PartHtml(str(ctx.templates_dir), booklet.context, "")
    rendered = fitted(layout(ctx, whole.render()), lambda html: layout(ctx, html), whole.own_tables_html,
                      booklet.sections, booklet.bestiary)
    return write(ctx, pages.pad_to_multiple(rendered, 4, "tables.pdf"), print_shop=opts.pdf_x)


def fitted(rendered, lay_out, html, sections: list, bestiary: list):
    """`rendered` (the booklet, or a part of it, laid out by `lay_out(html)`) with empty rows for creatures of one's
    own where the bestiary's last page has room for a few (dyslexia-friendly p71 was 43% full), and, where a table
    leaves a game's last page, or half a page, white before the next opens overleaf (large print p71, p115, p130 were
    40-58% full), an empty table of one's own in that room. `html(own_creatures, own_tables, moved)` is its HTML with
    them (tables.html.j2). Kept where every table and page stays where it was."""
    from dungeonpress import pdf  # loaded when a product is made, not for --help
    measured = pdf.measure(rendered)
    own = own_creature_rows(measured, bestiary)
    tables_own = own_table_dice(measured, sections, bestiary)
    if tables_own or own:
        # Only the tables and creature rows of one's own laid out, and moved into the white they were chosen for: the
        # booklet is not laid out again (a second layout of 64 pages for the standard theme's one empty table, of 76
        # for the dyslexia-friendly theme's creature rows). Where one cannot be moved or does not fit there, the booklet
        # is laid out afresh and again with them, as below.
        moved = moved_own_tables(rendered, measured, tables_own,
                                 lambda plan: lay_out(html(own_tables=tables_own, moved=plan)),
                                 own_creatures=own, bestiary=bestiary)
        if moved:
            tables_own, own = {}, 0
        elif moved is None:
            rendered = lay_out(html())  # some were moved in before one could not be
    for _ in range(2):  # a table of one's own that ran overleaf is made a die smaller, once, then all are left out
        if not own and not tables_own:
            break
        again = lay_out(html(own, tables_own))
        overflowed = run_over(measured, pdf.measure(again), sections, tables_own)
        if not overflowed:
            if again.page_count == rendered.page_count:
                rendered = again
            break
        tables_own = smaller_own_tables(tables_own, overflowed) if _ == 0 else {}
    return rendered


def own_creature_rows(measured, bestiary: list) -> int:
    """How many empty rows for creatures of one's own fit under the bestiary's last row, with their title, note and
    header (0 when fewer than MIN_OWN_CREATURES do: the page is full enough)."""
    from dungeonpress.paginate import pages  # loaded when a product is made, not for --help
    if not bestiary:
        return 0
    room = pages.room_under(measured, f"creature-{bestiary[-1]['key']}")
    rows = int((room - OWN_CREATURES_HEAD_PX) // OWN_CREATURE_ROW_PX)
    return rows if rows >= MIN_OWN_CREATURES else 0


def table_anchors(sections: list, bestiary: list) -> list:
    """Every section's heading and tables, then the bestiary's heading, in the booklet's order (their anchors)."""
    anchors = [anchor for section in sections for anchor in (section["anchor"], *(t["anchor"] for t in section["tables"]))]
    return anchors + (["bestiary-table"] if bestiary else [])


def own_table_dice(measured, sections: list, bestiary: list) -> dict:
    """The tables to follow with an empty table of one's own (table anchor -> its die): those whose last page the next
    table leaves white, by opening overleaf, with room for one (the largest die that fits); mid-game only where that
    white is OWN_TABLE_WHITE of the page or more, at a game's end wherever one fits."""
    from dungeonpress.paginate import pages  # loaded when a product is made, not for --help
    anchors = table_anchors(sections, bestiary)
    openers = {section["anchor"] for section in sections} | {"bestiary-table"}
    chosen = {}
    for anchor, (room, share) in pages.white_before_turns(measured, anchors).items():
        if anchor in openers:
            continue
        following = anchors[anchors.index(anchor) + 1] if anchors.index(anchor) + 1 < len(anchors) else None
        if following is not None and following not in openers and share < OWN_TABLE_WHITE:
            continue
        fits = [die for die in OWN_TABLE_DICE
                if OWN_TABLE_HEAD_PX + OWN_TABLE_NAME_PX + OWN_TABLE_ROWS[die] * OWN_TABLE_ROW_PX <= room]
        if fits:
            chosen[anchor] = fits[0]
    return chosen


OWN_CREATURES = "own-creatures"  # the creature rows' block (tables.html.j2), which follows the bestiary's section
BESTIARY_SECTION = "bestiary"  # the class of the bestiary's section, which the creature rows follow


def moved_own_tables(rendered, measured, own_tables: dict, lay_out_moved, own_creatures: int = 0,
                     bestiary: list | None = None) -> bool | None:
    """Move each table of one's own (own_tables: the anchor of the table it follows -> its die) into `rendered` under
    its table, on the page that table ends on, and `own_creatures` rows for creatures of one's own under the bestiary's
    section, on its last page, from `lay_out_moved(plan)`: a layout of them alone, each on that page (plan: [(an item
    for each page break before it, its view: a table of one's own, or {"own_creatures": its rows})]).

    True when every one is moved and ends on its page above the text's foot, as laying the booklet out again with
    them puts it; False, changing nothing, where that cannot be told (two on one page, a table the layout lacks, or
    the first refused); None where some were moved before one could not be: `rendered` is then no longer the booklet
    laid out without them."""
    from dungeonpress import pdf  # loaded when a product is made, not for --help
    from dungeonpress.paginate import pages
    ends = pages.anchor_pages(measured)
    if any(anchor not in ends for anchor in own_tables):
        return False
    at = {anchor: ends[anchor][-1] for anchor in own_tables}
    views = {anchor: {"own": {"anchor": f"own-after-{anchor}", "table": own_table(own_tables[anchor])}}
             for anchor in own_tables}
    # Each one's move: what it follows (an element's id, or a class), its own class, and whether it follows a class.
    moves = {anchor: (anchor, "own-after", False) for anchor in own_tables}
    if own_creatures:
        last = f"creature-{bestiary[-1]['key']}" if bestiary else None
        if last not in ends:
            return False
        at[OWN_CREATURES] = ends[last][-1]
        views[OWN_CREATURES] = {"own_creatures": list(range(own_creatures))}
        moves[OWN_CREATURES] = (BESTIARY_SECTION, OWN_CREATURES, True)
    order = sorted(at, key=at.get)
    if len(set(at.values())) != len(order):
        return False
    plan, page = [], 0
    for anchor in order:
        plan.append((list(range(at[anchor] - page)), views[anchor]))
        page = at[anchor]
    source = lay_out_moved(plan)
    moved = 0
    for anchor in order:
        after, cls, by_class = moves[anchor]
        if not pdf.moved_across(rendered, source, at[anchor], after, cls, by_class=by_class):
            return None if moved else False
        moved += 1
    placed = pdf.measure(rendered)
    for anchor in order:
        box = placed[at[anchor]].boxes.get(OWN_CREATURES if anchor == OWN_CREATURES else f"own-after-{anchor}")
        if box is None or box[1] > placed[at[anchor]].text_bottom + 0.01:
            return None
    return True


def with_own_tables(sections: list, own_tables: dict) -> list:
    """The sections with each table's `own`: the empty table of one's own that follows it (own_tables: anchor -> die),
    or None."""
    return [section | {"tables": [table | {"own": {"anchor": f"own-after-{table['anchor']}",
                                                   "table": own_table(own_tables[table["anchor"]])}
                                           if table["anchor"] in own_tables else None}
                                  for table in section["tables"]]}
            for section in sections]


def run_over(before, after, sections: list, own_tables: dict) -> list:
    """The tables whose table of one's own (own_tables: anchor -> die) is not on the page the table ends on in `after`,
    laid out with them; all of them when a section or table of `before` (laid out without) no longer starts on its page."""
    from dungeonpress.paginate import pages  # loaded when a product is made, not for --help
    was, now = pages.anchor_pages(before), pages.anchor_pages(after)
    placed = [anchor for anchor in table_anchors(sections, []) if anchor in was]
    if any(now.get(anchor, [None])[0] != was[anchor][0] for anchor in placed):
        return list(own_tables)
    return [anchor for anchor in own_tables if now.get(f"own-after-{anchor}", [None])[0] != was[anchor][-1]]


def smaller_own_tables(own_tables: dict, overflowed: list) -> dict:
    """`own_tables` with each table of `overflowed` a die smaller (OWN_TABLE_DICE), or left out after a d6."""
    smaller = dict(own_tables)
    for anchor in overflowed:
        rest = OWN_TABLE_DICE[OWN_TABLE_DICE.index(smaller.pop(anchor)) + 1:]
        if rest:
            smaller[anchor] = rest[0]
    return smaller


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
        book=True,
    ),
)
