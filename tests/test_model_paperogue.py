"""model.paperogue: levels, rooms and rogues as data; a room's exit by wall, rooms by number, a rogue's scores."""

from __future__ import annotations

from dungeonpress.dice import sub_rng
from dungeonpress.generate import paperogue
from dungeonpress.generate.paperogue_character import generate_paperogue_character


def test_a_rooms_exit_by_wall_and_none_where_it_has_no_door(content):
    level = paperogue.generate_paperogue(content, sub_rng(6, "paperogue"), levels=1).levels[0]
    for room in level.rooms:
        walls = {door.direction: door for door in room.exits}
        for direction in paperogue.ORDER:
            assert room.exit(direction) is walls.get(direction)
    assert level.room_count == len(level.rooms)
    assert [level.room(n).number for n in range(1, level.room_count + 1)] == list(range(1, level.room_count + 1))


def test_a_rogue_is_nameless_and_scores_by_stat(content):
    rogue = generate_paperogue_character(content, sub_rng(6, "rogue"))
    assert rogue.name == ""
    for stat, roll in rogue.scores:
        assert rogue.score(stat) == roll
    assert rogue.strength == rogue.score("STR") and rogue.intelligence == rogue.score("INT")
    assert rogue.hp == rogue.score("HP") + rogue.score("STR") and rogue.mp == rogue.score("MP") + rogue.score("INT")
