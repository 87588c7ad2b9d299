"""Delve rules as the pre-rolled dungeons print them: sections split at `##`, tables set three or two to a line."""

from __future__ import annotations

from dungeonpress.views.delve_rules import rule_sections, rule_table_view


def test_sections_split_at_level_two_headings_and_drop_the_title():
    text = "# Title\nintro\n\n## The Oracle\nAsk it.\n\n## Doors, Puzzles and the End\nOpen them.\n[[table harm]]\n"
    assert rule_sections(text) == [("The Oracle", "the-oracle", "Ask it."),
                                   ("Doors, Puzzles and the End", "doors-puzzles-and-the-end", "Open them.\n[[table harm]]")]
    assert rule_sections("no sections at all") == []


def test_the_harm_table_prints_answer_and_harm_three_to_a_line(content):
    view = rule_table_view(content.table("harm"), content)
    assert view["title"] == "Harm & Luck" and view["die"] == ""
    assert [[cell["label"] for cell in line] for line in view["lines"]] == [["Yes, and…", "Yes", "Yes, but…"],
                                                                          ["No, but…", "No", "No, and…"]]
    # the meaning column is told in the rule's prose; a short result never breaks inside
    assert [cell["text"] for line in view["lines"] for cell in line] == [
        "Cause\u00a03", "Cause\u00a02", "Cause\u00a01", "Take\u00a01", "Take\u00a02", "Take\u00a03"]


def test_a_rolled_table_prints_its_rolls_two_to_a_line(content):
    view = rule_table_view(content.table("complications"), content)
    assert view["die"] == "d6"
    assert [[cell["label"] for cell in line] for line in view["lines"]] == [["1", "2"], ["3", "4"], ["5", "6"]]
    assert view["lines"][1][0]["text"] == content.table("complications").rows[2].text


def test_every_rule_the_products_print_is_in_the_content(content):
    """The delve rules cover what a pre-rolled dungeon asks of its player (issue 23)."""
    titles = [title for title, _, _ in rule_sections(content.delve_rules.text)]
    assert titles == ["The Oracle", "Conflict", "Navigation and Light", "Fatigue, Gear and Rest", "Doors, Puzzles and the End"]
