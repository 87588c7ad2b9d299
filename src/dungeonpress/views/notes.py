"""Notes pages: how many, their heading and ruled lines → the spare pages a booklet is padded with."""

from __future__ import annotations

SPARE_ID = "notes-"  # the id prefix paginate.pages.pad_to_multiple and keep_pages look for


def notes_view(count: int, *, heading: str = "Notes", lines: int = 21, cls: str = "notes", tag: str = "h1") -> list:
    """`count` notes pages, each with `lines` ruled lines; ids `notes-1`… so spare ones can be dropped after layout."""
    return [notes_page(f"{SPARE_ID}{n}", heading=heading, lines=lines, cls=cls, tag=tag) for n in range(1, count + 1)]


def notes_page(page_id: str, *, heading: str = "Notes", lines: int = 21, cls: str = "notes", tag: str = "h1") -> dict:
    """One notes page for the notes macro: its id, class, heading and one item per ruled line."""
    return {"id": page_id, "cls": cls, "tag": tag, "heading": heading, "lines": list(range(lines))}
