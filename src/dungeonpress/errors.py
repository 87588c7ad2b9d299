"""Content errors with file:line locations, and how they are shown."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Source:
    """Where a value came from: a file (relative to the project when possible) and a 1-based line."""

    path: str
    line: int

    def __str__(self) -> str:
        return f"{shown_path(self.path)}:{self.line}"


def shown_path(path: str) -> str:
    """A file name as one line of text: a line feed, tab or other control character in it is shown escaped."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in str(path))


def display_path(path: Path | str) -> str:
    """Show `path` relative to the working directory when it lies below it, as compilers do."""
    path = Path(path)
    try:  # without resolving links: a refused link is shown by its own name, not its target's
        return str(Path(os.path.abspath(path)).relative_to(os.getcwd()))
    except ValueError:
        pass
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


class ContentError(Exception):
    """One mistake in the content, shown as `path:line: message`."""

    def __init__(self, source: Source | None, message: str):
        super().__init__(message)
        self.source = source
        self.message = message

    def __str__(self) -> str:
        return f"{self.source}: {self.message}" if self.source else self.message

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ContentError) and str(self) == str(other)

    def __hash__(self) -> int:
        return hash(str(self))


class ContentErrors(Exception):
    """Every mistake found in one pass, so the user can fix them all before the next run."""

    def __init__(self, errors: list[ContentError]):
        super().__init__(f"{len(errors)} content error(s)")
        self.errors = sorted(set(errors), key=_error_order)

    SHOWN = 100  # errors listed one by one; a pack with thousands of mistakes gets the first and a count

    def __str__(self) -> str:
        lines = [str(e) for e in self.errors[:self.SHOWN]]
        count = len(self.errors)
        if count > self.SHOWN:
            lines.append(f"… and {count - self.SHOWN:,} more content errors (the first {self.SHOWN} are shown)")
        lines.append(f"build failed: {count:,} content error{'s' if count != 1 else ''}")
        return "\n".join(lines)


class UsageError(Exception):
    """A bad command-line option: one line naming the option and what it allows (exit code 2)."""


class RenderError(Exception):
    """A template or layout problem that is not the content's fault (shown without a traceback)."""


def _error_order(error: ContentError) -> tuple:
    if error.source is None:
        return ("", 0, error.message)
    return (error.source.path, error.source.line, error.message)
