"""Book chapters: the directives a chapter holds (`[[table traps]]`) → the partial template and view each one shows."""

from __future__ import annotations

import re
from dataclasses import dataclass

from dungeonpress.errors import RenderError
from dungeonpress.model import Content
from dungeonpress.views import oracle as oracle_views
from dungeonpress.views import tables as views


@dataclass(frozen=True)
class Directive:
    """A line holding only `[[name arg]]`, and the text of the heading it sits under (if any)."""

    name: str
    arg: str | None
    heading: str | None
    above: str = ""  # the prose round the directive (render.text_round_directives): what its caption need not repeat


@dataclass(frozen=True)
class Block:
    """What a directive becomes: a partial template and the values it prints."""

    template: str
    context: dict


def _name_words(text: str) -> str:
    words = re.sub(r"[^\w\s]", " ", text.casefold()).split()
    return " ".join(words[1:] if words and words[0] in ("the", "a", "an") else words)


def same_name(heading: str, title: str) -> bool:
    """A table's title that only repeats the heading above it ("The Navigation Check" over "Navigation
    Check", "Dungeon Name Adjectives" over "Name Adjectives"): printed twice, it reads as a stutter."""
    a, b = _name_words(heading), _name_words(title)
    return bool(a and b) and (a == b or f" {b} " in f" {a} " or f" {a} " in f" {b} ")


_SENTENCE = re.compile(r"(?<=[.?!])\s+(?=[A-Z*])")
_SMALL_WORDS = frozenset("the a an and or of to in on at it is be as by for with you your when that this if".split())
TOLD_SHARE = 0.7  # a caption's sentence whose words are this much in the text above says nothing new


def _content_words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z]+", text.casefold()) if w not in _SMALL_WORDS}


def untold(note: str, above: str) -> str:
    """A table's caption without the sentences the text just above it already says.

    A caption that repeats the line above it ("Ask the Oracle: Do I detect a trap here?" over
    "Ask: Do I detect a trap here?") reads as a stutter; in the tables booklet, with no text above,
    the same caption is the table's only introduction, so it is written whole and trimmed here.
    """
    told = _content_words(above)
    if not told:
        return note
    kept = [sentence for sentence in _SENTENCE.split(note.strip())
            if len(_content_words(sentence) & told) < TOLD_SHARE * max(1, len(_content_words(sentence)))]
    return " ".join(kept)


def directive_block(content: Content, directive: Directive, creatures: list) -> Block:
    """The block a directive shows, resolved before rendering so the renderer never calls back for it."""
    name, arg, heading = directive.name, directive.arg, directive.heading
    if name == "table":
        table = content.table(arg)
        view = views.table_view(table, content)
        view["show_title"] = not heading or not same_name(heading, table.title)
        view["note"] = untold(view["note"], directive.above)
        view["long_note"] = views.long_note(view["note"])
        return Block("partials/table.html.j2", {"table": view})
    if name == "bestiary":
        return Block("partials/bestiary.html.j2", {"creatures": creatures})
    if name == "media":
        return Block("partials/media.html.j2", {"groups": views.media_view(content)})
    if name == "odds" and arg == "oracle":
        return Block("partials/odds_oracle.html.j2", {"odds": oracle_views.oracle_odds_view()})
    if name == "odds" and arg == "harm":
        return Block("partials/odds_harm.html.j2", {"odds": oracle_views.harm_odds_view()})
    if name == "odds" and arg == "fight":
        return Block("partials/odds_fight.html.j2", {"odds": oracle_views.fight_odds_view()})
    raise RenderError(f"unknown directive [[{name}{' ' + arg if arg else ''}]]")
