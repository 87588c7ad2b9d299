"""views.dunginoes: a laid domino map and the simulated odds → map facts, room key, legend and odds tables."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from dungeonpress.generate import dunginoes
from dungeonpress.model.dunginoes import Simulation
from dungeonpress.views.dunginoes import (LEGEND, LONG_KEY, MODE_TITLES, fight_odds_view, legend_view, map_view,
                                          simulation_view)


@pytest.fixture(scope="module")
def laid(content):
    specials = content.tables.get("dunginoes_specials")
    return [dunginoes.generate_map(random.Random(seed), size, mode, specials)
            for seed in range(20) for mode in dunginoes.MODES for size in (8, 24)]


def test_fight_odds_fill_the_lower_triangle_with_winning_faces():
    view = fight_odds_view()
    assert view["lows"] == list(range(7)) and [row["high"] for row in view["rows"]] == list(range(7))
    for row in view["rows"]:
        for low, cell in enumerate(row["cells"]):
            if low > row["high"]:
                assert cell == {"text": "", "sure": False}
            else:
                faces = int(dunginoes.win_chance((low, row["high"])) * 6)
                assert cell["text"] == str(faces) and cell["sure"] == (faces == 6)
    assert view["rows"][6]["cells"][1] == {"text": "6", "sure": True}  # a 1–6 always falls
    assert view["rows"][6]["cells"][6]["text"] == "1"


def test_simulation_view_prints_counts_with_commas_and_odds_as_percent():
    sim = Simulation(seed="s", solo_games=4000, group_games=1000, solo_escape=Fraction(1, 4),
                     solo_stunned=Fraction(1, 8), average_score=((1, Fraction(27, 2)),), average_rooms=((1, Fraction(31, 2)),))
    view = simulation_view(sim)
    assert (view["solo_games"], view["group_games"], view["escape"], view["stunned"]) == ("4,000", "1,000", "25.0%", "12.5%")
    assert view["scores"] == [{"players": 1, "score": "13.5"}] and view["rooms"] == [{"players": 1, "rooms": "16"}]
    assert view["policy"] == dunginoes.POLICY and view["seed"] == "s"


def test_the_legend_lists_only_what_the_map_shows_in_legend_order(laid):
    order = [label for _, label in LEGEND]
    for dungeon in laid:
        labels = [entry["label"] for entry in legend_view(dungeon)]
        assert labels == [label for label in order if label in labels]
        assert labels[:2] == ["the way in", "room number, in the order laid"]
        assert ("secret exit" in labels) == any(t.secret for t in dungeon.tiles)
        assert ("the double six: final encounter" in labels) == any(t.final for t in dungeon.tiles)
        assert ("open exit, not yet explored" in labels) == (dungeon.mode == "fly" and bool(dungeon.open_ends))
        assert all(entry["svg"].startswith("<svg") for entry in legend_view(dungeon))


def test_the_map_key_has_a_row_per_room_and_names_the_way_in(content, laid):
    for dungeon in laid:
        view = map_view(content, dungeon, 5)
        assert view["title"] == MODE_TITLES[dungeon.mode] and view["laid"] == len(dungeon.tiles)
        assert view["laid_text"] == f"{len(dungeon.tiles)} room" + ("" if len(dungeon.tiles) == 1 else "s")
        assert view["short"] == (len(dungeon.tiles) < dungeon.size)
        assert [row["room"] for row in view["rooms"]] == [t.room for t in dungeon.tiles]
        assert view["rooms"][0]["door"] == "the way in"
        assert view["key_class"].endswith(" long") == (len(dungeon.tiles) > LONG_KEY)
        assert view["command"] == f"dungeonpress dunginoes --seed 5 --size {dungeon.size} --mode {dungeon.mode}"
        for tile, row in zip(dungeon.tiles, view["rooms"]):
            assert row["domino"] == f"{tile.domino[0]}–{tile.domino[1]}"
            assert row["notes"][:1] == row["notes"][:1].upper()
            if tile.final:
                assert row["notes"].startswith("Final encounter")
            if dungeon.mode == "fly":
                assert row["risk"].startswith(f"{tile.risk}: ") and row["blocked"] == f"d8 {tile.blocked_roll}"
            else:
                assert row["risk"] == row["reward"] == "" and row["door"] in ("the way in", f"on room {tile.parent}")


def test_a_fly_map_counts_its_unexplored_exits_in_words(content, laid):
    rows = [(end_count, row) for dungeon in laid if dungeon.mode == "fly"
            for tile, row in zip(dungeon.tiles, map_view(content, dungeon, 1)["rooms"])
            for end_count in [sum(1 for e in dungeon.open_ends if e.room == tile.room)] if end_count]
    assert rows
    for count, row in rows:
        assert f"{count} unexplored exit{'s' if count > 1 else ''}" in row["notes"].lower()
