"""What the map shows of each rolled room: a Dungeon and a seeded Random → RoomLook (shape and furnishings).

Only architecture is read: the room type and its feature tags become walls, water, columns,
an altar, furniture, rubble or a barred door. Encounters, traps and treasure are never read,
so the map cannot give them away: a trapped room is drawn as the plain room it looks like.
The rolled results are read by their 2d6 value (as the generator reads them), so a content
pack that rewords a row keeps its drawing.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from dungeonpress.model.plan import OUTSIDE

# Room type (2d6) → what is drawn in it. 8 (trapped room) is missing on purpose: it looks plain.
TYPE_MARKS = {2: ("rubble",), 3: ("cracks",), 4: ("columns",), 5: ("alcoves",), 7: ("furniture",),
              9: ("columns", "statues"), 10: (), 11: ("altar",)}
TYPE_WORDS = {2: "a small chamber", 3: "a long corridor", 4: "a grand hall", 5: "a narrow hallway",
              7: "a workroom", 9: "a large chamber", 10: "a cave", 11: "a shrine"}
CAVE_TYPE, POOL_CHANCE = 10, 0.5  # "natural cave or underground pool": half of them hold water
# Feature tag (2d6) → mark. A hidden alcove (4) stays hidden; sounds, air, runes and tracks are not drawn.
FEATURE_MARKS = {3: "statues", 5: "rubble", 7: "crates", 9: "water", 11: "barred"}
FURNITURE = ("forge", "library", "crates")  # what a functional room's furniture is, when the key leaves it open

# How the key's words describe each mark, for the screen-reader description.
WORDS = {"rubble": "rubble", "cracks": "cracked walls", "columns": "columns", "alcoves": "alcoves",
         "statues": "statues", "water": "a pool of water", "altar": "an altar", "forge": "a forge and anvil",
         "library": "bookshelves", "crates": "crates", "barred": "a barred door"}


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


def read_rooms(dungeon, rng: random.Random) -> tuple:
    """One RoomLook per room, in key order; `rng` picks what the dice left open (which pool, which furniture)."""
    plan = dungeon.plan
    looks = []
    for room in dungeon.rooms:
        placed = plan.room(room.number)
        kind = room.type.value
        marks = list(TYPE_MARKS.get(kind, ()))
        if kind == CAVE_TYPE and rng.random() < POOL_CHANCE:
            marks.append("water")
        if "furniture" in marks:
            marks[marks.index("furniture")] = FURNITURE[int(rng.random() * len(FURNITURE))]
        for feature in room.features:
            mark = FEATURE_MARKS.get(feature.value)
            if mark and mark not in marks:
                marks.append(mark)
        barred = ()
        if "barred" in marks:
            marks.remove("barred")
            barred = _barred_door(placed, rng)
        looks.append(RoomLook(room.number, placed.shape == "cave", tuple(marks), barred,
                              boss=room.number == plan.boss, stairs=room.number == plan.stairs,
                              entrance=room.number == plan.entrance,
                              words=TYPE_WORDS.get(kind, "a room") if not room.special else "a room"))
    return tuple(looks)


def _barred_door(placed, rng) -> tuple:
    """The feature names one door barred: one leading on (deeper, or a dead end) when there is one."""
    onward = [i for i, door in enumerate(placed.doors)
              if door.to != OUTSIDE and (door.to is None or door.to > placed.number)]
    choices = onward or [i for i, door in enumerate(placed.doors) if door.to != OUTSIDE]
    if not choices:
        return ()
    return (choices[int(rng.random() * len(choices))],)
