"""The delve tracker on a dungeon booklet's back page: what a delve counts → rows of boxes and lines to fill."""

from __future__ import annotations

# (label, boxes, hint): what one delve uses up, in the order the How to Play page names them.
TRACKS = (
    ("Scenes", 20, "each room is a scene: eat every third; after 6 unrested, a Fatigue roll"),
    ("Luck", 6, "Harm & Luck: 1 lower per Stress tag; refills after each fight"),
    ("Twist counter", 3, "+1 on a double; at 3 take the next twist and clear"),
    ("Light", 12, "a torch burns 1 scene, a lantern 2"),
    ("Rations", 8, "one every third scene, one for each rest"),
)
LINES = (("Stress and Fatigue tags", 3), ("Found, lost and owed", 4))


def tracker_view() -> dict:
    """Rows of boxes (one item per box), and writing fields sized by the lines of pencil they hold (zine.css)."""
    return {
        "tracks": [{"label": label, "boxes": list(range(count)), "hint": hint} for label, count, hint in TRACKS],
        "fields": [{"label": label, "rows": count} for label, count in LINES],
    }
