"""What every product shares: the build context, the outputs it returns, and template → PDF."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from pathlib import Path

from dungeonpress.errors import RenderError
from dungeonpress.model import Content
from dungeonpress.products.options import Options

if TYPE_CHECKING:
    from dungeonpress.pdf import Rendered

# The looks every product can print in (`--theme`): each but standard is one stylesheet,
# templates/css/themes/NAME.css, laid over the product's own CSS (and themes/drawings/NAME.css over a drawing's palette).
THEMES = ("standard", "ink-saver", "large-print", "high-contrast", "dyslexia-friendly")
# Templates of documents that take the pages they need (books): large print re-flows them; fixed
# formats (sheets, cards, the one-sheet zine) must keep fitting their paper.
FLOWING = frozenset({"book.html.j2", "tables.html.j2", "dungeon_booklet.html.j2"})
KINDS = ("planned", "started", "finished", "failed", "skipped")  # what can happen to an item of a run


@dataclass(frozen=True)
class Event:
    """One thing that happened to an item of the run (a product, or one zine of a batch), in this process or a worker.

    `planned` announces `count` more items; `started`, then one of `finished` (with the `pages`
    and `bytes` it made), `failed` (with a `message`) or `skipped` (nothing to do). A supervised
    run (batch.run) also says how many items have ended (`done`) of its `total`, and hands over the
    ended item's `result` (a batch.Result: its outputs, to be written in this process).
    """

    kind: str
    name: str
    pages: int = 0
    bytes: int = 0
    count: int = 0
    message: str = ""
    done: int = 0
    total: int = 0
    result: object = None

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"unknown event kind {self.kind!r} (expected one of {', '.join(KINDS)})")


THEMED_KINDS = ("pdf", "html", "png", "dd2vtt")  # the files a theme changes (see BuildContext.named)


@dataclass
class BuildContext:
    """What a product needs to make its outputs; products return bytes and never write files."""

    content: Content
    templates_dir: Path
    roots: tuple  # folders the PDF renderer may read from (content packs and templates)
    seed: int | None = None  # the one seed of this run (seeded commands); sub-generators derive streams from it
    version: str = ""
    theme: str = "standard"  # the look every product prints in, one of THEMES
    strict: bool = False  # warnings fail the build
    packs_label: str = ""  # the user's packs (--content) as a file-name part, "" for the built-in content only
    templates_href: str = "../templates"  # templates seen from the output folder, "" outside the project (never absolute)
    progress: object = None  # callable(done, total, label) or None: what the product is doing now
    on_item: object = None  # callable(Event) or None: items of a batch started/finished/failed/skipped
    warnings: list = field(default_factory=list)
    # Laid-out parts of books by key (paginate.book): a dict kept for the run, or one kept on disk by build; None: no reuse
    part_cache: object = None
    # Books' chapters rendered to HTML by what they read (cache.chapters.ChapterCache, kept on disk by build); None: none
    chapter_cache: object = None
    max_pages: int | None = None  # pages one document may lay out (--max-pages); None: pdf.MAX_PAGES
    # run_parts(fn, jobs) -> [fn(job) for job in jobs], maybe in worker processes (part_workers.PartWorkers): how a
    # book lays out its parts; None: one after another in this process
    run_parts: object = None
    # ask_ahead(question) -> forks.Ahead or None: a yes-or-no question worked out in a forked child on a core that would
    # stand idle (a zine's roomier fit, paginate.zine); None: where no core is spare (a batch's workers), never
    ask_ahead: object = None

    def named(self, name: str) -> str:
        """A file name with the run's non-default choices in it, so a large-print or own-pack run never
        overwrites the standard one: dungeon-1234-zine-a4.pdf → dungeon-1234-zine-a4-large-print.pdf; a file
        in a folder (exports/json/x.json) has them on its top folder (exports-mypack/json/x.json).
        Looks only change what is drawn: data files (JSON, CSV) keep their names whatever the theme."""
        kind = name.rsplit(".", 1)[-1] if "." in name else ""
        parts = [self.theme] if self.theme != "standard" and kind in THEMED_KINDS else []
        parts += [self.packs_label] if self.packs_label else []
        if not parts:
            return name
        suffix = "-" + "-".join(parts)
        top, slash, rest = name.partition("/")
        if slash:
            return f"{top}{suffix}/{rest}"
        stem, dot, ext = name.rpartition(".")
        return f"{stem}{suffix}.{ext}" if dot else name + suffix

    def tick(self, done: int, total: int, label: str) -> None:
        if self.progress:
            self.progress(done, total, label)

    def item(self, kind: str, name: str, *, pages: int = 0, bytes: int = 0, count: int = 0, message: str = "") -> None:
        """Report one item of a batch to whoever shows the run (`planned` announces `count` of them)."""
        if self.on_item:
            self.on_item(Event(kind, name, pages=pages, bytes=bytes, count=count, message=message))


@dataclass(frozen=True)
class Output:
    """One file a product makes: its name under the output folder and its bytes."""

    name: str
    data: bytes

    @property
    def kind(self) -> str:
        return self.name.rsplit(".", 1)[-1]


def html_from_template(ctx: BuildContext, template: str, **context) -> str:
    from dungeonpress import render  # loaded when a product is made, not for --help
    return render.render_template(ctx.templates_dir, template, **template_globals(ctx, template), **context)


def template_globals(ctx: BuildContext, template: str) -> dict:
    """What every template is rendered with besides its own context (plain values: a worker process that renders a
    part of a book again is sent them)."""
    from dungeonpress.views.fonts import fonts_view  # loaded when a product is made, not for --help
    return dict(version=ctx.version, theme=ctx.theme, fonts=fonts_view(ctx.theme), flows=template in FLOWING,
                emblem_css=drawing_css(ctx, "emblem.css"))


def drawing_css(ctx: BuildContext, name: str) -> str:
    """A drawing's palette (templates/css/NAME) with the theme's layer for drawings after it
    (templates/css/themes/drawings/THEME.css), copied into each of its SVGs: inline SVG takes no document rules."""
    from dungeonpress import render  # loaded when a product is made, not for --help
    return (render.template_source(ctx.templates_dir, f"css/{name}") + "\n"
            + render.template_source(ctx.templates_dir, f"css/themes/drawings/{ctx.theme}.css"))


def layout(ctx: BuildContext, html: str, *, forms: bool = False, pages_at_most: int | None = None) -> Rendered | None:
    """Lay out HTML against the templates folder (relative links resolve there); `forms` makes fields.
    None where `pages_at_most` is given and the document is longer (pdf.layout_html)."""
    from dungeonpress import pdf  # loaded when a product is made, not for --help
    return pdf.layout_html(html, base_url=ctx.templates_dir, roots=ctx.roots, forms=forms,
                           max_pages=ctx.max_pages or pdf.MAX_PAGES, pages_at_most=pages_at_most)


def write(ctx: BuildContext, rendered: Rendered, *, forms: bool = False, print_shop: bool = False) -> bytes:
    """PDF bytes of a laid-out document (tagged; PDF/X with `print_shop`); its WeasyPrint warnings are kept.

    Text laid out past the edge of a page (a word too long for its column) is a RenderError: it
    would print cut off, and nothing else would say so.
    """
    from dungeonpress import pdf  # loaded when a product is made, not for --help
    data = checked_pdf(rendered, variant=pdf.PRINT_VARIANT if print_shop else pdf.TAGGED_VARIANT, forms=forms)
    ctx.warnings.extend(rendered.warnings)
    return data


def checked_pdf(rendered: Rendered, *, variant: str, forms: bool = False, heading_level: int = 0,
                sample_pages: int | None = None) -> bytes:
    """PDF bytes of a laid-out document, checked both ways: text laid out past a page's edge is a
    RenderError, and text the file's text layer lost is added to the document's warnings (read back on
    `sample_pages` pages spread over it; None: readback.SAMPLE_PAGES)."""
    from dungeonpress import pdf  # loaded when a product is made, not for --help
    from dungeonpress.preflight import readback
    off = pdf.text_off_page(rendered)
    if off:
        more = f" (and {len(off) - 3} more pages)" if len(off) > 3 else ""
        raise RenderError("text that cannot fit: " + "; ".join(off[:3]) + more
                          + " (a word or table too wide for its column?)")
    data = pdf.write_pdf(rendered, forms=forms, variant=variant, heading_level=heading_level)
    # The text layer is what readers copy, search and hear: a sample of pages must read back whole.
    sampled = readback.sample(rendered.page_count, readback.SAMPLE_PAGES if sample_pages is None else sample_pages)
    laid_out = {i: pdf.page_text(rendered, i) for i in sampled}
    rendered.warnings.extend(f"text layer: {line}" for line in readback.lost_text(data, laid_out))
    return data


def pdf_from_template(ctx: BuildContext, template: str, *, forms: bool = False, **context) -> bytes:
    """Render a template and print it to PDF bytes in one step."""
    return write(ctx, layout(ctx, html_from_template(ctx, template, **context), forms=forms), forms=forms)


@dataclass(frozen=True)
class NoOptions(Options):
    """A command without options of its own."""


@dataclass(frozen=True)
class Job:
    """One run of a command in `build all`: its seed (for seeded commands) and options by field name."""

    options: dict = field(default_factory=dict)
    seed: int | None = None


@dataclass(frozen=True)
class Inputs:
    """What a product reads of the content, said once: `tables` feeds `dungeonpress tables`' "used by" column
    and `packs` the manifest's input key (what must change for `build all` to make it again).

    `tables` are the ids it rolls on or prints (a generator's NEEDED, a card's tables); the tables their
    rows `see:` are read too. `chapters` are the Markdown it prints, whose `[[table ID]]` lines name
    more: "book" (the rulebook's chapters) or "delve_rules" (the rules a pre-rolled dungeon prints);
    `every` says it shows every table (the tables booklet, the exports). `packs` are the built-in packs (folders
    under content/) its outputs depend on, None for all of them; templates, fonts, user packs, our code
    and library versions always count (manifest.Fingerprints).
    """

    tables: tuple = ()
    chapters: tuple = ()
    every: bool = False
    packs: tuple | None = None


@dataclass(frozen=True)
class Command:
    """A product, declared once in its module: everything else (the command line, `build all`, the
    manifest's input key, `dungeonpress tables`' "used by" column, the README check) reads this.

    `dungeonpress [build] NAME [options]` runs `run(ctx, options)`, which returns the outputs, `options`
    being an instance of the command's frozen `options` dataclass (checked before any content is read);
    `seeded` commands get a seed (given, or fresh and printed) on the context. `outputs` name the files
    it can make (`<seed>`, `<paper>`… stand for what varies), `inputs` what it reads of the content,
    `build_all` what `dungeonpress build all` makes of it and `order` where it comes there and in `--help`.
    """

    name: str
    help: str
    run: object
    options: type = NoOptions
    seeded: bool = False
    parent: str = ""  # "build" or "export" for `dungeonpress build NAME`; "" for `dungeonpress NAME`
    example: str = ""
    build_all: tuple = ()
    order: int = 100
    inputs: Inputs = Inputs()  # what it reads of the content (tables, packs)
    outputs: tuple = ()  # the files it makes, as the README names them: "dungeon-<seed>.json"
    # batch(options, seed) -> [(options dict, seed), ...] when the options ask for many separate outputs
    # made in supervised workers (dungeon --batch N); None when they ask for one run.
    batch: object = None
    # Lays out a book part by part in worker processes (ctx.run_parts): a run of it alone starts them before it
    # reads the content, so they import WeasyPrint meanwhile.
    book: bool = False

    @property
    def full_name(self) -> str:
        """How the command is typed after `dungeonpress`: `build rulebook`, `export tables`, `dungeon`."""
        return f"{self.parent} {self.name}".strip()

    @property
    def module(self) -> str:
        """The product module that declares it (`dungeon`, `rulebook`): where its run function lives."""
        return self.run.__module__.rsplit(".", 1)[-1]


# What a part of a book set with book.css (the rulebook, the tables booklet) leaves out of its pages: the page numbers,
# which depend on where the part falls (paginate.book's furniture prints them); and, where the furniture prints them
# too (paginate.book's `heads`), the running heads.
BOOK_NO_FOLIOS_CSS = "@page { @bottom-center { content: none; } }"
BOOK_NO_HEADS_CSS = "@page :left { @top-left { content: none; } } @page :right { @top-right { content: none; } }"

# Each part of a book is read back (common.checked_pdf) on its first and last page only: a font whose glyphs lost
# their text loses them on every page it sets, and at eight pages a part the rulebook's parts were read on over a
# hundred pages where the book laid out whole reads eight (0.27 s of an 11.4 s build's CPU).
PART_SAMPLE_PAGES = 2


@dataclass(frozen=True)
class PartLayout:
    """Lays out one paginate.book Job against the templates (what a worker process is sent: plain values)."""

    templates_dir: Path
    roots: tuple
    max_pages: int | None  # None: pdf.MAX_PAGES
    print_shop: bool  # PDF/X rather than PDF/UA

    def __call__(self, job):
        from dungeonpress import pdf
        from dungeonpress.paginate import book
        variant = pdf.PRINT_VARIANT if self.print_shop else pdf.TAGGED_VARIANT
        return book.lay_out_job(job, lambda html: pdf.layout_html(html, base_url=self.templates_dir, roots=self.roots,
                                                                  max_pages=self.max_pages or pdf.MAX_PAGES),
                                lambda rendered, **kwargs: checked_pdf(rendered, variant=variant,
                                                                       sample_pages=PART_SAMPLE_PAGES, **kwargs))
