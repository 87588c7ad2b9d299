"""model.dungeon: table rolls, chains, rooms and twists as data, and how each reads in one line."""

from __future__ import annotations

import pytest

from dungeonpress.dice import sub_rng
from dungeonpress.generate.dungeon import generate_dungeon
from dungeonpress.model.dungeon import Chain, TableRoll, Twist

ROLL = TableRoll(table="room_type", dice="2d6", value=9, fields=(("type", "Type", "Large chamber"),
                                                                  ("exits", "Exits", 3)))


def test_a_roll_reads_its_first_column_and_labels_itself_with_its_dice():
    assert ROLL.text == "Large chamber"
    assert ROLL.label == "2d6 = 9: Large chamber"
    assert ROLL.field("exits") == 3
    with pytest.raises(KeyError):
        ROLL.field("treasure")


def test_a_chain_ends_in_its_result():
    check = TableRoll(table="encounter_type", dice="2d6", value=4, fields=(("kind", "Kind", "Monster"),))
    chain = Chain(rolls=(check, ROLL))
    assert chain.result is ROLL and chain.table == "room_type" and chain.creature is None


def test_a_twist_reads_subject_then_action_in_lower_case():
    def twist_roll(value, subject, action):
        return TableRoll(table="twists", dice="d6", value=value,
                         fields=(("subject", "Subject", subject), ("action", "Action", action)))
    subject, action = twist_roll(2, "A rival", "X"), twist_roll(5, "Y", "Arrives Early")
    assert Twist(subject=subject, action=action).text == "A rival arrives early"


def test_a_generated_dungeons_rooms_by_number_and_their_exit_counts(content):
    dungeon = generate_dungeon(content, sub_rng(4, "dungeon"), rooms=8)
    assert [dungeon.room(n).number for n in range(1, len(dungeon.rooms) + 1)] == list(range(1, len(dungeon.rooms) + 1))
    for room in dungeon.rooms:
        assert room.exit_count == int(room.exits.field("exits")) >= 0
