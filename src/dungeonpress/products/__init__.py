"""Products: one module per command, each declaring its COMMANDS; `commands()` finds them all."""

from __future__ import annotations

import importlib
import pkgutil

# Modules of this package that hold shared code, not commands.
SHARED = ("common", "options")


def commands() -> list:
    """Every product command, in `build all` order. A product module that fails to import fails the CLI loudly."""
    found = []
    for module_info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if module_info.name in SHARED or module_info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{module_info.name}")
        found.extend(module.COMMANDS)
    return sorted(found, key=lambda command: command.order)
