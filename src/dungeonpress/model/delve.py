"""A pre-rolled solo delve as data: turns, appendix finds and the walk out."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Find:
    """One appendix result, already resolved: which appendix, the roll, a headline and detail lines."""

    appendix: str
    roll: int
    text: str
    details: tuple = ()


@dataclass(frozen=True)
class Turn:
    """One turn of the delve, every roll made; None means the roll was not due this turn."""

    number: int
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

    @property
    def light_out(self) -> bool:
        return self.light_left == 0


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

