"""The written tables say each idea once, fatigue is tiredness, and every trap says how it resolves.

The near-duplicate check folds words to concepts (tests/ideas.py) and compares every row this project
wrote with every other, across all its tables. On the tables as the playthrough found them it flags
57 of 748 rows (7.6%), among them every pair the playthrough named; the fixture below keeps those
rows, so the check is shown to catch them without the old tables.
"""

from __future__ import annotations

import re

import pytest

from tests import ideas

# Rows as they stood when the playthrough found them repeating one another.
OLD_ROWS = {
    "traps 13": ("traps", ["Poison Dart", "Pressure plate", "A dart bites your neck; gain Fatigue tag Numb Limbs."]),
    "traps 25": ("traps", ["Flash Rune", "Crossing a chalk circle",
                           "A searing white light; you are blind until the end of the scene."]),
    "traps 26": ("traps", ["Curse Glyph", "Reading the inscription aloud",
                           "The words turn on their reader; gain a Stress tag."]),
    "traps 52": ("traps", ["Closing Walls", "Shutting the door behind you", "The walls grind inward; get out within one scene."]),
    "minor_traps 12": ("minor_traps", ["Dart Slit", "Pressure plate under the dust",
                                       "A dart in the shoulder; gain Fatigue tag Stinging Wound."]),
    "minor_traps 36": ("minor_traps", ["Flash Sigil", "Touching the door rune",
                                       "A blinding flash; your next sight roll has Disadvantage."]),
    "minor_traps 52": ("minor_traps", ["Snuffing Draught", "Lifting a vent cover", "A cold gust snuffs every open flame."]),
    "major_traps 12": ("major_traps", ["Crushing Walls", "Lifting the reliquary from its shelf",
                                       "The walls grind together; escape within one scene or be crushed."]),
    "major_traps 31": ("major_traps", ["Soul Glyph", "Speaking the name carved on the tomb",
                                       "The glyph drinks your courage; gain two Stress tags that only daylight can clear."]),
    "environmental_hazards 21": ("environmental_hazards", ["Foul air: flames shrink and every breath is short"]),
    "environmental_hazards 51": ("environmental_hazards", ["A bitter draught snuffs every open flame"]),
    "environmental_hazards 66": ("environmental_hazards", ["Air so thin that every torch burns low and blue"]),
    "minor_treasures 23": ("minor_treasures", ["Saint's Tooth Reliquary"]),
    "major_treasures 32": ("major_treasures", ["Saint's skull reliquary: the dead recoil from it, and the saint judges you aloud"]),
    "hidden_treasures 66": ("hidden_treasures", ["Saint's bones in a silver reliquary",
                                                 "A cult wants them back and will pay in blood"]),
    "stress_tags 22": ("stress_tags", ["Brittle Temper"]),
    "stress_tags 52": ("stress_tags", ["Thin Patience"]),
    "delver_motives 11": ("delver_motives", ["A vow sworn over a grave"]),
    "delver_motives 15": ("delver_motives", ["The thrill of the dark"]),
    "delver_motives 35": ("delver_motives", ["The need to feel alive"]),
    "delver_motives 43": ("delver_motives", ["A promise to a dying mentor"]),
}
NAMED_PAIRS = [("traps 25", "minor_traps 36"), ("traps 13", "minor_traps 12"), ("traps 52", "major_traps 12"),
               ("traps 26", "major_traps 31"), ("environmental_hazards 51", "minor_traps 52"),
               ("environmental_hazards 21", "environmental_hazards 66"), ("minor_treasures 23", "major_treasures 32"),
               ("minor_treasures 23", "hidden_treasures 66"), ("stress_tags 22", "stress_tags 52"),
               ("delver_motives 11", "delver_motives 43"), ("delver_motives 15", "delver_motives 35")]


def written_rows(content) -> list:
    """Every row of every table this project wrote for Dungeoneer, as RowIdeas (one-word rows left out)."""
    rows = []
    for table in content.tables.values():
        if table.origin != "dungeonpress" or table.id.startswith("paperogue"):
            continue
        for row in table.rows:
            cells = [str(value) for _, value in row.values]
            if len(cells) == 1 and len(cells[0].split()) == 1:
                continue  # verbs, nouns and name parts: one word each, nothing to repeat
            creature = content.creature(row.creature).name if row.creature is not None else ""
            rows.append(ideas.row_idea(f"{table.id} {row.label}", table.id, cells, creature))
    return rows


def test_the_check_flags_every_repeat_the_playthrough_named():
    old = {name: ideas.row_idea(name, table, cells) for name, (table, cells) in OLD_ROWS.items()}
    for a, b in NAMED_PAIRS:
        assert ideas.repeats(old[a], old[b]), (a, b)
    flagged = {name for pair in ideas.repeated_pairs(list(old.values())) for name in pair}
    assert flagged == set(OLD_ROWS)  # the saint's third reliquary (major 32) meets the other two through minor 23


def test_the_check_lets_different_ideas_pass():
    def row(name, *cells):
        return ideas.row_idea(name, name.split()[0], list(cells))
    assert not ideas.repeats(row("traps 11", "Spiked Pit", "Hinged flagstone", "You drop onto rusted spikes."),
                             row("traps 12", "Drop Shaft", "Rotten planks under the dust", "You fall to the level below."))
    assert not ideas.repeats(row("stress_tags 11", "Jumping at Shadows"), row("stress_tags 12", "Creeping Dread"))


def test_no_two_written_rows_repeat_an_idea(content):
    rows = written_rows(content)
    assert len(rows) > 700
    assert ideas.repeated_pairs(rows) == []  # the issue allows 1%; the tables hold none


# Words that name a wound, not tiredness: a fatigue tag is what a long delve does to a body, not a trap.
INJURIES = re.compile(r"\b(torn|bruised|twisted|swollen|scraped|sprained|crushed|wrenched|broken|gashed|cut|"
                      r"cracked|pierced|bleeding|sliced|fractured)\b", re.IGNORECASE)


def test_fatigue_tags_are_tiredness_not_injuries(content):
    assert INJURIES.search("Sprained Wrist") and not INJURIES.search("Leaden Legs")
    injuries = [f"{row.label}: {row.get('tag')}" for row in content.table("fatigue_tags").rows
                if INJURIES.search(str(row.get("tag")))]
    assert injuries == []


# A trap that offers a way out ("run, or be crushed") must say how the way out is decided: an Oracle
# question or a time limit in scenes. Traps 33 and major traps 54 and 56 once left it to guesswork.
ESCAPE = re.compile(r"\b(or (be \w+|burn|drown|die|fall)|faster than)\b")
DECIDED = re.compile(r"\b(Oracle|scenes?)\b")


@pytest.mark.parametrize("table_id", ["traps", "minor_traps", "major_traps"])
def test_every_trap_with_a_way_out_says_how_it_is_decided(content, table_id):
    for old in ("A stone ball rumbles down the hall; run, or be crushed.",
                "Molten metal floods the channel you stand in; leap clear or burn.",
                "A black lake surges up the stairwell; climb faster than the water rises."):
        assert ESCAPE.search(old) and not DECIDED.search(old)
    undecided = [f"{row.label}: {row.get('effect')}" for row in content.table(table_id).rows
                 if ESCAPE.search(str(row.get("effect"))) and not DECIDED.search(str(row.get("effect")))]
    assert undecided == []
