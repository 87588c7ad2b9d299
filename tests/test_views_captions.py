"""A table's caption in a chapter says only what the text just above it has not (views.chapter.untold)."""

from __future__ import annotations

from dungeonpress import render
from dungeonpress.views.chapter import Directive, _content_words, TOLD_SHARE, directive_block, untold

CHAPTER = """# Traps

## Detecting a Trap

Ask the Oracle: "Do I detect a trap here?"

[[table trap_detection]]

[[table traps]]

## Treasure

Nothing above this one.

[[table minor_treasures]]
"""


def test_text_above_directives_is_the_prose_since_the_heading():
    assert render.text_above_directives(CHAPTER) == [
        'Ask the Oracle: "Do I detect a trap here?"',
        'Ask the Oracle: "Do I detect a trap here?"',  # a directive line adds no prose
        "Nothing above this one.",
    ]
    assert len(render.text_above_directives(CHAPTER)) == len(render.chapter_directives(CHAPTER))


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
        pairs = zip(render.chapter_directives(chapter.text), render.text_above_directives(chapter.text))
        for (name, arg, heading), above in pairs:
            if name != "table":
                continue
            note = directive_block(content, Directive(name, arg, heading, above=above), [])
            told = _content_words(above)
            for sentence in filter(None, note.context["table"]["note"].split(". ")):
                words = _content_words(sentence)
                assert len(words & told) < TOLD_SHARE * max(1, len(words)), (chapter.path, arg, sentence)
