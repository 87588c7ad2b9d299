"""Delve rules (a pack's delve-rules.md) → its sections and compact tables, as the pre-rolled dungeons print them."""

from __future__ import annotations

import re

from dungeonpress.model import Content, Table
from dungeonpress.views.tables import roll_label

# Columns a rule's table prints (the rest is said in the rule's prose): the Harm & Luck table's answer and harm.
RULE_COLUMNS = {"harm": ("answer", "harm")}
# Cells a line of a rule's table holds: the six short Harm & Luck answers in two lines; longer rows two to a line.
RULE_TABLE_ACROSS = {"harm": 3}
DEFAULT_ACROSS = 2
SHORT = 10  # characters: a result this short is never broken over two lines
_SECTION = re.compile(r"^##\s+(.+?)\s*$")
_RANGE = re.compile(r"\b\d+[–-]\d+\b")  # "4–6", "2-5": a range of die faces
_TAG = re.compile(r"(<[^>]*>)")


def keep_ranges_whole(html: str) -> str:
    """`html` with each range of die faces in its text ("both 4–6") set so no line breaks inside it (class nobr)."""
    parts = _TAG.split(html)
    return "".join(part if part.startswith("<") else _RANGE.sub(lambda m: f'<span class="nobr">{m.group(0)}</span>', part)
                   for part in parts)


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "rule"


def rule_sections(text: str) -> list:
    """(title, id, Markdown body) for each `##` section, in order; the `#` title and text before the first is left out."""
    sections, title, body = [], None, []
    for line in text.splitlines():
        match = _SECTION.match(line)
        if match:
            if title is not None:
                sections.append((title, slug(title), "\n".join(body).strip()))
            title, body = match.group(1), []
        elif title is not None:
            body.append(line)
    if title is not None:
        sections.append((title, slug(title), "\n".join(body).strip()))
    return sections


def rule_table_view(table: Table, content: Content) -> dict:
    """A table set small inside a rule: its title, then cells of roll (or answer) and result, three to a line."""
    keep = RULE_COLUMNS.get(table.id) or tuple(key for key, _ in table.columns)
    cells = []
    for row in table.rows:
        values = [str(value) for key, value in row.values if key in keep]
        label = roll_label(row.low, row.high) if table.rolled else values.pop(0)
        text = " ".join(values)
        # a short result ("Cause 3") stays on one line; the cell may still wrap between the answer and it
        cells.append({"label": label, "text": text.replace(" ", "\u00a0") if len(text) <= SHORT else text})
    across = RULE_TABLE_ACROSS.get(table.id, DEFAULT_ACROSS)
    lines = [cells[i:i + across] for i in range(0, len(cells), across)]
    die = {"none": ""}.get(table.die, table.die)
    return {"id": table.id, "title": table.title, "die": die, "lines": lines}
