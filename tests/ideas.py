"""Row ideas for the near-duplicate check: a row's text → the set of concepts it is about.

Words are folded to a stem and near-synonyms to one concept ("sigil", "rune" and "glyph" are one
idea; "vow" and "promise" another), so two rows that say the same thing in other words still meet.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Words that carry no idea of their own here: grammar, and the game terms every trap or tag uses.
STOPWORDS = set("""
a an the and or but of to in on at by for with from into onto over under up down out off as is are be been was were
it its it's this that these those there here then than so if when while until before after about through around
across again also only just more less most some any each every all both one two three four five six first next last
you your yours yourself they them their his her him she he we our who whom which what where how not no nor yet
has have had do does did can could will would may might must shall should own same other another
gain gains lose loses lost tag tags fatigue stress gear durability oracle ask roll rolls scene scenes check
disadvantage advantage on no and yes
need feel make makes made get gets keep keeps way thing things something someone within came whose toward
use uses want wants set room
""".split())

# Near-synonyms folded to one concept (the key). Each list holds stems as `stem` returns them.
SYNONYMS = {
    "glyph": "rune sigil glyph sign symbol",
    "flash": "flash blind blinding searing glare dazzle",
    "dart": "dart needle",
    "crush": "crush closing close grind squeeze",
    "curse": "curse hex soul doom",
    "snuff": "snuff gutter shrink smother douse",
    "air": "air draught breath gust wind",
    "flame": "flame torch candle lantern fire light",
    "relic": "reliquary relic",
    "bone": "bone skull tooth teeth",
    "saint": "saint holy",
    "fragile": "brittle thin short frayed",
    "temper": "temper patience anger",
    "promise": "promise vow oath sworn swear",
    "death": "grave dying dead death tomb",
    "thrill": "thrill alive excitement rush",
}


def stem(word: str) -> str:
    """A crude stem: possessive, plural and -ing/-ed endings dropped ("flames" and "flame" meet)."""
    word = word.removesuffix("'s")
    if word.endswith(("ches", "shes", "sses", "xes")):
        return word[:-2]
    for ending in ("ing", "ed", "s"):
        if word.endswith(ending) and len(word) - len(ending) >= 3 and not word.endswith("ss"):
            return word[: -len(ending)]
    return word


CONCEPT = {stem(word): concept for concept, words in SYNONYMS.items() for word in words.split()}


def concepts(text: str) -> frozenset:
    """The ideas a piece of row text is about."""
    out = set()
    for word in re.findall(r"[a-z']+", str(text).casefold()):
        word = word.strip("'")
        if word in STOPWORDS or len(word) < 3:
            continue
        out.add(CONCEPT.get(stem(word), stem(word)))
    return frozenset(out)


TAG_NAME = re.compile(r"\b(?:Fatigue|Stress) tags? ([A-Z][\w'-]*(?: (?:[A-Z][\w'-]*|to|the|in|of|from))*)"
                      r"(?: and ([A-Z][\w'-]*(?: (?:[A-Z][\w'-]*|to|the|in|of|from))*))?")


def row_text(text: str) -> str:
    """A row's text without the names of the tags it hands out (the tag table owns those ideas)."""
    return TAG_NAME.sub(" ", str(text))


@dataclass(frozen=True)
class RowIdea:
    """One written row: where it is, the concepts of its first column and of the whole row."""

    name: str  # "traps 25"
    table: str
    head: frozenset  # the first column: a trap's or item's name
    whole: frozenset
    columns: int
    own: frozenset = frozenset()  # the name of the creature the row meets, if any


def row_idea(name: str, table: str, cells: list, creature: str = "") -> RowIdea:
    """The ideas of a row given as its cells, and of the creature it names."""
    return RowIdea(name, table, concepts(cells[0]), concepts(row_text(" ".join(str(c) for c in cells))),
                   len(cells), concepts(creature))


def repeats(a: RowIdea, b: RowIdea) -> bool:
    """Two rows repeat an idea when their names say the same, or the rows share most of the smaller
    one's concepts (two when both are short, else three), or two short rows of one table share
    the only idea of one. Two rows meeting the same creature are compared without its name."""
    head_a, head_b, whole_a, whole_b = a.head, b.head, a.whole, b.whole
    if a.own and a.own == b.own:
        head_a, head_b, whole_a, whole_b = head_a - a.own, head_b - a.own, whole_a - a.own, whole_b - a.own
    if a.columns > 1 and b.columns > 1 and min(len(head_a), len(head_b)) >= 2:
        heads = len(head_a & head_b)
        if heads >= 2 and heads / min(len(head_a), len(head_b)) >= 0.6:
            return True
    shared = len(whole_a & whole_b)
    smaller = min(len(whole_a), len(whole_b))
    if not smaller:
        return False
    if shared >= 2 and shared / smaller >= 0.6 and max(len(whole_a), len(whole_b)) <= 4:
        return True  # two short rows saying the same two things
    if shared >= 3 and shared / smaller >= 0.5:
        return True
    return a.table == b.table and smaller == 1 and shared == 1 and max(len(whole_a), len(whole_b)) <= 3


def repeated_pairs(rows: list) -> list:
    """[(name, name)] for RowIdeas whose ideas repeat; rows of a single word are never compared."""
    made = [row for row in rows if len(row.whole) > 1 or row.columns > 1 or len(row.head) >= 1]
    pairs = []
    for i, a in enumerate(made):
        for b in made[i + 1:]:
            if repeats(a, b):
                pairs.append((a.name, b.name))
    return pairs
