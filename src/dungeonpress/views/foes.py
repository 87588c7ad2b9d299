"""Creatures, rolled rivals and a dungeon's inhabitants → card views, and where the cards sit on a sheet (mm)."""

from __future__ import annotations

from dataclasses import dataclass

from dungeonpress.model import Creature
from dungeonpress.model.paper import PAPER_MM

LUCK = 6  # every creature and rival starts with Luck 6 in a Harm & Luck conflict

# Card sizes, portrait, in mm: an index card and ISO A7.
CARD_SIZES = {"3x5": (76.2, 127.0), "a7": PAPER_MM["a7"]}
COLUMNS, ROWS = 2, 2  # cards a sheet holds: they butt together, so one cut separates two cards
MARK_GAP, MARK_LENGTH = 2.0, 7.0  # cut marks start this far outside the cards and are this long
SAFE_EDGE = 5.5  # mm: home printers leave the outer 5 mm blank, so no mark or word comes nearer the edge
LABEL_INSET = 3.0  # mm: the sheet's title and foot sit between two cut marks, this far from each


@dataclass(frozen=True)
class Mark:
    """One cut mark: a line from (x1, y1) to (x2, y2), in mm from the sheet's top left."""

    x1: float
    y1: float
    x2: float
    y2: float


def sheet_geometry(size: str, paper: str) -> dict:
    """Card size, each card's top-left corner, and the cut marks, all outside the cards, for one sheet."""
    card_w, card_h = CARD_SIZES[size]
    sheet_w, sheet_h = PAPER_MM[paper]
    left = (sheet_w - COLUMNS * card_w) / 2
    top = (sheet_h - ROWS * card_h) / 2
    slots = [(round(left + c * card_w, 2), round(top + r * card_h, 2)) for r in range(ROWS) for c in range(COLUMNS)]
    xs = [round(left + c * card_w, 2) for c in range(COLUMNS + 1)]
    ys = [round(top + r * card_h, 2) for r in range(ROWS + 1)]
    right, bottom = xs[-1], ys[-1]
    # A Letter sheet leaves only 12.7 mm above and below two 5-inch cards: the marks shorten to stay printable.
    tall = min(MARK_LENGTH, top - MARK_GAP - SAFE_EDGE)
    wide = min(MARK_LENGTH, left - MARK_GAP - SAFE_EDGE)
    marks = []
    for x in xs:  # vertical cuts: ticks in the top and bottom margins
        marks.append(Mark(x, round(top - MARK_GAP - tall, 2), x, round(top - MARK_GAP, 2)))
        marks.append(Mark(x, round(bottom + MARK_GAP, 2), x, round(bottom + MARK_GAP + tall, 2)))
    for y in ys:  # horizontal cuts: ticks in the left and right margins
        marks.append(Mark(round(left - MARK_GAP - wide, 2), y, round(left - MARK_GAP, 2), y))
        marks.append(Mark(round(right + MARK_GAP, 2), y, round(right + MARK_GAP + wide, 2), y))
    # The title (over the first column) and the foot line (under the second) sit between the vertical marks.
    # Where the margin is deep enough (A7 on A4) the title runs above the marks, across both columns.
    deep = top - MARK_GAP - tall - SAFE_EDGE >= 8
    labels = {"left": round(xs[0] + LABEL_INSET, 2), "second": round(xs[1] + LABEL_INSET, 2),
              "width": round(card_w - 2 * LABEL_INSET, 2), "edge": SAFE_EDGE + 0.5,
              "title_width": round((xs[-1] - xs[0] if deep else card_w) - 2 * LABEL_INSET, 2)}
    # In a shallow margin a long title crosses the inner top marks: the first sheet leaves those out
    # (the card's dashed edge and the mark at the foot still guide that cut).
    under_title = [not deep and m.y2 <= top and 0 < i < 2 * COLUMNS and m.x1 == m.x2 for i, m in enumerate(marks)]
    return {"card_w": card_w, "card_h": card_h, "sheet_w": sheet_w, "sheet_h": sheet_h, "slots": slots,
            "marks": [_mark_box(m) | {"under_title": u} for m, u in zip(marks, under_title)],
            "per_sheet": len(slots), "labels": labels}


def _mark_box(mark: Mark) -> dict:
    """A cut mark as the box the template places: its ends, and its left, top, width and height in mm."""
    return {**mark.__dict__, "left": min(mark.x1, mark.x2), "top": min(mark.y1, mark.y2),
            "width": abs(mark.x2 - mark.x1), "height": abs(mark.y2 - mark.y1)}


def creature_card(creature: Creature, where: str = "") -> dict:
    """A foe card: the creature's tags in the order the rules list them, and its Luck track."""
    tags = [("Concept", creature.concept), ("Skills", ", ".join(creature.skills)), ("Frailty", creature.frailty),
            ("Gear", ", ".join(creature.gear))]
    if creature.living:  # non-living things do what they were made for: no goal, motive or nemesis
        tags += [("Goal", creature.goal or ""), ("Motive", creature.motive or ""), ("Nemesis", creature.nemesis or "")]
    return {"kind": "foe", "title": creature.name, "key": f"{creature.key}",
            "kicker": f"{creature.tier.capitalize()} · {'living' if creature.living else 'not living'}",
            "tags": [{"label": label, "text": text} for label, text in tags if text],
            "flavour": creature.description, "luck": LUCK, "luck_boxes": list(range(LUCK)), "where": where}


def rival_card(character, number: int) -> dict:
    """An NPC card from a rolled delver: a rival working the same dungeon."""
    tags = [("Concept", character.concept.value), ("Skills", ", ".join(s.value for s in character.skills)),
            ("Frailty", character.frailty.value), ("Gear", ", ".join(g.item.value for g in character.gear)),
            ("Goal", character.goal.value), ("Motive", character.motive.value), ("Nemesis", character.nemesis.value)]
    return {"kind": "npc", "title": character.name, "key": f"R{number}", "kicker": "Rival delver · living",
            "tags": [{"label": label, "text": text} for label, text in tags], "flavour": "", "luck": character.luck,
            "luck_boxes": list(range(character.luck)), "where": ""}


def inhabitants(dungeon) -> list[tuple[Creature, str]]:
    """Each creature a rolled dungeon holds, once, with the rooms it is met in (and the wandering table)."""
    found: dict[int, tuple[Creature, list]] = {}
    for room in dungeon.rooms:
        for chain in (room.encounter, room.treasure):
            if chain is not None and chain.creature is not None:
                found.setdefault(chain.creature.key, (chain.creature, []))[1].append(f"room {room.number}")
    for face, chain in enumerate(dungeon.wandering, start=1):
        if chain.creature is not None:
            found.setdefault(chain.creature.key, (chain.creature, []))[1].append(f"wandering {face}")
    out = []
    for creature, places in found.values():
        unique = list(dict.fromkeys(places))
        out.append((creature, "Met in " + ", ".join(unique)))
    return out


def sheets(cards: list, geometry: dict) -> list[list]:
    """The cards in sheet order, each with its slot: [[{card, x, y}, ...], ...]."""
    per = geometry["per_sheet"]
    out = []
    for start in range(0, len(cards), per):
        out.append([{"card": card, "x": x, "y": y}
                    for card, (x, y) in zip(cards[start:start + per], geometry["slots"])])
    return out
