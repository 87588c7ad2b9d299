"""Where the built-in content and templates are: package data when installed, the checkout's folders in a clone."""

from __future__ import annotations

import atexit
import contextlib
from importlib import resources
from pathlib import Path

# An installed wheel holds them as dungeonpress/content and dungeonpress/templates (pyproject's
# package-dir maps the checkout's top-level folders there). An editable install or a plain
# PYTHONPATH=src run reads them where authors edit them: next to src/ in the checkout.
_CHECKOUT = Path(__file__).resolve().parents[2]
_keep_open = contextlib.ExitStack()
atexit.register(_keep_open.close)


def data_dir(name: str) -> Path:
    """A real folder holding the package's `name` data ("content", "templates", "schema")."""
    packaged = resources.files("dungeonpress") / name
    if packaged.is_dir():
        if isinstance(packaged, Path):
            return packaged
        # Installed as a zip: WeasyPrint and the sealed fetcher need real files, so extract once.
        return Path(_keep_open.enter_context(resources.as_file(packaged)))
    checkout = _CHECKOUT / name
    if checkout.is_dir():
        return checkout
    raise FileNotFoundError(f"dungeonpress is installed without its {name}/ folder "
                            f"(looked in {packaged} and {checkout}); reinstall it")
