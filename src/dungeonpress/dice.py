"""Dice notation and table lookup (d6, 2d6, d66, d20) from one seeded Random.

Every roll derives only from `random.Random.random()`, the one method whose output Python
promises to keep stable across versions, so a seed gives the same dungeon on any Python.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

# The dice a table may declare, and the keys its rows must cover.
DICE_NAMES = ("d4", "d6", "d8", "d10", "d12", "d20", "2d6", "d66", "d100", "none")

_SIMPLE = re.compile(r"^d(\d+)$")


@dataclass(frozen=True)
class DiceSpec:
    """A kind of roll: `d6`, `2d6`, `d66`…, and the results it can give."""

    name: str

    @property
    def results(self) -> tuple[int, ...]:
        """Every possible result, in order (d66: 11..16, 21..26, …, 66)."""
        if self.name == "d66":
            return tuple(10 * a + b for a in range(1, 7) for b in range(1, 7))
        if self.name == "2d6":
            return tuple(range(2, 13))
        match = _SIMPLE.match(self.name)
        if match:
            return tuple(range(1, int(match.group(1)) + 1))
        return ()

    @property
    def allows_ranges(self) -> bool:
        """d66 results are two digits read apart, so `11-16` would be ambiguous: no ranges there."""
        return self.name not in ("d66", "none")

    def roll(self, rng: random.Random) -> int:
        """Roll this die the way a player would (2d6 is a sum, d66 is tens and units)."""
        if self.name == "d66":
            return 10 * d(rng, 6) + d(rng, 6)
        if self.name == "2d6":
            return d(rng, 6) + d(rng, 6)
        match = _SIMPLE.match(self.name)
        if not match:
            raise ValueError(f"cannot roll {self.name!r}")
        return d(rng, int(match.group(1)))


def d(rng: random.Random, sides: int) -> int:
    """One fair die of `sides` faces, 1..sides, from `rng.random()` alone."""
    return int(rng.random() * sides) + 1


def dice(rng: random.Random, count: int, sides: int) -> list[int]:
    """`count` dice of `sides` faces, in the order rolled."""
    return [d(rng, sides) for _ in range(count)]


def pick(rng: random.Random, items):
    """One item of a non-empty sequence, uniformly (our stable stand-in for `rng.choice`)."""
    return items[int(rng.random() * len(items))]


def shuffled(rng: random.Random, items) -> list:
    """A shuffled copy (Fisher-Yates on `rng.random()`, stable across Python versions)."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        out[i], out[j] = out[j], out[i]
    return out


def roll_on(rng: random.Random, table):
    """Roll `table`'s die and return `(result, row)`; validation has checked every result has a row."""
    result = DiceSpec(table.die).roll(rng)
    return result, table.row_for(result)


def sub_rng(seed: int | str, *path: str) -> random.Random:
    """A stream of its own for one sub-generator, so adding a roll elsewhere changes nothing here."""
    return random.Random("/".join([str(seed), *path]))
