"""views.chapter: a chapter's directives → the partial template and the values each one shows."""

from __future__ import annotations

import pytest

from dungeonpress.errors import RenderError
from dungeonpress.views import oracle as oracle_views
from dungeonpress.views.chapter import Block, Directive, directive_block, same_name


def test_a_table_directive_shows_the_table_and_its_title_unless_the_heading_says_it(content):
    table = content.table("traps")
    block = directive_block(content, Directive("table", "traps", None), [])
    assert block.template == "partials/table.html.j2"
    view = block.context["table"]
    assert view["id"] == "traps" and view["show_title"] is True
    assert len(view["rows"]) == len(table.rows)
    under_own = directive_block(content, Directive("table", "traps", table.title.upper()), [])
    assert under_own.context["table"]["show_title"] is False  # the heading already names it, in any case
    under_other = directive_block(content, Directive("table", "traps", "Something else"), [])
    assert under_other.context["table"]["show_title"] is True


def test_an_unknown_table_is_a_key_error_naming_it(content):
    with pytest.raises(KeyError, match="no_such"):
        directive_block(content, Directive("table", "no_such", None), [])


def test_bestiary_and_media_directives(content):
    creatures = [{"name": "Rat"}]
    assert directive_block(content, Directive("bestiary", None, None), creatures) == Block(
        "partials/bestiary.html.j2", {"creatures": creatures})
    media = directive_block(content, Directive("media", None, "Inspiration"), [])
    assert media.template == "partials/media.html.j2"
    assert [g["type"] for g in media.context["groups"]] == [g.type for g in content.media]


def test_odds_directives_show_the_oracle_and_harm_odds(content):
    assert directive_block(content, Directive("odds", "oracle", None), []) == Block(
        "partials/odds_oracle.html.j2", {"odds": oracle_views.oracle_odds_view()})
    assert directive_block(content, Directive("odds", "harm", None), []) == Block(
        "partials/odds_harm.html.j2", {"odds": oracle_views.harm_odds_view()})


@pytest.mark.parametrize("directive, message", [
    (Directive("odds", "dice", None), "unknown directive [[odds dice]]"),
    (Directive("odds", None, None), "unknown directive [[odds]]"),
    (Directive("map", "level1", "Maps"), "unknown directive [[map level1]]"),
])
def test_an_unknown_directive_is_one_render_error(content, directive, message):
    with pytest.raises(RenderError) as caught:
        directive_block(content, directive, [])
    assert str(caught.value) == message


# Issue 27: a caption that repeats the heading above it reads as a stutter.
@pytest.mark.parametrize("heading, title, same", [
    ("Stress Tags", "Stress Tags", True),
    ("The Navigation Check", "Navigation Check", True),
    ("Dungeon Name Adjectives", "Name Adjectives", True),
    ("Traps", "Trap Triggers", False),
    ("Treasure", "Minor Treasures", False),
    ("Ancient Inscriptions", "Deciphering Inscriptions", False),
])
def test_a_title_that_repeats_its_heading_is_the_same_name(heading, title, same):
    assert same_name(heading, title) is same
