"""Generated data as golden text: a few seeds' dungeon, characters, Paperogue levels, delve and domino maps as JSON.

A change to a generator, a table or the JSON shape shows up here, in review, without laying out a
page (the fast tier). The dungeon, Paperogue and character files are byte for byte what the
products write beside their PDFs. Regenerate after an intended change with UPDATE_GOLDEN=1.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pytest

from dungeonpress.dice import sub_rng
from dungeonpress.generate import delve, dunginoes, paperogue
from dungeonpress.generate.character import generate_character
from dungeonpress.generate.dungeon import generate_dungeon
from dungeonpress.generate.paperogue_character import generate_paperogue_character
from dungeonpress.products.dungeon import DEFAULT_ROOMS
from dungeonpress.views import data

GOLDEN = Path(__file__).parent / "golden"
VERSION = "golden"  # the characters file names the program version; fixed here so a release changes nothing


def _dungeon(content):
    return data.dungeon_data(generate_dungeon(content, sub_rng(7, "dungeon"), rooms=DEFAULT_ROOMS), seed=7)


def _characters(content):
    made = [generate_character(content, sub_rng(5, "character", "dungeoneer", str(n))) for n in (1, 2)]
    return data.characters_data("dungeoneer", 5, VERSION, made)


def _rogues(content):
    made = [generate_paperogue_character(content, sub_rng(5, "character", "paperogue", str(n))) for n in (1, 2)]
    return data.characters_data("paperogue", 5, VERSION, made)


def _paperogue(content):
    return data.paperogue_data(paperogue.generate_paperogue(content, sub_rng(3, "paperogue"), levels=3), 3)


def _delve(content):
    return dataclasses.asdict(delve.generate_delve(sub_rng(2, "delve"), content, turns=36, light="torch"))


def _domino_maps(content):
    specials = content.tables.get("dunginoes_specials")
    return {mode: dataclasses.asdict(dunginoes.generate_map(sub_rng(4, "dunginoes", "map", mode), 12, mode, specials))
            for mode in ("before", "fly")}


CASES = {"dungeon-7.json": _dungeon, "characters-5.json": _characters, "paperogue-characters-5.json": _rogues,
         "paperogue-3.json": _paperogue, "delve-2.json": _delve, "dunginoes-maps-4.json": _domino_maps}


@pytest.mark.parametrize("name", list(CASES))
def test_generated_data_matches_its_golden_text(content, name):
    made = data.encode_json(CASES[name](content))
    path = GOLDEN / name
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_bytes(made)
    assert made.decode("utf-8") == path.read_text(encoding="utf-8")
