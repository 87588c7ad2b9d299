"""The map's key and words: the marks a map uses → legend entries and icons; layout and room looks → alt text; scale bar and north."""

from __future__ import annotations

import math
import random

from dungeonpress.draw.furnish import flight
from dungeonpress.draw.map_reading import WORDS
from dungeonpress.draw.small_marks import broken_statue, crate_pile, draw_small, pillar, rubble, statue
from dungeonpress.draw.pen import UNIT, u
from dungeonpress.model.plan import OUTSIDE

# Legend order and wording; a map lists only the marks it draws.
LEGEND = (("entrance", "entrance"), ("open", "opening"), ("barred", "barred door"), ("locked", "locked door"),
          ("broken", "broken through"), ("dead", "dead end"),
          ("stairs", "stairs down"), ("boss", "boss's lair"), ("columns", "column"), ("statues", "statue"),
          ("broken_statues", "broken statue"),
          ("water", "water"), ("altar", "altar"), ("ritual", "altar, ritual ring"), ("forge", "forge, anvil"), ("library", "shelves"),
          ("vault", "strongbox"), ("crates", "crates"), ("furniture", "table, chairs"), ("rubble", "rubble"),
          ("cracks", "cracks"), ("alcoves", "alcove"))
DIRECTIONS = {"N": "north", "E": "east", "S": "south", "W": "west"}
SCALE_CELLS = 3  # the scale bar spans three squares of ten feet
TEXT_PT = 6.0  # the least printed size of the scale bar's and north mark's letters
LABEL_EMS = 2.0  # "30 ft" is about two ems wide in the map's face
PRINT_SLACK = 1.0001  # a little over: the map's printed width is written rounded to 0.01 mm, maybe down


def legend_marks(plan, looks, items, alcoves, doors=()) -> tuple:
    """The names of the marks this map draws, in legend order (`doors`: (room, index, barred, kind) as drawn)."""
    used = {"entrance"}
    used |= {item.mark for _, item in items}
    used |= {door[3] for door in doors if len(door) > 3}
    if any(look.barred for look in looks):
        used.add("barred")
    if any(c.end is None for c in plan.corridors):
        used.add("dead")
    if alcoves:
        used.add("alcoves")
    return tuple(mark for mark, _ in LEGEND if mark in used)


def legend_label(mark: str) -> str:
    return dict(LEGEND)[mark]


def describe(dungeon, looks, title: str, items=(), alcoves=(), doors=()) -> str:
    """Alt text from what was drawn: "Room 3, a grand hall with columns; doors north to room 5 and east to room 4."

    `items` are the (room, Furnishing) marks drawn, `alcoves` the (room, polygon) niches, `doors` the
    (room, index, barred, kind) doors: the words name exactly those, so they never promise a mark the map lacks.
    """
    plan = dungeon.plan
    sentences = [f"{title}, north up, one square ten feet.",
                 "The way in comes from the south into room 1."]
    kinds = {(door[0], door[1]): door[3] for door in doors if len(door) > 3}
    for room, look in zip(plan.rooms, looks):
        what = look.words
        if look.cave:
            what = "a cave" if what == "a room" else what
        elif look.shape == "round":  # drawn with a round wall: the words say so
            what = "a round " + what.removeprefix("a ")
        elif look.shape == "apse":
            what += " with an apse"  # short words: none a trap's or a foe's could share
        elif look.shape == "ell":
            what += " in an L"
        drawn = []
        for number, item in items:
            if number == room.number and item.mark in WORDS and item.mark not in drawn:
                drawn.append(item.mark)
        if any(number == room.number for number, _ in alcoves):
            drawn.append("alcoves")
        marks = [WORDS[m] for m in drawn]
        text = f"Room {room.number}, {what}"
        if any(number == room.number and item.mark == "boss" for number, item in items):
            text += ", the boss's lair"
        if marks:
            text += " with " + _and(marks)
        exits = []
        for index, door in enumerate(room.doors):
            if door.to == OUTSIDE:
                where = "the way out"
            elif door.to is None:
                where = "a dead end"
            else:
                where = f"room {door.to}"
            kind = kinds.get((room.number, index), "open")
            how = {"barred": "a barred door ", "locked": "a locked door ", "broken": "a hole broken "}.get(kind, "")
            exits.append(f"{how}{DIRECTIONS[door.side]} to {where}")
        text += f"; exit{'s' if len(exits) > 1 else ''} " + _and(exits)
        if any(number == room.number and item.mark == "stairs" for number, item in items):
            text += "; stairs down"
        sentences.append(text + ".")
    return " ".join(sentences)


def _and(words) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def dead_end(x: float, y: float, side: str) -> str:
    """A wall across the end of a passage (a square wide, and over its walls' ink) and two stones before it."""
    half = 0.58
    if side in ("E", "W"):
        wall = f"M{u(x)} {u(y - half)}V{u(y + half)}"
        back = -0.22 if side == "E" else 0.22
        dots = [(x + back, y - 0.11), (x + back * 1.7, y + 0.1)]
    else:
        wall = f"M{u(x - half)} {u(y)}H{u(x + half)}"
        back = -0.22 if side == "S" else 0.22
        dots = [(x - 0.11, y + back), (x + 0.1, y + back * 1.7)]
    stones = "".join(f'<circle class="stone" cx="{u(cx)}" cy="{u(cy)}" r="0.8"/>' for cx, cy in dots)
    return f'<path class="dead" d="{wall}"/>{stones}'


def broken_wall(x: float, y: float, across: bool, data: str = "") -> str:
    """A wall broken through: a ragged gap where a door would be, no leaf, two stones fallen in it."""
    half, depth = 0.5, 0.2  # along the wall (the passage's mouth), and either side of it
    if across:  # a north or south wall runs east–west
        d = (f"M{u(x - half)} {u(y - depth)}L{u(x - half + 0.12)} {u(y)}L{u(x - half)} {u(y + depth)}"
             f"M{u(x + half)} {u(y - depth)}L{u(x + half - 0.12)} {u(y)}L{u(x + half)} {u(y + depth)}")
        stones = ((x - 0.12, y + 0.05), (x + 0.14, y - 0.06))
        box = (x - half, y - depth, 2 * half, 2 * depth)
    else:
        d = (f"M{u(x - depth)} {u(y - half)}L{u(x)} {u(y - half + 0.12)}L{u(x + depth)} {u(y - half)}"
             f"M{u(x - depth)} {u(y + half)}L{u(x)} {u(y + half - 0.12)}L{u(x + depth)} {u(y + half)}")
        stones = ((x + 0.05, y - 0.12), (x - 0.06, y + 0.14))
        box = (x - depth, y - half, 2 * depth, 2 * half)
    dots = "".join(f'<circle class="stone" cx="{u(cx)}" cy="{u(cy)}" r="0.8"/>' for cx, cy in stones)
    return (f'<g class="door broken" {data}><rect class="gap" x="{u(box[0])}" y="{u(box[1])}" width="{u(box[2])}" '
            f'height="{u(box[3])}"/><path class="ragged" d="{d}"/>{dots}</g>')


def arrow(x: float, base: float, length: float) -> str:
    tip = base - length
    return (f'<path class="arrow-shaft" d="M{u(x)} {u(base)}V{u(tip + 0.5)}"/>'
            f'<path class="arrow" d="M{u(x - 0.4)} {u(tip + 0.6)}L{u(x)} {u(tip)}L{u(x + 0.4)} {u(tip + 0.6)}Z"/>')


def scale_and_north(plan, scale_mm: float, text_pt: float = TEXT_PT) -> str:
    """A scale bar (three ten-foot squares) and a north arrow in the strip below the map, clear of the way in.

    `scale_mm` is how many mm a square prints at: the words keep at least `text_pt` (TEXT_PT, or large print's
    size) however small the map.
    """
    W, H = plan.width, plan.height
    unit_mm = scale_mm / UNIT
    # in user units, rounded up: never a hair under (PRINT_SLACK: the SVG's printed width is rounded to 0.01 mm)
    least = math.ceil(text_pt * 25.4 / 72 / unit_mm * PRINT_SLACK * 100) / 100
    label, letter = max(6.0, least) / UNIT, max(7.0, least) / UNIT  # font sizes, in cells
    ax = next((c.points[-1][0] for c in plan.corridors if c.end == OUTSIDE), W / 2)
    # On a small map the words keep their printed size and outgrow the bar: "30 ft" (about two ems wide) and the
    # N (under one) then keep apart by moving the bar and the arrow further apart, by `push` squares.
    half_label, half_n = LABEL_EMS / 2 * label, 0.45 * letter
    push = max(0.0, half_label + half_n - 2.35)
    # The N's middle keeps its half and a margin from the map's right edge (a cover frames the map there).
    edge = max(0.8, half_n + 0.3)
    need = SCALE_CELLS + 2.6 + push + edge - 0.8  # bar, a gap, the north arrow
    corner = False
    if W - ax - 0.8 >= need:  # both on the right of the way in, north in the corner
        north_x, bar_x = W - edge, W - edge - 1.0 - SCALE_CELLS - push
    elif ax - 0.8 >= need:
        bar_x, north_x = 0.5, 0.5 + SCALE_CELLS + 1.3 + push
    else:  # a narrow map: the bar on the wider side, north in the top corner
        bar_x = 0.5 if ax > W / 2 else W - 0.5 - SCALE_CELLS
        north_x = W - edge
        corner = True
    y = H - 0.95
    cells = "".join(f'<rect class="scale{" scale-fill" if i % 2 == 0 else ""}" x="{u(bar_x + i)}" y="{u(y)}" '
                    f'width="{u(1)}" height="{u(0.22)}"/>' for i in range(SCALE_CELLS))
    # One label, centred over the bar: it stays within the bar's three squares at any size it is given.
    # Its baseline clears the bar by a third of its size at least: on a cover's small outline the words keep
    # their printed size while the squares shrink, and a fixed gap in squares let the old-style 3 touch the bar.
    words = (f'<text class="scale-text" x="{u(bar_x + SCALE_CELLS / 2)}" y="{u(y - max(0.32, 0.35 * label))}" '
             f'style="font-size:{u(label)}px">30 ft</text>')
    cap = 0.7 * letter  # the N's height: the arrow stands on it
    ny = (0.35 + 1.3 + cap) if corner else H - max(0.35, 0.3 * letter)  # off the bottom edge (a cover's frame)
    tip = ny - cap - 0.2
    north = (f'<path class="north" d="M{u(north_x)} {u(tip - 0.95)}L{u(north_x + 0.32)} {u(tip)}'
             f'L{u(north_x)} {u(tip - 0.2)}L{u(north_x - 0.32)} {u(tip)}Z"/>'
             f'<text class="north-text" x="{u(north_x)}" y="{u(ny)}" style="font-size:{u(letter)}px">N</text>')
    return cells + words + north


def legend_icon(mark: str, css: str = "") -> str:
    """A small inline SVG of one legend mark, drawn with the map's classes (16 units: 1.6 squares)."""
    body = {
        "entrance": arrow(0.8, 1.5, 1.3),
        "open": '<path class="passage-wall" d="M8 16V8"/><path class="passage" d="M8 16V7"/>'
                '<path class="wall" d="M0 8H2.2M13.8 8H16"/>',  # a square-wide passage through the wall
        "barred": '<rect class="door barred" x="3.5" y="6.7" width="9" height="2.6"/><path class="bar" d="M8 3.8V12.2"/>',
        "locked": '<rect class="door locked" x="3.5" y="6.7" width="9" height="2.6"/><circle class="keyhole" cx="8" cy="8" r="0.9"/>',
        "broken": '<path class="wall" d="M0 8H4M12 8H16"/>'
                  + broken_wall(0.8, 0.8, True),
        "dead": '<path class="passage-wall" d="M0 8H12"/><path class="passage" d="M0 8H12"/>' + dead_end(1.2, 0.8, "E"),
        "stairs": flight(0.2, 0.2, 1.2, "N"),
        "boss": '<circle class="boss" cx="8" cy="7" r="4.6"/><rect class="boss" x="5.6" y="10" width="4.8" height="3"/>'
                '<circle class="boss-eye" cx="6.2" cy="7.2" r="1.2"/><circle class="boss-eye" cx="9.8" cy="7.2" r="1.2"/>',
        "columns": pillar(0.8, 0.8, 2.2),
        "statues": statue(0.8, 0.8, 0.55),
        "broken_statues": broken_statue(0.8, 0.8, 1.5, 0, random.Random("legend broken statue")),
        "water": '<path class="water" d="M2 8Q2 3 8 3Q14 3 14 8Q14 13 8 13Q2 13 2 8Z"/>'
                 '<path class="ripple" d="M5 7Q8 5.6 11 7M5 10Q8 8.6 11 10"/>',
        "altar": draw_small("altar", 0, 0, 1.6, random.Random("legend altar"))[1],
        "ritual": draw_small("ritual", 0, 0, 1.6, random.Random("legend ritual"))[1],
        "forge": '<circle class="furniture" cx="5.2" cy="5.6" r="4.4"/><circle class="hearth" cx="5.2" cy="5.6" r="2.4"/>'
                 '<path class="anvil" d="M8 11H15L13.5 12.7H12.7V14.7H10.3V12.7H9.5Z"/>',
        "library": '<rect class="furniture" x="1" y="6" width="14" height="4"/>'
                   '<path class="detail" d="M3 6V10M5 6V10M7 6V10M9 6V10M11 6V10M13 6V10"/>',
        "crates": crate_pile(0.1, 0.1, 1.4, random.Random("legend crates"))[1],
        "vault": '<rect class="chest" x="2" y="4" width="12" height="8"/><path class="band" d="M2 8H14"/>',
        "furniture": '<rect class="furniture" x="4" y="5" width="8" height="6"/><rect class="furniture" x="1" y="6.5" '
                     'width="2" height="3"/><rect class="furniture" x="13" y="6.5" width="2" height="3"/>',
        "rubble": rubble(0.8, 0.8, 1.4, random.Random("legend rubble")),
        "cracks": '<path class="wall" d="M1 2H15"/><path class="crack" d="M7 2L8.6 5.2L6.6 8L8.4 11.5"/>',
        "alcoves": '<path class="wall" d="M0 10H4V5H12V10H16"/>',
    }[mark]
    style = f"<style>{css}</style>" if css else ""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="legend-icon dungeon-map" viewBox="0 0 16 16" '
            f'width="3mm" height="3mm" aria-hidden="true">{style}{body}</svg>')
