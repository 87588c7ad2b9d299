"""The tables booklet laid out game by game (products.tables.lay_out_parts) against the booklet laid out whole."""

from __future__ import annotations

import pytest

from dungeonpress import build
from dungeonpress.products import options, tables
from dungeonpress.products.options import parse
from tests.conftest import SHARED
from tests.test_products_rulebook import book_facts, close, placed


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
    booklet = replace(booklet, sections=[edited, *booklet.sections[1:]],
                      context=booklet.context | {"sections": [edited, *booklet.sections[1:]]})
    runs.clear()
    again = tables.lay_out_parts(ctx, opts, booklet)
    assert runs == ["pack-core"] and again != first
