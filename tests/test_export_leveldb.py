"""The Foundry module's LevelDB packs, read back by Foundry's own CLI (`extractPack`) from the npm registry.

The CLI is installed once into a cache folder (`$DUNGEONPRESS_TEST_CACHE`, else ~/.cache/dungeonpress-tests);
the tests skip with one line when Node.js, npm or the registry is not there.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from dungeonpress.export import foundry, leveldb
from dungeonpress.export.files import export_files


CLI = "@foundryvtt/foundryvtt-cli"
CLI_VERSION = "3.0.3"  # the release whose lib/package.mjs the key layout follows
MODULE = f"exports/foundry/module/{foundry.MODULE_ID}/"
PACKS = (foundry.TABLES_PACK, foundry.BESTIARY_PACK)

EXTRACT = """
import { extractPack } from %s;
const [src, dest] = process.argv.slice(2);
await extractPack(src, dest, { clean: true });
"""


def _cache() -> Path:
    root = os.environ.get("DUNGEONPRESS_TEST_CACHE") or Path.home() / ".cache" / "dungeonpress-tests"
    return Path(root) / f"foundryvtt-cli-{CLI_VERSION}"


@pytest.fixture(scope="module")
def cli_entry():
    """index.mjs of Foundry's CLI, installed from npm into the cache folder on first use."""
    if not shutil.which("node") or not shutil.which("npm"):
        pytest.skip("Node.js and npm are not installed: Foundry's CLI cannot read the packs back")
    version = subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip()
    if int(version.lstrip("v").split(".")[0] or 0) < 18:  # the CLI asks for Node.js over 17
        pytest.skip(f"Node.js {version} is older than the 18 Foundry's CLI needs")
    prefix = _cache()
    entry = prefix / "node_modules" / "@foundryvtt" / "foundryvtt-cli" / "index.mjs"
    if not entry.is_file():
        prefix.mkdir(parents=True, exist_ok=True)
        # --ignore-scripts: classic-level ships prebuilt LevelDB binaries; nothing needs compiling.
        run = subprocess.run(["npm", "install", "--prefix", str(prefix), "--no-audit", "--no-fund", "--ignore-scripts",
                              f"{CLI}@{CLI_VERSION}"], capture_output=True, text=True, timeout=600)
        if run.returncode != 0 or not entry.is_file():
            last = (run.stderr.strip().splitlines() or ["no output"])[-1]
            pytest.skip(f"could not install {CLI}@{CLI_VERSION} from the npm registry: {last}")
    return entry


@pytest.fixture(scope="module")
def module_dir(content, tmp_path_factory):
    if leveldb.available():
        pytest.skip(f"no LevelDB packs to read: {leveldb.available()}")
    out = tmp_path_factory.mktemp("foundry")
    for name, data in export_files(content, "foundry", version="1.0.0"):
        if name.startswith(MODULE):
            target = out / name[len(MODULE):]
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
    return out


def _extract(cli_entry: Path, pack: Path, dest: Path) -> list[dict]:
    script = dest.parent / f"extract-{dest.name}.mjs"
    script.write_text(EXTRACT % json.dumps(cli_entry.as_uri()))
    run = subprocess.run(["node", str(script), str(pack), str(dest)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    return [json.loads(path.read_text()) for path in sorted(dest.glob("*.json"))]


@pytest.mark.slow
@pytest.mark.parametrize("pack", PACKS)
def test_foundry_cli_reads_back_every_source_document(cli_entry, module_dir, tmp_path, pack):
    sources = {d["_key"]: d for d in (json.loads(p.read_text())
                                      for p in (module_dir / "packs" / "_source" / pack).glob("*.json"))}
    copy = shutil.copytree(module_dir / "packs" / pack, tmp_path / "db")  # opening a LevelDB writes into it
    extracted = {d["_key"]: d for d in _extract(cli_entry, copy, tmp_path / pack)}
    assert len(sources) == len(extracted) > 0
    assert extracted == sources


@pytest.mark.slow
def test_module_json_points_at_the_leveldb_folders(module_dir):
    manifest = json.loads((module_dir / "module.json").read_text())
    for entry in manifest["packs"]:
        folder = module_dir / entry["path"]
        assert (folder / "CURRENT").read_text().startswith("MANIFEST-")
        assert any(p.suffix == ".ldb" for p in folder.iterdir())
        assert not (folder / "LOG").exists()  # clock times: left out so rebuilds give the same bytes


def test_pack_entries_use_the_cli_key_layout():
    table = {"_id": "T" * 16, "name": "t", "results": [{"_id": "a" * 16, "weight": 1}, {"_id": "b" * 16, "weight": 2}]}
    entries = dict(foundry.pack_entries([table], "tables"))
    assert sorted(entries) == [f"!tables!{'T' * 16}", f"!tables.results!{'T' * 16}.{'a' * 16}",
                               f"!tables.results!{'T' * 16}.{'b' * 16}"]
    assert json.loads(entries[f"!tables!{'T' * 16}"])["results"] == ["a" * 16, "b" * 16]
    assert json.loads(entries[f"!tables.results!{'T' * 16}.{'b' * 16}"]) == {"_id": "b" * 16, "weight": 2}


def test_leveldb_files_are_the_same_bytes_on_every_build():
    if leveldb.available():
        pytest.skip(leveldb.available())
    entries = [(f"!tables!{n:016d}", json.dumps({"n": n}).encode()) for n in range(50)]
    assert leveldb.database_files(entries) == leveldb.database_files(list(reversed(entries)))


def test_without_plyvel_the_sources_are_written_and_the_run_says_what_is_missing(content, monkeypatch):
    monkeypatch.setattr(leveldb, "available", lambda: "the Python package plyvel is not installed")
    warnings = []
    names = [name for name, _ in export_files(content, "foundry", version="1.0.0", warnings=warnings)]
    assert warnings == ["Foundry module: compendium packs written as JSON sources only, not as the LevelDB folders "
                        "Foundry loads: the Python package plyvel is not installed"]
    assert any("/packs/_source/" in n for n in names)
    assert not any(f"/packs/{pack}/" in n for n in names for pack in PACKS)
