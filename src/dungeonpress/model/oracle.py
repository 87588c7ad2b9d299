"""One oracle consultation as data: the Chance and Risk dice, the answer, and whether it was a double."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class OracleRoll:
    """One consultation: the dice as rolled, the dice kept, the answer, and whether it was a double."""

    chance: tuple
    risk: tuple
    answer: str
    double: bool

    @property
    def kept(self) -> tuple[int, int]:
        return max(self.chance), max(self.risk)

