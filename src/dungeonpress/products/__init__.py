"""Products: one module per command, each declaring its COMMANDS; `commands()` finds them all, `index()` names them."""

from __future__ import annotations

import importlib
import pkgutil

# Modules of this package that hold shared code, not commands.
SHARED = ("common", "options", "dungeon_vtt", "pack_parts", "booklet_fit")


def product_modules() -> list[str]:
    """The short name of every product module in this package (each file that is not shared code), sorted."""
    return sorted(m.name for m in pkgutil.iter_modules(__path__) if m.name not in SHARED and not m.name.startswith("_"))


def commands() -> list:
    """Every product command, in `build all` and `--help` order (each module's own `order`).

    A product is found by its module alone: there is no list to add it to. Importing the modules loads
    their generators and views but never WeasyPrint, Jinja2 or YAML (those load when a product is made),
    so `--help` stays quick. A product module that fails to import fails the CLI loudly.
    """
    found = [command for module in product_modules() for command in commands_of(module)]
    return sorted(found, key=lambda command: command.order)


def index() -> tuple:
    """(module, command as typed, help) of every command, in `--help` order: read from the modules' COMMANDS."""
    return tuple((command.module, command.full_name, command.help) for command in commands())


def commands_of(module: str) -> list:
    """The commands one product module declares (importing it and what it needs to make them)."""
    return list(importlib.import_module(f"{__name__}.{module}").COMMANDS)
