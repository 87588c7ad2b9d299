"""Resolve oracle rolls (Chance vs Risk dice) and enumerate their exact odds as fractions."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

from dungeonpress.dice import d
from dungeonpress.model.oracle import OracleRoll

YES_AND, YES, YES_BUT = "Yes, and…", "Yes", "Yes, but…"
NO_AND, NO, NO_BUT = "No, and…", "No", "No, but…"
ANSWERS = (YES_AND, YES, YES_BUT, NO_BUT, NO, NO_AND)
DOUBLE = "double"  # equal dice: read as "Yes, but…", and the twist counter goes up by one
MODES = ("plain", "advantage", "disadvantage")
HARM = {YES_AND: "Cause 3", YES: "Cause 2", YES_BUT: "Cause 1", NO_BUT: "Take 1", NO: "Take 2", NO_AND: "Take 3"}
TWIST_AT = 3


def resolve(chance: int, risk: int) -> tuple[str, bool]:
    """The answer for the kept Chance and Risk dice, and whether they were a double.

    Equal dice read as "Yes, but…" and add a point to the twist counter (this book's reading
    of the seed, which elsewhere says "Yes, and…" for doubles).
    """
    if chance == risk:
        return YES_BUT, True
    low, high = chance <= 3 and risk <= 3, chance >= 4 and risk >= 4
    if chance > risk:
        return (YES_BUT if low else YES_AND if high else YES), False
    return (NO_BUT if low else NO_AND if high else NO), False


def dice_for(mode: str) -> tuple[int, int]:
    """How many Chance and Risk dice a mode rolls (keep the highest of each colour)."""
    return {"plain": (1, 1), "advantage": (2, 1), "disadvantage": (1, 2)}[mode]


def roll_oracle(rng: random.Random, mode: str = "plain") -> OracleRoll:
    chances, risks = dice_for(mode)
    chance = tuple(d(rng, 6) for _ in range(chances))
    risk = tuple(d(rng, 6) for _ in range(risks))
    answer, double = resolve(max(chance), max(risk))
    return OracleRoll(chance=chance, risk=risk, answer=answer, double=double)


def oracle_odds(mode: str) -> dict[str, Fraction]:
    """Exact probability of each answer, with doubles counted apart under DOUBLE (by enumeration)."""
    chances, risks = dice_for(mode)
    counts = {answer: 0 for answer in (*ANSWERS, DOUBLE)}
    total = 0
    for faces in itertools.product(range(1, 7), repeat=chances + risks):
        answer, double = resolve(max(faces[:chances]), max(faces[chances:]))
        counts[DOUBLE if double else answer] += 1
        total += 1
    return {answer: Fraction(count, total) for answer, count in counts.items()}


def harm_odds(mode: str) -> dict[str, Fraction]:
    """Exact probability of each Harm & Luck result; a double reads "Yes, but…" (Cause 1), no twist."""
    odds = oracle_odds(mode)
    out = {HARM[answer]: odds[answer] for answer in ANSWERS}
    out[HARM[YES_BUT]] += odds[DOUBLE]
    return out


def expected_harm(mode: str) -> tuple[Fraction, Fraction]:
    """Average Luck the opponent loses and the protagonist loses per exchange."""
    odds = harm_odds(mode)
    dealt = sum(int(k.split()[1]) * p for k, p in odds.items() if k.startswith("Cause"))
    taken = sum(int(k.split()[1]) * p for k, p in odds.items() if k.startswith("Take"))
    return dealt, taken


def fight_odds(mode: str, luck: int, foe_luck: int = 6) -> tuple[Fraction, Fraction]:
    """A Harm & Luck conflict rolled in `mode` every exchange, from `luck` against `foe_luck`: the exact chance the
    foe's Luck reaches 0 first, and the average number of exchanges it lasts (each exchange takes Luck from one side
    by the harm table; a side at 0 or below has lost)."""
    odds = [(int(result.split()[1]), result.startswith("Cause"), p) for result, p in harm_odds(mode).items()]
    states = {}  # (luck, foe's luck) -> (chance of winning, exchanges expected)
    for total in range(2, luck + foe_luck + 1):  # fewer Luck in all before more: every exchange lowers the total
        for mine in range(1, total):
            theirs = total - mine
            win, exchanges = Fraction(0), Fraction(1)
            for harm, caused, p in odds:
                after = (mine, theirs - harm) if caused else (mine - harm, theirs)
                if after[1] <= 0:
                    win += p
                elif after[0] > 0:
                    win += p * states[after][0]
                    exchanges += p * states[after][1]
            states[mine, theirs] = (win, exchanges)
    return states[luck, foe_luck]


def percent(value: Fraction) -> str:
    """A probability as a percentage with one decimal, rounded half up: 5/36 → '13.9%'."""
    tenths = (value * 1000 + Fraction(1, 2)).__floor__()
    return f"{tenths // 10}.{tenths % 10}%"
