"""A pack of delves laid out delve by delve (paginate.book), in the build's part workers, and bound into one booklet.

Laid out as one document, a pack held every page's boxes until it was written (a pack of 36 delves, 220 pages,
peaked at 616 MB) and used one core. Here each part is a document of its own, laid out, written and freed in a worker:
- the front: the cover, the index (its page numbers a second pass, once every delve is placed) and How to Play, which
  ends in a log of the foes fought, or ruled lines, where its last page has room (FrontRefit);
- each delve: its map page, key and aids. It opens on a left-hand page, its map facing its key; a filler goes before
  it where the part before ends on one: the pack's record before the first delve, the room log of the delve before
  it otherwise (the pages the pack laid out whole put there). What the pack laid out whole then did for each delve is
  done in its worker on its own pages (DelveRefit): a map drawn shorter where its legend ran overleaf, a key that runs
  over its pages shared evenly by them, a key page the rooms leave a third of ending in ruled lines;
- the back: the spare pages, just enough kept to fold whole sheets, and the back cover. Its third spare page is a log
  of the foes fought unless How to Play ends in one, so it is laid out again once the front is placed.
Page numbers are stamped on the bound pages (paginate.book's furniture). Laid-out parts are kept for the run only: a
pack is rolled, not edited.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from dungeonpress.paginate.book import Refit, page_numbers, stand_ins
from dungeonpress.products import booklet_fit as fit
from dungeonpress.products.common import BuildContext, PartLayout, template_globals

TEMPLATE = "dungeon_booklet.html.j2"
# A part prints no page numbers (where it falls is not known while it is laid out); the furniture stamps them.
NO_FOLIOS_CSS = ("@page dbook-a5 { @bottom-center { content: none; } } "
                 "@page dbook-half-letter { @bottom-center { content: none; } }")
# The index's page numbers, printed from the numbers paginate.book gives (target-counter does not reach another part).
INDEX_NUMBERS_CSS = ".dbook .pageref::after { content: attr(data-page); }"
FOES_FOUGHT = "foes-fought"  # How to Play's log of the foes fought (dungeon_booklet.html.j2), where it has one


@dataclass(frozen=True)
class Pack:
    """What products.dungeon.booklet_outputs made of a pack before laying it out."""

    context: dict  # the template's context for the whole booklet (its views, index, rules, tracker, classes)
    dungeons: list  # (Dungeon, seed) of each delve, in order
    map_box: tuple  # (width, height) in mm: the box each delve's map was drawn in
    map_style: str
    map_css: str  # the theme's palette for the maps (products.dungeon.map_css)
    map_labels: tuple  # the least printed sizes of the maps' words (products.dungeon.map_labels)
    map_rng: object  # map_rng(seed) -> the map's own stream of a delve's seed (products.dungeon.map_rng)
    page: str  # "a5" or "half-letter"
    name: str
    filler_page: object  # filler_page(anchor) -> the notes page that puts that delve's map on a left-hand page
    notes_pages: object  # notes_pages(foes: bool) -> the spare pages (their third a foe log unless How to Play has one)


@dataclass(frozen=True)
class PartHtml:
    """The booklet's template, rendered in whichever process lays a part out (plain values, sent to a worker)."""

    templates_dir: str
    context: dict  # the template's globals and the booklet's context
    css: str  # the part's CSS (paginate.book.part_css), with NO_FOLIOS_CSS

    def render(self, **overrides) -> str:
        from dungeonpress import render  # loaded when a product is made, not for --help
        from pathlib import Path
        return render.render_template(Path(self.templates_dir), TEMPLATE, **(self.context | overrides),
                                      part_css=self.css)


@dataclass(frozen=True)
class FrontRefit(Refit):
    """How to Play, where it runs a few lines over its page, ends in a log of the foes fought in the rest of its last
    page (ruled lines where too few foes fit): laid out again with it, kept if the front keeps its pages."""

    page: PartHtml
    numbers: dict = field(default_factory=dict)

    def refit(self, rendered, lay_out):
        from dungeonpress import pdf
        from dungeonpress.paginate import pages
        lines = pages.lines_after(pdf.measure(rendered), "how-to-play", line=fit.NOTE_LINE_PX,
                                  reserve=fit.RULES_NOTES_HEAD_PX)
        if lines < fit.MIN_RULES_NOTE_LINES:
            return rendered
        ended = lay_out(stand_ins(front_html(self.page, self.numbers, lines))[0])  # as paginate.book made the first
        return ended if ended.page_count == rendered.page_count else rendered


def front_html(page: PartHtml, numbers: dict, lines: int = 0) -> str:
    """The front: cover, index (numbered from `numbers`, or the widest number before the delves are placed) and How
    to Play, ending as `lines` of room below it allow (products.dungeon.rules_ending)."""
    return page.render(part="front", page_numbers=page_numbers(numbers),
                       **fit.rules_ending(lines))


@dataclass(frozen=True)
class DelveRefit(Refit):
    """One delve's pages fitted as the pack laid out whole fitted each (products.dungeon.booklet_outputs), on its own
    pages: its map drawn shorter where the legend went overleaf; its key, where it runs over pages, shared evenly by
    them; its key pages the rooms leave a third or more of ending in ruled lines for notes."""

    page: PartHtml
    view: dict  # the delve's view (views.dungeon.dungeon_view)
    dungeon: object
    seed: int
    map_box: tuple
    map_style: str
    map_css: str
    map_labels: tuple
    map_rng: object  # map_rng(seed) -> the map's own stream (a module's function: sent by name)

    @property
    def key(self) -> str:
        return hashlib.sha256(repr((self.dungeon, self.seed, self.map_box, self.map_style, self.map_css,
                                    self.map_labels, self.map_rng.__qualname__)).encode()).hexdigest()

    def html(self, view: dict, turns=(), key_notes: dict | None = None) -> str:
        return self.page.render(part="delve", dungeons=[view], turns=list(turns), key_notes=key_notes or {})

    def again(self, view: dict, turns=(), key_notes: dict | None = None) -> str:
        """The delve's HTML to lay out again, with stand-ins for the anchors it links to in other parts, as
        paginate.book put them in the HTML laid out first."""
        return stand_ins(self.html(view, turns, key_notes))[0]

    def refit(self, rendered, lay_out):
        from dungeonpress import pdf
        from dungeonpress.paginate import pages
        from dungeonpress.views import dungeon as views
        view, box = dict(self.view), self.map_box
        measured = pdf.measure(rendered)
        for _ in range(3):  # a map that went over whole is first brought back onto its page, then its legend
            cuts = fit.spilled_legends(measured, [view])
            if not cuts:
                break
            box = (box[0], max(box[1] - cuts[0], fit.MIN_SPILL_MAP_MM))
            view.update(views.map_fields(self.dungeon, box, self.map_rng(self.seed), map_style=self.map_style,
                                         map_css=self.map_css, map_labels=self.map_labels))
            rendered = lay_out(self.again(view))
            measured = pdf.measure(rendered)
        count = rendered.page_count
        turns = pages.even_key_turns(measured, [[room["anchor"] for room in view["rooms"]]])
        # The ruled lines read off this layout as the key will fall with its turns: one layout more, not two, where
        # that is the layout the two would have made.
        key_notes = fit.key_note_lines(measured, [view], turns)
        if key_notes is not None and (turns or key_notes):
            both = lay_out(self.again(view, turns, key_notes))
            if both.page_count == count and fit.key_note_lines(pdf.measure(both), [view]) == key_notes:
                return both
            both = None
        if turns:
            turned = lay_out(self.again(view, turns))
            rendered, turns = (turned, turns) if turned.page_count == count else (rendered, [])
        key_notes = fit.key_note_lines(pdf.measure(rendered), [view])
        if key_notes:
            noted = lay_out(self.again(view, turns, key_notes))
            if noted.page_count == count:
                rendered = noted
        return rendered


def lay_out_pack(ctx: BuildContext, pack: Pack) -> bytes:
    """The pack's reading PDF, padded to whole sheets: laid out part by part and bound (see the module's words)."""
    from dungeonpress.paginate import book
    if hasattr(ctx.run_parts, "start"):  # its workers import WeasyPrint while the parts' HTML is made
        ctx.run_parts.start()
    shown = pack.context["dungeons"]
    context = template_globals(ctx, TEMPLATE) | pack.context | {"notes_pages": []}
    templates = str(ctx.templates_dir)

    # A delve's part is sent its own view, not every delve's (a pack of 36 sent 36 maps with each of its 36 parts); the
    # back, the index's seed and count and the first delve (its credits name the fonts and the tool's version).
    index = pack.context["index"]
    alone = {"delve": {"index": None}, "back": {"dungeons": shown[:1], "index": index | {"entries": []}},
             "filler": {"dungeons": [], "index": index | {"entries": []}}, "furniture": {"dungeons": [], "index": None}}

    def page(css: str, folios: bool = False, part: str = "front") -> PartHtml:
        return PartHtml(templates, context | alone.get(part, {}), css if folios else f"{css} {NO_FOLIOS_CSS}")

    def front(css: str, numbers: dict) -> str:
        return front_html(page(f"{css} {INDEX_NUMBERS_CSS}"), numbers)

    def delve(n: int):
        (dungeon, seed), view = pack.dungeons[n], shown[n]

        def refit(css: str, numbers: dict) -> DelveRefit:
            return DelveRefit(page(css, part="delve"), view, dungeon, seed, pack.map_box, pack.map_style, pack.map_css,
                              pack.map_labels, pack.map_rng)
        return book.Part(f"delve {n + 1}", lambda css, numbers: refit(css, numbers).html(view), opens="left",
                         refit=refit)

    def back(css: str, numbers: dict) -> str:
        return page(css, part="back").render(part="back", notes_pages=pack.notes_pages(FOES_FOUGHT in numbers))

    def filler(n: int, css: str, before: int) -> str:  # before part `before`: delve `before` (the front is part 0)
        filler_page = pack.filler_page(shown[before - 1]["anchor"])
        return page(css, part="filler").render(part="filler", filler_pages=[filler_page])

    parts = [book.Part("front", front, numbered=True,
                       refit=lambda css, numbers: FrontRefit(page(f"{css} {INDEX_NUMBERS_CSS}"), numbers)),
             *[delve(n) for n in range(len(shown))],
             book.Part("back", back, numbered=True, continues=True)]  # its headings under the last delve's
    furniture = book.Part("furniture",
                          lambda css, numbers: page(css, folios=True, part="furniture").render(part="furniture"))
    worker = PartLayout(ctx.templates_dir, tuple(ctx.roots), ctx.max_pages, False)
    run = ctx.run_parts or (lambda fn, jobs: [fn(job) for job in jobs])
    reading, laid = book.lay_out_book(parts, lambda jobs: run(worker, jobs), furniture=furniture, pad_to=4,
                                      name=pack.name, laid_out=getattr(ctx.run_parts, "release", None), plate=filler,
                                      plate_page=f"dbook-{pack.page}", plates_continue=True)
    ctx.warnings.extend(warning for part in laid for warning in part.warnings)
    return reading
