"""products.tables: where the tables booklet puts an empty table of one's own in the white a table leaves."""

from __future__ import annotations

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
