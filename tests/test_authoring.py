"""For pack authors: new-pack, the tables listing, JSON Schemas, and what the validator says about a pack."""

from __future__ import annotations

import dataclasses
import json
import random

import jsonschema
import pytest

from dungeonpress import authoring, build, load, resources
from dungeonpress.dice import DICE_NAMES
from dungeonpress.errors import ContentErrors
from dungeonpress.generate.character import generate_character
from dungeonpress.generate.dungeon import generate_dungeon
from tests.conftest import RecordingTables, run_cli as run

MOOD = """\
id: mood
title: Mood
die: d6
source: {source}
columns: {{mood: Mood}}
rows: {{1: Grim, 2: Tense, 3: Quiet, 4: Calm, 5: Odd, 6: Wild}}
"""


def schema(kind: str) -> dict:
    return json.loads((resources.data_dir("schema") / f"{kind}.schema.json").read_text())


def test_the_table_schema_offers_every_map_mark_the_validator_takes():
    # An editor checks a pack against the schema as it is typed; a mark the tool draws must not be flagged there.
    from dungeonpress.model import MAP_MARKS
    found = []

    def walk(node):
        if isinstance(node, dict):
            if isinstance(node.get("properties"), dict) and "marks" in node["properties"]:
                found.append(node["properties"]["marks"]["items"]["enum"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(schema("table"))
    assert len(found) == 4 and all(marks == list(MAP_MARKS) for marks in found)


def as_json(path):
    """A YAML file as an editor's YAML language server sees it (keys are text)."""
    return json.loads(json.dumps(load.load_yaml(path)))


def kind_of(path) -> str:
    return "table" if path.parent.name == "tables" else path.stem


# --- new-pack --------------------------------------------------------------------------------

def test_new_pack_validates_and_says_what_it_replaces(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert run("new-pack", "my-pack")[0] == 0
    code, out, err = run("validate", "--content", "my-pack")
    assert code == 0, err
    assert err == ""  # nothing the starter pack holds is passed over
    lines = out.splitlines()
    assert lines[0].startswith("my-pack/tables/environmental_conditions.yaml:4: replaces built-in table "
                               "'environmental_conditions' (")
    assert lines[1] == "my-pack/bestiary.yaml:5: replaces creature 11 'Larder Rat Swarm'"
    assert lines[2] == "my-pack/bestiary.yaml:17: replaces creature 12 'Wickwing Moths'"
    assert lines[3].startswith("my-pack/book.yaml:1: replaces the built-in book (")
    assert lines[4].startswith("content ok: ") and lines[4].endswith(", 36 creatures, 1 chapters")


def test_new_pack_has_a_table_of_each_die_a_chapter_and_two_creatures(tmp_path):
    authoring.write_new_pack(tmp_path / "p")
    raw = load.load_content([tmp_path / "p"])
    dice = {data["die"] for _, _, data in raw.packs[0].tables}
    assert dice == set(DICE_NAMES) - {"none"}
    assert len(raw.packs[0].bestiary[1]["creatures"]) == 2
    assert raw.packs[0].book[1]["chapters"] == ["chapters/01-my-pack.md"]


def test_new_pack_files_match_their_schemas(tmp_path):
    authoring.write_new_pack(tmp_path / "p")
    files = sorted((tmp_path / "p").rglob("*.yaml"))
    assert len(files) == 11  # nine tables, the bestiary, the book
    for path in files:
        jsonschema.validate(as_json(path), schema(kind_of(path)))
        first = path.read_text().splitlines()[0]
        target = first.removeprefix("# yaml-language-server: $schema=")
        assert (path.parent / target).is_file(), first  # the editor finds the schema it names


def test_new_pack_refuses_a_folder_with_files(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "notes.txt").write_text("mine")
    assert run("new-pack", "taken") == (2, "", "error: taken already exists and is not empty (choose a new folder)\n")


def test_a_dungeon_rolls_on_the_new_packs_table(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    authoring.write_new_pack(tmp_path / "my-pack")
    code, _, err = run("dungeon", "--seed", "5", "--format", "json", "--content", "my-pack", "--quiet")
    assert code == 0, err
    condition = json.loads((tmp_path / "build" / "dungeon-5-my-pack.json").read_text())["condition"]["tag"]
    assert condition in (tmp_path / "my-pack" / "tables" / "environmental_conditions.yaml").read_text()


# --- schemas ---------------------------------------------------------------------------------

@pytest.mark.slow  # reads every content file against its JSON schema
def test_every_built_in_content_file_matches_its_schema():
    files = [p for p in sorted(build.CONTENT_DIR.rglob("*.yaml"))]
    assert len(files) > 90
    for path in files:
        jsonschema.validate(as_json(path), schema(kind_of(path)))


@pytest.mark.parametrize("mistake", [{"dice": "d6"}, {"die": "d7"}, {"id": "Bad Id"}])
def test_the_table_schema_catches_what_the_validator_catches(mistake):
    table = {"id": "mood", "title": "Mood", "die": "d6", "source": "core", "columns": {"mood": "Mood"},
             "rows": {"1-6": "Grim"}} | mistake
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(table, schema("table"))


# --- what the validator says -----------------------------------------------------------------

def test_every_ignored_file_is_a_warning(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    pack = tmp_path / "packs" / "mine"
    for name in ("tables/mood.yaml", "tables/loot.yml", "tables/old/mood.yaml", "tables/mood.json",
                 "creatures.yaml", "rules/mood.yaml"):
        (pack / name).parent.mkdir(parents=True, exist_ok=True)
        (pack / name).write_text(MOOD.format(source="Me").replace("mood", "extra_mood") if name != "tables/mood.yaml"
                                 else MOOD.format(source="Me"))
    (tmp_path / "packs" / "stray.yaml").write_text("id: stray\n")
    (tmp_path / "packs" / "loose").mkdir()
    (tmp_path / "packs" / "loose" / "mood.yaml").write_text("id: loose\n")
    (pack / ".hidden.yaml").write_text("not content")
    (pack / "README.md").write_text("# about")
    code, out, err = run("validate", "--content", "packs")
    assert code == 0
    assert err.splitlines() == [
        "warning: packs/loose:1: not read: not a pack (a pack has tables/, bestiary.yaml, media.yaml or book.yaml)",
        "warning: packs/stray.yaml:1: not read: a table goes in <pack>/tables/stray.yaml",
        "warning: packs/mine/creatures.yaml:1: not read: unknown kind of file (expected tables/<id>.yaml, "
        "bestiary.yaml, media.yaml, book.yaml)",
        "warning: packs/mine/rules/mood.yaml:1: not read: tables go in mine/tables/ (bestiary.yaml, media.yaml, "
        "book.yaml directly in mine/)",
        "warning: packs/mine/tables/loot.yml:1: not read: content files end in .yaml, not .yml (rename it)",
        "warning: packs/mine/tables/mood.json:1: not read: tables/ holds one table per .yaml file",
        "warning: packs/mine/tables/old/mood.yaml:1: not read: tables go directly in tables/, not in a sub-folder",
    ]
    assert out.splitlines()[-1].endswith(", 7 warnings")


def test_built_in_content_reads_every_file(content):
    assert content.warnings == ()
    assert content.notes == ()


def test_a_third_party_pack_credits_itself(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine" / "tables").mkdir(parents=True)
    (tmp_path / "mine" / "tables" / "mood.yaml").write_text(MOOD.format(source="Jane Doe (CC BY 4.0)"))
    content = build.load_content([tmp_path / "mine"])
    assert content.table("mood").origin == "Jane Doe (CC BY 4.0)"
    (tmp_path / "mine" / "tables" / "mood.yaml").write_text(MOOD.format(source="x" * 81))
    with pytest.raises(ContentErrors) as caught:
        build.load_content([tmp_path / "mine"])
    assert [str(e) for e in caught.value.errors] == [
        "mine/tables/mood.yaml:4: table 'mood' needs 'source': who made it, one line of at most 80 characters "
        f"(got {'x' * 81!r})"]


def test_built_in_packs_still_name_a_known_source(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine" / "tables").mkdir(parents=True)
    (tmp_path / "mine" / "tables" / "mood.yaml").write_text(MOOD.format(source="Jane Doe"))
    from dungeonpress import validate
    with pytest.raises(ContentErrors) as caught:
        validate.validate_content(load.load_content([tmp_path / "mine"]))
    assert "has source 'Jane Doe' (expected one of core, " in str(caught.value.errors[0])


# --- tables ----------------------------------------------------------------------------------

@pytest.mark.slow  # loads and lists the whole content through the CLI
def test_tables_lists_every_table_with_die_pack_and_users():
    code, out, _ = run("tables")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split() == ["id", "die", "title", "pack", "used", "by"]
    listed = {line.split()[0]: line for line in lines[1:-1]}
    content = build.load_content()
    assert set(listed) == set(content.tables)
    room = listed["room_type"].split()
    assert room[:2] == ["room_type", "2d6"] and "dungeoneer" in room and "dungeon" in listed["room_type"]
    assert listed["solo_light"].rstrip().endswith("delve")
    assert lines[-1] == f"{len(content.tables)} tables; `build tables` and `export tables` show every one"


@pytest.mark.slow  # rolls 40 seeds of each generator
@pytest.mark.parametrize("command, generate", [("dungeon", generate_dungeon), ("character", generate_character)])
def test_tables_listing_names_every_table_a_generator_reads(content, command, generate):
    recording = RecordingTables(content.tables)
    watched = dataclasses.replace(content, tables=recording)
    for seed in range(40):
        generate(watched, random.Random(seed))
    used = authoring.tables_by_product(content, build.commands())
    assert recording.read, "the generator read no table: the recording is broken"
    assert {t for t in recording.read if command not in used[t]} == set()


@pytest.mark.slow  # every export of a pack
def test_a_third_party_credit_goes_through_every_export(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine" / "tables").mkdir(parents=True)
    (tmp_path / "mine" / "tables" / "mood.yaml").write_text(MOOD.format(source="Jane Doe (CC BY 4.0)"))
    for fmt in ("json", "csv", "foundry", "datasworn"):
        code, _, err = run("export", "tables", "--format", fmt, "--table", "mood", "--content", "mine", "--quiet")
        assert code == 0, f"{fmt}: {err}"
    exported = json.loads((tmp_path / "build" / "exports-mine" / "json" / "mood.json").read_text())
    assert "Jane Doe (CC BY 4.0)" in json.dumps(exported)
