"""views.notes: notes pages with ids pdf can find and drop, one item per ruled line."""

from __future__ import annotations

from dungeonpress.views.notes import SPARE_ID, notes_page, notes_view, record_page


def test_notes_view_numbers_its_pages_from_one_with_the_spare_prefix():
    pages = notes_view(3)
    assert [p["id"] for p in pages] == ["notes-1", "notes-2", "notes-3"]
    assert all(p["id"].startswith(SPARE_ID) for p in pages)
    assert notes_view(0) == []


def test_notes_view_defaults_and_one_item_per_ruled_line():
    page = notes_view(1)[0]
    assert page == {"id": "notes-1", "cls": "notes", "tag": "h1", "heading": "Notes", "lines": list(range(21)),
                    "record": [], "rooms": []}


def test_notes_view_passes_its_options_to_every_page():
    pages = notes_view(2, heading="Map notes", lines=5, cls="notes map", tag="h2")
    assert {(p["heading"], p["cls"], p["tag"], len(p["lines"])) for p in pages} == {("Map notes", "notes map", "h2", 5)}


def test_notes_page_keeps_the_id_it_is_given():
    page = notes_page("log-7", lines=0)
    assert page["id"] == "log-7" and page["lines"] == []


def test_a_record_page_has_a_row_for_each_delve_and_no_ruled_lines():
    page = record_page("d1-before", [{"pick": "1", "title": "The Crypt", "seed": 5}, {"pick": "2", "title": "The Mire"}])
    assert page["id"] == "d1-before" and page["heading"] == "Delves Played" and page["lines"] == []
    assert page["record"] == [{"pick": "1", "title": "The Crypt"}, {"pick": "2", "title": "The Mire"}]


def test_a_grid_page_draws_five_millimetre_squares_and_no_ruled_lines():
    from dungeonpress.views.notes import GRID_SQUARES, grid_page
    page = grid_page("notes-2")
    grid = page["grid"]
    assert page["id"] == "notes-2" and page["heading"] == "Your Map" and page["lines"] == []
    assert (len(grid["xs"]) - 1, len(grid["ys"]) - 1) == GRID_SQUARES
    assert {b - a for a, b in zip(grid["xs"], grid["xs"][1:])} == {5.0} and grid["xs"][-1] == grid["width"]
    assert grid["ys"][-1] == grid["height"] <= 150  # under an A5 page's text block, its heading and a line of how


def test_an_own_table_page_has_a_row_for_each_roll_of_its_dice_and_no_ruled_lines():
    from dungeonpress.views.notes import own_table_page
    page = own_table_page("notes-1", ("d66", "d6", "2d6"))
    assert page["id"] == "notes-1" and page["heading"] == "Your Own Tables" and page["lines"] == []
    d66, d6, two_d6 = page["own_tables"]
    assert (d66["die"], d66["two_up"], len(d66["rows"])) == ("d66", True, 18)  # two rolls a row: 36 in 18 rows
    assert d66["rows"][0] == ["11", "41"] and d66["rows"][5] == ["16", "46"] and d66["rows"][-1] == ["36", "66"]
    assert sorted(roll for row in d66["rows"] for roll in row) == [f"{a}{b}" for a in range(1, 7) for b in range(1, 7)]
    assert [row for row, in d6["rows"]] == ["1", "2", "3", "4", "5", "6"] and not d6["two_up"]
    assert [row for row, in two_d6["rows"]] == [str(n) for n in range(2, 13)]


def test_an_own_table_of_another_die_is_refused():
    import pytest
    from dungeonpress.views.notes import own_table_page
    with pytest.raises(ValueError, match=r"must be d6, 2d6 or d66 \(got 'd20'\)"):
        own_table_page("notes-1", ("d20",))


def test_a_foe_log_page_has_rows_with_six_luck_boxes_and_no_ruled_lines():
    from dungeonpress.views.notes import foe_log_page
    page = foe_log_page("notes-3", 10)
    assert page["id"] == "notes-3" and page["heading"] == "Foes Fought" and page["lines"] == []
    assert len(page["foes"]["rows"]) == 10 and len(page["foes"]["luck"]) == 6


def test_a_threads_page_shares_its_lines_out_under_labels():
    from dungeonpress.views.notes import threads_page
    page = threads_page("notes-3", lines=5)
    assert page["heading"] == "Threads" and page["lines"] == []
    assert [(s["label"], len(s["lines"])) for s in page["sections"]] == [
        ("People met", 5), ("Places found", 5), ("Questions still open", 5)]
