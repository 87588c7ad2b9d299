"""views.tracker: the delve tracker on a booklet's back page → rows of boxes and writing fields."""

from __future__ import annotations

from dungeonpress.views.tracker import tracker_view


def test_the_delve_tracker_counts_what_the_rules_page_uses_up():
    view = tracker_view()
    counts = {track["label"]: len(track["boxes"]) for track in view["tracks"]}
    assert counts["Luck"] == 6 and counts["Twist counter"] == 3  # Luck starts at 6; a twist comes at 3
    assert all(track["hint"] for track in view["tracks"])
    assert view["fields"] and all(field["rows"] in (3, 4) for field in view["fields"])  # zine.css rules rows-3 and rows-4
