"""A dungeon's floor plan as data: room specs in, placed rooms, doors and corridors out (cell units)."""

from __future__ import annotations

from dataclasses import dataclass

OUTSIDE = 0  # a door's `to` for the dungeon entrance; room numbers start at 1


@dataclass(frozen=True)
class RoomSpec:
    """What the floor plan needs of one rolled room: its exit count, size in cells, shape and boss flag."""

    exits: int
    width: int
    height: int
    boss: bool = False
    shape: str = "rect"  # "rect", "cave" (drawn with rough walls) or "round" (a shrine: doors keep off its corners)


@dataclass(frozen=True)
class Door:
    """A door in a wall: which side, its point on the wall, and where it leads (room, OUTSIDE or None: dead end)."""

    side: str
    x: float
    y: float
    to: int | None
    extra: bool = False  # added by the break-through rule, beyond the rolled exits


@dataclass(frozen=True)
class PlacedRoom:
    """A room on the map: its key number, the spec it came from, its rectangle in cells, depth and doors."""

    number: int
    spec: int  # index into the specs given to plan_floor
    x: int
    y: int
    w: int
    h: int
    depth: int
    doors: tuple  # Door, in side order N E S W
    shape: str = "rect"

    @property
    def extra_doors(self) -> int:
        return sum(1 for door in self.doors if door.extra)


@dataclass(frozen=True)
class Corridor:
    """A passage drawn as an orthogonal polyline in cell units; `end` is a room, OUTSIDE, or None (dead end)."""

    start: int
    end: int | None
    points: tuple


@dataclass(frozen=True)
class FloorPlan:
    """The whole plan: rooms in key order (rooms[0] is room 1, the entrance), connections, corridors, size."""

    rooms: tuple
    connections: tuple  # (a, b) room-number pairs, a < b, sorted
    corridors: tuple
    entrance: int
    stairs: int
    boss: int | None
    width: int
    height: int

    def room(self, number: int) -> PlacedRoom:
        return self.rooms[number - 1]

    def number_of(self, spec: int) -> int:
        """The key number of the room made from spec index `spec`."""
        for room in self.rooms:
            if room.spec == spec:
                return room.number
        raise KeyError(spec)

