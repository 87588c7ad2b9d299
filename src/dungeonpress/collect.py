"""A laying-out process's garbage collection: collected less often, what is warm frozen out of it, the rest
collected between items.

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

# CPython's first collection threshold (700 container objects allocated and not yet freed) is far below what
# WeasyPrint holds alive for a moment while it lays out a page: each young collection found most of those still
# alive, moved them to the older generations, and the full collections they set off walked them again and again.
# A pack of six delves spent 6.3 of 23 s of a warm roll in collections. At 5,000 a cold pack takes 0.81 of the
# CPU it took (3 paired runs, the same bytes) and its peak memory rises 4% (315 -> 329 MiB); at 50,000 the CPU
# was no lower (0.82) and the peak rose 22%, as garbage holding Pango's memory waits longer to be collected.
LAYOUT_THRESHOLD = 5_000


def tune_for_layout() -> None:
    """Collect the youngest generation every LAYOUT_THRESHOLD allocations (the older ones as before)."""
    gc.set_threshold(LAYOUT_THRESHOLD, *gc.get_threshold()[1:])


def ready_to_lay_out() -> None:
    """What a process does before it lays out: the threshold above, and what is alive now frozen."""
    tune_for_layout()
    freeze_warm()


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
