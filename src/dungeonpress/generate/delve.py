"""Turn a seeded Random and the solo-turn tables into a pre-rolled Delve, turn by turn.

The procedure is the 2010 "Solo D&D Play" post's: a wandering-monster check (1 on a d6) at the
start of every second turn (every fourth when not mapping), a d20 encounter check resolved on
appendices A-F, a rest every sixth turn, light that burns down, a 1-in-10 chance a turn to get
lost when not mapping (and the same to find the way again), and turns ÷ 2 wandering checks to
walk out.
"""

from __future__ import annotations

import random
import re

from dungeonpress.dice import d, dice, roll_on
from dungeonpress.model import Content, Row, Table
from dungeonpress.model.delve import Delve, ExitCheck, Find, Turn

ENCOUNTER_TABLE = "solo_encounter_check"
LIGHT_TABLE = "solo_light"
APPENDICES = {"A": "solo_monsters", "B": "solo_traps", "C": "solo_obstacles", "D": "solo_treasure",
              "E": "solo_stairs", "F": "solo_special"}
TABLES = (ENCOUNTER_TABLE, LIGHT_TABLE, *APPENDICES.values())
LIGHTS = ("candle", "torch", "lantern")
REST_EVERY = 6
LOST_ON, FOUND_ON, LOST_DIE = 1, 1, 10  # 1 in 10 to get lost a turn when not mapping; 1 in 10 to find the way

_AMOUNT = re.compile(r"^\s*(\d*)\s*d\s*(\d+)\s*(?:([×x*+])\s*(\d+))?\s*$")
_CHANCE = re.compile(r"^\s*(\d+)\s+in\s+(\d+)\s*$")
_MAX_DEPTH = 3  # `see:` chains longer than this are a content loop, not a table


def wandering_due(turn: int, mapping: bool) -> bool:
    """Every second turn (2, 4, 6…); half as often (4, 8, 12…) for a delver who does not map.

    A rest turn always keeps its check: the post drops only the encounter check while resting, so
    without mapping turns 6, 18, 30… are checked too.
    """
    return turn % (2 if mapping else 4) == 0 or rest_due(turn)


def rest_due(turn: int) -> bool:
    return turn % REST_EVERY == 0


def light_duration(content: Content, light: str) -> int:
    """Turns one light source lasts, read from the light table."""
    for row in content.table(LIGHT_TABLE).rows:
        if str(row.get("light")).lower() == light:
            return int(row.get("turns"))
    raise KeyError(f"table '{LIGHT_TABLE}' has no row for light '{light}'")


def generate_delve(rng: random.Random, content: Content, *, turns: int = 36, light: str = "torch",
                   mapping: bool = True) -> Delve:
    """Roll `turns` turns by the procedure; same rng state and content → the same Delve."""
    lasts = light_duration(content, light)
    encounters = content.table(ENCOUNTER_TABLE)
    lost = False
    out = []
    for number in range(1, turns + 1):
        leave_checks = None if lost else (number - 1) // 2  # turns already played, halved

        # 1. Wandering monster at the start of every second (or fourth) turn: it takes the whole turn.
        wandering_roll = wandering = None
        if wandering_due(number, mapping):
            wandering_roll = d(rng, 6)
            if wandering_roll == 1:
                wandering = resolve_monster(rng, content, with_treasure=False)

        # 2. Rest every sixth turn; otherwise the d20 encounter check, resolved on its appendices.
        rest = rest_due(number)
        encounter_roll, encounter, finds = None, "", ()
        if not rest and wandering is None:
            encounter_roll, row = roll_on(rng, encounters)
            encounter = str(row.get("result"))
            finds = tuple(resolve_appendix(rng, content, letter) for letter in appendix_letters(row))

        # 3. Lost and found: only a delver who does not map gets lost.
        lost_roll, got_lost, found_way = None, False, False
        if not mapping:
            lost_roll = d(rng, LOST_DIE)
            if lost:
                found_way = lost_roll == FOUND_ON
                lost = not found_way
            else:
                got_lost = lost = lost_roll == LOST_ON

        # 4. The light burns one turn.
        light_number, left = (number - 1) // lasts + 1, lasts - (number - 1) % lasts - 1
        out.append(Turn(number=number, wandering_roll=wandering_roll, wandering=wandering, rest=rest,
                        encounter_roll=encounter_roll, encounter=encounter, finds=finds,
                        light_number=light_number, light_left=left, lost_roll=lost_roll, lost=lost,
                        got_lost=got_lost, found_way=found_way, leave_checks=leave_checks))

    # 5. The way out: a lost delver must first find familiar ground, then make turns ÷ 2 checks.
    still_lost = []
    while lost and len(still_lost) < 60:
        still_lost.append(d(rng, LOST_DIE))
        lost = still_lost[-1] != FOUND_ON
    exits = []
    for _ in range(turns // 2):
        roll = d(rng, 6)
        exits.append(ExitCheck(roll=roll, monster=resolve_monster(rng, content, with_treasure=False) if roll == 1 else None))
    return Delve(turns=tuple(out), light=light, light_turns=lasts, mapping=mapping, exit_checks=tuple(exits),
                 still_lost_rolls=tuple(still_lost))


def appendix_letters(row: Row) -> list:
    """The appendices an encounter-check row sends you to: 'A, D' → ['A', 'D']; '—' → []."""
    return [part.strip() for part in str(row.get("appendix")).split(",") if part.strip() in APPENDICES]


def resolve_appendix(rng: random.Random, content: Content, letter: str) -> Find:
    if letter == "A":
        return resolve_monster(rng, content, with_treasure=True)
    return _resolve(rng, content, content.table(APPENDICES[letter]), letter)


def resolve_monster(rng: random.Random, content: Content, *, with_treasure: bool) -> Find:
    """A monster from Appendix A with how many appear; one met on the encounter check may carry treasure."""
    find = _resolve(rng, content, content.table(APPENDICES["A"]), "A")
    if not with_treasure:
        return find
    roll, row = find.roll, content.table(APPENDICES["A"]).row_for(find.roll)
    chance = _CHANCE.match(str(dict(row.values).get("carries", "")))
    if chance and d(rng, int(chance.group(2))) <= int(chance.group(1)):
        treasure = resolve_appendix(rng, content, "D")
        return Find("A", roll, find.text, (*find.details, f"Carries {_lower_first(treasure.text)}", *treasure.details))
    return find


def _resolve(rng: random.Random, content: Content, table: Table, letter: str, depth: int = 0) -> Find:
    """Roll on `table` and follow its `see:` pointer; creature rows take the bestiary's name."""
    roll, row = roll_on(rng, table)
    values = dict(row.values)
    headers = dict(table.columns)
    first = table.columns[0][0]
    text = str(values[first])
    if row.creature is not None:
        try:
            text = content.creature(row.creature).name
        except KeyError:
            pass
    if "number" in values:
        count = roll_amount(rng, values["number"])
        text = f"{text} ({count})" if count != 1 else text
    if "amount" in values:
        amount = roll_amount(rng, values["amount"])
        if isinstance(amount, int) and str(values["amount"]).strip() != "1":  # "1" or "—": nothing to count
            text = f"{amount} {_lower_first(text)}"
    details = [f"{headers[key]}: {value}" for key, value in row.values
               if key not in (first, "number", "amount", "carries")]
    if row.see and depth < _MAX_DEPTH and row.see in content.tables:  # the pointed-to row says it better
        inner = _resolve(rng, content, content.table(row.see), letter, depth + 1)
        text = f"{text}: {inner.text}"
        details = list(inner.details)
    return Find(letter, roll, text, tuple(details))


def roll_amount(rng: random.Random, spec) -> int | str:
    """Roll an amount such as '3d6 × 10', '2d4', '1d6+1' or a plain number; other text is returned as is."""
    if isinstance(spec, int):
        return spec
    text = str(spec).strip()
    if text.isdigit():
        return int(text)
    match = _AMOUNT.match(text)
    if not match:
        return text
    count, sides, op, operand = match.groups()
    total = sum(dice(rng, int(count or 1), int(sides)))
    if op == "+":
        total += int(operand)
    elif op:
        total *= int(operand)
    return total


def _lower_first(text: str) -> str:
    """'Silver pieces' → 'silver pieces', to follow a number or a verb in a sentence."""
    return text[:1].lower() + text[1:]
