"""A PDF in the build folder → its page count and its pages as PNGs, cached: the one place `serve` reads PDFs.

Every PDF the page shows is read through these three functions, so reading them under a budget
(a child process with memory and time limits) is a change to this file alone.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from pathlib import Path

from dungeonpress import preview

Unreadable = (OSError, preview.PreviewError)  # what a PDF that cannot be shown raises: its picture fails, nothing else
THUMB_WIDTH = 320  # px: twice a card's width, so thumbnails stay sharp on dense screens
PAGE_HEIGHT = 1100  # px: an A5 or A4 page at about 110-130 dpi, readable at the page's column width
CACHE_BYTES = 64 * 1024 * 1024  # PNGs kept in memory, newest first


class Pictures:
    """Page counts and PNGs of PDFs, remembered by (file, modification time, size) so a rebuilt file is read again."""

    def __init__(self, budget: int = CACHE_BYTES):
        self.budget = budget
        self._cache: OrderedDict = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()

    def thumbnail(self, path: Path) -> bytes:
        """The first page, THUMB_WIDTH px wide."""
        return self._remembered(path, "thumb", lambda: preview.thumbnail(path, width=THUMB_WIDTH))

    def page(self, path: Path, index: int) -> bytes:
        """Page `index` (from 0), PAGE_HEIGHT px tall."""
        return self._remembered(path, ("page", index),
                                lambda: preview.png_bytes(preview.render_page(path, index, height=PAGE_HEIGHT)))

    def page_count(self, path: Path) -> int:
        return self._remembered(path, "count", lambda: preview.page_count(path), size=64)

    def _remembered(self, path: Path, what, make, size: int | None = None):
        stat = path.stat()
        key = (str(path), stat.st_mtime_ns, stat.st_size, what)
        with self._lock:
            if key in self._cache:
                self._cache.move_to_end(key)
                return self._cache[key]
        value = make()
        cost = size if size is not None else len(value)
        with self._lock:
            if key not in self._cache:
                self._cache[key] = value
                self._size += cost
                while self._size > self.budget and len(self._cache) > 1:
                    _, old = self._cache.popitem(last=False)
                    self._size -= len(old) if isinstance(old, bytes) else 64
        return value
