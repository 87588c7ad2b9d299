"""views.data: generated things → plain JSON data in a stable shape, and its one encoding to bytes."""

from __future__ import annotations

import json

import pytest

from dungeonpress.dice import sub_rng
from dungeonpress.generate import paperogue
from dungeonpress.generate.character import generate_character
from dungeonpress.generate.dungeon import generate_dungeon
from dungeonpress.generate.paperogue_character import generate_paperogue_character
from dungeonpress.views import data

SEEDS = range(25)


def plain(value):
    """`value` as JSON reads it back: tuples (which dataclasses.asdict keeps) become lists."""
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    return value


def reads_back(made) -> bool:
    """The data encodes and reads back unchanged: only JSON values, string keys, nothing lost."""
    return json.loads(data.encode_json(made)) == plain(made)


def test_encode_json_is_readable_utf8_two_space_indent_and_a_final_newline():
    assert data.encode_json({"b": 1, "a": ["Yes, but…", None]}) == (
        '{\n  "b": 1,\n  "a": [\n    "Yes, but…",\n    null\n  ]\n}\n').encode("utf-8")


@pytest.fixture(scope="module")
def records(content):
    return [(seed, data.dungeon_data(generate_dungeon(content, sub_rng(seed, "dungeon"), rooms=8), seed=seed))
            for seed in SEEDS]


def test_dungeon_data_is_plain_json_that_reads_back_the_same(records):
    for seed, made in records:
        assert json.loads(data.encode_json(made)) == made  # no tuples, sets or objects hide in it (README shape)
        assert made["format"] == data.JSON_FORMAT and made["seed"] == seed


def test_dungeon_rooms_are_numbered_from_one_and_doors_lead_somewhere_real(records):
    for seed, made in records:
        ids = [room["id"] for room in made["rooms"]]
        assert ids == list(range(1, len(ids) + 1)), seed
        for room in made["rooms"]:
            for door in room["doors"]:
                assert door["to"] in ids or door["to"] in ("entrance", None), (seed, door)
        entrance = made["rooms"][made["entrance"] - 1]
        assert any(door["to"] == "entrance" for door in entrance["doors"])
        for a, b in made["connections"]:
            assert any(door["to"] == b for door in made["rooms"][a - 1]["doors"]), (seed, a, b)
            assert any(door["to"] == a for door in made["rooms"][b - 1]["doors"]), (seed, a, b)


def test_stairs_and_boss_are_flagged_on_their_own_room_only(records):
    for seed, made in records:
        assert [room["id"] for room in made["rooms"] if room["stairs"]] == [made["stairs"]], seed
        bosses = [room["id"] for room in made["rooms"] if room["boss"]]
        assert bosses == ([made["boss"]] if made["boss"] else []), seed


def test_every_roll_names_a_table_row_its_value_lands_on(content, records):
    for seed, made in records:
        rolls = [r for room in made["rooms"] for r in room["rolls"]] + [made["condition"]["roll"]]
        rolls += made["name_rolls"] + [r for twist in made["twists"] for r in twist["rolls"]]
        for roll in rolls:
            table = content.table(roll["table"])
            assert table.die == roll["dice"] and table.row_for(roll["value"]), (seed, roll)


def test_a_twists_rolls_carry_the_subject_and_the_action_they_picked(content, records):
    table = content.table("twist")
    twists = [twist for _, made in records for twist in made["twists"]]
    assert twists
    for twist in twists:
        subject, action = twist["rolls"]
        assert (subject["column"], action["column"]) == ("subject", "action")
        assert subject["result"] == twist["subject"] == table.row_for(subject["value"]).get("subject")
        assert action["result"] == twist["action"] == table.row_for(action["value"]).get("action")


def test_a_room_chain_reads_its_kind_then_its_result(records):
    chains = [room[key] for _, made in records for room in made["rooms"]
              for key in ("encounter", "trap", "treasure") if room[key]]
    assert chains
    for chain in chains:
        assert chain["rolls"][-1]["result"] == chain["result"] and chain["rolls"][-1]["table"] == chain["table"]
        assert chain["result"] in chain["fields"].values()


def test_pack_data_keeps_each_dungeons_own_seed(content):
    made = [(generate_dungeon(content, sub_rng(s, "dungeon"), rooms=6), s) for s in (3, 4)]
    pack = data.pack_data(9, 6, made)
    assert (pack["format"], pack["seed"], pack["rooms"]) == ("dungeonpress-pack/1", 9, 6)
    assert [d["seed"] for d in pack["dungeons"]] == [3, 4]
    assert pack["dungeons"][0] == data.dungeon_data(made[0][0], seed=3)


def test_characters_data_numbers_the_characters_and_names_the_generator(content):
    made = [generate_character(content, sub_rng(5, "c", str(n))) for n in (1, 2, 3)]
    sheet = data.characters_data("dungeoneer", 5, "1.2.3", made)
    assert list(sheet) == ["game", "seed", "count", "generator", "characters"]
    assert (sheet["game"], sheet["count"], sheet["generator"]) == ("dungeoneer", 3, "dungeonpress 1.2.3")
    assert [c["number"] for c in sheet["characters"]] == [1, 2, 3]
    assert [c["name"] for c in sheet["characters"]] == [c.name for c in made]
    assert reads_back(sheet)


def test_a_paperogue_character_record_turns_pairs_and_dice_into_objects(content):
    for seed in SEEDS:
        character = generate_paperogue_character(content, sub_rng(seed, "rogue"))
        record = data.character_record(character)
        assert record["rolls"] == dict(character.rolls) and record["scores"] == dict(character.scores)
        assert record["swap"] == (list(character.swap) if character.swap else None)
        for item in record["items"]:
            assert all(set(die) == {"dice", "results"} for die in item["dice"])
        assert reads_back(record)


def test_paperogue_data_leads_with_the_game_and_seed_and_spells_out_readings(content):
    dungeon = paperogue.generate_paperogue(content, sub_rng(3, "paperogue"), levels=2)
    made = data.paperogue_data(dungeon, 3)
    assert list(made)[:2] == ["game", "seed"] and (made["game"], made["seed"]) == ("Paperogue", 3)
    assert made["readings"] == [{"topic": t, "reading": r} for t, r in dungeon.readings]
    assert reads_back(made)
