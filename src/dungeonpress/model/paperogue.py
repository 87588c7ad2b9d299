"""Pre-rolled Paperogue things as data: levels of rooms (exits, treasure, monster list, locks) and rogues."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Exit:
    """One door in a room's wall: its direction, what rolled it, and where its corridor goes."""

    direction: str  # N, E, S or W
    roll: int | None  # the d4 that chose the wall; None for the door you came in by or one a key added
    leads_to: int | None  # the room at the corridor's far end; None for a dead end
    locked: bool = False
    added: bool = False  # not rolled: the exits ran out before the rooms did, or a key needed a door


@dataclass(frozen=True)
class Treasure:
    """A room's treasure: Table 1's type and the sub-table result, with the two quadrant marks."""

    type_roll: int
    initial: str  # Table 1's letter: the bottom-right quadrant
    kind: str  # Gold, Armor, Weapon, Key, Potion, Scroll, Magic book, Jewelry
    table: str | None  # the sub-table rolled on, if any
    roll: int | None  # the sub-table roll
    item: str  # what was found, in words: "250 gold", "Axe (STR)", "Key"
    mark: str  # the bottom-left quadrant: gold amount, subtype letter, scroll number, or ""
    gold: int = 0


@dataclass(frozen=True)
class Monster:
    """One line of a level's monster list: its slot (2-5), who, and its ascending roll."""

    slot: int
    name: str
    initial: str
    table_roll: int  # the d20 on the monster table
    dice: tuple  # the d10s behind `roll`, as rolled
    roll: int  # read as the monster's HP


@dataclass(frozen=True)
class PaperogueRoom:
    """A room of a level: where it sits on the map lattice, its doors, monster, treasure and stairs."""

    number: int
    x: int  # lattice column, 0..MAP_SIZE-1
    y: int  # lattice row, 0..MAP_SIZE-1
    exit_roll: int  # the d4 for how many exits
    exits: tuple  # Exit, in N E S W order
    monster_rolls: tuple  # the d6s on the level's list (sixes are rolled again)
    monster: str  # the monster's letter for the top-left quadrant, or "" for none
    treasure: Treasure
    stairs: tuple = ()  # "up" and/or "down"

    def exit(self, direction: str) -> Exit | None:
        for door in self.exits:
            if door.direction == direction:
                return door
        return None


@dataclass(frozen=True)
class Lock:
    """A locked door placed by a key: the room the key lies in and the door it locks."""

    key_room: int
    room: int  # the room behind the locked door, or with `stub` the room whose wall holds it
    direction: str  # the locked door's wall in `room`
    stub: bool = False  # the door opens on a corridor that ends (every other door led to this key)


@dataclass(frozen=True)
class Level:
    """One pre-rolled level: the rolls of Step 1 and the rooms they made."""

    number: int
    room_rolls: tuple  # every roll of the rooms die; the last one stands
    stairs_rolls: tuple  # every roll for the stairs room; the last one stands
    stairs_room: int
    hit_dice: str  # "2d10": the monster rolls and the player's hit rolls on this level
    monsters: tuple  # Monster, slots 2-5, rolls ascending
    rooms: tuple  # PaperogueRoom, by number
    locks: tuple  # Lock, one per key found on the level
    last: bool  # the stairs down lead out of the dungeon

    @property
    def room_count(self) -> int:
        return len(self.rooms)

    def room(self, number: int) -> PaperogueRoom:
        return self.rooms[number - 1]


@dataclass(frozen=True)
class PaperogueDungeon:
    """A whole pre-rolled Paperogue dungeon: its levels and the readings they were rolled by."""

    rooms_die: str
    levels: tuple
    readings: tuple = ()  # (heading, how this project reads the seed there)



@dataclass(frozen=True)
class PaperogueItem:
    """One piece of starting gear, with every roll that made it (type, subtype, identification)."""

    kind: str  # gold | armor | weapon | key | potion | scroll | book | jewelry
    name: str  # "Sword", "Red potion", "Scroll: Zaf Lat Bimbo", "Ring", "50 gold"
    initial: str = ""  # the letter for the map's treasure quadrant
    rolls: tuple = ()  # Rolls on tables, in the order made
    dice: tuple = ()  # (notation, results) for dice in an effect, e.g. ("1d4", (3,))
    identified: bool = False
    effect: str = ""  # once identified: "+3 STR", "Heal 1d4 per room", "None"
    stat: str = ""  # a weapon's fighting stat
    spell: str = ""  # a spell the item teaches or grants
    gold: int = 0


@dataclass(frozen=True)
class PaperogueCharacter:
    """A pre-rolled Paperogue rogue: the rolls as made, the swap, the totals and the starting gear."""

    rolls: tuple  # (stat, d10) as rolled, in STATS order
    swap: tuple | None  # the two stats whose rolls were exchanged, or None
    scores: tuple  # (stat, roll) after the swap
    hp: int  # HP roll + STR roll
    mp: int  # MP roll + INT roll
    strength: int
    dexterity: int
    intelligence: int
    items: tuple = field(default=())
    gold: int = 0
    spells: tuple = ()

    @property
    def name(self) -> str:
        return ""  # Paperogue rogues are nameless until their player names them

    def score(self, stat: str) -> int:
        return dict(self.scores)[stat]

