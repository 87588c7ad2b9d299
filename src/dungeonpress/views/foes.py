"""Creatures, rolled rivals and a dungeon's inhabitants → card views, and where the cards sit on a sheet (mm)."""

from __future__ import annotations

from dataclasses import dataclass

from dungeonpress.model import Creature
from dungeonpress.model.paper import PAPER_MM

LUCK = 6  # every creature and rival starts with Luck 6 in a Harm & Luck conflict

# Card sizes, portrait, in mm: an index card and ISO A7.
CARD_SIZES = {"3x5": (76.2, 127.0), "a7": PAPER_MM["a7"]}
MARK_GAP, MARK_LENGTH = 2.0, 7.0  # cut marks in a margin start this far outside the cards and are this long
CROSS_ARM = 2.5  # mm: each arm of the cross where two cuts meet inside the sheet
SAFE_EDGE = 5.5  # mm: home printers leave the outer 5 mm blank, so no mark or word comes nearer the edge
LABEL_INSET = 3.0  # mm: the sheet's title and foot sit between two cut marks, this far from each
MARGIN_FOR_MARKS = SAFE_EDGE + MARK_GAP + 3.0  # a margin this deep holds a tick outside the cards
TITLE_MARGIN = 12.0  # mm above the cards: enough for the deck's title beside the marks


@dataclass(frozen=True)
class Mark:
    """One cut mark: a line from (x1, y1) to (x2, y2), in mm from the sheet's top left."""

    x1: float
    y1: float
    x2: float
    y2: float


def sheet_grid(size: str, paper: str) -> tuple:
    """(sheet width, sheet height, columns, rows): the sheet turned whichever way holds the most upright cards.

    Eight A7 cards fill an A4 sheet turned landscape (4 x 2: A4 is eight A7s); six fit a landscape Letter
    sheet (eight would need 296 mm across its 279.4); 3x5 cards go four to a portrait sheet of either paper.
    """
    card_w, card_h = CARD_SIZES[size]
    best = None
    for sheet_w, sheet_h in (PAPER_MM[paper], PAPER_MM[paper][::-1]):  # portrait first: it wins a tie
        columns, rows = int((sheet_w + 0.01) // card_w), int((sheet_h + 0.01) // card_h)
        if best is None or columns * rows > best[2] * best[3]:
            best = (sheet_w, sheet_h, columns, rows)
    return best


def _offset(spare: float) -> float:
    """Where the block of cards starts along one side: centred in a margin deep enough for marks, else flush
    with the sheet's edge, so every card keeps its size and only one edge is left to trim."""
    return spare / 2 if spare / 2 >= MARGIN_FOR_MARKS else 0.0


def sheet_geometry(size: str, paper: str) -> dict:
    """Card size, each card's top-left corner, and the cut marks, all on the lines to cut, for one sheet.

    The cards butt together, so one cut separates two cards and every mark serves all the cards along
    its line. A line that has a margin at its end gets a tick there, outside the cards; a line that runs
    to the sheet's edge (cards that fill the sheet) gets its tick just inside the printable area, on the
    line itself, between the two cards' margins. Where two cuts cross inside the sheet a small cross is
    drawn, so each half still has its marks after the first cut. A card edge nearer than SAFE_EDGE to
    the sheet edge is the sheet edge (or a sliver trimmed by eye): it has no marks.
    """
    card_w, card_h = CARD_SIZES[size]
    sheet_w, sheet_h, columns, rows = sheet_grid(size, paper)
    left = _offset(sheet_w - columns * card_w)
    top = _offset(sheet_h - rows * card_h)
    slots = [(round(left + c * card_w, 2), round(top + r * card_h, 2)) for r in range(rows) for c in range(columns)]
    xs = [round(left + c * card_w, 2) for c in range(columns + 1)]
    ys = [round(top + r * card_h, 2) for r in range(rows + 1)]
    right, bottom = xs[-1], ys[-1]
    cut_xs = [x for x in xs if SAFE_EDGE <= x <= sheet_w - SAFE_EDGE]
    cut_ys = [y for y in ys if SAFE_EDGE <= y <= sheet_h - SAFE_EDGE]
    marks = []
    for x in cut_xs:  # vertical cuts: a tick at the top and at the foot
        marks.append(_tick(x, top, sheet_h, vertical=True, start=True))
        marks.append(_tick(x, sheet_h - bottom, sheet_h, vertical=True, start=False))
    for y in cut_ys:  # horizontal cuts: a tick at the left and at the right
        marks.append(_tick(y, left, sheet_w, vertical=False, start=True))
        marks.append(_tick(y, sheet_w - right, sheet_w, vertical=False, start=False))
    for x in cut_xs:  # crosses where two cuts meet inside the block of cards
        for y in cut_ys:
            if xs[0] < x < xs[-1] and ys[0] < y < ys[-1]:
                marks.append(Mark(round(x - CROSS_ARM, 2), y, round(x + CROSS_ARM, 2), y))
                marks.append(Mark(x, round(y - CROSS_ARM, 2), x, round(y + CROSS_ARM, 2)))
    # Light dashed guides along each cut, over the cards, kept inside the printable area.
    guides = [Mark(x, round(max(SAFE_EDGE, ys[0]), 2), x, round(min(sheet_h - SAFE_EDGE, ys[-1]), 2)) for x in cut_xs]
    guides += [Mark(round(max(SAFE_EDGE, xs[0]), 2), y, round(min(sheet_w - SAFE_EDGE, xs[-1]), 2), y) for y in cut_ys]
    # The deck's title and the foot line go in the margins above and below the cards, between the
    # vertical marks; cards that fill the sheet leave no margin: then the PDF's title names the deck.
    labels = None
    if top >= TITLE_MARGIN:
        tall = min(MARK_LENGTH, top - MARK_GAP - SAFE_EDGE)
        deep = top - MARK_GAP - tall - SAFE_EDGE >= 8  # the title fits above the marks, across every column
        labels = {"left": round(xs[0] + LABEL_INSET, 2), "second": round(xs[1] + LABEL_INSET, 2),
                  "width": round(card_w - 2 * LABEL_INSET, 2), "edge": SAFE_EDGE + 0.5,
                  "title_width": round((xs[-1] - xs[0] if deep else card_w) - 2 * LABEL_INSET, 2), "deep": deep}
    # In a shallow margin a long title crosses the inner top marks: the first sheet leaves those out
    # (the card's dashed edge and the mark at the foot still guide that cut).
    under_title = [bool(labels) and not labels["deep"] and m.x1 == m.x2 and m.y2 <= top and xs[0] < m.x1 < xs[-1]
                   for m in marks]
    return {"card_w": card_w, "card_h": card_h, "sheet_w": sheet_w, "sheet_h": sheet_h, "slots": slots,
            "columns": columns, "rows": rows, "landscape": sheet_w > sheet_h,
            "cuts": {"x": cut_xs, "y": cut_ys}, "guides": [_mark_box(g) for g in guides],
            "marks": [_mark_box(m) | {"under_title": u} for m, u in zip(marks, under_title)],
            "per_sheet": len(slots), "labels": labels,
            "heading": 2 if labels else 1}  # the cards' titles are the top headings when no deck title is printed


def _tick(at: float, margin: float, length: float, *, vertical: bool, start: bool) -> Mark:
    """The tick at one end of a cut line `at` mm along the sheet: in the margin outside the cards when it is
    deep enough, else just inside the printable area. `length` is the sheet's extent along the line."""
    if margin >= MARGIN_FOR_MARKS:
        near, far = max(SAFE_EDGE, margin - MARK_GAP - MARK_LENGTH), margin - MARK_GAP
    else:
        near = max(SAFE_EDGE, margin)
        far = near + MARK_LENGTH
    a, b = (near, far) if start else (length - far, length - near)
    a, b = round(a, 2), round(b, 2)
    return Mark(at, a, at, b) if vertical else Mark(a, at, b, at)


def _mark_box(mark: Mark) -> dict:
    """A cut mark as the box the template places: its ends, and its left, top, width and height in mm."""
    return {**mark.__dict__, "left": min(mark.x1, mark.x2), "top": min(mark.y1, mark.y2),
            "width": abs(mark.x2 - mark.x1), "height": abs(mark.y2 - mark.y1)}


# The bestiary's tiers, least deadly first (validate.TIERS, the names a creature may have): a card's tier mark fills
# one pip per step, so a boss's card is told from a brute's across the table, and says its tier in words too.
TIER_ORDER = ("vermin", "minion", "brute", "elite", "boss")


def tier_mark(tier: str) -> dict:
    """A tier as the card draws it: its name, and five pips filled up to its rank (vermin 1 … boss 5)."""
    rank = TIER_ORDER.index(tier) + 1
    return {"name": tier.capitalize(), "key": tier, "rank": rank, "pips": [n < rank for n in range(len(TIER_ORDER))]}


def creature_card(creature: Creature, where: str = "") -> dict:
    """A foe card: the creature's tags in the order the rules list them, and its Luck track."""
    tags = [("Concept", creature.concept), ("Skills", ", ".join(creature.skills)), ("Frailty", creature.frailty),
            ("Gear", ", ".join(creature.gear))]
    if creature.living:  # non-living things do what they were made for: no goal, motive or nemesis
        tags += [("Goal", creature.goal or ""), ("Motive", creature.motive or ""), ("Nemesis", creature.nemesis or "")]
    return {"kind": "foe", "title": creature.name, "key": f"{creature.key}",
            "kicker": "Living" if creature.living else "Not living", "tier": tier_mark(creature.tier),
            "tags": [{"label": label, "text": text} for label, text in tags if text],
            "flavour": creature.description, "luck": LUCK, "luck_boxes": list(range(LUCK)), "where": where}


def rival_card(character, number: int) -> dict:
    """An NPC card from a rolled delver: a rival working the same dungeon."""
    tags = [("Concept", character.concept.value), ("Skills", ", ".join(s.value for s in character.skills)),
            ("Frailty", character.frailty.value), ("Gear", ", ".join(g.item.value for g in character.gear)),
            ("Goal", character.goal.value), ("Motive", character.motive.value), ("Nemesis", character.nemesis.value)]
    return {"kind": "npc", "title": character.name, "key": f"R{number}", "kicker": "Rival delver · living", "tier": None,
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


BLANK_TAGS = ("Concept", "Skills", "Frailty", "Gear", "Goal", "Motive", "Nemesis")


def blank_card() -> dict:
    """A foe card to fill in by pencil, for a foe the oracle brings in play: the tags' labels over ruled lines."""
    # the tier mark's pips are left empty, to fill in pencil up to the foe's tier
    return {"kind": "blank", "title": "A foe met in play", "key": "", "kicker": "Name · living or not",
            "tier": {"name": "Tier", "key": "blank", "rank": 0, "pips": [False] * len(TIER_ORDER)},
            "tags": [{"label": label, "text": ""} for label in BLANK_TAGS], "flavour": "", "luck": LUCK,
            "luck_boxes": list(range(LUCK)), "where": "", "text_pt": 9}


def with_blanks(cards: list, per_sheet: int) -> list:
    """The deck with its last sheet made whole by blank foe cards: no empty slots to cut round."""
    spare = -len(cards) % per_sheet
    return cards + [blank_card() for _ in range(spare)]


# Fitting a card's words to its size: the largest type whose lines, estimated, fill the card without passing
# its foot. The estimate counts lines from an average letter width; the Luck track's foot and the title's
# head are fixed. (Layout measures would be exact but cost a layout per card.)
TEXT_PT = (11.0, 10.5, 10.0, 9.5, 9.0)
MIN_PT = 9.0  # the cards print on an A4 or Letter sheet: the preflight's body minimum for it
LARGEST_PT = {"a7": 10.0, "3x5": 11.0}  # one deck's sizes stay close: no card shouts
PT = 25.4 / 72
LETTER_EM = 0.43    # an average letter of Vollkorn, in ems (measured on the bestiary)
# Themes whose face sets wider: Atkinson Hyperlegible, with the dyslexia theme's letter and word spacing.
THEME_LETTER_EM = {"dyslexia-friendly": 0.53}
LEADING = 1.2
TAG_GAP_MM = 0.8    # the space above each tag after the first (foes.css: .card dd's padding)
LABEL_EM, LABEL_GAP_MM = 4.1, 1.0  # the column of small-capital labels left of the tags, and the gap after it
# (foes.css: .card dl.tags): in ems of the card's type, as the labels are
FLAVOUR_GAP_MM = 2.0
# The card's inner width and the height its tags and flavour may take (mm), with and without a "Met in" line.
TEXT_BOX = {"a7": (62.0, 70.0), "3x5": (67.2, 94.0)}
WHERE_MM = 4.5


def _lines(text: str, width_mm: float, pt: float, letter_em: float = LETTER_EM) -> int:
    per_line = max(1, int(width_mm / (pt * PT * letter_em)))
    lines, used = 1, 0
    for word in text.split():
        if used and used + 1 + len(word) > per_line:
            lines, used = lines + 1, len(word)
        else:
            used += len(word) + (1 if used else 0)
    return lines


def label_column_mm(pt: float) -> float:
    """The width (mm) the tags' labels and the gap after them take at type size `pt`."""
    return LABEL_EM * pt * PT + LABEL_GAP_MM


def text_height(card: dict, width_mm: float, pt: float, letter_em: float = LETTER_EM) -> float:
    """About how tall (mm) a card's tags and flavour print at `pt`, in a face whose average letter is `letter_em`."""
    line = pt * PT * LEADING
    beside = width_mm - label_column_mm(pt)  # a tag's words run beside its label
    height = sum(TAG_GAP_MM + max(1, _lines(tag["text"], beside, pt, letter_em)) * line for tag in card["tags"])
    if card["flavour"]:
        height += FLAVOUR_GAP_MM + _lines(card["flavour"], width_mm, pt, letter_em) * line
    return height


def fit_text(card: dict, size: str, theme: str = "standard") -> dict:
    """The card with the type size (`text_pt`) that fills it best in `theme`'s face: its flavour kept where it
    fits at MIN_PT, else left out (the bestiary in the rulebook has it)."""
    width, height = TEXT_BOX[size]
    letter_em = THEME_LETTER_EM.get(theme, LETTER_EM)
    room = height - (WHERE_MM * _lines(card["where"], width, 9.0, letter_em) if card["where"] else 0)
    for candidate in (card, card | {"flavour": ""}):
        for pt in (pt for pt in TEXT_PT if pt <= LARGEST_PT[size]):
            if text_height(candidate, width, pt, letter_em) <= room and (pt >= MIN_PT or not candidate["flavour"]):
                return candidate | {"text_pt": pt}
    return card | {"flavour": "", "text_pt": MIN_PT}
