"""views.chapter: a chapter's directives → the partial template and the values each one shows."""

from __future__ import annotations

import pytest

from dungeonpress import render
from dungeonpress.errors import RenderError
from dungeonpress.views import oracle as oracle_views
from dungeonpress.views.chapter import TOLD_SHARE, Block, Directive, _content_words, directive_block, same_name, untold


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


# A table's caption in a chapter says only what the text just above it has not (untold).

CHAPTER = """# Traps

## Detecting a Trap

Ask the Oracle: "Do I detect a trap here?"

[[table trap_detection]]

[[table traps]]

## Treasure

Nothing above this one.

[[table minor_treasures]]
"""


def test_text_round_directives_is_the_prose_since_the_heading():
    assert render.text_round_directives(CHAPTER) == [
        'Ask the Oracle: "Do I detect a trap here?"',
        'Ask the Oracle: "Do I detect a trap here?"',  # a directive line adds no prose
        "Nothing above this one.",
    ]
    assert len(render.text_round_directives(CHAPTER)) == len(render.chapter_directives(CHAPTER))


def test_the_prose_round_a_directive_takes_in_the_paragraph_just_below_it():
    # the Navigation Check's caption said what the paragraph under its table says ("Any No answer is a failed
    # Navigation check"); a directive or a heading right below leaves nothing to add
    chapter = ("## Navigation\n\nAsk the Oracle.\n\n[[table navigation_check]]\n\nAny No answer fails.\nRoll for Fatigue.\n\n"
               "A later paragraph.\n\n[[table complications]]\n\n[[table traps]]\n## Next\n")
    assert render.text_round_directives(chapter) == [
        "Ask the Oracle. Any No answer fails. Roll for Fatigue.",
        "Ask the Oracle. Any No answer fails. Roll for Fatigue. A later paragraph.",  # the heading's prose so far
        "Ask the Oracle. Any No answer fails. Roll for Fatigue. A later paragraph.",
    ]


def test_untold_drops_the_sentences_the_text_above_already_says():
    note = "Ask: Do I detect a trap here? A but… might cost time or light."
    assert untold(note, 'Ask the Oracle: "Do I detect a trap here?"') == "A but… might cost time or light."
    assert untold(note, "") == note  # the tables booklet: the caption is the only introduction
    assert untold(note, "Something else entirely about rations.") == note
    assert untold("Roll when a room offers a reward.", "When a room offers a reward, roll 2d6.") == ""


def test_a_chapter_table_keeps_its_caption_unless_the_text_above_says_it(content):
    told = directive_block(content, Directive("table", "trap_detection", "Detecting a Trap",
                                              above='Ask the Oracle: "Do I detect a trap here?"'), [])
    whole = directive_block(content, Directive("table", "trap_detection", "Detecting a Trap"), [])
    assert whole.context["table"]["note"] == content.table("trap_detection").note
    assert told.context["table"]["note"] and "Do I detect" not in told.context["table"]["note"]


def test_no_caption_in_the_rulebook_repeats_the_text_above_it(content):
    # every table a chapter of the book shows: none of its caption's sentences is mostly words of the
    # text between its heading and the table (rulebook p27 and p60 printed such captions)
    for chapter in content.book.chapters:
        pairs = zip(render.chapter_directives(chapter.text), render.text_round_directives(chapter.text))
        for (name, arg, heading), above in pairs:
            if name != "table":
                continue
            note = directive_block(content, Directive(name, arg, heading, above=above), [])
            told = _content_words(above)
            for sentence in filter(None, note.context["table"]["note"].split(". ")):
                words = _content_words(sentence)
                assert len(words & told) < TOLD_SHARE * max(1, len(words)), (chapter.path, arg, sentence)
