"""Products: one module per command, each declaring its COMMANDS; `commands()` finds them all, `index()` names them."""

from __future__ import annotations

import importlib
import pkgutil

# Modules of this package that hold shared code, not commands.
SHARED = ("common", "options", "dungeon_vtt")

# (module, command as typed, help) of every command, in `--help` order. `dungeonpress --help` and usage
# errors read only this; a command's module (its generators, views and options) is imported when that
# command is asked for. tests/test_cli.py checks it against the COMMANDS the modules declare.
INDEX = (
    ("rulebook", "build rulebook",
     "the Loner: Dungeoneer rulebook: A5 reading PDF and saddle-stitch booklets"),
    ("tables", "build tables",
     "every random table of the system as a compact A5 reference booklet (build/tables.pdf)"),
    ("exports", "export tables",
     "export every random table as JSON, CSV, a Foundry VTT module or Datasworn JSON (build/exports/FORMAT/)"),
    ("dungeon", "dungeon",
     "a pre-rolled dungeon: one-sheet mini zine, A5 booklet, or a pack of delves (--count)"),
    ("sheet", "sheet",
     "blank character sheets: fillable PDF form and pencil version, A4, Letter and A5"),
    ("character", "character",
     "pre-rolled characters: N filled sheets in one PDF, and JSON with every roll"),
    ("paper", "paper",
     "blank Paperogue graph-paper and dot-grid sheets with the room legend, monster lists and score tally"),
    ("paperogue", "paperogue",
     "pre-rolled Paperogue levels drawn on the grid (PDF and JSON) and the Paperogue reference card"),
    ("dunginoes", "dunginoes",
     "the Dunginoes kit: rules card with solo score sheet, and domino dungeon maps"),
    ("delve", "delve",
     "the solo turn-procedure kit: procedure card, turn log, appendices A-F, and a pre-rolled delve log"),
    ("oracle", "oracle",
     "the oracle on one A6 card: the answer grid with Conflict harm, and the exact odds (oracle-card.pdf)"),
    ("foes", "foes",
     "foe and NPC cards to cut out: the bestiary or a rolled dungeon's inhabitants, 3x5 in or A7, "
     "with an oracle and a twist card (foe-cards-*.pdf)"),
)


def commands() -> list:
    """Every product command, in `build all` order. A product module that fails to import fails the CLI loudly."""
    found = []
    for module_info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if module_info.name in SHARED or module_info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{module_info.name}")
        found.extend(module.COMMANDS)
    return sorted(found, key=lambda command: command.order)


def index() -> tuple:
    """(module, command as typed, help) of every command, without importing any product module."""
    return INDEX


def commands_of(module: str) -> list:
    """The commands one product module declares (importing it and what it needs to make them)."""
    return list(importlib.import_module(f"{__name__}.{module}").COMMANDS)
