"""collect: a warm worker's objects frozen out of collections, cycles still freed between items and rolls."""

from __future__ import annotations

import gc
import weakref

import pytest

from dungeonpress import collect


class Node:
    def __init__(self):
        self.me = self  # a cycle: only the cycle collector frees it


@pytest.fixture(autouse=True)
def _thawed():
    yield
    gc.unfreeze()  # the test process's other tests collect as they always do


def test_warm_objects_are_frozen_and_garbage_before_them_is_collected():
    alive, dropped = Node(), weakref.ref(Node())
    collect.freeze_warm()
    assert dropped() is None
    assert gc.get_freeze_count() > 0 and not any(obj is alive for obj in gc.get_objects())


def test_an_items_cycles_are_collected_after_it():
    collect.freeze_warm()
    item = weakref.ref(Node())
    collect.collect_between_items()
    assert item() is None


def test_a_frozen_cycle_dropped_later_is_freed_between_rolls_not_between_batch_items():
    model = Node()
    collect.freeze_warm()  # e.g. the content model, frozen with the warm worker
    gone = weakref.ref(model)
    del model  # an edit replaced it
    collect.collect_between_items()
    assert gone() is not None  # frozen: a batch keeps it until the worker ends
    collect.collect_all_between_rolls()
    assert gone() is None  # serve's workers live for hours: they free it


def test_a_run_lays_out_with_the_layout_threshold_and_its_imports_frozen(tmp_path):
    """The command line tunes and freezes before its first layout (cli._run_jobs); so do the workers (batch,
    part_workers, serve.warm), which call the same collect.ready_to_lay_out."""
    from dungeonpress import cli
    saved = gc.get_threshold()
    gc.set_threshold(700, *saved[1:])
    try:
        assert cli.main(["export", "tables", "--out", str(tmp_path), "--quiet"]) == 0
        assert gc.get_threshold()[0] == collect.LAYOUT_THRESHOLD and gc.get_freeze_count() > 0
    finally:
        gc.set_threshold(*saved)
