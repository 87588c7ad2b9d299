"""paginate.pages: anchors by page, spare notes pages found, dropped and kept, and the fillers that put anchors left."""

from __future__ import annotations

import pytest

from dungeonpress import build, pdf
from dungeonpress.errors import RenderError
from dungeonpress.paginate import pages
from dungeonpress.pdf import PageMeasure

MEASURED = (PageMeasure(300.0, {"intro": (10.0, 290.0)}),
            PageMeasure(300.0, {"intro": (10.0, 50.0), "map": (60.0, 200.0)}),
            PageMeasure(300.0, {"notes-1": (10.0, 290.0)}),
            PageMeasure(310.0, {"notes-2": (10.0, 290.0), "back": (10.0, 20.0)}))


def test_anchor_boxes_give_the_last_page_an_anchor_is_on():
    assert pages.anchor_boxes(MEASURED) == {"intro": (1, 10.0, 50.0), "map": (1, 60.0, 200.0),
                                            "notes-1": (2, 10.0, 290.0), "notes-2": (3, 10.0, 290.0), "back": (3, 10.0, 20.0)}


def test_anchor_pages_list_every_page_a_split_box_is_on():
    assert pages.anchor_pages(MEASURED)["intro"] == [0, 1]
    assert pages.anchor_pages(MEASURED)["map"] == [1]


def test_spare_pages_are_the_pages_holding_a_notes_anchor():
    assert pages.spare_pages(MEASURED) == [2, 3]
    assert pages.spare_pages(MEASURED, prefix="map") == [1]


def test_even_page_fillers_walk_the_anchors_in_order():
    """a on page 1 takes a filler (to 2); b moves from 3 to 4 with it, c from 4 to 5 and takes one more."""
    measured = (PageMeasure(1.0, {"a": (0, 1)}), PageMeasure(1.0, {}), PageMeasure(1.0, {"b": (0, 1)}),
                PageMeasure(1.0, {"c": (0, 1)}))
    assert pages.even_page_fillers(measured, ["a", "b", "c"]) == ["a", "c"]
    assert pages.even_page_fillers(measured, ["b"]) == ["b"]
    assert pages.even_page_fillers(measured, ["c"]) == []


def test_even_page_fillers_skip_anchors_the_layout_lacks():
    assert pages.even_page_fillers((PageMeasure(1.0, {}), PageMeasure(1.0, {"b": (0, 1)})), ["a", "b"]) == []


def small_book(body_pages: int, notes: int):
    """A laid-out document of `body_pages` text pages and `notes` spare notes pages."""
    body = "".join(f"<section id='s{n}'>page {n}</section>" for n in range(body_pages))
    spares = "".join(f"<section id='notes-{n}'>notes</section>" for n in range(1, notes + 1))
    html = ("<html><head><style>@page { size: 100mm 100mm } section { break-before: page }</style></head>"
            f"<body>{body}{spares}</body></html>")
    return pdf.layout_html(html, base_url=build.TEMPLATES_DIR, roots=[build.TEMPLATES_DIR])


def test_padding_keeps_just_the_spares_a_whole_sheet_needs():
    book = small_book(5, 3)
    padded = pages.pad_to_multiple(book, 4, "the book")
    assert padded.page_count == 8
    assert pages.spare_pages(pdf.measure(padded)) == [5, 6, 7]
    assert [sorted(p.boxes) for p in pdf.measure(pages.pad_to_multiple(small_book(6, 3), 4, "b"))][-2:] == \
        [["notes-1"], ["notes-2"]]  # the last spares go first
    assert pages.pad_to_multiple(small_book(4, 3), 4, "b").page_count == 4
    with pytest.raises(RenderError, match=r"^the book has 6 pages after padding with 1 spare notes pages "
                                          r"\(expected a multiple of 4\)$"):
        pages.pad_to_multiple(small_book(5, 1), 4, "the book")


def test_keep_pages_drops_spares_to_an_exact_count_or_says_why_not():
    assert pages.keep_pages(small_book(5, 3), 6, "zine").page_count == 6
    with pytest.raises(RenderError, match=r"^zine came out at 9 pages, not 8$"):
        pages.keep_pages(small_book(9, 2), 8, "zine")


def _key(*pages_of_rooms):
    """Measured pages of one key: each page a list of (anchor, height) stacked from the top (the first page's
    rooms start under a 30 px heading)."""
    measured = []
    for number, rooms in enumerate(pages_of_rooms):
        top, boxes = (130.0 if number == 0 else 100.0), {}
        for anchor, height in rooms:
            boxes[anchor] = (top, top + height)
            top += height
        measured.append(PageMeasure(500.0, boxes))
    return tuple(measured)


def test_a_key_that_leaves_one_room_alone_overleaf_is_shared_evenly():
    """Rooms 1-7 filled the first page, room 8 sat alone: the fairest cut of 8 rooms of 50 over 2 pages is 4 and 4."""
    measured = _key([(f"r{n}", 50.0) for n in range(1, 8)], [("r8", 50.0)])
    assert pages.even_key_turns(measured, [[f"r{n}" for n in range(1, 9)]]) == ["r5"]


def test_the_first_page_carries_the_keys_heading_in_its_share():
    """A 100 px heading and lead-in weigh like two rooms: the first page takes two rooms fewer than the second."""
    measured = _key([("r1", 50.0), ("r2", 50.0)], [(f"r{n}", 50.0) for n in range(3, 9)])
    measured = (PageMeasure(500.0, {"r1": (200.0, 250.0), "r2": (250.0, 300.0)}),) + measured[1:]
    assert pages.even_key_turns(measured, [[f"r{n}" for n in range(1, 9)]]) == ["r4"]


def test_a_key_over_three_pages_is_cut_in_three_and_keys_on_one_page_are_left_alone():
    measured = _key([("a1", 200.0), ("a2", 200.0)], [("a3", 150.0), ("a4", 150.0)], [("a5", 100.0)],
                    [("b1", 50.0), ("b2", 50.0)])
    keys = [["a1", "a2", "a3", "a4", "a5"], ["b1", "b2"], ["missing", "b2"]]
    assert pages.even_key_turns(measured, keys) == ["a2", "a4"]  # 230 | 350 | 250: no cut has a shorter tallest page


def test_lines_after_count_the_ruled_lines_left_under_a_section_that_ran_over():
    measured = (PageMeasure(500.0, {"rules": (50.0, 460.0)}, text_bottom=460.0),
                PageMeasure(500.0, {"rules": (50.0, 110.0)}, text_bottom=460.0))
    assert pages.lines_after(measured, "rules", line=25.0, reserve=40.0) == 12  # (460 - 110 - 40) // 25
    assert pages.lines_after(measured[1:], "rules", line=25.0, reserve=40.0) == 0  # on one page: its own white
    assert pages.lines_after(measured, "missing", line=25.0, reserve=40.0) == 0


def test_after_the_tallest_page_the_others_are_evened_out_too():
    """Pages 300 | 300 | 50 | 200: the tallest (room a1 alone) cannot be shortened, but room a5 need not sit alone
    on a page a sixth full: 300 | 200 | 150 | 200."""
    measured = _key([("a1", 300.0)], [("a2", 100.0), ("a3", 100.0), ("a4", 100.0)], [("a5", 50.0)], [("a6", 200.0)])
    measured = (PageMeasure(500.0, {"a1": (100.0, 400.0)}),) + measured[1:]
    assert pages.even_key_turns(measured, [["a1", "a2", "a3", "a4", "a5", "a6"]]) == ["a2", "a4", "a6"]


def test_lines_under_each_page_count_the_ruled_lines_under_a_keys_last_room_on_every_page():
    measured = (PageMeasure(500.0, {"map": (50.0, 400.0)}, text_bottom=460.0),
                PageMeasure(500.0, {"r1": (50.0, 150.0), "r2": (150.0, 250.0)}, text_bottom=460.0),
                PageMeasure(500.0, {"r3": (50.0, 420.0)}, text_bottom=460.0))
    assert pages.lines_under_each_page(measured, ["r1", "r2", "r3"], line=25.0, reserve=40.0) == [
        ("r3", 6),   # under r2, before r3 opens the next page: (460 - 250 - 40) // 25
        (None, 0)]   # under r3, the key's last room: 460 - 420 leaves no line after the heading
    assert pages.lines_under_each_page(measured, ["r1", "missing"], line=25.0, reserve=40.0) == []
    assert pages.lines_under_each_page(measured, [], line=25.0, reserve=40.0) == []


def test_lines_under_turned_pages_read_the_keys_new_pages_off_the_layout_without_its_turns():
    """Rooms of 100, 150, 200 and 50 px laid out on two pages (r1-r3 | r4); turned at r3 they fall r1-r2 | r3-r4, as
    laying them out again with r3 opening a page would measure them."""
    before = (PageMeasure(500.0, {"r1": (50.0, 150.0), "r2": (150.0, 300.0), "r3": (300.0, 500.0)}, text_bottom=500.0,
                          text_top=10.0),
              PageMeasure(500.0, {"r4": (10.0, 60.0)}, text_bottom=500.0, text_top=10.0))
    after = (PageMeasure(500.0, {"r1": (50.0, 150.0), "r2": (150.0, 300.0)}, text_bottom=500.0, text_top=10.0),
             PageMeasure(500.0, {"r3": (10.0, 210.0), "r4": (210.0, 260.0)}, text_bottom=500.0, text_top=10.0))
    rooms = ["r1", "r2", "r3", "r4"]
    predicted = pages.lines_under_turned_pages(before, rooms, ["r3"], line=25.0, reserve=40.0)
    assert predicted == pages.lines_under_each_page(after, rooms, line=25.0, reserve=40.0) == [("r3", 6), (None, 8)]
    # no turns: the layout as it is (its pages' breaks are where it put them)
    one = (before[1],)
    assert pages.lines_under_turned_pages(one, ["r4"], [], line=25.0, reserve=40.0) == [(None, 16)]
    # a page the turns leave too full (here no turns: the four rooms on one page), boxes that do not touch, an anchor
    # the layout lacks
    assert pages.lines_under_turned_pages(before, rooms, [], line=25.0, reserve=40.0) is None
    apart = (PageMeasure(500.0, {"r1": (50.0, 150.0), "r2": (160.0, 300.0)}, text_bottom=500.0),)
    assert pages.lines_under_turned_pages(apart, ["r1", "r2"], [], line=25.0, reserve=40.0) is None
    assert pages.lines_under_turned_pages(before, ["r1", "missing"], [], line=25.0, reserve=40.0) == []


def test_white_before_turns_measure_the_room_a_block_leaves_when_the_next_opens_overleaf():
    """a ends 100 px into page 1's 200 px text area and b opens page 2: half the area white; b and c share page 2 (no
    turn); c, the last, leaves 150 of 200 px; d is not laid out and says nothing."""
    measured = (PageMeasure(300.0, {"a": (50.0, 150.0)}, text_bottom=250.0, text_top=50.0),
                PageMeasure(300.0, {"b": (50.0, 80.0), "c": (90.0, 100.0)}, text_bottom=250.0, text_top=50.0))
    assert pages.white_before_turns(measured, ["a", "b", "c"]) == {"a": (100.0, 0.5), "c": (150.0, 0.75)}
    assert pages.white_before_turns(measured, ["a", "d", "b"]) == {"b": (170.0, 0.85)}  # a's successor is not laid out
