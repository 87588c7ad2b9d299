"""Every loader and validator error, with the exact line the user sees."""

from __future__ import annotations

import pytest

from tests.conftest import MOOD_D6 as D6
from tests.conftest import content_errors, validate_folder

def errors_of(make_pack, files) -> list[str]:
    return content_errors(make_pack(files))


def test_a_good_pack_validates(make_pack):
    content = validate_folder(make_pack({"tables/mood.yaml": D6}))
    table = content.table("mood")
    assert [row.label for row in table.rows] == ["1", "2", "3", "4", "5", "6"]
    assert table.row_for(4).get("mood") == "Calm"


@pytest.mark.parametrize("text, expected", [
    # a missing result: the message the issue asks for, word for word
    ("""
     id: room_type
     title: Room Type
     die: 2d6
     source: dungeoneer
     columns: {room: Room}
     rows:
       2: a
       3: b
       4: c
       5: d
       6: e
       8: f
       9: g
       10: h
       11: i
       12: j
     """, "pack/tables/room_type.yaml:7: table 'room_type' has no row for 7 (a 2d6 table needs 2-12)"),
    ("""
     id: t
     title: T
     die: d7
     source: core
     columns: {a: A}
     rows: {1: x}
     """, "pack/tables/t.yaml:3: unknown dice 'd7' (expected one of d4, d6, d8, d10, d12, d20, 2d6, d66, d100, none)"),
    ("""
     id: t
     title: T
     die: d6
     source: core
     columns: {a: A}
     rows:
       1-3: x
       3-6: y
     """, "pack/tables/t.yaml:8: table 't' covers 3 twice (also at line 7)"),
    ("""
     id: t
     title: T
     die: d6
     source: core
     colour: red
     columns: {a: A}
     rows: {1-6: x}
     """, "pack/tables/t.yaml:5: table 't' has unknown field 'colour' (expected one of columns, die, group, id, note, rows, source, title)"),
    ("""
     id: t
     title: T
     die: d6
     source: core
     columns: {a: A, b: B}
     rows:
       1-5: {a: x, b: y}
       6: {a: z}
     """, "pack/tables/t.yaml:8: row 6 of table 't' has no 'b' (columns: a, b)"),
    ("""
     id: t
     title: T
     die: d66
     source: core
     columns: {a: A}
     rows:
       11-16: x
     """, ["pack/tables/t.yaml:7: table 't' has no row for 11, 12, 13, 14, 15, 16, … (a d66 table needs the 36 results 11-66)",
           "pack/tables/t.yaml:7: table 't': row key '11-16': a d66 table cannot use ranges (give each result its own row)"]),
    ("""
     id: t
     title: T
     die: d6
     source: core
     columns: {a: A}
     rows:
       1-6: x
       1-6: y
     """, "pack/tables/t.yaml:8: duplicate key '1-6' (first at line 7)"),
    ("""
     id: t
     title: T
     die: d6
     source: core
     columns: {a: A}
     rows:
       1-6: [x
     """, "pack/tables/t.yaml:8: YAML syntax error: expected ',' or ']', but got '<stream end>'"),
    ("""
     id: t
     title: &x T
     die: d6
     source: core
     columns: {a: *x}
     rows: {1-6: x}
     """, "pack/tables/t.yaml:5: YAML syntax error: aliases (*name) are not allowed in content files"),
    ("""
     id: t
     title: !!python/object/apply:os.system ["true"]
     die: d6
     source: core
     columns: {a: A}
     rows: {1-6: x}
     """, "pack/tables/t.yaml:2: unsupported YAML tag 'tag:yaml.org,2002:python/object/apply:os.system'"),
])
def test_table_errors(make_pack, text, expected):
    expected = expected if isinstance(expected, list) else [expected]
    name = expected[0].split("/")[2].split(":")[0]
    assert errors_of(make_pack, {"tables/" + name: text}) == expected


def test_every_error_is_reported_in_one_run(make_pack):
    bad = D6.replace("die: d6", "die: d6\nshape: round").replace("  6: Wild\n", "")
    messages = errors_of(make_pack, {"tables/mood.yaml": bad, "tables/other.yaml": D6.replace("id: mood", "id: other").replace("die: d6", "die: d9")})
    assert messages == [
        "pack/tables/mood.yaml:4: table 'mood' has unknown field 'shape' (expected one of columns, die, group, id, note, rows, source, title)",
        "pack/tables/mood.yaml:8: table 'mood' has no row for 6 (a d6 table needs 1-6)",
        "pack/tables/other.yaml:3: unknown dice 'd9' (expected one of d4, d6, d8, d10, d12, d20, 2d6, d66, d100, none)",
    ]


def test_duplicate_table_ids(make_pack):
    messages = errors_of(make_pack, {"tables/mood.yaml": D6, "tables/zmood.yaml": D6})
    assert messages == [
        "pack/tables/zmood.yaml:1: duplicate table id 'mood' (first defined at pack/tables/mood.yaml:1)",
        "pack/tables/zmood.yaml:1: table 'mood' is in a file named 'zmood.yaml' (the file must be 'mood.yaml')",
    ]


def test_chapter_referring_to_a_missing_table(make_pack):
    messages = errors_of(make_pack, {
        "tables/mood.yaml": D6,
        "book.yaml": "title: Book\nchapters:\n  - rules/one.md\n  - rules/two.md\n",
        "rules/one.md": "# One\n\nText.\n\n[[table moods]]\n[[tabel mood]]\n",
    })
    assert messages == [
        "pack/book.yaml:4: chapter file 'rules/two.md' does not exist (did you mean 'rules/one.md'?)",
        "pack/rules/one.md:5: chapter 'rules/one.md' refers to table 'moods' which does not exist (did you mean 'mood'?)",
        "pack/rules/one.md:6: unknown directive 'tabel' (expected table, bestiary, media or odds)",
    ]


def test_see_must_name_a_table(make_pack):
    text = D6.replace("  6: Wild", "  6: {mood: Wild, see: moood}")
    assert errors_of(make_pack, {"tables/mood.yaml": text}) == [
        "pack/tables/mood.yaml:12: row 6 of table 'mood' points to table 'moood' which does not exist (did you mean 'mood'?)"]


def test_non_living_creatures_have_no_goal(make_pack):
    creature = """
      11:
        name: Rust Golem
        tier: brute
        living: false
        concept: Hollow Guardian
        skills: [Crush, Endure]
        frailty: Water
        gear: [Iron Fists, Core Rune]
        goal: Guard
    """
    messages = errors_of(make_pack, {"bestiary.yaml": "id: bestiary\ntitle: Beasts\ncreatures:\n" + creature.replace("\n    ", "\n")})
    assert messages == [
        "pack/bestiary.yaml:5: the bestiary has no creature for 12, 13, 14, 15, 16, 21, … (a d66 bestiary needs all 36)",
        "pack/bestiary.yaml:13: creature 11 is not living, so it has no goal (remove it, or set living: true)",
    ]


def test_yaml_one_point_one_surprises_stay_text(make_pack):
    content = validate_folder(make_pack({"tables/mood.yaml": D6.replace("1: Grim", "1: no").replace("2: Tense", "2: '1:30'").replace("3: Quiet", "3: on")}))
    assert [content.table("mood").row_for(n).get("mood") for n in (1, 2, 3)] == ["no", "1:30", "on"]


def test_bytes_that_are_not_text(make_pack):
    assert errors_of(make_pack, {"tables/t.yaml": b"id: t\ntitle: \xff\n"}) == [
        "pack/tables/t.yaml:2: byte 0xff is not UTF-8 text (save the file as UTF-8)"]
    assert errors_of(make_pack, {"tables/t.yaml": b"id: t\ntitle: \x00\n"}) == [
        "pack/tables/t.yaml:2: NUL character in a text file (expected plain text)"]


@pytest.mark.slow
def test_deep_nesting_is_refused_cleanly(make_pack):
    assert errors_of(make_pack, {"tables/t.yaml": "a: " + "[" * 1000 + "]" * 1000 + "\n"}) == [
        "pack/tables/t.yaml:1: YAML syntax error: nested too deeply (more than 40 levels)"]


CHOICES = """
id: feat
title: Features
die: d6
source: core
columns: {feature: Feature}
rows:
  1-2:
    feature: Columns or statues
    choices:
      - {text: Columns, marks: [columns]}
      - {text: Statues, marks: [statues]}
  3-4: {feature: Rubble, marks: [rubble]}
  5-6: Quiet
"""


def test_rows_carry_marks_and_choices(make_pack):
    table = validate_folder(make_pack({"tables/feat.yaml": CHOICES})).table("feat")
    assert [(c.text, c.marks) for c in table.row_for(1).choices] == [("Columns", ("columns",)), ("Statues", ("statues",))]
    assert table.row_for(3).marks == ("rubble",) and not table.row_for(3).choices
    assert table.row_for(6).marks == () and table.row_for(6).choices == ()


@pytest.mark.parametrize("rows, expected", [
    ("  3-4: {feature: Rubble, marks: [dragon]}",
     "pack/tables/feat.yaml:12: row 3-4 of table 'feat': 'marks' must be a list of map marks from rubble, cracks, "
     "columns, statues, broken_statues, alcoves, water, altar, ritual, forge, library, vault, crates, furniture, barred, locked (got ['dragon'])"),
    ("  3-4: {feature: Rubble, marks: [rubble, rubble]}",
     "pack/tables/feat.yaml:12: row 3-4 of table 'feat': 'marks' names a mark twice (got ['rubble', 'rubble'])"),
    ("  3-4: {feature: Rubble, choices: [{text: One}]}",
     "pack/tables/feat.yaml:12: row 3-4 of table 'feat': 'choices' must be a list of two or more readings "
     "(got [{'text': 'One'}])"),
    ("  3-4: {feature: Rubble, choices: [{text: One}, {words: Two}]}",
     "pack/tables/feat.yaml:12: row 3-4 of table 'feat': choice 2 must be a mapping of 'text' and 'marks' "
     "(got {'words': 'Two'})"),
    ("  3-4: {feature: Rubble, marks: [rubble], choices: [{text: One}, {text: Two}]}",
     "pack/tables/feat.yaml:12: row 3-4 of table 'feat' has both 'marks' and 'choices' (give each choice its own marks)"),
])
def test_bad_marks_and_choices_are_one_line_each(make_pack, rows, expected):
    text = CHOICES.replace("  3-4: {feature: Rubble, marks: [rubble]}", rows)
    assert errors_of(make_pack, {"tables/feat.yaml": text}) == [expected]


def test_delve_rules_are_read_and_may_hold_only_table_directives(make_pack):
    rules = "# Rules\n\n## Mood\n\nRoll it.\n\n[[table mood]]\n"
    content = validate_folder(make_pack({"tables/mood.yaml": D6, "delve-rules.md": rules}))
    assert content.delve_rules.text == rules and content.delve_rules.source.path == "pack/delve-rules.md"
    bad = "## Mood\n\n[[table moods]]\n\n[[bestiary]]\n"
    assert errors_of(make_pack, {"tables/mood.yaml": D6, "delve-rules.md": bad}) == [
        "pack/delve-rules.md:3: chapter 'delve-rules.md' refers to table 'moods' which does not exist "
        "(did you mean 'mood'?)",
        "pack/delve-rules.md:5: 'delve-rules.md' may not hold [[bestiary]] (expected [[table ...]])"]
