"""A run's budget in this process: seconds and resident memory, watched by a timer → OverBudget naming the limit.

`build all` and batches make each item in a worker with RLIMIT_AS and a deadline (batch.py). A
single product runs here, in the CLI's own process: capping its address space would also cap
whatever else shares the process (a test runner, say), so the resident memory is measured instead,
four times a second, with the clock; the signal handler stops the run at the next Python line.
"""

from __future__ import annotations

import os
import resource
import signal
import threading
import time
from contextlib import contextmanager

CHECK_EVERY = 0.25  # seconds between looks at the clock and the memory


class OverBudget(BaseException):
    """A run past its time or memory limit; the message names the limit and the option that raises it.

    A BaseException, like KeyboardInterrupt: an `except Exception` inside a library (WeasyPrint
    catches broadly around images and fonts) must not swallow it.
    """


def resident_mib() -> float:
    """This process's resident memory now, in MiB (its peak where /proc is missing)."""
    try:  # /proc/self/statm: "size resident shared ..." in pages (os.open: a system file, not content)
        fd = os.open("/proc/self/statm", os.O_RDONLY)
        try:
            pages = int(os.read(fd, 256).split()[1])
        finally:
            os.close(fd)
        return pages * os.sysconf("SC_PAGE_SIZE") / (1 << 20)
    except (OSError, ValueError, IndexError):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


@contextmanager
def limited(*, seconds: float | None, memory_mb: int | None, what: str = "the build"):
    """Run the block under `seconds` and `memory_mb` (resident); OverBudget when it passes either.

    Outside the main thread (where no signal handler can be set) the block runs unwatched.
    """
    if threading.current_thread() is not threading.main_thread() or not (seconds or memory_mb):
        yield
        return
    started = time.monotonic()

    def look(signum, frame):
        if seconds and time.monotonic() - started > seconds:
            raise OverBudget(f"{what} took longer than {seconds:g} s (time limit; raise it with --item-timeout)")
        if memory_mb and resident_mib() > memory_mb:
            raise OverBudget(f"{what} needed more than {memory_mb} MiB of memory (memory limit; raise it with "
                             f"--item-memory)")

    previous = signal.signal(signal.SIGALRM, look)
    signal.setitimer(signal.ITIMER_REAL, CHECK_EVERY, CHECK_EVERY)
    try:
        try:
            yield
        except MemoryError:
            raise OverBudget(f"{what} ran out of memory (raise or lower --item-memory to stop it sooner)") from None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0, 0)
        signal.signal(signal.SIGALRM, previous)
