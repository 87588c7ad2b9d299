"""Counts → words ready to print: `1 room`, `3 rooms`, `2 torches`, so templates never pluralise."""

from __future__ import annotations


def plural(count: int, word: str, many: str = "") -> str:
    """The word for `count` of it: `word` for one, `many` (or `word` + s) otherwise."""
    return word if count == 1 else (many or word + "s")


def counted(count: int, word: str, many: str = "") -> str:
    """`1 room`, `3 rooms`."""
    return f"{count} {plural(count, word, many)}"
