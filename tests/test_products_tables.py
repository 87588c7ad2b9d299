"""products.tables: where the tables booklet puts an empty table of one's own in the white a table leaves."""

from __future__ import annotations

import pytest

from dungeonpress.pdf import PageMeasure
from dungeonpress.products import tables

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
    worker does the same on its own pages: test_products_tables_parts.py.)"""
    from dungeonpress import build, pdf
    from dungeonpress.products import options
    from dungeonpress.products.options import parse
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
