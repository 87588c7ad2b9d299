"""generate.delve: a seeded Random and the solo-turn tables → a pre-rolled delve that follows the post's schedule."""

from __future__ import annotations

import random

import pytest

from dungeonpress.generate import delve
from dungeonpress.model import Row
from tests.conftest import slow_fixture

SEEDS = range(40)


@pytest.fixture(scope="module")
@slow_fixture
def delves(content):
    out = []
    for seed in SEEDS:
        for mapping in (True, False):
            light = delve.LIGHTS[seed % 3]
            out.append(delve.generate_delve(random.Random(seed), content, turns=48, light=light, mapping=mapping))
    return out


@pytest.mark.slow
def test_wandering_checks_only_on_even_turns(delves):
    for rolled in delves:
        every = 2 if rolled.mapping else 4  # half as often when not mapping
        for turn in rolled.turns:
            # a rest turn keeps its wandering check even when not mapping (turns 6, 18, 30…)
            assert (turn.wandering_roll is not None) == (turn.number % every == 0 or turn.number % 6 == 0)
            assert turn.number % 2 == 0 or turn.wandering_roll is None
            assert (turn.wandering is not None) == (turn.wandering_roll == 1)


def test_rest_every_sixth_turn_without_encounter_check(delves):
    for rolled in delves:
        for turn in rolled.turns:
            assert turn.rest == (turn.number % 6 == 0)
            if turn.rest or turn.wandering:  # a wanderer takes the whole turn
                assert turn.encounter_roll is None and not turn.finds
            else:
                assert 1 <= turn.encounter_roll <= 20 and turn.encounter


def test_encounter_results_are_resolved_on_their_appendices(delves, content):
    table = content.table(delve.ENCOUNTER_TABLE)
    for rolled in delves:
        for turn in rolled.turns:
            if turn.encounter_roll is None:
                continue
            row = table.row_for(turn.encounter_roll)
            assert [f.appendix for f in turn.finds] == delve.appendix_letters(row)
            for find in turn.finds:
                assert find.text.strip()
                assert content.table(delve.APPENDICES[find.appendix]).row_for(find.roll)


def test_light_burns_down(delves):
    for rolled in delves:
        for turn in rolled.turns:
            assert turn.light_out == (turn.number % rolled.light_turns == 0)
            assert 0 <= turn.light_left < rolled.light_turns


def test_lost_only_without_a_map_and_leaving_costs_half_the_turns(delves):
    for rolled in delves:
        lost = False
        for turn in rolled.turns:
            if rolled.mapping:
                assert turn.lost_roll is None and not turn.lost
            assert (turn.leave_checks is None) == lost  # no leaving while lost
            if not lost:
                assert turn.leave_checks == (turn.number - 1) // 2
            assert turn.got_lost == (not lost and turn.lost)
            assert turn.found_way == (lost and not turn.lost)
            lost = turn.lost
        assert len(rolled.exit_checks) == len(rolled.turns) // 2
        assert bool(rolled.still_lost_rolls) == lost
        assert all((c.monster is not None) == (c.roll == 1) for c in rolled.exit_checks)
    assert any(t.got_lost for r in delves for t in r.turns)


def test_wandering_monsters_carry_no_treasure(delves):
    for rolled in delves:
        for turn in rolled.turns:
            if turn.wandering:
                assert not any(d.startswith("Carries") for d in turn.wandering.details)


@pytest.mark.parametrize("spec, low, high", [("3d6 × 10", 30, 180), ("2d4", 2, 8), ("1d6+1", 2, 7), ("1", 1, 1), (4, 4, 4)])
def test_amounts(spec, low, high):
    rng = random.Random(1)
    for _ in range(50):
        assert low <= delve.roll_amount(rng, spec) <= high
    assert delve.roll_amount(rng, "—") == "—"


def test_same_seed_same_delve(content):
    first = delve.generate_delve(random.Random(5), content, turns=20, mapping=False)
    assert first == delve.generate_delve(random.Random(5), content, turns=20, mapping=False)
    assert first != delve.generate_delve(random.Random(6), content, turns=20, mapping=False)


@pytest.mark.parametrize("turn, mapping, due", [
    (1, True, False), (2, True, True), (3, True, False), (4, True, True),
    (2, False, False), (4, False, True), (6, False, True), (10, False, False), (12, False, True), (18, False, True),
])
def test_wandering_due_every_second_turn_or_fourth_without_a_map_and_on_rests(turn, mapping, due):
    assert delve.wandering_due(turn, mapping) is due


def test_rest_due_every_sixth_turn():
    assert [t for t in range(1, 25) if delve.rest_due(t)] == [6, 12, 18, 24]


def test_light_duration_reads_the_light_table(content):
    table = content.table(delve.LIGHT_TABLE)
    for light in delve.LIGHTS:
        row = next(r for r in table.rows if str(r.get("light")).lower() == light)
        assert delve.light_duration(content, light) == int(row.get("turns")) > 0
    with pytest.raises(KeyError, match="no row for light 'glowworm'"):
        delve.light_duration(content, "glowworm")


@pytest.mark.parametrize("appendix, letters", [("A, D", ["A", "D"]), ("B", ["B"]), ("—", []), ("C,F", ["C", "F"]),
                                               ("A, Z", ["A"])])
def test_appendix_letters_keeps_the_appendices_a_row_names(appendix, letters):
    row = Row(low=1, high=1, values=(("result", "x"), ("appendix", appendix)))
    assert delve.appendix_letters(row) == letters


def test_roll_amount_multiplies_and_adds_as_written():
    rng = random.Random(3)
    tens = {delve.roll_amount(rng, "1d6 x 10") for _ in range(200)}
    assert tens == {10, 20, 30, 40, 50, 60}
    assert {delve.roll_amount(rng, "d4") for _ in range(200)} == {1, 2, 3, 4}
    assert delve.roll_amount(rng, "12") == 12 and delve.roll_amount(rng, "many") == "many"


def test_a_short_delve_by_candle_burns_several_candles(content):
    lasts = delve.light_duration(content, "candle")
    rolled = delve.generate_delve(random.Random(1), content, turns=lasts * 3, light="candle")
    assert rolled.light_turns == lasts and rolled.lights_used == 3
    assert [t.number for t in rolled.turns if t.light_out] == [lasts, 2 * lasts, 3 * lasts]
