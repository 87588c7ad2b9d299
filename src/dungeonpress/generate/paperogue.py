"""Turn a seeded Random and the Paperogue tables into a PaperogueDungeon of pre-rolled levels."""

from __future__ import annotations

import random
from dataclasses import dataclass

from dungeonpress.dice import DiceSpec, d, dice, pick, roll_on
from dungeonpress.errors import ContentError, ContentErrors
from dungeonpress.model import Content
from dungeonpress.model.paperogue import (Exit, Level, Lock, Monster, PaperogueDungeon, PaperogueRoom,
                                          Treasure)

ROOMS_DICE = ("d4", "d6", "d8", "d10", "d12", "d20")
MAX_LEVELS = 9
MONSTER_SLOTS = (2, 3, 4, 5)  # the seed: 1 is always "none", monsters go on 2-5
DIRECTIONS = {1: "N", 2: "E", 3: "S", 4: "W"}  # the seed's d4 for an exit's direction
ORDER = ("N", "E", "S", "W")
OPPOSITE = {"N": "S", "E": "W", "S": "N", "W": "E"}
STEP = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
# Rooms sit on a lattice of MAP_SIZE x MAP_SIZE places (room 1 in the middle), so a level of 20
# rooms always fits one printed page of 5 mm squares.
MAP_SIZE = 9

TREASURE_TABLE = "paperogue_treasure_type"
MONSTER_TABLE = "paperogue_monsters"
GOLD_TABLE = "paperogue_gold"
NEEDED = (TREASURE_TABLE, MONSTER_TABLE, GOLD_TABLE)  # and the item tables Table 1's rows `see:`
KEY = "K"  # Table 1's letter for a key
_REROLL_LIMIT = 500  # rerolls allowed while hunting a usable result (a bug guard, never reached)

# How this project reads the places where the seed leaves a choice open. Printed on the
# sheets and written into the JSON; each is implemented by the function named beside it.
READINGS = (
    ("Rooms", "Roll the rooms die; a result of half the die or less is rolled again (the seed asks "
              "for over 10 on a d20)."),  # _room_count
    ("Stairs down", "Roll the same die again until it is less than the room count, so the last room "
                    "never holds them; room 1 may."),  # _stairs_room
    ("Stairs up", "Room 1 holds the stairs you arrive by. On the last level the stairs down are the "
                  "way out: take them to leave alive."),  # generate_level
    ("Exits", "A room's d4 exits count the door you came in by. Each other exit rolls a d4 for its wall "
              "(1 N, 2 E, 3 S, 4 W), again if that wall already has one."),  # _directions
    ("Corridors", "Rooms are numbered as found, following the oldest open exit first. An exit meets "
                  "the room two squares beyond it; it is a dead end when that room has no door "
                  "facing back, or nothing is there once every room is placed. If the exits run "
                  "out first, the newest room with a free wall gains a door there."),  # _layout
    ("Monster list", "Four different monsters from the classic list, weakest first, beside 2 to 5. "
                     "Their rolls (1d10 per level: 1d10, 2d10, 3d10...) go down the list in ascending "
                     "order and are the monsters' HP."),  # _monster_list
    ("Room monster", "Each room rolls a d6 on its level's list: 1 none, 2 to 5 that monster, "
                     "6 roll again."),  # _room_monster
    ("Treasure", "Every room holds one treasure: Table 1, then its table (gold on Table 2). Scrolls "
                 "have no letter, so the bottom left shows their Table 6 number; a key leaves it "
                 "blank."),  # _treasure
    ("Keys", "Every key adds a locked door on its own level that only it opens. The door closes a "
             "dead-end room where one is free (never room 1, the stairs room or a room holding a key); "
             "failing that, any door not on the only way to the key; failing that, a corridor that "
             "ends, on a bare wall if need be. Taking each key before its door, every room is reached."),  # _locks
)


def generate_paperogue(content: Content, rng: random.Random, *, levels: int = 3,
                       rooms_die: str = "d20") -> PaperogueDungeon:
    """Roll `levels` levels by the seed's Step 1; same rng state and content → same PaperogueDungeon."""
    if rooms_die not in ROOMS_DICE:
        raise ValueError(f"rooms die must be one of {', '.join(ROOMS_DICE)} (got {rooms_die!r})")
    if not 1 <= levels <= MAX_LEVELS:
        raise ValueError(f"levels must be 1 to {MAX_LEVELS} (got {levels})")
    _require(content)
    made = tuple(generate_level(content, rng, number, rooms_die=rooms_die, last=number == levels)
                 for number in range(1, levels + 1))
    return PaperogueDungeon(rooms_die=rooms_die, levels=made, readings=READINGS)


def generate_level(content: Content, rng: random.Random, number: int, *, rooms_die: str = "d20",
                   last: bool = False) -> Level:
    """One level, in the seed's order: rooms, stairs, exits, monster list, then each room's monster and treasure."""
    # a. and b. How many rooms, and which holds the stairs down.
    room_rolls = _room_count(rng, rooms_die)
    count = room_rolls[-1]
    stairs_rolls = _stairs_room(rng, rooms_die, count)
    stairs = stairs_rolls[-1]

    # c. Exits and their directions, which place the rooms on the map.
    places, exit_rolls, doors = _layout(rng, count)

    # d. The level's monster list, then a roll on it for every room.
    monsters = _monster_list(content, rng, number)
    by_slot = {m.slot: m for m in monsters}
    room_monsters = [_room_monster(rng) for _ in range(count)]

    # e. A treasure in every room.
    treasures = [_treasure(content, rng) for _ in range(count)]

    # Each key adds a locked door (see READINGS).
    locks = _locks(rng, count, stairs, doors, treasures)
    locked = {(lock.room, lock.direction) for lock in locks}
    for room, direction in sorted(locked):
        other = doors[room][direction].leads_to
        if other is not None:
            locked.add((other, OPPOSITE[direction]))

    rooms = []
    for n in range(1, count + 1):
        rolls = room_monsters[n - 1]
        monster = by_slot.get(rolls[-1])
        marks = (("up",) if n == 1 else ()) + (("down",) if n == stairs else ())
        exits = tuple(_finish(doors[n][direction], (n, direction) in locked)
                      for direction in ORDER if direction in doors[n])
        rooms.append(PaperogueRoom(number=n, x=places[n][0], y=places[n][1], exit_roll=exit_rolls[n], exits=exits,
                          monster_rolls=rolls, monster=monster.initial if monster else "",
                          treasure=treasures[n - 1], stairs=marks))
    return Level(number=number, room_rolls=room_rolls, stairs_rolls=stairs_rolls, stairs_room=stairs,
                 hit_dice=f"{number}d10", monsters=monsters, rooms=tuple(rooms), locks=locks, last=last)


def _require(content: Content) -> None:
    """The tables a level needs, with the columns it reads, all reported at once."""
    treasure = content.tables.get(TREASURE_TABLE)
    needed = {TREASURE_TABLE: ("initial", "treasure"), MONSTER_TABLE: ("initial", "monster"), GOLD_TABLE: ("gold",)}
    if treasure is not None:
        for row in treasure.rows:
            if row.see and row.see not in needed:
                needed[row.see] = ("item",)
    problems = content.table_problems(needed, needer="pre-rolled Paperogue levels need",
                                      purpose="for pre-rolled Paperogue levels")
    for table_id in (GOLD_TABLE, MONSTER_TABLE):  # what the columns must hold, once they are there
        table = content.tables.get(table_id)
        if table is None or any(c not in dict(table.columns) for c in needed[table_id]):
            continue
        if table_id == GOLD_TABLE and not all(isinstance(r.get("gold"), int) for r in table.rows):
            problems.append(ContentError(table.source, f"table '{GOLD_TABLE}' must give whole numbers of gold"))
        elif table_id == MONSTER_TABLE and len({str(r.get("initial")) for r in table.rows}) < len(MONSTER_SLOTS):
            problems.append(ContentError(table.source, f"table '{MONSTER_TABLE}' needs at least "
                                                       f"{len(MONSTER_SLOTS)} different initials for a level"))
    if problems:
        raise ContentErrors(problems)


# --- a. and b. rooms and stairs ------------------------------------------------------------------

def _room_count(rng: random.Random, rooms_die: str) -> tuple:
    """Every roll of the rooms die until one lands above half the die (see READINGS)."""
    spec = DiceSpec(rooms_die)
    half = spec.results[-1] // 2
    rolls = [spec.roll(rng)]
    while rolls[-1] <= half:
        rolls.append(spec.roll(rng))
    return tuple(rolls)


def _stairs_room(rng: random.Random, rooms_die: str, count: int) -> tuple:
    """Every roll for the stairs room: rolled again until less than the room count (the seed's words)."""
    spec = DiceSpec(rooms_die)
    rolls = [spec.roll(rng)]
    while rolls[-1] >= count:
        rolls.append(spec.roll(rng))
    return tuple(rolls)


# --- c. exits and the map ------------------------------------------------------------------------

@dataclass
class _Door:
    direction: str
    roll: int | None
    leads_to: int | None = None
    added: bool = False


def _finish(door: _Door, locked: bool) -> Exit:
    return Exit(direction=door.direction, roll=door.roll, leads_to=door.leads_to, locked=locked, added=door.added)


def _directions(rng: random.Random, count: int, taken) -> list:
    """`count` new walls for exits, a d4 each (1 N, 2 E, 3 S, 4 W), rolled again on a wall already used."""
    walls, out = set(taken), []
    for _ in range(count):
        roll = d(rng, 4)
        while DIRECTIONS[roll] in walls:
            roll = d(rng, 4)
        walls.add(DIRECTIONS[roll])
        out.append((DIRECTIONS[roll], roll))
    return out


def _layout(rng: random.Random, count: int):
    """Explore the level exit by exit, placing a new room beyond each open exit until `count` rooms exist.

    Returns (room → lattice place, room → d4 exit count, room → {direction: _Door}); every
    door's `leads_to` names the room it joins, whose door faces back, or None for a dead end.
    """
    centre = (MAP_SIZE // 2, MAP_SIZE // 2)
    places, at, exit_rolls, doors = {1: centre}, {centre: 1}, {}, {}
    pending = []  # (room, direction): exits not yet followed, oldest first

    def new_room(number: int, place, entrance: str | None) -> None:
        places[number], at[place] = place, number
        exit_rolls[number] = d(rng, 4)
        doors[number] = {}
        if entrance:
            doors[number][entrance] = _Door(entrance, roll=None)
        for direction, roll in _directions(rng, exit_rolls[number] - len(doors[number]), doors[number]):
            doors[number][direction] = _Door(direction, roll=roll)
            pending.append((number, direction))

    def join(room: int, direction: str, other: int) -> None:
        doors[room][direction].leads_to = other
        doors[other][OPPOSITE[direction]].leads_to = room

    new_room(1, centre, None)
    while len(places) < count:
        if not pending:
            pending.append(_added_door(rng, places, at, doors))
        room, direction = pending.pop(0)
        if doors[room][direction].leads_to is not None:
            continue
        place = _beyond(places[room], direction)
        if place is None:
            continue  # off the map: a dead end
        other = at.get(place)
        if other is None:
            number = len(places) + 1
            new_room(number, place, OPPOSITE[direction])
            join(room, direction, number)
        elif OPPOSITE[direction] in doors[other]:
            join(room, direction, other)
    # Every room is placed: the exits still open join a room facing back, or end.
    for room, direction in pending:
        place = _beyond(places[room], direction)
        other = at.get(place) if place else None
        if other is not None and doors[room][direction].leads_to is None and OPPOSITE[direction] in doors[other]:
            join(room, direction, other)
    return places, exit_rolls, doors


def _beyond(place, direction: str):
    """The lattice place past a wall, or None off the map."""
    x, y = place[0] + STEP[direction][0], place[1] + STEP[direction][1]
    return (x, y) if 0 <= x < MAP_SIZE and 0 <= y < MAP_SIZE else None


def _added_door(rng: random.Random, places, at, doors):
    """The exits ran out before the rooms did: the newest room with a free wall facing an empty place gets a door."""
    for number in sorted(places, reverse=True):
        free = [direction for direction in ORDER if direction not in doors[number]
                and (place := _beyond(places[number], direction)) is not None and place not in at]
        if not free:
            continue
        for _ in range(_REROLL_LIMIT):
            roll = d(rng, 4)
            if DIRECTIONS[roll] in free:
                doors[number][DIRECTIONS[roll]] = _Door(DIRECTIONS[roll], roll=roll, added=True)
                return number, DIRECTIONS[roll]
    raise RuntimeError("no room has a free wall left (bug: the map is too small for the room count)")


# --- d. monsters ---------------------------------------------------------------------------------

def _monster_list(content: Content, rng: random.Random, level: int) -> tuple:
    """Four monsters with different letters, weakest first, beside ascending Nd10 rolls (N = level)."""
    table = content.table(MONSTER_TABLE)
    chosen, letters = [], set()
    while len(chosen) < len(MONSTER_SLOTS):
        result, row = roll_on(rng, table)
        initial = str(row.get("initial"))
        if initial in letters:
            continue  # a letter already on this level's list: roll again
        letters.add(initial)
        chosen.append((result, str(row.get("monster")), initial))
    chosen.sort()
    rolled = sorted((sum(rolls), tuple(rolls)) for rolls in (dice(rng, level, 10) for _ in MONSTER_SLOTS))
    return tuple(Monster(slot=slot, name=name, initial=initial, table_roll=result, dice=rolls, roll=total)
                 for slot, (result, name, initial), (total, rolls) in zip(MONSTER_SLOTS, chosen, rolled))


def _room_monster(rng: random.Random) -> tuple:
    """The d6 rolls on the level's list for one room: a 6 is rolled again."""
    rolls = [d(rng, 6)]
    while rolls[-1] == 6:
        rolls.append(d(rng, 6))
    return tuple(rolls)


# --- e. treasure ---------------------------------------------------------------------------------

def _treasure(content: Content, rng: random.Random) -> Treasure:
    """Table 1, then the sub-table its row points to."""
    type_roll, row = roll_on(rng, content.table(TREASURE_TABLE))
    initial, kind = str(row.get("initial")), str(row.get("treasure"))
    if not row.see:
        return Treasure(type_roll=type_roll, initial=initial, kind=kind, table=None, roll=None, item=kind, mark="")
    table = content.table(row.see)
    roll, sub = roll_on(rng, table)
    values = dict(sub.values)
    if "gold" in values:
        gold = int(values["gold"])
        return Treasure(type_roll=type_roll, initial=initial, kind=kind, table=table.id, roll=roll,
                        item=f"{gold} gold", mark=str(gold), gold=gold)
    item = str(values.get("item", sub.values[0][1]))
    if values.get("stat"):
        item = f"{item} ({values['stat']})"
    mark = str(values["initial"]) if "initial" in values else str(roll)
    return Treasure(type_roll=type_roll, initial=initial, kind=kind, table=table.id, roll=roll, item=item, mark=mark)


def _locks(rng: random.Random, count: int, stairs: int, doors, treasures) -> tuple:
    """Every key adds a locked door: a dead-end room's when one is free, else any door the key is found before."""
    keys = [n for n in range(1, count + 1) if treasures[n - 1].initial == KEY]
    locks: list[Lock] = []
    for key_room in keys:
        candidates = _dead_ends(count, stairs, doors, treasures, locks)
        if not candidates:
            candidates = _other_doors(count, doors, locks, key_room)
        stub = not candidates
        if stub:  # every door is on the way to this key: a corridor that ends gets the locked door
            stubs = _stubs(count, doors, locks)
            candidates = [c for c in stubs if c[0] != key_room] or stubs  # not beside the key, if it can be
        if not candidates:  # not even one: the seed's words, a locked door is added, on a free wall
            candidates = [(n, w) for n in range(1, count + 1) for w in ORDER if w not in doors[n]]
        room, direction = pick(rng, candidates)
        if direction not in doors[room]:
            doors[room][direction] = _Door(direction, roll=None, added=True)
        locks.append(Lock(key_room=key_room, room=room, direction=direction, stub=stub))
    return tuple(locks)


def _joined(doors, room: int) -> list:
    """The walls of `room` whose doors lead to another room."""
    return [direction for direction in ORDER if direction in doors[room] and doors[room][direction].leads_to]


def _dead_ends(count: int, stairs: int, doors, treasures, locks) -> list:
    """(room, wall) for each dead-end room a lock may close: not room 1, the stairs, a key room or locked already."""
    locked = {lock.room for lock in locks}
    out = []
    for n in range(2, count + 1):
        joined = _joined(doors, n)
        if len(joined) == 1 and n != stairs and n not in locked and treasures[n - 1].initial != KEY:
            out.append((n, joined[0]))
    return out


def _other_doors(count: int, doors, locks, key_room: int) -> list:
    """(room behind, wall) for each unlocked door whose locking leaves every room reachable in some order.

    The room behind a door is the one farther from room 1; the key for each lock must be reachable
    before that lock is opened, which `_opens_all` checks by playing the keys in turn.
    """
    depth = _depths(doors)
    taken = {(lock.room, lock.direction) for lock in locks}
    taken |= {(doors[room][direction].leads_to, OPPOSITE[direction]) for room, direction in taken}
    out = []
    for n in range(1, count + 1):
        for direction in _joined(doors, n):
            other = doors[n][direction].leads_to
            if (n, direction) in taken or (depth[n], n) < (depth[other], other):
                continue  # locked already, or seen from the room behind it
            trial = locks + [Lock(key_room=key_room, room=n, direction=direction)]
            if _opens_all(count, doors, trial):
                out.append((n, direction))
    return out


def _stubs(count: int, doors, locks) -> list:
    """(room, wall) for each unlocked door that opens on a corridor ending in nothing."""
    taken = {(lock.room, lock.direction) for lock in locks}
    return [(n, direction) for n in range(1, count + 1) for direction in ORDER
            if direction in doors[n] and doors[n][direction].leads_to is None and (n, direction) not in taken]


def _depths(doors) -> dict:
    """Each room's distance from room 1 in doors, all doors open."""
    depth, queue = {1: 0}, [1]
    for room in queue:
        for direction in _joined(doors, room):
            other = doors[room][direction].leads_to
            if other not in depth:
                depth[other] = depth[room] + 1
                queue.append(other)
    return depth


def _opens_all(count: int, doors, locks) -> bool:
    """True when, starting in room 1 and opening each lock once its key is in hand, every room is reached."""
    shut = {}
    for lock in locks:
        if lock.stub:
            continue
        other = doors[lock.room][lock.direction].leads_to
        shut[(lock.room, lock.direction)] = shut[(other, OPPOSITE[lock.direction])] = lock.key_room
    seen, queue = {1}, [1]
    waiting = []  # (key room, room beyond) for locked doors met so far
    while queue or waiting:
        while queue:
            room = queue.pop()
            for direction in _joined(doors, room):
                other = doors[room][direction].leads_to
                if other in seen:
                    continue
                if (room, direction) in shut:
                    waiting.append((shut[(room, direction)], other))
                else:
                    seen.add(other)
                    queue.append(other)
        opened = [(key, other) for key, other in waiting if key in seen and other not in seen]
        if not opened:
            break
        waiting = [w for w in waiting if w not in opened]
        for _, other in opened:
            if other not in seen:
                seen.add(other)
                queue.append(other)
    return len(seen) == count
