"""Turn content tables and a seeded Random into a Dungeon: rooms rolled by the Dungeoneer generator, laid out.

The procedure is the seed's, roll for roll (every roll is kept, so the key can print
"2d6 = 9: Large chamber with columns/statues"):

- room type 2d6, a feature tag 2d6, exits d6;
- a trapped room (room type 8) rolls its device on `traps` (d66): type, trigger and effect;
- encounter check d6; on a row with `see:`, encounter type 2d6, then the d66 table its row names;
- a treasure check 2d6 (then the table its row names) where a room or encounter calls for one:
  functional rooms, shrines and boss chambers, and lairs, bosses and hostile monsters (a
  hidden-treasure encounter is its own prize);
- a row that offers alternatives ("barred or locked", "columns/statues") has them as `choices`:
  one is picked on a stream of its own and printed, and the map draws the marks it states;
  a door a feature shuts is picked once the plan has doors, and the key names its wall;
- one environmental condition d6 and a name from three d66 tables for the whole dungeon;
- a d6 wandering-encounter table and a page of pre-rolled oracle answers and twists.

A dungeon has one master. The first room type 12 (a boss chamber) or Dungeon Boss
encounter holds it; a later type 12 is read as the row's "special location", and a later
Dungeon Boss encounter is rolled again (the key shows both rolls). A boss chamber's
occupant comes straight from `dungeon_bosses`, with no encounter check.
"""

from __future__ import annotations

import random
from dataclasses import replace

from dungeonpress.dice import d, roll_on, sub_rng
from dungeonpress.errors import ContentError, ContentErrors
from dungeonpress.generate import floor_plan
from dungeonpress.generate.oracle import roll_oracle
from dungeonpress.model import Content, Creature, Table
from dungeonpress.model.dungeon import Chain, Dungeon, DungeonRoom, OracleRow, TableRoll, Twist
from dungeonpress.model.plan import OUTSIDE, RoomSpec

# Tables the generator rolls on by name; the d66 tables behind encounter and treasure rows
# are found through each row's `see:`, so a content pack may rename or add them.
NEEDED = ("room_type", "room_features", "exits", "encounter_check", "encounter_type", "treasure_check",
          "environmental_conditions", "name_adjectives", "name_places", "name_regions",
          "traps", "dungeon_bosses", "twist")
BOSS_TABLE = "dungeon_bosses"
TRAPPED_ROOM, BOSS_ROOM = 8, 12  # room_type results the seed gives a trap and a master
TREASURE_ROOMS = (7, 11, 12)  # functional room (vault), shrine, boss chamber
TREASURE_ENCOUNTERS = ("hostile_monsters", "monster_lairs", "dungeon_bosses")
FEATURE_ROLLS = 1  # the seed's example reads one type with one feature: "a Grand Hall with Broken Statues"
WANDERING = 6  # a d6 table
ORACLE_ROWS, TWISTS, D6S = 40, 8, 36  # enough for a long delve with no dice at hand
MAX_CHAIN = 4  # `see:` links followed from one roll (content could loop them)

# How big each room type is drawn, in cells (width, height); corridors and hallways are long and thin.
SIZES = {2: (3, 3), 3: (2, 5), 4: (5, 4), 5: (2, 4), 6: (3, 3), 7: (4, 3), 8: (3, 3), 9: (4, 4),
         10: (4, 4), 11: (3, 4), 12: (5, 5)}
DEFAULT_SIZE = (3, 3)
RITUAL_SIZE = 5  # a ritual space is at least this many squares each way: its ring, and its number beside it
CAVE_ROOM = 10  # natural cave or underground pool: drawn with rounded walls
ROUND_ROOM = 11  # shrine or ritual space: drawn with a round wall
SHUT_MARKS = ("barred", "locked")  # marks that shut one of the room's doors
CAVE_MARKS, ROOM_MARKS = 0, 2  # floor marks a cave (its rough walls eat the edge squares) and a room hold at their size
DOOR_SLOT = "{door}"  # where a reading names the wall of the door it shuts ("The {door} door is barred shut")
WALL_WORDS = {"N": "north", "E": "east", "S": "south", "W": "west"}


def generate_dungeon(content: Content, rng: random.Random, *, rooms: int = 8) -> Dungeon:
    """Roll a dungeon of `rooms` rooms; the same content and rng state give an equal Dungeon."""
    tables = needed_tables(content)
    if rooms < 2:
        raise ValueError(f"a dungeon needs at least 2 rooms (got {rooms})")
    # One draw from the caller's rng seeds a stream per part, so a roll added to one part
    # (say, more oracle rows) leaves the rooms and the map of the same seed unchanged.
    key = int(rng.random() * 2**53)
    streams = {part: sub_rng(key, part)
               for part in ("name", "rooms", "layout", "wandering", "oracle", "choices", "doors")}

    name_rolls = tuple(_roll(streams["name"], tables[t]) for t in ("name_adjectives", "name_places", "name_regions"))
    condition = _roll(streams["name"], tables["environmental_conditions"])
    rolled = _roll_rooms(content, tables, streams["rooms"], rooms)
    # Readings are picked on their own stream, so the rooms rolled for a seed stay the rooms it always made.
    rolled = [_choose(tables, room, streams["choices"]) for room in rolled]

    specs = [_spec(room) for room in rolled]
    plan = floor_plan.plan_floor(specs, streams["layout"])  # the stream keeps its name: same seed, same plan
    numbered = tuple(_shut(_renumber(rolled[placed.spec], placed.number), placed, streams["doors"])
                     for placed in plan.rooms)

    return Dungeon(
        name=dungeon_name(name_rolls),
        name_rolls=name_rolls,
        condition=condition,
        rooms=numbered,
        plan=plan,
        wandering=_roll_wandering(content, tables, streams["wandering"]),
        oracle=tuple(OracleRow(*(roll_oracle(streams["oracle"], m) for m in ("plain", "advantage", "disadvantage")))
                     for _ in range(ORACLE_ROWS)),
        twists=tuple(_roll_twist(streams["oracle"], tables["twist"]) for _ in range(TWISTS)),
        d6s=tuple(d(streams["oracle"], 6) for _ in range(D6S)),
    )


def needed_tables(content: Content) -> dict:
    """The tables the generator rolls on, by id; raise ContentErrors naming every one that is missing."""
    errors = content.table_problems(NEEDED, needer="the dungeon generator needs", purpose="to generate a dungeon")
    exits = content.tables.get("exits")
    if exits is not None and exits.rolled:
        for row in exits.rows:
            value = dict(row.values).get("exits")
            if not isinstance(value, int) or not 1 <= value <= 4:
                errors.append(ContentError(row.source, f"row {row.label} of table 'exits' needs a column 'exits' "
                                                       f"holding 1 to 4 (got {value!r})"))
    twist = content.tables.get("twist")
    if twist is not None and len(twist.columns) < 2:
        errors.append(ContentError(twist.source, "table 'twist' needs two columns, subject and action "
                                                 f"(got {len(twist.columns)})"))
    if errors:
        raise ContentErrors(errors)
    return {name: content.tables[name] for name in NEEDED}


def dungeon_name(name_rolls) -> str:
    """`The Drowned Vault of Ashenwood` from the adjective, place and region rolls."""
    adjective, place, region = (roll.text for roll in name_rolls)
    return f"The {adjective} {place} of {region}"


def _roll(rng: random.Random, table: Table, note: str = "") -> TableRoll:
    value, row = roll_on(rng, table)
    headers = dict(table.columns)
    fields = tuple((key, headers[key], cell) for key, cell in row.values)
    return TableRoll(table.id, table.die, value, fields, see=row.see, creature=row.creature, note=note,
                     marks=row.marks)


def _follow(content: Content, rng: random.Random, first: TableRoll) -> Chain:
    """Roll on the table each `see:` names, from `first` on; the last creature named is the one met."""
    rolls = [first]
    while rolls[-1].see and len(rolls) < MAX_CHAIN:
        rolls.append(_roll(rng, content.table(rolls[-1].see)))
    return Chain(tuple(rolls), _creature(content, rolls))


def _creature(content: Content, rolls) -> Creature | None:
    for roll in reversed(rolls):
        if roll.creature is not None:
            return content.creature(roll.creature)
    return None


def _roll_rooms(content: Content, tables: dict, rng: random.Random, count: int) -> list:
    """Roll `count` rooms in order; the first boss rolled becomes the dungeon's master."""
    rooms, has_boss = [], False
    for _ in range(count):
        room_type = _roll(rng, tables["room_type"])
        features = _features(rng, tables["room_features"])
        exits = _roll(rng, tables["exits"])
        check = encounter = trap = treasure = None
        boss = special = False
        if room_type.value == BOSS_ROOM and not has_boss:
            boss = has_boss = True
            encounter = _follow(content, rng, _roll(rng, tables[BOSS_TABLE]))
        else:
            special = room_type.value == BOSS_ROOM
            check = _roll(rng, tables["encounter_check"])
            if check.see:
                encounter = _encounter(content, tables, rng, check.see, allow_boss=not has_boss)
                if encounter.table == BOSS_TABLE:
                    boss = has_boss = True
        if room_type.value == TRAPPED_ROOM:
            trap = _follow(content, rng, _roll(rng, tables["traps"]))
        if room_type.value in TREASURE_ROOMS or (encounter and encounter.table in TREASURE_ENCOUNTERS):
            treasure = _follow(content, rng, _roll(rng, tables["treasure_check"]))
        rooms.append(DungeonRoom(0, room_type, features, exits, check, encounter, trap, treasure, boss, special))
    return rooms


def _features(rng: random.Random, table: Table) -> tuple:
    """FEATURE_ROLLS feature tags; rolling the same tag twice gives it once."""
    features = []
    for _ in range(FEATURE_ROLLS):
        roll = _roll(rng, table)
        if all(roll.value != kept.value for kept in features):
            features.append(roll)
    return tuple(features)


def _encounter(content: Content, tables: dict, rng: random.Random, type_table: str, *, allow_boss: bool) -> Chain:
    """Encounter type (2d6), then the table its row names; a Dungeon Boss when one exists is rolled again."""
    discarded = []
    roll = _roll(rng, content.table(type_table))
    while roll.see == BOSS_TABLE and not allow_boss:
        discarded.append(replace(roll, note="the dungeon has its master already: rolled again"))
        roll = _roll(rng, content.table(type_table))
    chain = _follow(content, rng, roll)
    return Chain(tuple(discarded) + chain.rolls, chain.creature)


def _roll_wandering(content: Content, tables: dict, rng: random.Random) -> tuple:
    """Six encounters for the d6 wandering table: encounter type, then its table; no boss, no repeats."""
    entries, seen = [], []
    while len(entries) < WANDERING:
        chain = _encounter(content, tables, rng, "encounter_type", allow_boss=False)
        key = (chain.table, chain.result.value)
        if key not in seen:  # the same row twice would waste a face of the die
            seen.append(key)
            entries.append(Chain(tuple(r for r in chain.rolls if not r.note), chain.creature))
    return tuple(entries)


def _roll_twist(rng: random.Random, table: Table) -> Twist:
    """One die for the subject column, one for the action column, as the twist table says."""
    return Twist(subject=_roll(rng, table), action=_roll(rng, table))


def _spec(room: DungeonRoom) -> RoomSpec:
    width, height = SIZES.get(room.type.value, DEFAULT_SIZE)
    if room.boss:  # the master's hall is large whatever kind of room it is
        width, height = max(width, 4), max(height, 4)
    # A room whose key states more floor marks than its size holds comfortably is drawn a square
    # larger each way per mark over: every mark stated is drawn, full size where it can be.
    if "ritual" in room.marks:  # a ritual space: its altar in the middle, a ring round it, floor all round that
        width, height = max(width, RITUAL_SIZE), max(height, RITUAL_SIZE)
    if "columns" in room.marks:  # a pillared hall: a square longer, so its rows of pillars run down its length
        width += 1
    cave = room.type.value == CAVE_ROOM
    floor_marks = sum(1 for mark in room.marks if mark not in SHUT_MARKS)
    grow = max(0, floor_marks - (CAVE_MARKS if cave else ROOM_MARKS))
    width, height = width + grow, height + grow
    return RoomSpec(exits=room.exit_count, width=width, height=height, boss=room.boss, shape=_shape(room))


def _shape(room: DungeonRoom) -> str:
    """A cave's rough walls, a shrine's round one (its doors then keep off the corners), else a rectangle."""
    if room.type.value == CAVE_ROOM:
        return "cave"
    return "round" if room.type.value == ROUND_ROOM and not room.special else "rect"


def _renumber(room: DungeonRoom, number: int) -> DungeonRoom:
    return replace(room, number=number)


def _choose(tables: dict, room: DungeonRoom, rng: random.Random) -> DungeonRoom:
    """Pick one reading for the room's type and features where their rows offer choices.

    A room type 12 is not picked at random: its first reading is the master's chamber, its last
    the special location a later 12 is read as.
    """
    def read(roll: TableRoll, forced: int | None = None) -> TableRoll:
        choices = tables[roll.table].row_for(roll.value).choices
        if not choices:
            return roll
        choice = choices[forced] if forced is not None else choices[int(rng.random() * len(choices))]
        return replace(roll, said=choice.text, marks=choice.marks)

    forced = (-1 if room.special else 0) if room.type.value == BOSS_ROOM else None
    return replace(room, type=read(room.type, forced), features=tuple(read(f) for f in room.features))


def _shut(room: DungeonRoom, placed, rng: random.Random) -> DungeonRoom:
    """Pick the door a "barred" or "locked" reading shuts (one leading on, when there is one) and name its wall."""
    if not any(mark in SHUT_MARKS for mark in room.marks):
        return room
    # A door broken through is a hole in the wall, not a door that shuts: it is never the one picked.
    built = [door for door in placed.doors if not door.extra] or list(placed.doors)
    onward = [door for door in built if door.to != OUTSIDE and (door.to is None or door.to > placed.number)]
    doors = onward or [door for door in built if door.to != OUTSIDE] or built
    side = doors[int(rng.random() * len(doors))].side
    def name(roll: TableRoll) -> TableRoll:
        return replace(roll, said=roll.said.replace(DOOR_SLOT, WALL_WORDS[side])) if DOOR_SLOT in roll.said else roll
    return replace(room, type=name(room.type), features=tuple(name(f) for f in room.features), shut_door=side)
