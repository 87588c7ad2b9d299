"""Dunginoes as data: simulated game results and domino maps (tiles, open ends)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

SOLO_GOAL = 14  # a solo player wants to escape with a score above this


@dataclass(frozen=True)
class GameResult:
    """One finished game: each player's score, who was stunned, and what happened on the way."""

    scores: tuple
    stunned: tuple
    turns: int
    rooms: int  # dominoes on the table, the starting double included
    fights_won: int
    fights_lost: int
    stalled: bool  # the endgame came because nothing more could be played

    @property
    def escaped(self) -> tuple:
        """The solo goal, per player: not stunned, and a score above 14."""
        return tuple(not out and score > SOLO_GOAL for score, out in zip(self.scores, self.stunned))


@dataclass(frozen=True)
class Simulation:
    """Many games from a fixed seed: the solo escape rate and the average score by player count."""

    seed: str
    solo_games: int
    group_games: int  # games for each of 2, 3 and 4 players
    solo_escape: Fraction
    solo_stunned: Fraction
    average_score: tuple  # (players, average final score per player), 1..4 players
    average_rooms: tuple  # (players, average dominoes on the table at the end)


@dataclass(frozen=True)
class End:
    """An open edge of a tile: its midpoint (x, y), the way out (dx, dy), the number showing, its room."""

    x: int
    y: int
    dx: int
    dy: int
    value: int
    room: int
    long_side: bool = False  # the far side of a crosswise double: dominoes go straight on from it


@dataclass(frozen=True)
class Tile:
    """One domino on the map: two halves (centre x, centre y, number), the first touching its parent."""

    room: int  # 1, 2, 3… in the order laid
    halves: tuple
    parent: int  # 0 for the first room
    via: End | None  # the parent's end it was laid on
    crosswise: bool = False
    special: str = ""  # mode before: the special encounter marked here when the builder got stuck
    risk: int | None = None  # mode fly: number on the revealed domino's left side
    reward: int | None = None  # … and on its right side
    blocked_roll: int = 0  # mode fly: the d8 rolled for blocked exits
    locked: bool = False  # mode fly: the door in is locked (the pre-drawn domino did not match)
    secret: bool = False  # mode fly: the door in is a secret exit the DM opened
    final: bool = False  # mode fly: the double six, the final encounter

    @property
    def domino(self) -> tuple[int, int]:
        return self.halves[0][2], self.halves[1][2]

    def cells(self) -> list:
        return [cell for cx, cy, _ in self.halves for cell in square(cx, cy)]


@dataclass(frozen=True)
class DominoMap:
    """A dungeon of dominoes laid by one of the seed's two procedures."""

    mode: str  # before | fly
    size: int  # rooms asked for
    tiles: tuple
    open_ends: tuple  # free ends nothing was laid on (before), or open exits left unexplored (fly)
    blocked: tuple  # fly: exits the d8 blocked
    discarded: tuple  # before: dominoes thrown back when stuck
    entrance: End  # where the party comes in (the first tile's parent side)



def square(cx: int, cy: int) -> tuple:
    """The four grid cells of a domino half centred on (cx, cy)."""
    return ((cx - 1, cy - 1), (cx, cy - 1), (cx - 1, cy), (cx, cy))
