"""The Foundry VTT module: v12/v13 field sets, stable unique ids, weights that are the die's odds, links that resolve."""

from __future__ import annotations

import json
import re

import pytest

from dungeonpress import build, export
from dungeonpress.export import foundry
from dungeonpress.export.files import export_files
from tests.conftest import slow_fixture

MODULE = f"exports/foundry/module/{foundry.MODULE_ID}/"
TABLE_FIELDS = {"_id", "name", "img", "description", "results", "formula", "replacement", "displayRoll", "folder",
                "sort", "ownership", "flags", "_stats"}  # RollTable: the same field set in v12 and v13


@pytest.fixture(scope="module")
@slow_fixture
def files(content):
    return {name: data for name, data in export_files(content, "foundry", version="1.2.3")}


@pytest.fixture(scope="module")
@slow_fixture
def packs(files):
    """Pack name → the documents of its JSON sources."""
    out = {}
    for name, data in files.items():
        match = re.fullmatch(re.escape(MODULE) + r"packs/_source/([^/]+)/[^/]+\.json", name)
        if match:
            out.setdefault(match.group(1), []).append(json.loads(data))
    return out


def _roll_odds(formula: str) -> dict:
    """Evaluate the few formula shapes we write, as Foundry would, into exact result counts."""
    counts = {}
    if formula == "1d6 * 10 + 1d6":
        for a in range(1, 7):
            for b in range(1, 7):
                counts[10 * a + b] = counts.get(10 * a + b, 0) + 1
    elif formula == "2d6":
        for a in range(1, 7):
            for b in range(1, 7):
                counts[a + b] = counts.get(a + b, 0) + 1
    else:
        counts = {n: 1 for n in range(1, int(re.fullmatch(r"1d(\d+)", formula).group(1)) + 1)}
    return counts


def _results(packs):
    for document in packs[foundry.TABLES_PACK]:
        for result in document["results"]:
            yield document, result


@pytest.mark.slow
def test_module_manifest_names_both_packs_and_the_versions(files, packs):
    manifest = json.loads(files[MODULE + "module.json"])
    assert manifest["id"] == foundry.MODULE_ID and manifest["version"] == "1.2.3"
    assert manifest["compatibility"] == {"minimum": "12", "verified": "13.341"}
    assert [(p["name"], p["type"]) for p in manifest["packs"]] == [("roll-tables", "RollTable"),
                                                                    ("bestiary", "JournalEntry")]
    assert set(packs) == {"roll-tables", "bestiary"}
    licence = files[MODULE + manifest["license"]].decode()
    assert "CC BY-SA 4.0" in licence and "Roberto Bisceglie" in licence and "loveandlossgames.com" in licence


def test_every_rolled_table_is_in_the_pack(content, packs):
    assert sorted(d["flags"]["dungeonpress"]["id"] for d in packs["roll-tables"]) == \
        sorted(t.id for t in export.rolled_tables(content))
    assert len(packs["bestiary"]) == len(content.creatures)


def test_every_result_fits_the_v12_and_v13_field_sets(packs):
    for document, result in _results(packs):
        fields = set(result) - {"_key"}
        assert fields <= foundry.RESULT_FIELDS_V12 | foundry.RESULT_FIELDS_V13, fields
        # v13 needs these; `text` is kept for v12, which has no name/description
        assert {"_id", "type", "name", "description", "weight", "range", "drawn", "text", "_stats"} <= fields
        assert "documentCollection" not in fields and "documentId" not in fields  # v13 would rewrite the uuid
        assert result["type"] in foundry.RESULT_TYPES_V12 & foundry.RESULT_TYPES_V13
        assert result["text"] == result["description"] and result["name"]
        low, high = result["range"]
        assert isinstance(low, int) and isinstance(high, int) and low <= high
        assert isinstance(result["weight"], int) and result["weight"] > 0  # v13: positive integer
        assert result["_stats"]["coreVersion"] == foundry.CORE_VERSION
        assert result["_key"] == f"!tables.results!{document['_id']}.{result['_id']}"
    for document in packs["roll-tables"]:
        assert set(document) - {"_key"} == TABLE_FIELDS and document["_key"] == f"!tables!{document['_id']}"


@pytest.mark.slow
def test_ids_are_16_characters_unique_and_the_same_on_every_build(content, packs):
    again = {n: d for n, d in export_files(content, "foundry", version="1.2.3")}
    first = {n: d for n, d in export_files(content, "foundry", version="1.2.3")}
    assert again == first  # same content, same bytes, so the same ids
    ids = [d["_id"] for docs in packs.values() for d in docs]
    ids += [r["_id"] for _, r in _results(packs)]
    ids += [p["_id"] for d in packs["bestiary"] for p in d["pages"]]
    assert len(ids) == len(set(ids))
    assert all(re.fullmatch(r"[A-Za-z0-9]{16}", i) for i in ids)


def test_weights_are_the_dies_odds_and_ranges_cover_every_roll(packs):
    for document in packs["roll-tables"]:
        odds = _roll_odds(document["formula"])
        covered = {}
        for result in document["results"]:
            low, high = result["range"]
            assert result["weight"] == sum(n for roll, n in odds.items() if low <= roll <= high)
            for roll in range(low, high + 1):
                if roll in odds:
                    covered[roll] = covered.get(roll, 0) + 1
        assert covered == {roll: 1 for roll in odds}, document["name"]  # each roll lands on one result
        assert sum(r["weight"] for r in document["results"]) == sum(odds.values())


def test_treasure_check_weights_are_its_2d6_odds(packs):
    document = next(d for d in packs["roll-tables"] if d["flags"]["dungeonpress"]["id"] == "treasure_check")
    assert [(r["range"], r["weight"]) for r in document["results"]] == [([2, 5], 10), ([6, 9], 20), ([10, 12], 6)]


def test_every_link_resolves_inside_the_bundle(content, packs):
    uuids = {f"Compendium.{foundry.MODULE_ID}.roll-tables.RollTable.{d['_id']}" for d in packs["roll-tables"]}
    uuids |= {f"Compendium.{foundry.MODULE_ID}.bestiary.JournalEntry.{d['_id']}" for d in packs["bestiary"]}
    links = 0
    for document, result in _results(packs):
        if result["type"] == "document":
            assert result["documentUuid"] in uuids, result
            links += 1
        else:
            assert "documentUuid" not in result
    see_rows = sum(1 for t in export.rolled_tables(content) for r in t.rows if r.see or r.creature is not None)
    assert links == see_rows > 0


def test_see_rows_link_their_table_and_creature_rows_their_journal(content, packs):
    by_id = {d["flags"]["dungeonpress"]["id"]: d for d in packs["roll-tables"]}
    target = by_id["small_creatures"]
    row = next(r for r in by_id["encounter_type"]["results"] if r["range"] == [4, 4])
    assert row["type"] == "document" and row["name"] == target["name"]
    assert row["documentUuid"].endswith(f".RollTable.{target['_id']}")
    table, creature_row = next((t, r) for t in export.rolled_tables(content) for r in t.rows
                               if r.creature is not None and not r.see)
    creature = content.creature(creature_row.creature)
    journal = next(d for d in packs["bestiary"] if d["flags"]["dungeonpress"]["key"] == creature.key)
    assert journal["pages"][0]["name"] == creature.name and creature.concept in journal["pages"][0]["text"]["content"]
    result = next(r for r in by_id[table.id]["results"] if r["range"] == [creature_row.low, creature_row.high])
    assert result["documentUuid"] == f"Compendium.dungeonpress.bestiary.JournalEntry.{journal['_id']}"


def test_every_table_and_journal_carries_its_licence(content, packs):
    for document in packs["roll-tables"]:
        flags = document["flags"]["dungeonpress"]
        assert flags["licence"] and flags["authors"]
        assert export.terms_for(flags["source"]).credit.split(" (")[0].replace("&", "&amp;") in document["description"]
    for journal in packs["bestiary"]:
        assert "CC BY-SA 4.0" in journal["pages"][0]["text"]["content"]


def test_per_table_files_are_the_pack_documents_without_pack_keys(content, files, packs):
    by_id = {d["flags"]["dungeonpress"]["id"]: d for d in packs["roll-tables"]}
    for table in export.rolled_tables(content):
        single = json.loads(files[f"exports/foundry/{table.id}.json"])
        packed = dict(by_id[table.id])
        packed.pop("_key")
        packed["results"] = [{k: v for k, v in r.items() if k != "_key"} for r in packed["results"]]
        assert single == packed


@pytest.mark.slow
def test_written_bundle_is_byte_identical_on_rebuild(tmp_path, content):
    ctx = build.context_for(content)
    from dungeonpress.products.exports import ExportOptions, build_exports
    for out in ("a", "b"):
        build.write_outputs(tmp_path / out, build_exports(ctx, ExportOptions(format="foundry")))
    a = {p.relative_to(tmp_path / "a"): p.read_bytes() for p in (tmp_path / "a").rglob("*") if p.is_file()}
    b = {p.relative_to(tmp_path / "b"): p.read_bytes() for p in (tmp_path / "b").rglob("*") if p.is_file()}
    assert a == b and len(a) > 100
