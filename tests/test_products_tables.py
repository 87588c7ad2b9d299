"""products.tables: where the tables booklet puts an empty table of one's own in the white a table leaves; the booklet
laid out game by game (lay_out_parts) against the booklet laid out whole."""

from __future__ import annotations

import pytest

from dungeonpress import build
from dungeonpress.pdf import PageMeasure
from dungeonpress.products import options, tables
from dungeonpress.products.options import parse
from tests.conftest import SHARED
from tests.test_products_rulebook import book_facts, close, placed

MM = 96 / 25.4  # CSS px
SECTIONS = [{"anchor": "pack-a", "tables": [{"anchor": "t1"}, {"anchor": "t2"}, {"anchor": "t3"}]},
            {"anchor": "pack-b", "tables": [{"anchor": "t4"}]}]


def page(boxes: dict) -> PageMeasure:
    """An A5-like page whose text area runs from 15 to 195 mm, its boxes given in mm."""
    return PageMeasure(210 * MM, {name: (top * MM, bottom * MM) for name, (top, bottom) in boxes.items()},
                       text_bottom=195 * MM, text_top=15 * MM)


def test_a_table_that_leaves_half_a_page_white_before_the_next_is_followed_by_the_largest_own_table_that_fits():
    # t1 ends 70 mm into its page (125 mm left: a 2d6 table fits, a d66 does not) and t2 opens overleaf; t3 ends its
    # page; t4, the booklet's last, leaves 165 mm: a d66 table
    measured = (page({"pack-a": (15, 25), "t1": (25, 70)}), page({"t2": (15, 100), "t3": (105, 190)}),
                page({"pack-b": (15, 25), "t4": (25, 30)}))
    assert tables.own_table_dice(measured, SECTIONS, []) == {"t1": "2d6", "t4": "d66"}


def test_mid_game_a_page_more_than_half_full_keeps_its_white_but_a_games_last_page_takes_what_fits():
    # t1 leaves 80 mm (44% of the text area) before t2: no table; t3 closes its game leaving 80 mm: a d6 table
    measured = (page({"pack-a": (15, 25), "t1": (25, 115)}), page({"t2": (15, 100), "t3": (100, 115)}),
                page({"pack-b": (15, 25), "t4": (25, 190)}))
    assert tables.own_table_dice(measured, SECTIONS, []) == {"t3": "d6"}


def test_a_table_that_the_next_follows_on_its_page_or_that_leaves_too_little_room_gets_none():
    measured = (page({"pack-a": (15, 25), "t1": (25, 70), "t2": (75, 150), "t3": (150, 170)}),
                page({"pack-b": (15, 25), "t4": (25, 190)}))
    assert tables.own_table_dice(measured, SECTIONS, []) == {}


def test_an_own_table_that_ran_overleaf_is_made_a_die_smaller_then_left_out():
    assert tables.smaller_own_tables({"t1": "2d6", "t3": "d6", "t4": "d66"}, ["t1", "t3"]) == {"t1": "d6", "t4": "d66"}


@pytest.mark.slow  # lays the tables booklet out whole, then again the old way
def test_tables_and_creature_rows_of_your_own_are_moved_into_their_white_and_make_the_same_booklet(monkeypatch):
    """The standard booklet laid out whole: its four tables of one's own (where Paperogue, Dunginoes, the solo turn's
    monsters and the solo turn procedure leave their games' last pages white) and the rows for creatures of one's own
    under the bestiary are laid out alone and moved into the white each was chosen for: the 68 pages are laid out once,
    not twice, and the booklet is the one laid out again with them, byte for byte. (Laid out game by game, each part's
    worker does the same on its own pages: below.)"""
    from dungeonpress import pdf
    laid, real = [], tables.layout
    monkeypatch.setattr(tables, "layout", lambda ctx, html, **kw: laid.append(real(ctx, html, **kw)) or laid[-1])
    content = build.load_content()

    def booklet() -> dict:
        return {o.name: o.data for o in tables.build_tables_booklet(build.context_for(content),
                                                                    parse(options.PrintShopOptions, {}), by_parts=False)}
    moved = booklet()
    assert len(laid) == 2 and laid[0].page_count == 68 and laid[1].page_count < laid[0].page_count
    holding = {anchor: i for i, page in enumerate(pdf.measure(laid[0])) for anchor in page.boxes
               if anchor.startswith("own-")}
    assert sorted(holding) == ["own-after-table-dunginoes_specials", "own-after-table-minor_treasures",
                               "own-after-table-solo_encounter_check", "own-after-table-solo_monsters", "own-creatures"]
    assert "A Table of Your Own" in pdf.page_text(laid[0], holding["own-after-table-solo_monsters"])
    assert "Creatures of Your Own" in pdf.page_text(laid[0], holding["own-creatures"])
    laid.clear()
    monkeypatch.setattr(pdf, "moved_across", lambda *args, **kw: False)  # not moved: the booklet laid out again
    again = booklet()
    assert len(laid) == 3 and laid[2].page_count == laid[0].page_count and again == moved


def test_own_tables_are_moved_only_where_each_has_a_page_of_its_own_and_a_half_move_is_told(monkeypatch):
    from dungeonpress import pdf
    measured = (page({"table-a": (40.0, 200.0)}), page({"table-b": (40.0, 100.0), "table-c": (100.0, 150.0)}))
    plans, moves = [], []

    def lay_out(plan):
        plans.append([(len(breaks), view["own"]["anchor"]) for breaks, view in plan])
        return "source"
    # two on one page: nothing is laid out or moved
    assert tables.moved_own_tables("booklet", measured, {"table-b": "d6", "table-c": "d6"}, lay_out) is False
    assert plans == []
    # the first moved, the second refused: the booklet is no longer the one without them
    monkeypatch.setattr(pdf, "moved_across", lambda target, source, index, anchor, cls, **kw: moves.append(anchor) or
                        anchor == "table-a")
    assert tables.moved_own_tables("booklet", measured, {"table-c": "d6", "table-a": "d66"}, lay_out) is None
    assert plans == [[(0, "own-after-table-a"), (1, "own-after-table-c")]] and moves == ["table-a", "table-c"]
    # none moved: nothing changed
    monkeypatch.setattr(pdf, "moved_across", lambda *args, **kw: False)
    assert tables.moved_own_tables("booklet", measured, {"table-a": "d6"}, lay_out) is False

def booklet_pdf(content, theme: str, by_parts: bool, bleed: str | None = None) -> bytes:
    ctx = build.context_for(content, theme=theme)
    opts = parse(options.PrintShopOptions, {"bleed": bleed, "marks": "crop"} if bleed else {})
    return next(o.data for o in tables.build_tables_booklet(ctx, opts, by_parts=by_parts) if o.name == "tables.pdf")


def shared_booklet(theme: str) -> bytes:
    """The reading copy of the tables booklet `build all` makes in `theme` (tests/conftest.py's SHARED)."""
    outputs, _ = SHARED.result(f"{theme}/tables/0")
    return next(data for name, data in outputs.items() if name.startswith("tables") and "booklet" not in name)


@pytest.mark.slow  # lays three booklets out whole, and the one with a bleed by parts
@pytest.mark.builds("{theme}/tables/0")
@pytest.mark.parametrize(("theme", "bleed"), [("standard", None), ("dyslexia-friendly", None), ("standard", "3mm")])
def test_the_booklet_laid_out_game_by_game_is_the_booklet_laid_out_whole(content, theme, bleed):
    """Every page's text (the running heads and page numbers the furniture prints, the contents' numbers), bookmarks,
    named destinations, links and the structure tree; and where each destination and link sits on its page. Some games
    open on a left-hand page: laid out for a right-hand one, their pages were moved across by the difference in the
    margins (with a bleed, whose printer's marks stay put, laid out again for their side)."""
    parts = booklet_pdf(content, theme, True, bleed) if bleed else shared_booklet(theme)
    whole = booklet_pdf(content, theme, False, bleed)
    facts = book_facts(parts)
    assert facts == book_facts(whole)
    assert close(placed(parts), placed(whole))
    texts = [" ".join(text.split()) for text in facts["texts"]]
    dests = facts["dests"]
    games = [name for name in dests if name.startswith("pack-")]
    assert len(games) == 6 and any(dests[name] % 2 == 1 for name in games)  # a game opens on a left-hand page
    for name in games:  # each opens its page, under its own running head
        title = tables.PACK_TITLES[name.removeprefix("pack-")]
        assert texts[dests[name]].startswith(title) and texts[dests[name]].count(title) == 2, texts[dests[name]][:80]
    numbers = [text.rsplit(" ", 1)[-1] for text in texts[1:-1]]
    assert numbers[2:] == [str(n) for n in range(4, len(texts))]  # every page after the contents ends in its number


@pytest.mark.slow  # lays the booklet out once more
def test_an_edited_table_lays_out_its_game_again_and_nothing_else(content, monkeypatch):
    """Parts are cached by their HTML: a table of the core game given a longer heading lays out the core's part again;
    no page moves, so the contents, the furniture and every other game's part come from the cache."""
    from dataclasses import replace
    from dungeonpress.paginate import book
    cache, runs = {}, []
    real = book.lay_out_job
    monkeypatch.setattr(book, "lay_out_job", lambda job, *args: runs.append(job.name) or real(job, *args))
    ctx = build.context_for(content)
    opts = parse(options.PrintShopOptions, {})
    ctx = replace(ctx, part_cache=cache)
    first = tables.lay_out_parts(ctx, opts, tables.Booklet.of(ctx, opts))
    assert {"front", "pack-core", "pack-dungeoneer", "bestiary", "back", "furniture"} <= set(runs)
    booklet = tables.Booklet.of(ctx, opts)
    core = booklet.sections[0]
    edited = core | {"tables": [core["tables"][0] | {"title": core["tables"][0]["title"] + " Again"},
                                *core["tables"][1:]]}
    booklet = replace(booklet, context=booklet.context | {"sections": [edited, *booklet.sections[1:]]})
    runs.clear()
    again = tables.lay_out_parts(ctx, opts, booklet)
    assert runs == ["pack-core"] and again != first
