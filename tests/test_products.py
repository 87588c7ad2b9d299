"""A product is declared once: its module's Command feeds the CLI, `build all`, `tables` and the README."""

from __future__ import annotations

import dataclasses
import random
import re
import shutil
import sys
from pathlib import Path

import pytest

from dungeonpress import authoring, build, products
from dungeonpress.generate import delve, dunginoes, paperogue
from dungeonpress.generate.character import generate_character
from dungeonpress.generate.dungeon import generate_dungeon
from dungeonpress.generate.paperogue_character import generate_paperogue_character
from dungeonpress.products import options
from dungeonpress.views import dunginoes as dunginoes_views
from dungeonpress.views import paperogue as paperogue_views
from dungeonpress.views.sheet import SPACE, dungeoneer_view, paperogue_view
from tests.conftest import RecordingTables, run_cli as run

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "fixtures" / "product"


def _sheets(content, seed):
    dungeoneer_view(content, SPACE["a4"], None, kicker="sheet")
    paperogue_view(content, SPACE["a4"], None, kicker="sheet")


def _characters(content, seed):
    character = generate_character(content, random.Random(seed))
    rogue = generate_paperogue_character(content, random.Random(seed))
    dungeoneer_view(content, SPACE["a4"], character, kicker="pre-rolled")
    paperogue_view(content, SPACE["a4"], rogue, kicker="pre-rolled")


def _paperogue(content, seed):
    paperogue.generate_paperogue(content, random.Random(seed), levels=3)
    paperogue_views.card_view(content, "")


def _dunginoes(content, seed):
    for mode in dunginoes.MODES:
        dungeon = dunginoes.generate_map(random.Random(seed), 16, mode, content.tables.get("dunginoes_specials"))
        dunginoes_views.map_view(content, dungeon, seed)


def _delve(content, seed):
    delve.check_content(content)
    delve.generate_delve(random.Random(seed), content, turns=36, light="torch", mapping=True)


# What each command rolls on and prints, run without laying out a page (the PDFs add no table reads).
READERS = {"dungeon": lambda content, seed: generate_dungeon(content, random.Random(seed)),
           "character": _characters, "sheet": _sheets, "paperogue": _paperogue, "dunginoes": _dunginoes,
           "delve": _delve, "foes": lambda content, seed: (generate_dungeon(content, random.Random(seed)),
                                                           generate_character(content, random.Random(seed)))}


@pytest.mark.parametrize("command", sorted(READERS))
def test_every_table_a_command_reads_is_in_its_declared_inputs(content, command):
    recording = RecordingTables(content.tables)
    watched = dataclasses.replace(content, tables=recording)
    for seed in range(12):
        READERS[command](watched, seed)
    used = authoring.tables_by_product(content, build.commands())
    assert recording.read, "nothing was read: the recording is broken"
    assert {t for t in recording.read if t in content.tables and command not in used[t]} == set()


def test_tables_credits_each_command_with_what_it_declares_and_nothing_it_does_not(content):
    used = authoring.tables_by_product(content, build.commands())
    assert "dungeon" in used["complications"]  # a [[table]] line of the delve rules every dungeon prints
    assert "build rulebook" in used["scene_mood"]  # the quick reference
    assert not any(used[t] & {"paper"} for t in used)  # blank paper reads none
    assert {t for t in used if "oracle" in used[t]} == {"twist"}  # the oracle card computes its odds; it prints the twists
    assert {c for t in used for c in used[t]} <= {c.full_name for c in build.commands()}


def test_commands_come_in_their_declared_order_from_the_modules_alone():
    commands = build.commands()
    assert [c.order for c in commands] == sorted(c.order for c in commands)
    assert {c.module for c in commands} == set(products.product_modules())
    assert [name for _, name, _ in products.index()] == [c.full_name for c in commands]
    assert not hasattr(products, "INDEX")  # no hand-kept list repeats what the modules say


def test_a_list_option_with_no_value_means_every_choice_its_spec_holds():
    from dungeonpress.products.sheet import SheetOptions
    assert SheetOptions().chosen("paper") == ["a4", "letter", "a5"]
    assert SheetOptions(paper="letter").chosen("paper") == ["letter"]
    with pytest.raises(ValueError):
        SheetOptions().chosen("fillable")  # a switch has no choices to fall back on


# --- README --------------------------------------------------------------------------------------

README = (ROOT / "README.md").read_text()


def _row(full_name: str) -> str:
    rows = [line for line in README.splitlines() if re.match(rf"\| `dungeonpress {full_name}[ `]", line)]
    assert len(rows) == 1, f"README: one row of the command table for `dungeonpress {full_name}` (got {len(rows)})"
    return rows[0]


@pytest.mark.parametrize("command", build.commands(), ids=lambda c: c.full_name)
def test_the_readme_row_of_each_command_names_its_options_and_files(command):
    row = _row(command.full_name)
    usage = re.split(r"(?<!\\)\|", row)[1]  # the first cell; `\|` is a | inside it
    for field, spec in options.specs(command.options):
        flag = options.flag_of(field)
        if flag in ("--bleed", "--marks", "--pdf-x", "--creep"):  # written once as [print-shop options]
            assert "[print-shop options]" in usage, command.full_name
            continue
        if flag == "--signatures" and "[print-shop options]" in usage:  # the books list it with those options
            continue
        assert flag in usage, f"README row of {command.full_name} does not name {flag}"
    assert ("--seed" in usage) == command.seeded, command.full_name
    for name in command.outputs:
        assert name in row, f"README row of {command.full_name} does not name its output {name}"
    assert command.outputs, f"{command.full_name} declares no outputs"


# --- a new product is one module plus its template and CSS ----------------------------------------

@pytest.fixture
def omen(tmp_path, monkeypatch):
    """The fixture pack's product dropped in: its module on the products package's path, its template and CSS
    beside the built-in templates. No registry, list or README of the project is edited."""
    modules = tmp_path / "products"
    modules.mkdir()
    shutil.copy(FIXTURE / "omen.py", modules / "omen.py")
    monkeypatch.setattr(products, "__path__", [*products.__path__, str(modules)])
    templates = tmp_path / "templates"
    shutil.copytree(build.TEMPLATES_DIR, templates)
    shutil.copytree(FIXTURE / "templates", templates, dirs_exist_ok=True)
    monkeypatch.setattr(build, "TEMPLATES_DIR", templates)
    yield tmp_path
    sys.modules.pop("dungeonpress.products.omen", None)


def test_a_new_product_module_is_listed_with_its_options_and_credited_for_its_table(omen, content):
    code, out, _ = run("--help")
    assert code == 0 and re.search(r"^\s+omen\s+an omen card", out, flags=re.M), out
    code, out, _ = run("omen", "--help")
    assert code == 0 and "--count N" in out and "--seed N" in out and "example: dungeonpress omen" in out
    assert run("omen", "--count", "9") == (2, "", "dungeonpress omen: error: --count must be a whole number "
                                                   "from 1 to 6 (got 9)\n")
    assert build.commands()[-1].full_name == "omen"  # `build all` makes it last (order 99)
    assert "omen" in authoring.tables_by_product(content, build.commands())["twist"]


@pytest.mark.slow
def test_a_new_product_module_builds_its_declared_output(omen):
    from pypdf import PdfReader
    out = omen / "out"
    code, _, err = run("omen", "--seed", "7", "--out", out, "--quiet")
    assert code == 0, err
    assert sorted(p.name for p in out.iterdir() if p.is_file()) == ["omen-7.pdf"]
    text = PdfReader(out / "omen-7.pdf").pages[0].extract_text()
    assert "Omens, seed 7" in text


# --- one way to run a product ----------------------------------------------------------------------

@pytest.mark.slow  # reads the content twice (about 10 s on a loaded machine)
def test_a_worker_names_outputs_as_a_single_run_does(tmp_path):
    """`build all` and --batch (batch.make_item, in a worker) and `dungeonpress NAME` (this process) both go
    through build.make: a user pack's outputs carry its name either way, never the built-in files' names."""
    from dungeonpress import batch
    from dungeonpress.products.options import parse
    pack = ROOT / "tests" / "fixtures" / "small_pack"
    settings = batch.Settings(user_packs=(str(pack),), out_dir=str(tmp_path))
    outputs, warnings, pages, _ = batch.make_item(settings, batch.Item("x", "export tables", {"format": "csv"}))
    (command,) = [c for c in build.commands() if c.full_name == "export tables"]
    ctx = build.context_for(build.load_content([pack]), user_packs=[pack], out_dir=tmp_path)
    alone, _, _ = build.make(command, ctx, parse(command.options, {"format": "csv"}))
    assert outputs and [o.name for o in outputs] == [o.name for o in alone]
    assert all(o.name.startswith("exports-small-pack/csv/") for o in outputs), outputs[0].name
    assert pages == {}


@pytest.mark.parametrize("command", build.commands(), ids=lambda c: c.full_name)
def test_each_product_build_reads_in_one_screen(command):
    """A product's build function is a page of stages (at most 60 lines), as the rulebook's is; the fitting,
    views and drawing it calls live in their own modules."""
    import ast
    import inspect
    node = ast.parse(inspect.getsource(command.run)).body[0]
    lines = node.end_lineno - node.lineno + 1
    assert lines <= 60, f"{command.module}.{command.run.__name__} is {lines} lines"
