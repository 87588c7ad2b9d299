"""What the map shows of each rolled room: a Dungeon → RoomLook (shape, marks, barred and locked doors).

Only architecture is read: the marks the room's type and feature rolls state (their table
rows, or the reading the generator picked, list them) become walls, water, columns, an altar,
furniture, rubble or a barred or locked door. Encounters, traps and treasure are never read,
so the map cannot give them away: a trapped room is drawn as the plain room it looks like.
"""

from __future__ import annotations

import random
from dataclasses import dataclass


TYPE_WORDS = {2: "a small chamber", 3: "a long corridor", 4: "a grand hall", 5: "a narrow hallway",
              7: "a workroom", 9: "a large chamber", 10: "a cave", 11: "a shrine"}

# How the key's words describe each mark, for the screen-reader description.
WORDS = {"rubble": "rubble", "cracks": "cracked walls", "columns": "columns", "alcoves": "alcoves",
         "statues": "statues", "broken_statues": "toppled and broken statuary", "water": "a pool", "altar": "an altar",
         "ritual": "a ritual ring round a stone altar", "forge": "a forge and anvil",
         "library": "bookshelves", "vault": "strongboxes", "crates": "crates", "furniture": "a table and chairs",
         "barred": "a barred door", "locked": "a locked door"}
DOOR_MARKS = ("barred", "locked")  # marks drawn on a door, not on the floor
ROUND_TYPES = (11,)  # room types drawn with a round wall: the shrine (a ritual space's ring in its middle)
APSE_MARKS = ("altar",)  # a shrine whose altar stands at its far wall ends in an apse there, the altar in it
ELL_TYPES = (7,)  # room types drawn L-shaped: the workroom (forge, library, vault, storeroom)
HALL_TYPES = (4,)  # room types drawn with their corners cut across: the grand hall
COLLAPSED_TYPES = (2,)  # room types drawn with one corner fallen in: the small chamber with debris


@dataclass(frozen=True)
class RoomLook:
    """How one room is drawn: cave walls or straight, its marks, which door is barred, boss and stairs flags."""

    number: int
    cave: bool
    marks: tuple  # mark names, in drawing order, no repeats
    barred: tuple  # indices into the placed room's doors
    boss: bool
    stairs: bool
    entrance: bool
    words: str  # "a grand hall", "a room"
    locked: tuple = ()  # indices into the placed room's doors
    shape: str = "rect"  # how its wall is drawn: "rect", "cave" (rough), "round" (a ritual space), "apse" (a shrine
    # with its altar at the far wall), "hall" (corners cut), "collapsed" (a corner fallen in) or "ell" (a workroom)


def read_rooms(dungeon, rng: random.Random | None = None) -> tuple:
    """One RoomLook per room, in key order, from the marks the key states; nothing is left to chance here.

    `rng` is kept for callers that pass one: the generator now picks every reading the dice left open.
    """
    plan = dungeon.plan
    looks = []
    for room in dungeon.rooms:
        placed = plan.room(room.number)
        marks = [mark for mark in room.marks if mark not in DOOR_MARKS]
        shut = {mark: tuple(i for i, door in enumerate(placed.doors) if door.side == room.shut_door)
                for mark in DOOR_MARKS if mark in room.marks}
        looks.append(RoomLook(room.number, placed.shape == "cave", tuple(marks), shut.get("barred", ()),
                              boss=room.number == plan.boss, stairs=room.number == plan.stairs,
                              entrance=room.number == plan.entrance,
                              words=TYPE_WORDS.get(room.type.value, "a room") if not room.special else "a room",
                              locked=shut.get("locked", ()), shape=_shape(room, placed)))
    return tuple(looks)


def _shape(room, placed) -> str:
    """The wall a room's type calls for: a cave's rough one, a ritual space's round one, a chapel's with an apse at its
    far end, a grand hall's with its corners cut, a small chamber's with debris with a corner fallen in, a workroom's
    L, else the rectangle."""
    if placed.shape == "cave":
        return "cave"
    if room.special:
        return "rect"
    kind = room.type.value
    if kind in ROUND_TYPES:
        return "apse" if any(mark in APSE_MARKS for mark in room.marks) else "round"
    return "ell" if kind in ELL_TYPES else "hall" if kind in HALL_TYPES else \
        "collapsed" if kind in COLLAPSED_TYPES else "rect"
