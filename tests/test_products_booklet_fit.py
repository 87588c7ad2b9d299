"""What a delve's booklet pages say to fit them better (products.booklet_fit), read off measured pages."""

from __future__ import annotations

import pytest

from dungeonpress.pdf import PageMeasure
from dungeonpress.products import booklet_fit as fit


def test_a_key_page_with_little_room_left_gets_no_notes():
    px = fit.NOTE_LINE_PX
    view = {"anchor": "d1", "rooms": [{"anchor": "d1-r1"}, {"anchor": "d1-r2"}]}
    roomy = (PageMeasure(800.0, {"d1-r1": (50.0, 100.0), "d1-r2": (100.0, 200.0)}, text_bottom=760.0),)
    full = (PageMeasure(800.0, {"d1-r1": (50.0, 400.0), "d1-r2": (400.0, 700.0)}, text_bottom=760.0),)
    expected = int((760.0 - 200.0 - fit.RULES_NOTES_HEAD_PX) // px)
    assert fit.key_note_lines(roomy, [view]) == {"d1": list(range(expected))}
    assert fit.key_note_lines(full, [view]) == {}


def test_the_foes_log_takes_the_rest_of_the_rules_page_where_three_foes_fit():
    assert fit.foe_log_rows(0) == 0
    assert fit.foe_log_rows(fit.MIN_RULES_NOTE_LINES) == 0  # too few: ruled for notes, as before
    assert fit.foe_log_rows(19) >= 8  # the dyslexia-friendly booklet of seed 1234: p8 three-quarters empty
    rows = fit.foe_log_rows(12)
    assert rows >= fit.MIN_FOE_ROWS
    assert rows * fit.FOE_ROW_PX + fit.FOE_HEAD_PX <= 12 * fit.NOTE_LINE_PX  # inside the lines' room

def test_a_legend_that_went_over_asks_for_its_map_shorter_by_what_went_over():
    px = 96 / 25.4
    view = {"anchor": "d4-dungeon"}
    map_page = PageMeasure(800, {"d4-dungeon": (60, 110), "d4-dungeon-map": (150, 700)}, text_top=50, text_bottom=760)
    over = PageMeasure(800, {"d4-dungeon-legend": (50, 120)}, text_top=50, text_bottom=760)
    # 70 px of legend went over; 60 px were left under the map: 10 px (2.6 mm) shorter, and the spare
    assert fit.spilled_legends((map_page, over), [view]) == {0: pytest.approx(10 / px + fit.SPILL_SPARE_MM)}
    kept = PageMeasure(800, {**map_page.boxes, "d4-dungeon-legend": (702, 740)}, text_top=50, text_bottom=760)
    assert fit.spilled_legends((kept, PageMeasure(800, {})), [view]) == {}
    # split (large print, pack seed 415007161's third delve): its first lines stayed, the 40 px of its last went over
    split = PageMeasure(800, {**map_page.boxes, "d4-dungeon-legend": (702, 760)}, text_top=50, text_bottom=760)
    rest = PageMeasure(800, {"d4-dungeon-legend": (50, 90)}, text_top=50, text_bottom=760)
    assert fit.spilled_legends((split, rest), [view]) == {0: pytest.approx(40 / px + fit.SPILL_SPARE_MM)}
    # the map itself went over: all that went over, less the white under the heading (the facts under it not counted:
    # drawn a little shorter than it need be, never too tall)
    heading = PageMeasure(800, {"d4-dungeon": (60, 110)}, text_top=50, text_bottom=760)
    whole = PageMeasure(800, {"d4-dungeon-map": (50, 680), "d4-dungeon-legend": (682, 720)}, text_top=50, text_bottom=760)
    # (630 px of map and 38 of legend, where 650 were left under the heading: 18 px)
    assert fit.spilled_legends((heading, whole), [view]) == {0: pytest.approx(18 / px + fit.SPILL_SPARE_MM)}


def test_how_to_play_ends_in_a_foes_log_where_three_fit_else_in_ruled_lines():
    assert fit.rules_ending(0) == {"rules_notes": [], "foe_log": None}
    few = fit.rules_ending(fit.MIN_RULES_NOTE_LINES)
    assert few["rules_notes"] == list(range(fit.MIN_RULES_NOTE_LINES)) and few["foe_log"] is None
    logged = fit.rules_ending(12)
    assert logged["rules_notes"] == [] and logged["foe_log"]["rows"] == list(range(fit.foe_log_rows(12)))
    assert logged["foe_log"]["start"] == fit.FOE_LUCK
