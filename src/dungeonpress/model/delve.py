"""A pre-rolled solo delve as data: turns, appendix finds and the walk out."""

from __future__ import annotations

from dataclasses import dataclass

# What takes up a turn: the procedure gives every turn exactly one of these.
EXPLORE, WANDERING, REST, BACKTRACK, WORK = "explore", "wandering", "rest", "backtrack", "work"
NEW_AREA_ON = 2  # backtracking finds a new area to explore on 1-2 on a d6


@dataclass(frozen=True)
class Find:
    """One appendix result, already resolved: which appendix, the roll, a headline and detail lines."""

    appendix: str
    roll: int
    text: str
    details: tuple = ()


@dataclass(frozen=True)
class Passage:
    """An attempt to get past an obstacle: the roll made (None when none is needed) and what it cost."""

    chance: str  # as the obstacle table prints it: "2 in 6", "always", "never"
    roll: int | None
    passed: bool
    turns: int  # extra turns of work it takes once passed
    blocking: bool  # across your path (Obstacle), not only in front of treasure (Obstacle and treasure)


@dataclass(frozen=True)
class Turn:
    """One turn of the delve, every roll made; None means the roll was not due this turn."""

    number: int
    level: int  # the dungeon level the turn is spent on
    activity: str  # EXPLORE, WANDERING, REST, BACKTRACK or WORK: what took the turn
    wandering_roll: int | None
    wandering: Find | None
    rest: bool
    encounter_roll: int | None
    encounter: str  # the encounter check's result, "" when none was rolled
    finds: tuple
    light_number: int  # which candle, torch or lantern is burning (1, 2, …)
    light_left: int  # turns it has left after this turn (0: it has just gone out)
    lost_roll: int | None
    lost: bool  # lost at the end of this turn
    got_lost: bool
    found_way: bool
    leave_checks: int | None  # wandering checks to walk out if you leave at the start of this turn; None while lost
    passage: Passage | None = None  # the try at an obstacle found this turn
    search_roll: int | None = None  # backtracking: the d6 for a new area (found on 1-2)
    work: tuple | None = None  # (this turn's number in the work, turns of work, the obstacle) getting past one
    stairs_to: int | None = None  # the level the stairs found this turn lead to; 0 is out of the dungeon

    @property
    def light_out(self) -> bool:
        return self.light_left == 0

    @property
    def found_area(self) -> bool:
        """A backtracking turn that finds a new area: encounter checks begin again next turn."""
        return self.search_roll is not None and self.search_roll <= NEW_AREA_ON


@dataclass(frozen=True)
class ExitCheck:
    """One wandering-monster check on the way out."""

    roll: int
    monster: Find | None


@dataclass(frozen=True)
class Delve:
    """A whole pre-rolled delve: the turns, and the walk out once they are played."""

    turns: tuple
    light: str
    light_turns: int
    mapping: bool
    exit_checks: tuple  # ExitCheck, turns ÷ 2 of them
    still_lost_rolls: tuple  # d10 rolls, one a turn, until the way is found (when the delve ends lost)

    @property
    def lights_used(self) -> int:
        return self.turns[-1].light_number if self.turns else 0

    @property
    def deepest(self) -> int:
        return max((t.level for t in self.turns), default=1)
