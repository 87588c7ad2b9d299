"""A pre-rolled Loner dungeon as data: table rolls, chains, rooms, twists, oracle rows and the dungeon itself."""

from __future__ import annotations

from dataclasses import dataclass

from dungeonpress.model import Creature
from dungeonpress.model.oracle import OracleRoll
from dungeonpress.model.plan import FloorPlan


@dataclass(frozen=True)
class TableRoll:
    """One roll on one table: the table, its dice, the value rolled, and the row it hit (columns, see, creature)."""

    table: str
    dice: str
    value: int
    fields: tuple  # ((column key, header, value), ...) in column order
    see: str | None = None
    creature: int | None = None
    note: str = ""  # e.g. why a result was rolled again
    said: str = ""  # the concrete reading picked from the row's choices ("Large chamber with statues"), if it has any
    marks: tuple = ()  # the map marks the row (or the reading picked) states

    @property
    def text(self) -> str:
        """The row's first column: what a one-line print shows."""
        return str(self.fields[0][2])

    def field(self, key: str):
        for name, _, value in self.fields:
            if name == key:
                return value
        raise KeyError(key)

    @property
    def label(self) -> str:
        """How the key prints it: `2d6 = 9: Large chamber with columns/statues`."""
        return f"{self.dice} = {self.value}: {self.text}"


@dataclass(frozen=True)
class Chain:
    """A roll and the rolls its `see:` led to (encounter type 2d6 → hostile monsters d66), with any creature."""

    rolls: tuple
    creature: Creature | None = None

    @property
    def result(self) -> TableRoll:
        return self.rolls[-1]

    @property
    def table(self) -> str:
        return self.rolls[-1].table


@dataclass(frozen=True)
class DungeonRoom:
    """A rolled room, numbered as on the map; encounter, trap and treasure are None when there are none."""

    number: int
    type: TableRoll
    features: tuple
    exits: TableRoll
    encounter_check: TableRoll | None  # None in the boss chamber: its master is always at home
    encounter: Chain | None
    trap: Chain | None
    treasure: Chain | None
    boss: bool = False
    special: bool = False  # a second "boss chamber" roll, read as a special location
    shut_door: str | None = None  # the wall (N, E, S, W) whose door a "barred" or "locked" mark shuts

    @property
    def marks(self) -> tuple:
        """Every map mark the room's type and feature rolls state, in roll order, no repeats."""
        out = []
        for roll in (self.type, *self.features):
            out.extend(mark for mark in roll.marks if mark not in out)
        return tuple(out)

    @property
    def exit_count(self) -> int:
        return int(self.exits.field("exits"))


@dataclass(frozen=True)
class Twist:
    """A pre-rolled twist: one roll for the subject column, one for the action column."""

    subject: TableRoll
    action: TableRoll

    @property
    def text(self) -> str:
        return f"{self.subject.fields[0][2]} {str(self.action.fields[1][2]).lower()}"


@dataclass(frozen=True)
class OracleRow:
    """One pre-rolled consultation, rolled three ways: plain, with advantage, with disadvantage."""

    plain: OracleRoll
    advantage: OracleRoll
    disadvantage: OracleRoll


@dataclass(frozen=True)
class Dungeon:
    """A whole pre-rolled dungeon: name, condition, rooms in key order, the map plan and its play aids."""

    name: str
    name_rolls: tuple
    condition: TableRoll
    rooms: tuple  # DungeonRoom, rooms[0] is room 1
    plan: FloorPlan  # where each room sits on the map
    wandering: tuple  # Chain, one per d6 face
    oracle: tuple  # OracleRow
    twists: tuple  # Twist
    d6s: tuple  # pre-rolled d6 results for any other roll (fatigue, light, the wandering table)

    def room(self, number: int) -> DungeonRoom:
        return self.rooms[number - 1]

