"""model.delve: a pre-rolled delve as data; when a light goes out and how many were burnt."""

from __future__ import annotations

from dungeonpress.model.delve import Delve, Turn


def turn(number: int, light_number: int, left: int) -> Turn:
    return Turn(number=number, wandering_roll=None, wandering=None, rest=False, encounter_roll=None, encounter="",
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
