"""A long-lived worker's garbage collection: what is warm frozen out of it, the rest collected between items.

A warm worker (a `serve` roll's, a `--batch` or `build all` item's) holds WeasyPrint, its fonts, the
products' code and the checked content model: over 100,000 objects that live as long as the worker does.
CPython's cycle collector walks all of them at each full collection, and a zine's layout makes enough
objects to run one or two of those per zine: 0.17–0.24 s of a 1.0–1.1 s roll, measured with
`gc.callbacks` in a warm worker. Freezing what is warm (`gc.freeze`) takes those objects out of every
later collection; collecting once after each item keeps the young generations small, so the
collections during the next item are short (about 0.05 s a zine).

Freezing changes when memory is given back, never what is made: cycles are found the same way, and
objects without cycles are freed by their reference counts as always.
"""

from __future__ import annotations

import gc


def freeze_warm() -> None:
    """Collect, then leave everything alive now out of later collections (call once the worker is warm)."""
    gc.collect()
    gc.freeze()


def collect_between_items() -> None:
    """Collect what the last item left and freeze what outlived it (the model, parsed stylesheets, fonts).

    Cycles among frozen objects that die later are kept until the worker ends: a batch is finite, and
    `serve` calls `collect_all_between_rolls` instead.
    """
    freeze_warm()


def collect_all_between_rolls() -> None:
    """Collect everything, frozen objects too, then freeze again: for `serve`'s workers, which live for hours
    and may drop a whole content model after an edit. Run after a roll's answer is sent, while no one waits."""
    gc.unfreeze()
    freeze_warm()
