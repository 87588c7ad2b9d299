"""model.delve: a pre-rolled delve as data; when a light goes out and how many were burnt."""

from __future__ import annotations

from dungeonpress.model.delve import Delve, Turn


def turn(number: int, light_number: int, left: int, *, level: int = 1, search_roll=None) -> Turn:
    return Turn(number=number, level=level, activity="explore", search_roll=search_roll, wandering_roll=None, wandering=None, rest=False, encounter_roll=None, encounter="",
                finds=(), light_number=light_number, light_left=left, lost_roll=None, lost=False, got_lost=False,
                found_way=False, leave_checks=0)


def test_a_light_is_out_when_it_has_no_turns_left():
    assert turn(3, 1, 0).light_out and not turn(2, 1, 1).light_out


def test_lights_used_is_the_last_turns_light_and_none_for_no_turns():
    turns = (turn(1, 1, 1), turn(2, 1, 0), turn(3, 2, 1))
    assert Delve(turns=turns, light="candle", light_turns=2, mapping=True, exit_checks=(),
                 still_lost_rolls=()).lights_used == 2
    assert Delve(turns=(), light="torch", light_turns=6, mapping=True, exit_checks=(),
                 still_lost_rolls=()).lights_used == 0


def test_a_backtracking_turn_finds_a_new_area_on_one_or_two():
    assert [turn(1, 1, 1, search_roll=r).found_area for r in range(1, 7)] == [True, True, False, False, False, False]
    assert not turn(1, 1, 1).found_area  # no search roll: not backtracking


def test_the_deepest_level_is_the_lowest_one_a_turn_was_spent_on():
    turns = (turn(1, 1, 1), turn(2, 1, 0, level=3), turn(3, 2, 1, level=2))
    assert Delve(turns=turns, light="torch", light_turns=6, mapping=True, exit_checks=(),
                 still_lost_rolls=()).deepest == 3
