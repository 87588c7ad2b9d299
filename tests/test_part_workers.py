"""A book's parts run in worker processes (part_workers): results in the jobs' order, a worker's error raised here."""

from __future__ import annotations

import pytest

from dungeonpress.part_workers import PartWorkers


def _square(n: int) -> int:
    if n < 0:
        raise ValueError(f"no square for {n}")
    return n * n


def test_one_process_runs_the_jobs_here_in_order():
    assert PartWorkers(1)([3, 1, 2].__getitem__, [0, 1, 2]) == [3, 1, 2]
    assert PartWorkers(1).ask(lambda: "here") == "here"


@pytest.mark.slow  # starts two interpreters that import WeasyPrint
def test_two_workers_give_results_in_the_jobs_order_and_raise_a_jobs_error():
    workers = PartWorkers(2)
    try:
        assert workers(_square, [3, 1, 2, 5]) == [9, 1, 4, 25]
        with pytest.raises(ValueError, match="no square for -1"):
            workers(_square, [2, -1])
    finally:
        workers.close()


@pytest.mark.slow  # starts interpreters that import WeasyPrint
def test_a_mostly_cached_book_starts_one_worker_early_and_a_second_only_for_two_jobs():
    workers = PartWorkers(2, early=1)
    try:
        workers.start()
        assert workers.ask(_square.__name__.upper) == "_SQUARE"  # answered by the one worker started
        assert len(workers._pool._processes) == 1
        assert workers(_square, [4]) == [16]
        assert len(workers._pool._processes) == 1
        assert workers(_square, [1, 2, 3]) == [1, 4, 9]
        assert len(workers._pool._processes) == 2
    finally:
        workers.close()
