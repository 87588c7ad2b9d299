"""A delve's booklet pages read for what fits them better: how many mm shorter a map must be drawn for its legend to
stay on its page, where a room key's pages end in ruled lines, how How to Play ends. Used by the booklet laid out whole
(products.dungeon) and by the pack's parts, in the workers that lay them out (products.pack_parts)."""

from __future__ import annotations

from dungeonpress.paginate import geometry
from dungeonpress.views.notes import foe_log

NOTE_LINE_PX = 7 * 96 / 25.4  # a booklet's ruled notes line (zine.css: .dbook .notes .line), in CSS px
RULES_NOTES_HEAD_PX = 16 * 96 / 25.4  # the notes' heading and the space above it, at large print's 14 pt
MIN_RULES_NOTE_LINES = 4  # fewer lines than this under How to Play are not worth a heading
# Where How to Play leaves room for it, the rest of its page is a log of the foes fought (each row a foe's name, its
# six Luck to cross off, its skills and frailty, how it ended), not more ruled lines: the booklet already has a notes
# page. Sizes as zine.css sets them (.dbook .foe-log), in CSS px: its how-to line and header row at large print's 14 pt.
FOE_ROW_PX = 12.5 * 96 / 25.4
FOE_HEAD_PX = 30 * 96 / 25.4
MIN_FOE_ROWS = 3  # room for fewer foes than this stays ruled for notes
FOE_LUCK = 6  # a foe starts a fight at Luck 6 (delve-rules.md, Conflict)


SPILL_SPARE_MM = 4.0  # drawn this much shorter again than the overrun: the legend's space above it (2 mm), and a margin
MIN_SPILL_MAP_MM = 60.0  # never drawn shorter than this (a map that went over whole would otherwise shrink to nothing)


def spilled_legends(measured, shown: list) -> dict:
    """{delve's index: how many mm shorter its map must be drawn} for each delve whose map legend (or map) began on a
    later page than its heading: the height of what went over (the legend, or the map and its legend), less the white
    left under the last box on the heading's page."""
    from dungeonpress.paginate.pages import anchor_boxes, anchor_starts  # loaded when a product is made, not for --help
    starts, ends = anchor_starts(measured), anchor_boxes(measured)
    cuts = {}
    for n, view in enumerate(shown):
        heading, facts, drawn, legend = (starts.get(view["anchor"] + suffix)
                                         for suffix in ("", "-facts", "-map", "-legend"))
        legend_end = ends.get(view["anchor"] + "-legend")
        if heading is None or drawn is None or legend is None or legend_end[0] == heading[0]:
            continue
        if legend[0] == heading[0]:  # split: its last lines went over (large print, seed 415007161's third delve)
            cuts[n] = (legend_end[2] - measured[legend_end[0]].text_top) / geometry.px(1.0) + SPILL_SPARE_MM
            continue
        went_over = legend[2] - legend[1]
        if drawn[0] == heading[0]:
            last = drawn
        else:
            last = facts if facts is not None and facts[0] == heading[0] else heading
            went_over += drawn[2] - drawn[1]
        overrun_px = went_over - (measured[heading[0]].text_bottom - last[2])
        cuts[n] = max(overrun_px, 0.0) / geometry.px(1.0) + SPILL_SPARE_MM
    return cuts


def rules_ending(lines: int) -> dict:
    """How How to Play ends where its last page leaves room for `lines` ruled lines (0: it ends on its page): in a log of
    the foes fought where a few fit, in that many lines for notes, or in neither (dungeon_booklet.html.j2)."""
    foes = foe_log_rows(lines)
    return {"rules_notes": [] if foes else list(range(lines)), "foe_log": foe_log(foes, luck=FOE_LUCK) if foes else None}


def foe_log_rows(lines: int) -> int:
    """How many foes the log that ends How to Play holds in the room of `lines` ruled notes lines (0: too few for a
    log, the room stays ruled)."""
    rows = int((lines * NOTE_LINE_PX - FOE_HEAD_PX) // FOE_ROW_PX)
    return rows if rows >= MIN_FOE_ROWS else 0


MIN_KEY_NOTE_LINES = 6  # fewer lines than this at a key page's foot are left white: a page that full needs none


def key_note_lines(measured, shown: list, turns: list | None = None) -> dict | None:
    """Where each room key's pages end in ruled notes lines, and how many: {the room that opens the next page, or the
    delve's own anchor after its last room: [one item per line]}.

    With `turns`, as the key will be laid out again with those rooms opening pages, read off this layout of it
    (pages.lines_under_turned_pages); None where only that layout can tell."""
    from dungeonpress.paginate import pages  # loaded when a product is made, not for --help
    notes = {}
    for view in shown:
        rooms = [room["anchor"] for room in view["rooms"]]
        under = pages.lines_under_each_page(measured, rooms, line=NOTE_LINE_PX, reserve=RULES_NOTES_HEAD_PX) \
            if turns is None else pages.lines_under_turned_pages(measured, rooms, [room for room in rooms if room in turns],
                                                                 line=NOTE_LINE_PX, reserve=RULES_NOTES_HEAD_PX)
        if under is None:
            return None
        for before, lines in under:
            if lines >= MIN_KEY_NOTE_LINES:
                notes[before or view["anchor"]] = list(range(lines))
    return notes
