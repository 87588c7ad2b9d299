"""views.foes: creatures, rivals and a dungeon's inhabitants → card views, and where the cards sit on a sheet (mm)."""

from __future__ import annotations

import itertools

import pytest

from dungeonpress.dice import sub_rng
from dungeonpress.generate.character import generate_character
from dungeonpress.generate.dungeon import generate_dungeon
from dungeonpress.products import options
from dungeonpress.views import foes as views


@pytest.mark.parametrize("size, paper", list(itertools.product(views.CARD_SIZES, options.PAPERS)))
def test_cards_fit_the_sheet_touch_without_overlap_and_marks_sit_on_the_cuts(size, paper):
    g = views.sheet_geometry(size, paper)
    boxes = [(x, y, x + g["card_w"], y + g["card_h"]) for x, y in g["slots"]]
    assert len(boxes) == {("a7", "a4"): 8, ("a7", "letter"): 6}.get((size, paper), 4)
    for x0, y0, x1, y1 in boxes:
        assert 0 <= x0 and x1 <= g["sheet_w"] + 1e-9 and 0 <= y0 and y1 <= g["sheet_h"] + 1e-9
    for a, b in itertools.combinations(boxes, 2):
        overlap_w = min(a[2], b[2]) - max(a[0], b[0])
        overlap_h = min(a[3], b[3]) - max(a[1], b[1])
        assert overlap_w <= 1e-6 or overlap_h <= 1e-6
    for m in g["marks"]:  # every mark lies along a cut (shared by the cards on both sides)
        assert (m["x1"] == m["x2"] and m["x1"] in g["cuts"]["x"]) or (m["y1"] == m["y2"] and m["y1"] in g["cuts"]["y"])
    # every cut line has a mark at both ends: at the cards' edge, or inside the printable area when they reach the sheet's
    top, bottom = g["slots"][0][1], g["slots"][-1][1] + g["card_h"]
    left, right = g["slots"][0][0], g["slots"][-1][0] + g["card_w"]
    for x in g["cuts"]["x"]:
        on = [m for m in g["marks"] if m["width"] == 0 and m["x1"] == x]
        assert min(m["y1"] for m in on) <= max(views.SAFE_EDGE, top) + 1e-6
        assert max(m["y2"] for m in on) >= min(g["sheet_h"] - views.SAFE_EDGE, bottom) - 1e-6
    for y in g["cuts"]["y"]:
        on = [m for m in g["marks"] if m["height"] == 0 and m["y1"] == y]
        assert min(m["x1"] for m in on) <= max(views.SAFE_EDGE, left) + 1e-6
        assert max(m["x2"] for m in on) >= min(g["sheet_w"] - views.SAFE_EDGE, right) - 1e-6


def test_non_living_creatures_have_no_goal_motive_or_nemesis(content):
    for creature in content.creatures:
        labels = [t["label"] for t in views.creature_card(creature)["tags"]]
        assert labels[:4] == ["Concept", "Skills", "Frailty", "Gear"]
        assert ("Goal" in labels) == creature.living, creature.name


def test_a_creature_card_has_its_tags_kicker_and_six_luck_boxes(content):
    creature = next(c for c in content.creatures if c.living)
    card = views.creature_card(creature, "Met in room 3")
    assert (card["kind"], card["title"], card["key"], card["where"]) == ("foe", creature.name, str(creature.key),
                                                                         "Met in room 3")
    assert card["kicker"] == "Living" and card["tier"]["name"] == creature.tier.capitalize()
    assert card["luck"] == views.LUCK == 6 and card["luck_boxes"] == list(range(6))
    assert all(tag["text"] for tag in card["tags"])  # an empty tag is left out, not printed blank


def test_a_rival_card_is_a_rolled_delver(content):
    rival = generate_character(content, sub_rng(3, "rival"))
    card = views.rival_card(rival, 2)
    assert (card["kind"], card["key"], card["title"]) == ("npc", "R2", rival.name)
    assert [t["label"] for t in card["tags"]] == ["Concept", "Skills", "Frailty", "Gear", "Goal", "Motive", "Nemesis"]
    assert card["tags"][1]["text"] == ", ".join(s.value for s in rival.skills)
    assert card["luck_boxes"] == list(range(rival.luck))


def test_inhabitants_are_each_creature_once_with_every_place_it_is_met(content):
    seen_any = False
    for seed in range(20):
        dungeon = generate_dungeon(content, sub_rng(seed, "dungeon"), rooms=12)
        met = views.inhabitants(dungeon)
        keys = [creature.key for creature, _ in met]
        assert len(keys) == len(set(keys))
        expected = {}
        for room in dungeon.rooms:
            for chain in (room.encounter, room.treasure):
                if chain and chain.creature:
                    expected.setdefault(chain.creature.key, []).append(f"room {room.number}")
        for face, chain in enumerate(dungeon.wandering, start=1):
            if chain.creature:
                expected.setdefault(chain.creature.key, []).append(f"wandering {face}")
        assert {c.key: where for c, where in met} == {
            key: "Met in " + ", ".join(dict.fromkeys(places)) for key, places in expected.items()}
        seen_any = seen_any or bool(met)
    assert seen_any


def test_sheets_deal_the_cards_into_the_slots_eight_at_a_time():
    geometry = views.sheet_geometry("a7", "a4")
    cards = [{"n": n} for n in range(17)]
    dealt = views.sheets(cards, geometry)
    assert [len(sheet) for sheet in dealt] == [8, 8, 1]
    assert [slot["card"] for sheet in dealt for slot in sheet] == cards
    assert [(slot["x"], slot["y"]) for slot in dealt[0]] == geometry["slots"]
    assert views.sheets([], geometry) == []


@pytest.mark.parametrize("size, paper", list(itertools.product(views.CARD_SIZES, options.PAPERS)))
def test_mark_boxes_match_their_ends_and_labels_sit_between_the_marks(size, paper):
    g = views.sheet_geometry(size, paper)
    for m in g["marks"]:
        assert (m["left"], m["top"]) == (min(m["x1"], m["x2"]), min(m["y1"], m["y2"]))
        assert m["width"] == abs(m["x2"] - m["x1"]) and m["height"] == abs(m["y2"] - m["y1"])
        assert (m["width"] == 0) != (m["height"] == 0)  # each mark is a straight tick
        # no mark comes nearer the edge than a home printer prints
        assert min(m["x1"], m["x2"], m["y1"], m["y2"]) >= views.SAFE_EDGE - 1e-9
        assert max(m["x1"], m["x2"]) <= g["sheet_w"] - views.SAFE_EDGE + 1e-9
        assert max(m["y1"], m["y2"]) <= g["sheet_h"] - views.SAFE_EDGE + 1e-9
    labels = g["labels"]
    assert (labels is None) == (size == "a7")  # A7 cards reach the sheet's edge: no margin for a title
    if labels:
        assert labels["left"] == round(g["slots"][0][0] + views.LABEL_INSET, 2)
        assert labels["width"] == round(g["card_w"] - 2 * views.LABEL_INSET, 2)


@pytest.mark.parametrize("size,theme,kept", [("a7", "standard", 32), ("a7", "dyslexia-friendly", 18), ("3x5", "standard", 36)])
def test_a_stat_block_leaves_an_a7_card_room_for_its_creatures_description(content, size, theme, kept):
    """Tags set beside their labels take a line less each than under them: most A7 cards now keep the creature's
    description (18 of 36 did in the standard theme, 11 in the dyslexia theme, when every label had a line)."""
    cards = [views.fit_text(views.creature_card(creature), size, theme) for creature in content.creatures]
    assert sum(bool(card["flavour"]) for card in cards) >= kept
    assert all(views.MIN_PT <= card["text_pt"] <= views.LARGEST_PT[size] for card in cards)


def test_a_tag_is_as_tall_as_its_lines_beside_the_label_column():
    card = {"tags": [{"label": "Concept", "text": "Thieving Swarm"}, {"label": "Skills", "text": "word " * 30}],
            "flavour": ""}
    line = 10 * views.PT * views.LEADING
    beside = views._lines("word " * 30, 62.0 - views.label_column_mm(10), 10)
    assert views.label_column_mm(11) > views.label_column_mm(9)  # the labels' column grows with the type
    assert beside > views._lines("word " * 30, 62.0, 10)  # the words run in the narrower column
    assert views.text_height(card, 62.0, 10) == pytest.approx(2 * views.TAG_GAP_MM + (1 + beside) * line)


def test_a_tier_mark_fills_one_pip_per_tier_from_vermin_to_boss(content):
    from dungeonpress.validate import TIERS
    assert views.TIER_ORDER == TIERS  # the order the cards draw is every tier the content may name
    marks = [views.tier_mark(tier) for tier in TIERS]
    assert [sum(m["pips"]) for m in marks] == [1, 2, 3, 4, 5] and all(len(m["pips"]) == 5 for m in marks)
    assert [m["name"] for m in marks] == ["Vermin", "Minion", "Brute", "Elite", "Boss"]
    assert {views.creature_card(c)["tier"]["key"] for c in content.creatures} == set(TIERS)
    assert not any(views.blank_card()["tier"]["pips"])  # a blank card's pips are filled in pencil
