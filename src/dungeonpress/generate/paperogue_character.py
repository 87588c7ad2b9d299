"""Turn the Paperogue tables and a seeded Random into a pre-rolled PaperogueCharacter.

The seed's Step 2: roll a d10 for HP, MP, STR, DEX and INT; one swap is allowed; HP total =
HP roll + STR roll and MP total = MP roll + INT roll; then one roll on Table 1 for starting
gear, its sub-table, and identification of any equipment (Tables 9 and 10).

Our reading of the swap: after the five rolls, the player may exchange the rolls of any two
stats, once, before the totals are worked out. A pre-rolled character takes the swap only
to move the single highest roll into STR when STR is not already (one of) the highest: STR
is the stat that counts twice, to hit (unarmed or with a STR weapon) and in the HP total.
"""

from __future__ import annotations

import random
import re

from dungeonpress.dice import dice, roll_on
from dungeonpress.errors import ContentError, ContentErrors
from dungeonpress.model import Content, Row, Table
from dungeonpress.model.character import TableValue
from dungeonpress.model.paperogue import PaperogueCharacter, PaperogueItem

STATS = ("HP", "MP", "STR", "DEX", "INT")  # rolled in this order
STAT_DIE = 10
# The tables this generator reads; Table 1's rows name their sub-tables with `see:`.
TREASURE = "paperogue_treasure_type"
EQUIPMENT_BONUS = "paperogue_equipment_bonus"  # Table 9: identifies armor and weapons
JEWELRY_EFFECTS = "paperogue_jewelry_effects"  # Table 10: identifies jewelry
MAGIC_BOOKS = "paperogue_magic_books"  # Table 7: also where a "grants a spell" jewel rolls
NEEDED = (TREASURE, EQUIPMENT_BONUS, JEWELRY_EFFECTS, MAGIC_BOOKS)
# Table 1 kinds, recognised by a word of the row's text.
KINDS = (("gold", "gold"), ("armo", "armor"), ("weapon", "weapon"), ("key", "key"), ("potion", "potion"),
         ("scroll", "scroll"), ("book", "book"), ("jewel", "jewelry"))
EQUIPMENT = ("armor", "weapon", "jewelry")  # "make sure to ID any equipment you get"
_DICE_BONUS = re.compile(r"^\s*([+-])\s*(\d*)d(\d+)\s+(STR|DEX|INT|HP|MP|damage)\s*$", re.IGNORECASE)
_REROLL_LIMIT = 20  # Table 10's "roll again" chain, cut short if a user pack makes it loop


def generate_paperogue_character(content: Content, rng: random.Random) -> PaperogueCharacter:
    """Roll stats (with the swap), totals and starting gear; same rng state and content → same character."""
    _require(content, NEEDED)
    rolls = tuple((stat, roll) for stat, roll in zip(STATS, dice(rng, len(STATS), STAT_DIE)))
    swap = choose_swap(rolls)
    scores = apply_swap(rolls, swap)
    value = dict(scores)
    item = roll_starting_gear(content, rng)
    spells = (item.spell,) if item.spell else ()
    return PaperogueCharacter(rolls=rolls, swap=swap, scores=scores, hp=value["HP"] + value["STR"],
                              mp=value["MP"] + value["INT"], strength=value["STR"], dexterity=value["DEX"],
                              intelligence=value["INT"], items=(item,), gold=item.gold, spells=spells)


def choose_swap(rolls: tuple) -> tuple | None:
    """The pre-roller's one swap: the highest roll into STR, unless STR already holds a highest roll."""
    values = dict(rolls)
    best = max(values.values())
    if values["STR"] == best:
        return None
    highest = next(stat for stat, roll in rolls if roll == best)
    return (highest, "STR")


def apply_swap(rolls: tuple, swap: tuple | None) -> tuple:
    if swap is None:
        return rolls
    values = dict(rolls)
    first, second = swap
    values[first], values[second] = values[second], values[first]
    return tuple((stat, values[stat]) for stat in STATS)


def roll_starting_gear(content: Content, rng: random.Random) -> PaperogueItem:
    """One roll on Table 1, then its sub-table; armor, weapons and jewelry are identified at once."""
    treasure = content.table(TREASURE)
    kind_roll, kind_row = _roll(rng, treasure)
    kind = treasure_kind(kind_row)
    initial = str(dict(kind_row.values).get("initial", ""))
    rolls = [kind_roll]
    if kind == "key" or kind_row.see is None:
        return PaperogueItem(kind=kind, name=_text(kind_row, "treasure"), initial=initial, rolls=tuple(rolls),
                             identified=True)
    sub = content.table(kind_row.see)
    sub_roll, sub_row = _roll(rng, sub)
    rolls.append(sub_roll)
    name = _text(sub_row, "item")
    if kind == "gold":
        amount = int(sub_roll.value) if str(sub_roll.value).isdigit() else 0
        return PaperogueItem(kind=kind, name=f"{amount} gold", initial=initial, rolls=tuple(rolls), identified=True,
                             gold=amount)
    if kind == "potion":
        return PaperogueItem(kind=kind, name=f"{name} potion", initial=initial, rolls=tuple(rolls))
    if kind == "scroll":
        return PaperogueItem(kind=kind, name=f"Scroll: {name}", initial=initial, rolls=tuple(rolls))
    if kind == "book":
        return PaperogueItem(kind=kind, name=f"Magic book: {name}", initial=initial, rolls=tuple(rolls),
                             identified=True, spell=name)
    stat = str(dict(sub_row.values).get("stat", ""))
    if kind == "jewelry":
        effect, spell, more_rolls, rolled_dice = identify_jewelry(content, rng)
    else:
        effect, more_rolls, rolled_dice = identify_equipment(content, rng)
        spell = ""
    return PaperogueItem(kind=kind, name=name, initial=initial, rolls=tuple(rolls + more_rolls), dice=rolled_dice,
                         identified=True, effect=effect, stat=stat, spell=spell)


def identify_equipment(content: Content, rng: random.Random, *, plus: int = 0) -> tuple:
    """Table 9 for armor and weapons: (effect, rolls, dice). A `+1d4 STR` bonus is rolled out to `+3 STR`."""
    roll, _ = _roll(rng, content.table(EQUIPMENT_BONUS))
    effect, rolled = resolve_bonus(rng, roll.value, plus)
    return effect, [roll], rolled


def identify_jewelry(content: Content, rng: random.Random) -> tuple:
    """Table 10: (effect, spell, rolls, dice). "Roll again" adds 1 to the next stat bonus; a spell rolls Table 7."""
    table = content.table(JEWELRY_EFFECTS)
    rolls, plus = [], 0
    for _ in range(_REROLL_LIMIT):
        roll, _ = _roll(rng, table)
        rolls.append(roll)
        if not roll.value.casefold().startswith("roll again"):
            break
        plus += 1
    text = roll.value
    if "spell" in text.casefold():
        spell_roll, _ = _roll(rng, content.table(MAGIC_BOOKS))
        rolls.append(spell_roll)
        plain = re.sub(r"\s*\([^)]*\)", "", text)  # "Grants a spell (roll on Table 7)" → "Grants a spell"
        return f"{plain}: {spell_roll.value}", spell_roll.value, rolls, ()
    effect, rolled = resolve_bonus(rng, text, plus)
    return effect, "", rolls, rolled


def resolve_bonus(rng: random.Random, text: str, plus: int = 0) -> tuple:
    """`+1d4 STR` → (`+3 STR`, (("1d4", (3,)),)) with `plus` added; any other text is kept as written."""
    match = _DICE_BONUS.match(text)
    if not match:
        return text, ()
    sign, count, sides, what = match.groups()
    results = tuple(dice(rng, int(count or 1), int(sides)))
    amount = sum(results) + plus
    return f"{sign}{amount} {what}", ((f"{count or 1}d{sides}", results),)


def treasure_kind(row: Row) -> str:
    """Which of the eight treasures a Table 1 row is, from the words it uses (Gold, Armor, …)."""
    text = " ".join(str(value) for _, value in row.values).casefold()
    for word, kind in KINDS:
        if word in text:
            return kind
    raise ContentErrors([ContentError(row.source, f"row {row.label} of table '{TREASURE}' names no treasure "
                                                  f"this generator knows (expected one of gold, armor, weapon, key, "
                                                  f"potion, scroll, magic book, jewelry)")])


def _roll(rng: random.Random, table: Table) -> tuple:
    result, row = roll_on(rng, table)
    return TableValue(table=table.id, result=result, value=_text(row)), row


def _text(row: Row, prefer: str = "") -> str:
    """The row's name: the `prefer` column, else the first column that is not a map initial."""
    values = dict(row.values)
    if prefer and prefer in values:
        return str(values[prefer])
    for key, value in row.values:
        if key != "initial":
            return str(value)
    return str(row.values[0][1])


def _require(content: Content, ids) -> None:
    problems = content.table_problems(ids, needer="pre-rolled Paperogue characters need",
                                      purpose="for pre-rolled Paperogue characters", rolled=False)
    if problems:
        raise ContentErrors(problems)
