"""Turn content tables and a seeded Random into a pre-rolled Loner: Dungeoneer Character."""

from __future__ import annotations

import random
import re

from dungeonpress.dice import d, roll_on
from dungeonpress.errors import ContentError, ContentErrors
from dungeonpress.model import Content, Row, Table
from dungeonpress.model.character import Character, GearItem, TableValue

NAME_LISTS = {1: "female_names", 2: "female_names", 3: "female_names",
              4: "male_names", 5: "male_names", 6: "male_names"}  # d6: 1-3 female, 4-6 male
# Where an item's durability is looked up when its own row has no durability column, in order.
DURABILITY_TABLES = ("durability_ratings", "adventure_gear")
# The tables a delver is rolled on (the durability tables are read when they are there).
NEEDED = ("female_names", "male_names", "surnames", "nicknames", "concepts", "skills", "frailties", "gear",
          "delver_goals", "delver_motives", "delver_nemeses")
_REPEAT_LIMIT = 200  # rerolls allowed while looking for a second, different entry


def generate_character(content: Content, rng: random.Random) -> Character:
    """Roll one delver on the trait, name and delver tables; same rng state and content → same Character."""
    _require(content, NEEDED)
    list_roll = d(rng, 6)
    first_name = _roll(rng, content.table(NAME_LISTS[list_roll]))
    surname = _roll(rng, content.table("surnames"))
    nickname = _roll(rng, content.table("nicknames"))
    concept = _roll(rng, content.table("concepts"))
    skills = _roll_different(rng, content.table("skills"), 2)
    frailty = _roll(rng, content.table("frailties"))
    gear_table = content.table("gear")
    gear = tuple(_gear_item(content, gear_table, roll) for roll in _roll_different(rng, gear_table, 2))
    goal = _roll(rng, content.table("delver_goals"))
    motive = _roll(rng, content.table("delver_motives"))
    nemesis = _roll(rng, content.table("delver_nemeses"))
    return Character(name_list_roll=list_roll, first_name=first_name, surname=surname, nickname=nickname,
                     concept=concept, skills=skills, frailty=frailty, gear=gear, goal=goal, motive=motive,
                     nemesis=nemesis)


def _require(content: Content, ids) -> None:
    problems = content.table_problems(ids, needer="pre-rolled characters need", purpose="for pre-rolled characters")
    if problems:
        raise ContentErrors(problems)


def _first_value(row: Row) -> str:
    return str(row.values[0][1])


def _roll(rng: random.Random, table: Table) -> TableValue:
    result, row = roll_on(rng, table)
    return TableValue(table=table.id, result=result, value=_first_value(row))


def _roll_different(rng: random.Random, table: Table, count: int) -> tuple:
    """`count` rolls with different values: a repeat is rolled again, as the seed's tables say."""
    distinct = {_first_value(row).casefold() for row in table.rows}
    if len(distinct) < count:
        raise ContentErrors([ContentError(table.source, f"table '{table.id}' needs at least {count} different "
                                                        f"entries for a pre-rolled character (got {len(distinct)})")])
    taken, rolls = [], []
    for _ in range(count):
        thrown = []
        for _ in range(_REPEAT_LIMIT):
            roll = _roll(rng, table)
            if roll.value.casefold() not in taken:
                break
            thrown.append(roll.result)
        else:  # pragma: no cover - needs a table that is almost all repeats and very bad luck
            raise ContentErrors([ContentError(table.source, f"table '{table.id}' kept repeating itself "
                                                            f"({_REPEAT_LIMIT} rerolls)")])
        taken.append(roll.value.casefold())
        rolls.append(TableValue(table=roll.table, result=roll.result, value=roll.value, rerolled=tuple(thrown)))
    return tuple(rolls)


def _gear_item(content: Content, gear_table: Table, roll: TableValue) -> GearItem:
    """The item with its durability: from its own row when the gear table has a durability column,
    else from the first durability table that names the same item, else none."""
    row = gear_table.row_for(roll.result)
    own = dict(row.values).get("durability")
    if own not in (None, ""):
        return GearItem(item=roll, durability=str(own), durability_table=gear_table.id)
    wanted = _item_key(roll.value)
    for table_id in DURABILITY_TABLES:
        table = content.tables.get(table_id)
        if table is None or "durability" not in dict(table.columns):
            continue
        for other in table.rows:
            values = dict(other.values)
            name = values.get("item", other.values[0][1])
            if _item_key(str(name)) & wanted:
                return GearItem(item=roll, durability=str(values["durability"]), durability_table=table_id)
    return GearItem(item=roll)


def _item_key(name: str) -> set:
    """How an item name is compared: case and spacing ignored, and a trailing `(note)` optional."""
    plain = " ".join(name.casefold().split())
    bare = re.sub(r"\s*\([^)]*\)\s*$", "", plain)
    return {plain, bare}
