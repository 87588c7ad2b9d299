"""Stand-ins for the real work that tests hand to the batch supervisor: light to import in a fresh worker."""

from __future__ import annotations

import os
import signal
import time

from dungeonpress.errors import RenderError
from dungeonpress.products.common import Output  # light: the renderer loads only when a product is made


class Fatal(BaseException):
    """Raised past `except Exception`, as WeasyPrint's fatal fetch error is."""


def faulty(settings, item):
    """A stand-in for the real work, given to the supervisor as its runner (nothing like it ships)."""
    do = item.options.get("do", "ok")
    if do == "raise":
        raise RenderError(f"{item.label}: bad item")
    if do == "base":  # like WeasyPrint's FatalURLFetchingError: a BaseException, not an Exception
        raise Fatal("could not fetch file:///etc/hostname")
    if do == "kill":  # what the kernel's OOM killer does to a worker
        os.kill(os.getpid(), signal.SIGKILL)
    if do == "trap":  # what GLib does when Pango cannot allocate under the memory cap
        os.kill(os.getpid(), signal.SIGTRAP)
    if do == "hang":
        time.sleep(3600)
    if do == "nap":  # an item that takes a moment, so a run of many is still going when it is stopped
        time.sleep(0.2)
    if do == "memory":
        blob = bytearray(8 * 1024**3)  # far over the cap: refused by RLIMIT_AS as MemoryError
        return [Output("never.txt", bytes(blob[:1]))], []
    return [Output(f"{item.label}.txt", f"made {item.label}\n".encode())], []
