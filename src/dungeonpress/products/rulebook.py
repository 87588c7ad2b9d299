"""The Loner: Dungeoneer rulebook: content → A5 book PDF, and its saddle-stitch booklets."""

from __future__ import annotations

from pathlib import Path

from dungeonpress import impose, render
from dungeonpress.errors import RenderError
from dungeonpress.products import views
from dungeonpress.products.common import BuildContext, Command, Option, Output, html_from_template, layout_padded, write

PAPERS = ("a4", "letter")
LAYOUTS = ("pages", "booklet")
NAME = "dungeoneer-rulebook"


def build_rulebook(ctx: BuildContext, options: dict) -> list[Output]:
    """The reading PDF and, unless only one layout is asked for, booklets for each paper."""
    # 1. Chapters: Markdown with directives → HTML, and the headings for contents and bookmarks.
    book = ctx.content.book
    if book is None:
        raise RenderError("no book.yaml in the content: nothing to build (expected content/dungeoneer/book.yaml)")
    chapters = chapter_views(ctx)

    # 2. Lay the book out; pad with notes pages so the page count folds into a booklet.
    def html_with(notes: int) -> str:
        return html_from_template(ctx, "book.html.j2", book=book, chapters=chapters, notes_pages=notes,
                                  quickref=quickref_view(ctx), digest=ctx.content.digest[:12])
    ctx.tick(0, 3, "laying out the rulebook")
    rendered = layout_padded(ctx, html_with)
    reading = write(ctx, rendered)
    ctx.tick(1, 3, "imposing booklets")

    # 3. The outputs asked for.
    layouts = [options["layout"]] if options.get("layout") else list(LAYOUTS)
    papers = [options["paper"]] if options.get("paper") else list(PAPERS)
    outputs = []
    if "pages" in layouts:
        outputs.append(Output(f"{NAME}.pdf", reading))
    if "booklet" in layouts:
        for paper in papers:
            outputs.append(Output(f"{NAME}-booklet-{paper}.pdf", impose.impose_booklet(reading, paper)))
    ctx.tick(3, 3, "rulebook done")
    return outputs


def chapter_views(ctx: BuildContext) -> list:
    content = ctx.content
    creatures = [views.creature_view(c) for c in content.creatures]

    def directive_html(name: str, arg: str | None, heading: str | None) -> str:
        if name == "table":
            table = content.table(arg)
            view = views.table_view(table, content)
            view["show_title"] = not heading or heading.casefold() != table.title.casefold()
            return html_from_template(ctx, "partials/table.html.j2", table=view)
        if name == "bestiary":
            return html_from_template(ctx, "partials/bestiary.html.j2", creatures=creatures)
        if name == "media":
            return html_from_template(ctx, "partials/media.html.j2", groups=views.media_view(content))
        if name == "odds" and arg == "oracle":
            return html_from_template(ctx, "partials/odds_oracle.html.j2", odds=views.oracle_odds_view())
        if name == "odds" and arg == "harm":
            return html_from_template(ctx, "partials/odds_harm.html.j2", odds=views.harm_odds_view())
        raise RenderError(f"unknown directive [[{name} {arg or ''}]]")

    out = []
    for number, chapter in enumerate(content.book.chapters, start=1):
        base = Path(chapter.source.path).resolve().parent  # the chapter's folder: its images are beside it
        html, headings = render.render_chapter(chapter.text, f"c{number}", directive_html, base=base,
                                               roots=ctx.roots, where=chapter.source.path)
        out.append({"html": html, "headings": headings, "title": headings[0][1] if headings else ""})
    return out


def quickref_view(ctx: BuildContext) -> dict:
    """The tables the one-page quick reference shows, when the content has them."""
    # (table id, the columns short enough for a half-page column); the oracle is told in prose there
    wanted = (("twist", None), ("harm", ("answer", "harm")), ("scene_mood", None))
    tables = ctx.content.tables
    return {name: views.table_view(tables[name], ctx.content, columns=columns, note=False)
            | {"anchor": f"quickref-{name}"} for name, columns in wanted if name in tables}


COMMANDS = (
    Command(
        name="rulebook",
        help="the Loner: Dungeoneer rulebook: A5 reading PDF and saddle-stitch booklets",
        run=build_rulebook,
        parent="build",
        options=(
            Option(("--paper",), "booklet paper (default: both a4 and letter)", choices=PAPERS),
            Option(("--layout",), "pages (A5 reading order) or booklet (imposed); default both", choices=LAYOUTS),
        ),
        example="dungeonpress build rulebook --layout booklet --paper letter",
    ),
)
