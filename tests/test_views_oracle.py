"""views.oracle: the oracle's rules → the printed answer grid, its notes and the exact odds tables."""

from __future__ import annotations

from fractions import Fraction

from dungeonpress.generate import oracle
from dungeonpress.views.oracle import harm_odds_view, oracle_odds_view, oracle_strip_view


def test_the_strip_grid_reads_the_rules_for_each_pair_of_dice():
    view = oracle_strip_view()
    assert [row["dice"] for row in view["rows"]] == ["Both 4–6", "One of each", "Both 1–3"]
    assert [(row["yes"]["answer"], row["no"]["answer"]) for row in view["rows"]] == [
        ("Yes, and…", "No, and…"), ("Yes", "No"), ("Yes, but…", "No, but…")]
    assert [(row["yes"]["harm"], row["no"]["harm"]) for row in view["rows"]] == [
        ("cause 3", "take 3"), ("cause 2", "take 2"), ("cause 1", "take 1")]


def test_the_strip_notes_say_what_equal_dice_mean():
    notes = {note["term"]: note["text"] for note in oracle_strip_view()["notes"]}
    assert set(notes) == {"Equal dice:", "Advantage:", "Conflict:"}
    assert notes["Equal dice:"].startswith("read Yes, but… and add 1 to the twist counter")
    assert "cause 1, no twist" in notes["Equal dice:"]


def test_odds_rows_are_the_exact_odds_of_each_mode():
    view = oracle_odds_view()
    assert view["modes"] == ["Plain", "Advantage", "Disadvantage"]
    assert [row["answer"] for row in view["rows"]] == [*oracle.ANSWERS, "Double (Yes, but… and +1 twist)"]
    plain = {row["answer"]: row["cells"][0] for row in view["rows"]}
    assert plain["Yes"] == "25.0%" and plain["Yes, and…"] == "8.3%" and plain["Double (Yes, but… and +1 twist)"] == "16.7%"
    for column, mode in enumerate(oracle.MODES):
        odds = oracle.oracle_odds(mode)
        assert [row["cells"][column] for row in view["rows"]] == [oracle.percent(odds[a])
                                                                  for a in (*oracle.ANSWERS, oracle.DOUBLE)]


def test_odds_summary_counts_doubles_as_yes_and_a_twist_every_eighteen_rolls():
    summary = oracle_odds_view()["summary"]
    assert summary["yes"] == ["58.3%", "74.5%", "42.1%"]
    assert summary["twist_every"] == 18  # a double one roll in six, a twist at three doubles


def test_harm_rows_add_the_doubles_to_cause_one_and_the_averages():
    view = harm_odds_view()
    assert [row["answer"] for row in view["rows"]] == [
        "Yes, and… (Cause 3)", "Yes (Cause 2)", "Yes, but… (Cause 1)",
        "No, but… (Take 1)", "No (Take 2)", "No, and… (Take 3)"]
    assert view["rows"][2]["cells"][0] == oracle.percent(Fraction(9, 36)) == "25.0%"
    assert view["dealt"][0] == "1.00" and view["taken"][0] == "0.83"
    assert float(view["dealt"][1]) > float(view["dealt"][0]) > float(view["dealt"][2])


def test_the_fight_table_reads_each_starting_luck_against_a_foe_at_six_in_every_mode():
    from dungeonpress.views.oracle import fight_odds_view
    view = fight_odds_view()
    assert view["modes"] == ["Plain", "Advantage", "Disadvantage"]
    assert [row["answer"] for row in view["rows"]] == ["Luck 6 (no Stress)", "Luck 5 (1 Stress tag)",
                                                      "Luck 4 (2 Stress tags)", "Luck 3 (3 Stress tags)"]
    assert view["rows"][0]["cells"] == [oracle.percent(oracle.fight_odds(m, 6)[0]) for m in oracle.MODES]
    assert view["rows"][0]["cells"] == ["58.8%", "83.4%", "28.8%"]
    assert view["lasts"] == ["4.9", "4.2", "4.4"]
