"""Turn a seeded Random and the solo-turn tables into a pre-rolled Delve, turn by turn.

The procedure is the 2010 "Solo D&D Play" post's: a wandering-monster check (1 on a d6) at the
start of every second turn (every fourth when not mapping), a d20 encounter check resolved on
appendices A-F by the level you are on, a rest every sixth turn, backtracking from an obstacle
that beats you (a new area on 1-2 on a d6, wandering checks only), light that burns down, a
1-in-10 chance a turn to get lost when not mapping (and the same to find the way again), and
turns ÷ 2 wandering checks to walk out.

Where the post leaves a choice to the player, the log's delver always does the same thing, so
the printed log can say so once: it tries every obstacle once (with an average Strength and the
usual kit), takes every stair except the one that leads out of the dungeon, and rests when due.
"""

from __future__ import annotations

import random
import re

from dungeonpress.dice import d, dice, roll_on
from dungeonpress.errors import ContentError, ContentErrors
from dungeonpress.model import Content, Row, Table
from dungeonpress.model.delve import BACKTRACK, EXPLORE, NEW_AREA_ON, REST, WANDERING, WORK
from dungeonpress.model.delve import Delve, ExitCheck, Find, Passage, Turn

ENCOUNTER_TABLE = "solo_encounter_check"
LIGHT_TABLE = "solo_light"
STATS_TABLE = "solo_monster_stats"
APPENDICES = {"A": "solo_monsters", "B": "solo_traps", "C": "solo_obstacles", "D": "solo_treasure",
              "E": "solo_stairs", "F": "solo_special"}
# Every table each appendix prints, in order: the first is the one the encounter check sends you to.
APPENDIX_TABLES = {
    "A": ("solo_monsters", STATS_TABLE),
    "B": ("solo_traps",),
    "C": ("solo_obstacles",),
    "D": ("solo_treasure", "solo_gems", "solo_jewellery", "solo_magic_items"),
    "E": ("solo_stairs",),
    "F": ("solo_special",),
}
TABLES = (ENCOUNTER_TABLE, LIGHT_TABLE, *(t for tables in APPENDIX_TABLES.values() for t in tables))
# The columns each table must have: the generator reads them by key.
NEEDED = {
    ENCOUNTER_TABLE: ("result", "appendix"),
    LIGHT_TABLE: ("light", "turns"),
    "solo_monsters": ("level_1",),
    STATS_TABLE: ("monster", "appearing", "ac", "hd", "mv", "attacks", "save", "morale", "treasure", "xp", "carries"),
    "solo_traps": (),
    "solo_obstacles": ("obstacle", "passes", "turns"),
    "solo_treasure": ("treasure", "level_1"),
    "solo_gems": (),
    "solo_jewellery": (),
    "solo_magic_items": (),
    "solo_stairs": ("stairs", "leads"),
    "solo_special": (),
}
# A monster's stat line, in the order a B/X stat block gives it: (column key, printed label).
STAT_LINE = (("ac", "AC"), ("hd", "HD"), ("mv", "MV"), ("attacks", "Att"), ("save", "Save"), ("morale", "ML"),
             ("treasure", "TT"), ("xp", "XP"))
LIGHTS = ("candle", "torch", "lantern")
REST_EVERY = 6
WANDERING_ON = 1  # a d6
WANDERER_CARRIES_ON = 1  # a wanderer usually has no treasure: only on a 1 on a d6 (and only if its kind carries any)
LOST_ON, FOUND_ON, LOST_DIE = 1, 1, 10  # 1 in 10 to get lost a turn when not mapping; 1 in 10 to find the way
OUT = 0  # the "level" a stair up from level 1 leads to: out of the dungeon

_AMOUNT = re.compile(r"^\s*(\d*)\s*d\s*(\d+)\s*(?:([×x*+])\s*(\d+))?\s*$")
_CHANCE = re.compile(r"^\s*(\d+)\s+in\s+(\d+)\s*$")
_LEADS = re.compile(r"^\s*(up|down)\s+(one|two|three)\s+levels?\b", re.IGNORECASE)
_LEVEL_COLUMN = re.compile(r"^level_(\d+)$")
_NUMBERS = {"one": 1, "two": 2, "three": 3}


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


def check_content(content: Content) -> None:
    """Raise ContentErrors naming every table, column, monster line, stair or obstacle the delve cannot use."""
    problems = content.table_problems(NEEDED, needer="the solo turn procedure needs", purpose="for the delve",
                                      rolled=False)
    if not problems:
        problems += _stat_problems(content) + _stairs_problems(content) + _obstacle_problems(content)
    if problems:
        raise ContentErrors(problems)


def _stat_problems(content: Content) -> list:
    stats = content.table(STATS_TABLE)
    keys = [key for key, _ in STAT_LINE] + ["appearing", "carries"]
    problems = []
    for row in stats.rows:
        values = dict(row.values)
        empty = [key for key in keys if str(values.get(key, "")).strip() in ("", "None", "—", "-")]  # a dash is no stat
        if empty:
            problems.append(ContentError(row.source, f"monster '{values.get('monster')}' of table '{STATS_TABLE}' "
                                                     f"needs a whole stat line (missing {', '.join(empty)})"))
        carries = str(values.get("carries", "")).strip()
        if carries and carries != "never" and not _CHANCE.match(carries):
            problems.append(ContentError(row.source, f"monster '{values.get('monster')}' carries treasure "
                                                     f"'{carries}' (expected 'never' or a chance such as '2 in 6')"))
    names = {str(row.get("monster")).lower() for row in stats.rows}
    for row in content.table(APPENDICES["A"]).rows:
        for key, name in row.values:
            if _LEVEL_COLUMN.match(key) and str(name).lower() not in names:
                problems.append(ContentError(row.source, f"monster '{name}' of table '{APPENDICES['A']}' has no "
                                                         f"line in table '{STATS_TABLE}' (expected a row with "
                                                         f"monster: {name})"))
    return problems


def _stairs_problems(content: Content) -> list:
    return [ContentError(row.source, f"stairs '{row.get('stairs')}' lead '{row.get('leads')}' (expected 'Up one "
                                     f"level', 'Down two levels' or the like)")
            for row in content.table(APPENDICES["E"]).rows if not _LEADS.match(str(row.get("leads")))]


def _obstacle_problems(content: Content) -> list:
    problems = []
    for row in content.table(APPENDICES["C"]).rows:
        passes, turns = str(row.get("passes")).strip(), row.get("turns")
        if passes not in ("always", "never") and not _CHANCE.match(passes):
            problems.append(ContentError(row.source, f"obstacle '{row.get('obstacle')}' passes '{passes}' "
                                                     f"(expected 'always', 'never' or a chance such as '2 in 6')"))
        if not isinstance(turns, int) or turns < 0:
            problems.append(ContentError(row.source, f"obstacle '{row.get('obstacle')}' takes turns {turns!r} "
                                                     f"(expected a whole number, 0 or more)"))
    return problems


def generate_delve(rng: random.Random, content: Content, *, turns: int = 36, light: str = "torch",
                   mapping: bool = True) -> Delve:
    """Roll `turns` turns by the procedure; same rng state and content → the same Delve."""
    lasts = light_duration(content, light)
    encounters = content.table(ENCOUNTER_TABLE)
    lost, level = False, 1
    backtracking = False  # an obstacle across the path beat us: no encounter checks until a new area is found
    work: list = []  # the turns of work still owed to get past an obstacle, as (number, of)
    out = []
    for number in range(1, turns + 1):
        leave_checks = None if lost else (number - 1) // 2  # turns already played, halved
        here = level

        # 1. Wandering monster at the start of every second (or fourth) turn: it takes the whole turn.
        wandering_roll = wandering = None
        if wandering_due(number, mapping):
            wandering_roll = d(rng, 6)
            if wandering_roll == WANDERING_ON:
                wandering = resolve_monster(rng, content, level, wandering=True)

        # 2. What else takes the turn: a rest, work on an obstacle, backtracking, or the encounter check.
        rest = rest_due(number)
        encounter_roll, encounter, finds, passage, search_roll, doing, stairs_to = None, "", (), None, None, None, None
        if wandering is not None:
            activity = WANDERING
        elif rest:
            activity = REST
        elif work:
            activity, doing = WORK, work.pop(0)
        elif backtracking:
            activity, search_roll = BACKTRACK, d(rng, 6)
            backtracking = search_roll > NEW_AREA_ON
        else:
            activity = EXPLORE
            encounter_roll, row = roll_on(rng, encounters)
            encounter = str(row.get("result"))
            letters = appendix_letters(row)
            finds = tuple(resolve_appendix(rng, content, letter, level) for letter in letters)
            if "C" in letters:
                obstacle = finds[letters.index("C")]
                passage = try_obstacle(rng, content, obstacle, blocking="D" not in letters)
                if passage.passed:
                    work = [(n, passage.turns, obstacle.text) for n in range(1, passage.turns + 1)]
                elif passage.blocking:
                    backtracking = True
            if "E" in letters:
                stairs_to = stairs_destination(content, finds[letters.index("E")], level)
                if stairs_to != OUT:  # the log takes every stair but the one out of the dungeon
                    level = stairs_to

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
        out.append(Turn(number=number, level=here, activity=activity, wandering_roll=wandering_roll,
                        wandering=wandering, rest=rest, encounter_roll=encounter_roll, encounter=encounter,
                        finds=finds, light_number=light_number, light_left=left, lost_roll=lost_roll, lost=lost,
                        got_lost=got_lost, found_way=found_way, leave_checks=leave_checks, passage=passage,
                        search_roll=search_roll, work=doing, stairs_to=stairs_to))

    # 5. The way out: a lost delver must first find familiar ground, then make turns ÷ 2 checks.
    still_lost = []
    while lost and len(still_lost) < 60:
        still_lost.append(d(rng, LOST_DIE))
        lost = still_lost[-1] != FOUND_ON
    exits = []
    for _ in range(turns // 2):
        roll = d(rng, 6)
        monster = resolve_monster(rng, content, level, wandering=True) if roll == WANDERING_ON else None
        exits.append(ExitCheck(roll=roll, monster=monster))
    return Delve(turns=tuple(out), light=light, light_turns=lasts, mapping=mapping, exit_checks=tuple(exits),
                 still_lost_rolls=tuple(still_lost))


def appendix_letters(row: Row) -> list:
    """The appendices an encounter-check row sends you to: 'A, D' → ['A', 'D']; '—' → []."""
    return [part.strip() for part in str(row.get("appendix")).split(",") if part.strip() in APPENDICES]


def resolve_appendix(rng: random.Random, content: Content, letter: str, level: int = 1) -> Find:
    """Roll on an appendix for the level you are on and follow what the row points to."""
    if letter == "A":
        return resolve_monster(rng, content, level, wandering=False)
    if letter == "D":
        return resolve_treasure(rng, content, level)
    return _resolve(rng, content, content.table(APPENDICES[letter]), letter, level)


def level_column(table: Table, level: int) -> str:
    """The `level_N` column to read on `level`: the deepest N not below it ('level_4' serves 4, 5, 6…)."""
    levels = sorted(int(m.group(1)) for key, _ in table.columns if (m := _LEVEL_COLUMN.match(key)))
    fitting = [n for n in levels if n <= max(level, 1)] or levels[:1]
    return f"level_{fitting[-1]}"


def monster_stats(content: Content, name: str) -> Row:
    for row in content.table(STATS_TABLE).rows:
        if str(row.get("monster")).lower() == name.lower():
            return row
    raise KeyError(f"table '{STATS_TABLE}' has no line for monster '{name}'")


def stat_line(row: Row) -> str:
    """'AC 6, HD 1, MV 120' (40'), Att 1 weapon (1d6), Save F1, ML 6, TT (P) D, XP 10'."""
    values = dict(row.values)
    return ", ".join(f"{label} {values[key]}" for key, label in STAT_LINE)


def resolve_monster(rng: random.Random, content: Content, level: int, *, wandering: bool) -> Find:
    """A monster of the level's column with how many appear and its stat line; it may carry treasure.

    A monster met on the encounter check carries treasure on the chance its line gives. Wandering
    monsters usually carry none: one has treasure only on a 1 on a d6, and only if its kind ever does.
    """
    table = content.table(APPENDICES["A"])
    roll, row = roll_on(rng, table)
    name = str(row.get(level_column(table, level)))
    stats = monster_stats(content, name)
    count = roll_amount(rng, stats.get("appearing"))
    text = f"{name} ({count})" if count != 1 else name
    details = [stat_line(stats)]
    notes = dict(stats.values).get("notes")
    if notes:
        details.append(str(notes))
    chance = _CHANCE.match(str(stats.get("carries")))
    carries = False
    if chance:
        if wandering:
            carries = d(rng, 6) <= WANDERER_CARRIES_ON
        else:
            carries = d(rng, int(chance.group(2))) <= int(chance.group(1))
    if carries:
        treasure = resolve_treasure(rng, content, level)
        details += [f"Carries {_lower_first(treasure.text)}", *treasure.details]
    return Find("A", roll, text, tuple(details))


def resolve_treasure(rng: random.Random, content: Content, level: int) -> Find:
    """Coins by the level's amount, or gems, jewellery or a magic item rolled on their own tables."""
    table = content.table(APPENDICES["D"])
    roll, row = roll_on(rng, table)
    kind = str(row.get("treasure"))
    amount = roll_amount(rng, row.get(level_column(table, level)))
    count = amount if isinstance(amount, int) else 1
    if not row.see or row.see not in content.tables:
        return Find("D", roll, f"{amount} {_lower_first(kind)}" if isinstance(amount, int) else kind)
    pieces = [_piece(rng, content.table(row.see)) for _ in range(count)]
    if count == 1:
        return Find("D", roll, f"{kind}: {pieces[0][0]}", pieces[0][1:])
    return Find("D", roll, f"{count} × {_lower_first(kind)}", tuple(p[0] for p in pieces))


def _piece(rng: random.Random, table: Table) -> tuple:
    """One gem, piece of jewellery or magic item: its name, with its worth rolled, and what it does."""
    _, row = roll_on(rng, table)
    values = list(row.values)
    name = str(values[0][1])
    rest = []
    for key, value in values[1:]:
        if key == "value":
            worth = roll_amount(rng, value)
            name = f"{name} ({worth} gp)" if isinstance(worth, int) else f"{name} ({value})"
        else:
            rest.append(str(value))
    return (name, *rest)


def try_obstacle(rng: random.Random, content: Content, find: Find, *, blocking: bool) -> Passage:
    """The log's one try at an obstacle: roll its chance (none for 'always' or 'never')."""
    row = content.table(APPENDICES["C"]).row_for(find.roll)
    chance, turns = str(row.get("passes")).strip(), int(row.get("turns"))
    match = _CHANCE.match(chance)
    if match:
        roll = d(rng, int(match.group(2)))
        return Passage(chance, roll, roll <= int(match.group(1)), turns, blocking)
    return Passage(chance, None, chance == "always", turns, blocking)


def stairs_destination(content: Content, find: Find, level: int) -> int:
    """The level a stair leads to from `level`; up from level 1 is OUT (0), out of the dungeon."""
    match = _LEADS.match(str(content.table(APPENDICES["E"]).row_for(find.roll).get("leads")))
    steps = _NUMBERS[match.group(2).lower()]
    return level + steps if match.group(1).lower() == "down" else max(OUT, level - steps)


def _resolve(rng: random.Random, content: Content, table: Table, letter: str, level: int) -> Find:
    """Roll on `table`: the first column is the headline, the others its details; a pointer to Appendix D rolls it."""
    roll, row = roll_on(rng, table)
    headers = dict(table.columns)
    first = table.columns[0][0]
    # an obstacle's chance and time are the log's try at it (try_obstacle), not details to print
    details = [f"{headers[key]}: {value}" for key, value in row.values if key not in (first, "passes", "turns")]
    text = str(dict(row.values)[first])
    if row.see == APPENDICES["D"]:
        treasure = resolve_treasure(rng, content, level)
        details += [f"Finds {_lower_first(treasure.text)}", *treasure.details]
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
