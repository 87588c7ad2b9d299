"""generate.oracle: Chance against Risk dice → answers, doubles, and the exact odds of each way of rolling."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction

import pytest

from dungeonpress.generate import oracle


@pytest.mark.parametrize("chance, risk, answer, double", [
    (5, 4, "Yes, and…", False), (6, 2, "Yes", False), (3, 1, "Yes, but…", False),
    (2, 3, "No, but…", False), (1, 5, "No", False), (4, 6, "No, and…", False),
    (4, 4, "Yes, but…", True), (1, 1, "Yes, but…", True),
])
def test_oracle_resolution(chance, risk, answer, double):
    assert oracle.resolve(chance, risk) == (answer, double)


def _independent_odds(chances: int, risks: int) -> dict:
    """The rules written out again from the book, counted over every face combination."""
    counts = Counter()
    faces = list(itertools.product(range(1, 7), repeat=chances + risks))
    for roll in faces:
        c, r = max(roll[:chances]), max(roll[chances:])
        if c == r:
            counts["double"] += 1
            continue
        word = "Yes" if c > r else "No"
        if c < 4 and r < 4:
            word += ", but…"
        elif c > 3 and r > 3:
            word += ", and…"
        counts[word] += 1
    return {k: Fraction(v, len(faces)) for k, v in counts.items()}


@pytest.mark.parametrize("mode, dice_count", [("plain", (1, 1)), ("advantage", (2, 1)), ("disadvantage", (1, 2))])
def test_odds_match_an_independent_enumeration(mode, dice_count):
    assert oracle.oracle_odds(mode) == _independent_odds(*dice_count)
    assert sum(oracle.oracle_odds(mode).values()) == 1


def test_known_plain_odds():
    odds = oracle.oracle_odds("plain")
    assert odds["Yes"] == Fraction(1, 4) and odds["Yes, and…"] == Fraction(1, 12) and odds["double"] == Fraction(1, 6)
    assert oracle.percent(odds["Yes, and…"]) == "8.3%"
    assert oracle.percent(oracle.oracle_odds("advantage")["Yes, and…"]) == "14.4%"


def test_harm_odds_count_doubles_as_cause_one():
    harm = oracle.harm_odds("plain")
    assert harm["Cause 1"] == Fraction(3, 36) + Fraction(6, 36)
    assert sum(harm.values()) == 1
    assert oracle.expected_harm("plain") == (Fraction(1), Fraction(30, 36))


@pytest.mark.parametrize("mode, chances, risks", [("plain", 1, 1), ("advantage", 2, 1), ("disadvantage", 1, 2)])
def test_roll_oracle_keeps_the_highest_of_each_colour(mode, chances, risks):
    rng = random.Random(9)
    for _ in range(300):
        roll = oracle.roll_oracle(rng, mode)
        assert (len(roll.chance), len(roll.risk)) == (chances, risks)
        assert all(1 <= face <= 6 for face in roll.chance + roll.risk)
        assert roll.kept == (max(roll.chance), max(roll.risk))
        assert (roll.answer, roll.double) == oracle.resolve(*roll.kept)


def test_roll_oracle_is_seeded_and_follows_the_odds():
    rolls = [oracle.roll_oracle(random.Random(seed)) for seed in range(50)]
    assert rolls == [oracle.roll_oracle(random.Random(seed)) for seed in range(50)]
    rng = random.Random(2)
    seen = Counter(oracle.roll_oracle(rng, "advantage").answer for _ in range(6000))
    assert set(seen) == set(oracle.ANSWERS)
    odds = oracle.oracle_odds("advantage")
    # the answer "Yes, but…" also takes the doubles
    assert abs(seen[oracle.YES_BUT] / 6000 - float(odds[oracle.YES_BUT] + odds[oracle.DOUBLE])) < 0.03
    assert abs(seen[oracle.NO_AND] / 6000 - float(odds[oracle.NO_AND])) < 0.03


def test_advantage_raises_the_chance_of_yes_and_disadvantage_lowers_it():
    def yes(mode):
        odds = oracle.oracle_odds(mode)
        return sum(odds[a] for a in (oracle.YES_AND, oracle.YES, oracle.YES_BUT, oracle.DOUBLE))
    assert yes("disadvantage") < yes("plain") < yes("advantage")
    dealt, taken = oracle.expected_harm("advantage")
    assert dealt > oracle.expected_harm("plain")[0] and taken < oracle.expected_harm("plain")[1]


@pytest.mark.parametrize("value, text", [
    (Fraction(5, 36), "13.9%"), (Fraction(1, 4), "25.0%"), (Fraction(1), "100.0%"), (Fraction(0), "0.0%"),
    (Fraction(1, 2000), "0.1%"), (Fraction(1, 2001), "0.0%"), (Fraction(1, 6), "16.7%"),
])
def test_percent_rounds_half_up_to_one_decimal(value, text):
    assert oracle.percent(value) == text


def _fight_by_play(mode: str, luck: int, foe_luck: int, rng) -> tuple[bool, int]:
    """One Harm & Luck conflict played out with real dice, as the rules tell it: (won, exchanges)."""
    exchanges = 0
    while luck > 0 and foe_luck > 0:
        result = oracle.HARM[oracle.roll_oracle(rng, mode).answer]
        harm = int(result.split()[1])
        if result.startswith("Cause"):
            foe_luck -= harm
        else:
            luck -= harm
        exchanges += 1
    return foe_luck <= 0, exchanges


def test_fight_odds_are_exact_where_they_can_be_counted_by_hand():
    one = oracle.fight_odds("plain", 1, 1)
    assert one == (sum(p for k, p in oracle.harm_odds("plain").items() if k.startswith("Cause")), 1)  # one exchange
    # at 2 against 1 you lose only to a Take 2 or 3 now, or a Take 1 and then a loss at 1 against 1
    odds = oracle.harm_odds("plain")
    lose_now = odds["Take 2"] + odds["Take 3"]
    assert oracle.fight_odds("plain", 2, 1)[0] == 1 - lose_now - odds["Take 1"] * (1 - one[0])


def test_fight_odds_rise_with_luck_and_advantage_and_agree_with_fights_played_out():
    import random
    for mode in oracle.MODES:
        chances = [oracle.fight_odds(mode, luck)[0] for luck in (3, 4, 5, 6)]
        assert chances == sorted(chances) and all(0 < c < 1 for c in chances)
    assert oracle.fight_odds("disadvantage", 6)[0] < oracle.fight_odds("plain", 6)[0] < oracle.fight_odds("advantage", 6)[0]
    rng = random.Random(2024)
    played = [_fight_by_play("plain", 6, 6, rng) for _ in range(4000)]
    won = sum(w for w, _ in played) / len(played)
    lasted = sum(n for _, n in played) / len(played)
    exact, exchanges = oracle.fight_odds("plain", 6)
    assert abs(won - float(exact)) < 0.03 and abs(lasted - float(exchanges)) < 0.15  # four standard errors or more
