"""model.oracle: one consultation as data, and the dice it keeps."""

from __future__ import annotations

import pytest

from dungeonpress.model.oracle import OracleRoll


@pytest.mark.parametrize("chance, risk, kept", [((4,), (2,), (4, 2)), ((1, 6), (3,), (6, 3)), ((2,), (5, 1), (2, 5))])
def test_kept_is_the_highest_die_of_each_colour(chance, risk, kept):
    assert OracleRoll(chance=chance, risk=risk, answer="Yes", double=False).kept == kept


def test_a_roll_is_frozen_and_compares_by_value():
    roll = OracleRoll(chance=(3,), risk=(3,), answer="Yes, but…", double=True)
    assert roll == OracleRoll(chance=(3,), risk=(3,), answer="Yes, but…", double=True)
    with pytest.raises(AttributeError):
        roll.answer = "No"
