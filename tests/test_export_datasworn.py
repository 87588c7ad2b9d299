"""`--format datasworn` validates against the published Datasworn 0.1.0 schema and keeps every row, link and licence."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import jsonschema
import pytest

from dungeonpress import export
from dungeonpress.export import datasworn, licences
from dungeonpress.export.files import export_files
from tests.conftest import slow_fixture

SCHEMA = Path(__file__).parent / "fixtures" / "datasworn-0.1.0.schema.json"


@pytest.fixture(scope="module")
@slow_fixture
def validator():
    schema = json.loads(SCHEMA.read_text())
    assert schema["title"] == "Datasworn v0.1.0"
    return jsonschema.Draft7Validator(schema)


@pytest.fixture(scope="module")
@slow_fixture
def packages(content):
    return {name: json.loads(data) for name, data in export_files(content, "datasworn")}


def _tables(packages):
    for package in packages.values():
        for collection in package["oracles"].values():
            yield package, collection, list(collection["contents"].values())


@pytest.mark.slow
def test_every_package_validates_against_the_schema(packages, validator):
    assert set(packages) == {f"exports/datasworn/{p}.json" for p in datasworn.PACKAGES.values()}
    for name, package in packages.items():
        errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(package)]
        assert errors == [], name


def test_the_schema_check_catches_a_broken_row(packages, validator):
    package = copy.deepcopy(packages["exports/datasworn/loner_dungeoneer.json"])
    table = next(iter(next(iter(package["oracles"].values()))["contents"].values()))
    del table["rows"][0]["text"]
    assert list(validator.iter_errors(package))


def test_every_rolled_table_and_row_is_there(content, packages):
    found = {}
    for package, collection, tables in _tables(packages):
        for table in tables:
            found[table["_id"]] = table
    assert len(found) == len(export.rolled_tables(content))
    for table in export.rolled_tables(content):
        data = found[datasworn.oracle_id(table)]
        assert data["name"] == table.title
        assert [(r["roll"]["min"], r["roll"]["max"]) for r in data["rows"]] == [(r.low, r.high) for r in table.rows]
        assert data["rows"][0]["text"] == (export.row_text(table, table.rows[0]) if len(table.columns) in (1, 4, 5, 6)
                                           else str(table.rows[0].values[0][1]))


def test_ids_are_paths_and_unique(packages):
    ids = []
    for package, collection, tables in _tables(packages):
        assert collection["_id"].startswith(f"oracle_collection:{package['_id']}/")
        for table in tables:
            assert table["_id"].startswith(f"oracle_rollable:{package['_id']}/")
            ids.append(table["_id"])
            ids += [row["_id"] for row in table["rows"]]
    assert len(ids) == len(set(ids))


def test_see_rows_roll_on_a_table_that_exists(content, packages):
    ids = {t["_id"] for _, _, tables in _tables(packages) for t in tables}
    links = [roll["oracle"] for _, _, tables in _tables(packages) for t in tables for row in t["rows"]
             for roll in row.get("oracle_rolls", [])]
    assert links and set(links) <= ids
    assert len(links) == sum(1 for t in export.rolled_tables(content) for r in t.rows
                             if r.see and content.tables[r.see].rolled)


def test_each_package_and_table_names_its_licence_and_authors(content, packages):
    for table in export.rolled_tables(content):
        package = packages[f"exports/datasworn/{datasworn.package_id(table.origin)}.json"]
        terms = licences.terms_for(table.origin)
        data = package["oracles"][datasworn.collection_key(table)]["contents"][datasworn.key(table.id)]
        for source in (package, data["_source"]):
            assert source["license"] == terms.licence_url and source["title"] == terms.title
            assert [a["name"] for a in source["authors"]] == list(terms.authors)
    assert packages["exports/datasworn/loner_dungeoneer.json"]["license"] == licences.CC_BY_SA
    assert packages["exports/datasworn/dunginoes.json"]["license"] is None  # non-commercial terms, no licence URL
    assert "non-commercial" in packages["exports/datasworn/dunginoes.json"]["description"]


def test_dice_give_the_tables_odds(packages):
    dice = {t["dice"] for _, _, tables in _tables(packages) for t in tables}
    assert dice <= {"1d6*10+1d6", "2d6", "1d4", "1d6", "1d8", "1d10", "1d12", "1d20", "1d100"}
    assert "1d66" not in dice  # 1d66 would give 1..66 evenly, not two dice read as tens and units


@pytest.mark.parametrize("text, key", [("adventure_things_1", "adventure_things_one"),
                                       ("solo turn procedure", "solo_turn_procedure"), ("", "tables")])
def test_keys_hold_only_letters_and_underscores(text, key):
    assert datasworn.key(text) == key
