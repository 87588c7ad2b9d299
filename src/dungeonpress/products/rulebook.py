"""The Loner: Dungeoneer rulebook: content → A5 book PDF, and its saddle-stitch booklets."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from dungeonpress.errors import RenderError
from dungeonpress.paginate.book import Tailpiece, page_numbers
from dungeonpress.views import tables as views
from dungeonpress.products import options
from dungeonpress.views.chapter import Directive, directive_block
from dungeonpress.views.notes import notes_view
from dungeonpress.views.sheet import simple_sheet_view
from dungeonpress.products.common import BOOK_NO_FOLIOS_CSS, BOOK_NO_HEADS_CSS, BuildContext, Command, Inputs, Job, \
    Output, PartLayout, html_from_template, layout

PAPERS = options.PAPERS
LAYOUTS = ("pages", "booklet")
NAME = "dungeoneer-rulebook"
MAX_NOTES = 3  # the most spare notes pages a book needs to reach a multiple of four
# Sections that open a new page of the book, before which their chapter is cut into two parts (laid out apart,
# so no worker holds the whole of a long chapter, and an edit re-lays only its half): the heading's slug.
# Adventure Tables (31 pages) at Adventure Gear and Hostile Monsters, which open its 5th and 17th pages (right-hand
# ones) in the book laid out whole: 4, 12 and 15 pages, none of them more than the longest other chapter needs. And at
# Dungeon Name Places, which opens its 30th page: the Adjectives before it leave half their page white (p88, 49%), which
# a part's end can fill with a tailpiece (a delve whose name those tables rolled) and a page inside a part cannot.
PART_BREAKS = ("adventure-gear", "hostile-monsters", "dungeon-name-places")
# The themes that set the book larger cut it where their own layout opens a page: forced at the standard book's
# headings, a cut left the page before it half white (large print Gear or Gold alone on p117, 42% full; dyslexia-
# friendly p93 54% and p103 47%). Each heading here opens a page in that theme's book laid out whole (large print:
# its 21st and 40th of 74 pages; dyslexia-friendly its 6th and 16th of 37), so the cut changes no page.
THEME_PART_BREAKS = {"large-print": ("small-creatures", "hostile-monsters"),
                     "dyslexia-friendly": ("adventure-gear", "neutral-presences")}
# The themes whose contents and chapters open on the next page, left or right, as large-print editions run on: set
# larger, their chapters end anywhere, and opening each on a right-hand page left seven or eight blank left-hand pages
# (large print p4, p28, p48, p68, p84, p106, p194, p198; dyslexia-friendly p6, p10, p34, p48, p60, p112, p126). The
# back matter still opens on a right-hand page, the quick reference where it is looked for.
EITHER_SIDE_THEMES = ("large-print", "dyslexia-friendly")
# The tables the one-page quick reference shows: (table id, the columns short enough for a half-page
# column); the oracle is told in prose there.
QUICKREF = (("twist", None), ("harm", ("answer", "harm")), ("scene_mood", None))


@dataclass(frozen=True)
class RulebookOptions(options.PrintShopOptions):
    paper: str | None = options.paper(help="booklet paper (default: both a4 and letter)")
    layout: str | None = options.layout(LAYOUTS, help="pages (A5 reading order) or booklet (imposed); default both")


def build_rulebook(ctx: BuildContext, opts: RulebookOptions) -> list[Output]:
    """The reading PDF and, unless only one layout is asked for, booklets for each paper."""
    from dungeonpress import impose  # loaded when a product is made, not for --help (WeasyPrint: in PartLayout)
    from dungeonpress.paginate import book
    # 1. Chapters: Markdown with directives → HTML, and the headings for contents and bookmarks.
    if ctx.content.book is None:
        raise RenderError("no book.yaml in the content: nothing to build (expected content/dungeoneer/book.yaml)")
    if hasattr(ctx.run_parts, "start"):  # worker processes: started now, they load WeasyPrint while the HTML is made
        ctx.run_parts.start()
    parts = book_parts(ctx, opts)

    # 2. Lay the book out part by part (front matter, each chapter, back matter with spare notes pages,
    #    just enough kept to fold into a booklet), in the build's worker processes when it has them, each
    #    part written and freed, then bound into one PDF with its page numbers stamped on.
    ctx.tick(0, 3, "laying out the rulebook")
    worker = PartLayout(ctx.templates_dir, tuple(ctx.roots), ctx.max_pages, opts.pdf_x)
    run = ctx.run_parts or (lambda fn, jobs: [fn(job) for job in jobs])
    mirrored = is_mirrored(ctx, opts)
    reading, laid = book.lay_out_book(parts, lambda jobs: run(worker, jobs), furniture=furniture_part(ctx, opts),
                                      cache=ctx.part_cache, pad_to=4, name=NAME,
                                      laid_out=getattr(ctx.run_parts, "release", None), plate=plate_html(ctx, opts),
                                      heads=mirrored, mirrored=mirrored, plate_strings=PLATE_STRINGS)
    ctx.warnings.extend(warning for part in laid for warning in part.warnings)
    ctx.tick(1, 3, "imposing booklets")

    # 3. The outputs asked for.
    layouts, papers = opts.chosen("layout"), opts.chosen("paper")
    outputs = []
    if "pages" in layouts:
        outputs.append(Output(f"{NAME}.pdf", reading))
    if "booklet" in layouts:
        for paper in papers:
            outputs.append(Output(f"{NAME}-{opts.binding}-{paper}.pdf", impose.impose_bound(
                reading, paper, opts.signatures, creep_mm=opts.creep_mm, reading_copy=ctx.named(f"{NAME}.pdf"))))
    ctx.tick(3, 3, "rulebook done")
    return outputs


def book_html(ctx: BuildContext, opts: RulebookOptions, plates_before: tuple = (), tailpieces: dict | None = None) -> str:
    """The whole book as one HTML document, with spare notes pages at its end (dropped after layout).

    `plates_before`: the chapters (0-based) or "back" that a plate faces, in order, as the book laid out part by part
    puts them where those open on a right-hand page after one (see plate_html); none, a blank page. `tailpieces`: the
    chapters' pieces ((chapter, piece), 0-based) that end in a tailpiece, each with its map's height in mm
    (tailpieces_in)."""
    plates = {where: plate_view(ctx, PLATE_SEEDS[n % len(PLATE_SEEDS)]) for n, where in enumerate(plates_before)}
    chapters = chapter_views(ctx)
    tails = {f"{chapter}/{piece}": tailpiece_figure(ctx.templates_dir, chapter_tailpiece(
        ctx, chapter, piece, chapter < 0 or piece == len(chapters[chapter]["pieces"]) - 1, "").view(height))
        for (chapter, piece), height in (tailpieces or {}).items()}
    return html_from_template(ctx, "book.html.j2", book=ctx.content.book, chapters=chapters,
                              notes_pages=notes_view(MAX_NOTES), quickref=quickref_view(ctx),
                              charsheet=simple_sheet_view(), digest=ctx.content.digest[:12], page_css=opts.page_css(),
                              either_side=ctx.theme in EITHER_SIDE_THEMES, plates=plates, tailpieces=tails)


# The contents' page numbers when the chapters are laid out apart: written by paginate.book, not target-counter.
TOC_NUMBERS_CSS = ('.toc a::after { content: leader(". ") attr(data-page); } '
                   '.toc li.l1 a::after { content: leader(" ") attr(data-page); }')
PLATE_STRINGS = (("chapter", ""),)  # what a plate's page sets (book.css .plate): no running head


def is_mirrored(ctx: BuildContext, opts: RulebookOptions) -> bool:
    """Whether the book's chapters are laid out once wherever they fall (paginate.book's `mirrored`): in the themes
    whose chapters open on either side, the heads printed over the bound pages, a chapter that lands on a left-hand
    page moved across by the 2 mm its margins differ rather than laid out again; not with a bleed, whose printer's
    marks must stay where they are."""
    return ctx.theme in EITHER_SIDE_THEMES and not opts.page_css()


def unfurnished(ctx: BuildContext, opts: RulebookOptions) -> list:
    """The CSS that leaves out of a part what the furniture prints: the page numbers, and in a mirrored book the
    running heads."""
    return [BOOK_NO_FOLIOS_CSS] + ([BOOK_NO_HEADS_CSS] if is_mirrored(ctx, opts) else [])


def _shared(ctx: BuildContext, opts: RulebookOptions) -> dict:
    return dict(book=ctx.content.book, chapters=chapter_views(ctx), notes_pages=notes_view(MAX_NOTES),
                quickref=quickref_view(ctx), charsheet=simple_sheet_view(), digest=ctx.content.digest[:12],
                page_css=opts.page_css(), either_side=ctx.theme in EITHER_SIDE_THEMES)


def book_parts(ctx: BuildContext, opts: RulebookOptions, shared: dict | None = None) -> list:
    """The book as paginate.book parts: the cover and credits, the contents (numbered last), each chapter (cut in
    pieces at its PART_BREAKS), the back matter."""
    from dungeonpress.paginate.book import Part
    shared = shared or _shared(ctx, opts)
    plated = has_plates(ctx)
    left_out = unfurnished(ctx, opts)

    def part(which, numbered=False, piece=None, tail_frame=False):
        def html(page_css: str, numbers: dict) -> str:
            pages = page_numbers(numbers)
            return html_from_template(ctx, "book.html.j2", part=which, piece=piece, toc_pages=pages if numbered else None,
                                      part_css=" ".join([page_css, *left_out] + ([TOC_NUMBERS_CSS] if numbered else [])),
                                      tail_frame=tail_frame, **shared)
        return html

    def tail(chapter: int, piece: int = 0, last: bool = True):  # a chapter, a piece of one, or (-1) the contents ends
        # in a tailpiece where its last page has room
        frame = part("contents", numbered=True, tail_frame=True) if chapter < 0 else \
            part(chapter, piece=piece, tail_frame=True)
        return lambda page_css: chapter_tailpiece(ctx, chapter, piece, last, frame(page_css, {}))

    # The cover and credits are a part of their own (two pages: the contents still open on a right-hand page):
    # the colophon prints the content's digest, which every edit changes, so an edit lays out these two pages
    # again, not the contents, which stay cached while no page number moves.
    return [Part("cover", part("cover")),
            Part("contents", part("contents", numbered=True), numbered=True, either_side=shared["either_side"],
                 tailpiece=tail(-1) if plated else None),
            *[Part(f"chapter {n}" + (f" ({piece + 1} of {len(chapter['pieces'])})" if len(chapter["pieces"]) > 1 else ""),
                   part(n - 1, piece=piece), continues=piece > 0, either_side=piece == 0 and shared["either_side"],
                   tailpiece=tail(n - 1, piece, piece == len(chapter["pieces"]) - 1) if plated else None)
              for n, chapter in enumerate(shared["chapters"], start=1) for piece in range(len(chapter["pieces"]))],
            Part("back matter", part("back"))]


def furniture_part(ctx: BuildContext, opts: RulebookOptions):
    """The book's stylesheets with its page numbers (paginate.book takes the head for the book's furniture)."""
    from dungeonpress.paginate.book import Part
    shared = _frame(ctx, opts)
    return Part("furniture", lambda page_css, numbers: html_from_template(ctx, "book.html.j2", part="furniture",
                                                                          toc_pages=None, part_css=page_css, **shared))


def _frame(ctx: BuildContext, opts: RulebookOptions) -> dict:
    """What book.html.j2 needs around a page that shows none of the book's chapters (the furniture, a plate)."""
    return dict(book=ctx.content.book, chapters=[], notes_pages=[], quickref={}, charsheet=simple_sheet_view(),
                digest=ctx.content.digest[:12], page_css=opts.page_css())


# The left-hand pages a chapter that opens on a right-hand page leaves before it (five in the standard book: before
# the Introduction, Exploration, the Dungeon Generator, Inspiration and the first appendix) were blank. Each carries a
# plate: a delve the book's own Dungeon Generator rolled, its map as large as the page allows, and the command that
# rolls it again. The seeds are fixed, so a plate is the same in every build and stays cached.
PLATE_SEEDS = (1234, 71, 107, 46, 96, 32, 58, 49)  # among seeds 1-120, delves whose maps fill the page's box most
PLATE_ROOMS = 8
PLATE_MAP_BOX = (118.0, 138.0)  # mm: the A5 page's text box less the caption and the legend
LARGE_PRINT_PLATE_MAP_BOX = (118.0, 112.0)  # large print's legend and caption take more of the page


def plate_html(ctx: BuildContext, opts: RulebookOptions):
    """plate(n, css) -> the HTML of the book's n-th plate (paginate.book.lay_out_book's `plate`), or None where the
    book has none: a book of a pack's own (its book.yaml) keeps its blank pages, the plates show this one's delves."""
    if not has_plates(ctx):
        return None
    shared = _frame(ctx, opts)
    left_out = unfurnished(ctx, opts)

    def html(n: int, css: str, before: int) -> str:  # the n-th plate, before part `before`: the same wherever it goes
        return html_from_template(ctx, "book.html.j2", part="plate", plate=plate_view(ctx, PLATE_SEEDS[n % len(PLATE_SEEDS)]),
                                  toc_pages=None, part_css=" ".join([css, *left_out]), **shared)
    return html


def has_plates(ctx: BuildContext) -> bool:
    """Whether the book is Loner: Dungeoneer's own (its chapters from the built-in content) and its generator's tables
    are there to roll the plates' delves."""
    from dungeonpress import resources
    from dungeonpress.generate.dungeon import NEEDED
    chapters = ctx.content.book.chapters
    built_in = resources.data_dir("content").resolve()
    return bool(chapters) and Path(chapters[0].source.path).resolve().is_relative_to(built_in) and \
        all(table in ctx.content.tables for table in NEEDED)


def plate_view(ctx: BuildContext, seed: int) -> dict:
    """A delve rolled from `seed` as a plate shows it: its map, legend, name and the command that rolls it again."""
    from dungeonpress.products import dungeon  # its rolls, map stream and map styles: the delve a zine of `seed` prints
    from dungeonpress.views.dungeon import dungeon_view
    rolled = dungeon.roll_dungeon(ctx, seed, PLATE_ROOMS)
    box = LARGE_PRINT_PLATE_MAP_BOX if ctx.theme == "large-print" else PLATE_MAP_BOX
    return dungeon_view(rolled, seed=seed, rooms=PLATE_ROOMS, prefix="plate", map_box=box, oracle_rows=0,
                        twists=0, d6s=0, map_rng=dungeon.map_rng(seed), map_css=dungeon.map_css(ctx),
                        map_labels=dungeon.map_labels(ctx))


# A chapter that ends with much of its last page white (the standard book's Playing the Game, Dungeon Generator,
# Creatures & Foes and Inspiration left 41-55% of theirs) ends in a tailpiece: a smaller delve its Dungeon Generator
# rolled, its map drawn to the height the white leaves, as a book sets a piece of art where a chapter ends. Each
# chapter has its seed (none of the plates'), so a chapter's pages do not depend on another's: among seeds 121-400,
# delves of six rooms whose maps are 1.3-1.8 times as wide as tall and print their squares largest in a page-wide box
# 60 mm tall.
TAILPIECE_SEEDS = (130, 147, 166, 187, 204, 213, 224, 272, 274, 278, 305, 322, 352, 392)
PIECE_TAILPIECE_SEEDS = (146, 163, 161)  # the same, for the pieces of a chapter cut at its PART_BREAKS, but its last
# The same, for the contents' last page (the standard book's p5 was 44% full): one the chapters leave, whose delve is
# not, as 276's was, "of the Chalk Downs" like the sample delve (1234) on the plate overleaf.
CONTENTS_TAILPIECE_SEED = 352
TAILPIECE_ROOMS = 6
TAILPIECE_WIDTH_MM = PLATE_MAP_BOX[0]
# Around the map: the space above the figure, its legend's first line (the map leaves room for any more) and the
# caption's two lines; the themes that set them larger take more (one that still runs past the page's text is made
# smaller by what it ran over: paginate.book). A map shorter than TAILPIECE_LEAST_MM is not drawn: the white stays.
TAILPIECE_AROUND_MM = {"standard": 24.0, "large-print": 44.0, "dyslexia-friendly": 33.0}  # other themes: standard's
TAILPIECE_LEAST_MM = 40.0
PX_PER_MM = 96 / 25.4


@dataclass(frozen=True)
class ChapterTailpiece(Tailpiece):
    """A chapter's tailpiece as its part's worker makes it (paginate.book.Tailpiece): the delve, and the chapter's
    document with TAILPIECE_SLOT where the figure and the pages before it go."""

    chapter: int  # 0-based; -1 the contents
    piece: int  # which piece of the chapter it ends (0-based; a chapter that is not cut is its own piece 0)
    seed: int
    dungeon: object  # the rolled Dungeon
    frame: str
    theme: str
    map_css: str
    map_labels: tuple
    templates_dir: str

    @property
    def holder(self) -> str:  # the element whose text the figure goes under (book.html.j2)
        return "toc" if self.chapter < 0 else "chapter"

    @property
    def key(self) -> str:
        return hashlib.sha256(repr((self.chapter, self.piece, self.seed, self.dungeon, self.frame, self.theme,
                                    self.map_css, self.map_labels)).encode()).hexdigest()

    def fragment(self, room: float, pages: int) -> str | None:
        height = tailpiece_height(self.theme, room)
        if not height:
            return None
        figure = tailpiece_figure(self.templates_dir, self.view(height))
        return self.frame.replace(TAILPIECE_SLOT, '<div style="break-after: page"></div>' * pages + figure, 1)

    def view(self, height: int) -> dict:
        """The tailpiece's delve, its map in a box as wide as the text and `height` mm tall."""
        from dungeonpress.products import dungeon  # the map stream: the delve a zine of `seed` prints
        from dungeonpress.views.dungeon import dungeon_view
        view = dungeon_view(self.dungeon, seed=self.seed, rooms=TAILPIECE_ROOMS,
                            prefix=f"tailpiece-c{self.chapter + 1}-p{self.piece + 1}",
                            map_box=(TAILPIECE_WIDTH_MM, float(height)), oracle_rows=0, twists=0, d6s=0,
                            map_rng=dungeon.map_rng(self.seed), map_css=self.map_css, map_labels=self.map_labels)
        return view | {"anchor": f"tailpiece-c{self.chapter + 1}-p{self.piece + 1}-{height}"}


TAILPIECE_SLOT = "<!--tailpiece-->"  # what book.html.j2 prints in a tail_frame where the chapter's text would be


def chapter_tailpiece(ctx: BuildContext, chapter: int, piece: int, last: bool, frame: str) -> ChapterTailpiece:
    """The tailpiece that may end piece `piece` of chapter `chapter` (both 0-based; `last`: the chapter's last piece),
    for the worker that lays it out; chapter -1 the contents. After the chapter's last piece its delve is the chapter's
    own; after a piece before it, one of PIECE_TAILPIECE_SEEDS."""
    from dungeonpress.products import dungeon  # its rolls and map styles: the delve a zine of `seed` prints
    seed = CONTENTS_TAILPIECE_SEED if chapter < 0 else TAILPIECE_SEEDS[chapter % len(TAILPIECE_SEEDS)] if last else \
        PIECE_TAILPIECE_SEEDS[piece % len(PIECE_TAILPIECE_SEEDS)]
    return ChapterTailpiece(chapter, piece, seed, dungeon.roll_dungeon(ctx, seed, TAILPIECE_ROOMS), frame, ctx.theme,
                            dungeon.map_css(ctx), dungeon.map_labels(ctx), str(ctx.templates_dir))


def tailpiece_figure(templates_dir, view: dict) -> str:
    """The tailpiece's figure (partials/tailpiece.html.j2), as the chapter's part and the book laid out whole print it."""
    from dungeonpress import render  # loaded when a product is made, not for --help
    return render.render_template(Path(templates_dir), "partials/tailpiece.html.j2", tail=view)


def tailpiece_height(theme: str, room: float) -> int:
    """The height in whole mm of the map a tailpiece draws in `room` CSS px of white, or 0 where too small a map fits."""
    around = TAILPIECE_AROUND_MM.get(theme, TAILPIECE_AROUND_MM["standard"])
    height = int(room / PX_PER_MM - around)
    return height if height >= TAILPIECE_LEAST_MM else 0


def tailpieces_in(dests) -> dict:
    """The tailpieces a rulebook holds, from its named destinations: (chapter, piece) (0-based) -> the map's height
    in mm."""
    import re
    found = (re.fullmatch(r"tailpiece-c(\d+)-p(\d+)-(\d+)", name) for name in dests)
    return {(int(m.group(1)) - 1, int(m.group(2)) - 1): int(m.group(3)) for m in found if m}


def chapter_views(ctx: BuildContext) -> list:
    """Each chapter's HTML and headings; its directives resolved to views first, then rendered. With a chapter
    cache (ctx.chapter_cache), a chapter whose inputs (chapter_inputs) are unchanged is read back, not rendered."""
    from dungeonpress import render  # loaded when a product is made, not for --help
    content = ctx.content
    creatures = None  # the bestiary's views, made when a chapter rendered here first needs them
    out = []
    for number, chapter in enumerate(content.book.chapters, start=1):
        found = list(zip(render.chapter_directives(chapter.text), render.text_round_directives(chapter.text)))
        key = chapter_inputs(ctx, number, chapter, found) if ctx.chapter_cache is not None else None
        kept = ctx.chapter_cache.get(key) if key is not None else None
        if kept is not None:
            html = render.trusted(kept[0])
            headings = [(level, render.trusted(text), anchor) for level, text, anchor in kept[1]]
        else:
            if creatures is None:
                creatures = [views.creature_view(c) for c in content.creatures]
            blocks = [directive_block(content, Directive(*named, above=above), creatures) for named, above in found]
            base = Path(chapter.source.path).resolve().parent  # the chapter's folder: its images are beside it
            # its pack's folder (the chapter's path in book.yaml is relative to it): the only place its images may be
            pack = Path(chapter.source.path).parents[len(Path(chapter.path).parts) - 1]
            html, headings = render.render_chapter(ctx.templates_dir, chapter.text, f"c{number}",
                                                   [(b.template, b.context) for b in blocks], base=base,
                                                   roots=(pack,), where=chapter.source.path, version=ctx.version)
            if key is not None:
                ctx.chapter_cache.put(key, html, headings)
        title = headings[0][1] if headings else ""
        html, pieces = cut_at_part_breaks(html, f"c{number}", where=chapter.source.path, breaks=part_breaks(ctx.theme))
        out.append({"html": html, "headings": headings, "title": title, "pieces": pieces,
                    "running_head": css_string(title.striptags() if title else "")})
    return out


def chapter_inputs(ctx: BuildContext, number: int, chapter, directives: list) -> str | None:
    """What chapter `number` reads, as text (its chapter cache key): its own text and where it is, and the content
    each of its directives (`(name, arg, heading), above` pairs) shows: a table with the tables and creatures its
    rows name, the bestiary, the media list; the odds read none. None for a directive it does not know (rendering
    says what is wrong)."""
    content = ctx.content
    read = [repr((number, chapter.path, chapter.source.path, chapter.text, str(ctx.templates_dir), ctx.version))]
    for (name, arg, heading), above in directives:
        read.append(repr((name, arg, heading, above)))
        if name == "table":
            table = content.tables.get(arg)
            rows = table.rows if table is not None else ()
            read.append(repr(table))
            read += [repr(content.tables.get(row.see)) for row in rows if row.see]
            read += [repr(_creature_or_none(content, row.creature)) for row in rows if row.creature is not None]
        elif name == "bestiary":
            read.append(repr(content.creatures))
        elif name == "media":
            read.append(repr(content.media))
        elif name != "odds":
            return None
    return "\n".join(read)


def _creature_or_none(content, key):
    try:
        return content.creature(key)
    except KeyError:
        return None


def part_breaks(theme: str) -> tuple:
    """The headings (slugs) the rulebook is cut into parts at in `theme`."""
    return THEME_PART_BREAKS.get(theme, PART_BREAKS)


def cut_at_part_breaks(html: str, prefix: str, where: str, breaks: tuple | None = None) -> tuple:
    """(the chapter's HTML, its pieces): each heading of `breaks` (PART_BREAKS if None) the chapter has opens a new
    page (its top margin dropped, as at any page top) and a piece of its own. A heading inside another element cannot
    be cut at: a RenderError naming the chapter."""
    safe = type(html)  # what render_chapter gave (markup the templates print as it is), for the pieces too
    cuts, html = [], str(html)  # plain text: Markup.replace would escape the tag put in
    for slug in PART_BREAKS if breaks is None else breaks:
        tag = f'<h2 id="{prefix}-{slug}">'
        if tag in html:
            html = html.replace(tag, f'<h2 id="{prefix}-{slug}" class="part-break">', 1)
            at = html.index(f'<h2 id="{prefix}-{slug}" ')
            if html[:at].endswith(KEEP):  # a heading kept with the table after it (render.py): cut before both
                at -= len(KEEP)
            cuts.append(at)
    cuts.sort()
    pieces = [html[a:b] for a, b in zip([0, *cuts], [*cuts, len(html)])]
    for piece in pieces[:-1]:
        if piece.count("<div") != piece.count("</div") or piece.count("<section") != piece.count("</section"):
            raise RenderError(f"{where}: a part break's heading is inside another element (expected it at the "
                              "chapter's top level)")
    return safe(html), [safe(piece) for piece in pieces]


KEEP = '<div class="keep">'  # what holds a heading and the table it opens on one page (render.py)


def css_string(text: str) -> str:
    """`text` as a CSS string (a running head set by string-set)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ") + '"'


def quickref_view(ctx: BuildContext) -> dict:
    """The tables the one-page quick reference shows, when the content has them."""
    wanted = QUICKREF
    tables = ctx.content.tables
    return {name: views.table_view(tables[name], ctx.content, columns=columns, note=False)
            | {"anchor": f"quickref-{name}"} for name, columns in wanted if name in tables}


COMMANDS = (
    Command(
        name="rulebook",
        help="the Loner: Dungeoneer rulebook: A5 reading PDF and saddle-stitch booklets",
        run=build_rulebook,
        parent="build",
        options=RulebookOptions,
        example="dungeonpress build rulebook --layout booklet --paper letter --creep 0.1mm",
        build_all=(Job(),),
        order=10,
        inputs=Inputs(tables=tuple(table_id for table_id, _ in QUICKREF), chapters=("book",)),
        book=True,
        outputs=(f"{NAME}.pdf", f"{NAME}-booklet-a4.pdf", f"{NAME}-booklet-letter.pdf"),
    ),
)
