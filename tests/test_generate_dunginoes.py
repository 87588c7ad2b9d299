"""generate.dunginoes: the fight rule, the seeded game engine and simulator, and both domino map procedures."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from dungeonpress.generate import dunginoes as g
from tests.conftest import slow_fixture

SEEDS = range(150)


# --- the fight rule ---------------------------------------------------------------------------

@pytest.mark.parametrize("tile, wins", [
    ((1, 1), {1}),  # a double-one falls only to a 1
    ((3, 5), {3, 4, 5}),
    ((5, 3), {3, 4, 5}),  # either way round
    ((1, 6), {1, 2, 3, 4, 5, 6}),  # always
    ((0, 6), {1, 2, 3, 4, 5, 6}),  # a blank counts as 1
    ((0, 0), {1}),
    ((0, 2), {1, 2}),
    ((6, 6), {6}),
])
def test_fight_wins_between_the_ends(tile, wins):
    assert {roll for roll in range(1, 7) if g.fight_wins(tile, roll)} == wins
    assert g.win_chance(tile) * 6 == len(wins)


def test_the_set_is_a_double_six_set():
    assert len(g.DOUBLE_SIX_SET) == len(set(g.DOUBLE_SIX_SET)) == 28
    assert sum(g.is_double(t) for t in g.DOUBLE_SIX_SET) == 7
    assert g.pips((0, 6)) == 6  # a blank scores nothing; it only fights as a 1


def test_ends_after_a_double_opens_three():
    assert sorted(g.ends_after([4, 2], (4, 4), 4)) == [2, 4, 4, 4]
    assert sorted(g.ends_after([4, 2], (2, 5), 2)) == [4, 5]


# --- the game ---------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_games_end_with_sane_scores(players):
    rng = random.Random(f"games-{players}")
    for _ in range(150):
        result = g.play_game(rng, players)
        assert len(result.scores) == players
        for score, stunned in zip(result.scores, result.stunned):
            assert 0 <= score <= 23  # at most two dominoes, 6-6 and 5-6
            assert not (stunned and score)
        assert 1 <= result.rooms <= 28
        assert result.escaped == tuple(not s and x > 14 for x, s in zip(result.scores, result.stunned))


@pytest.mark.slow
def test_simulation_is_seeded():
    first = g.simulate.__wrapped__("test", 200, 50)
    again = g.simulate.__wrapped__("test", 200, 50)
    assert first == again
    assert 0 <= first.solo_escape <= 1
    assert [p for p, _ in first.average_score] == [1, 2, 3, 4]


# --- maps -------------------------------------------------------------------------------------

def _check_tree(dungeon: g.DominoMap):
    """No overlaps; rooms touch only their parent or children; parents come first (no loops)."""
    owner = {}
    for tile in dungeon.tiles:
        for cell in tile.cells():
            assert cell not in owner, f"room {tile.room} overlaps room {owner.get(cell)}"
            owner[cell] = tile.room
    parent = {t.room: t.parent for t in dungeon.tiles}
    for tile in dungeon.tiles:
        assert tile.parent < tile.room
        assert (tile.parent == 0) == (tile.room == 1)
        for x, y in tile.cells():
            for cell in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                other = owner.get(cell)
                if other and other != tile.room:
                    assert parent[other] == tile.room or parent[tile.room] == other, \
                        f"rooms {tile.room} and {other} touch but are not joined"


def _ends_of(dungeon: g.DominoMap, room: int) -> int:
    return (sum(1 for e in dungeon.open_ends if e.room == room)
            + sum(1 for t in dungeon.tiles if t.via and t.via.room == room)
            + sum(1 for e in dungeon.blocked if e.room == room))


@pytest.fixture(scope="module")
@slow_fixture
def before_maps():
    return [g.generate_map(random.Random(seed), 16, "before") for seed in SEEDS]


@pytest.fixture(scope="module")
@slow_fixture
def fly_maps():
    return [g.generate_map(random.Random(seed), 16, "fly") for seed in SEEDS]


@pytest.mark.slow
def test_before_maps_follow_the_procedure(before_maps):
    reached = 0
    for dungeon in before_maps:
        _check_tree(dungeon)
        tiles = {t.room: t for t in dungeon.tiles}
        used = [t.via for t in dungeon.tiles if t.via]
        assert len(used) == len(set(used)), "a free end took two dominoes"
        dominoes = [tuple(sorted(t.domino)) for t in dungeon.tiles]
        assert len(dominoes) == len(set(dominoes)) and set(dominoes) <= set(g.DOUBLE_SIX_SET)
        for tile in dungeon.tiles:
            near, far = tile.domino
            if tile.via:
                assert tile.via.value == near, "numbers must match"
                assert any(e == tile.via for e in _all_ends(dungeon, tiles[tile.parent]))
            expected = 3 if g.is_double(tile.domino) else (2 if tile.room == 1 else 1)
            assert _ends_of(dungeon, tile.room) == expected
            assert tile.crosswise == g.is_double(tile.domino)
        reached += len(dungeon.tiles) == 16
    assert reached > len(before_maps) * 0.7


def _all_ends(dungeon, tile):
    return [e for e in dungeon.open_ends if e.room == tile.room] + \
           [t.via for t in dungeon.tiles if t.via and t.via.room == tile.room]


@pytest.mark.slow
def test_before_maps_mark_a_special_room_when_stuck():
    specials = [t.special for seed in SEEDS for t in g.generate_map(random.Random(seed), 20, "before").tiles]
    assert any(specials) and all(isinstance(s, str) for s in specials)


@pytest.mark.slow
def test_fly_maps_follow_the_procedure(fly_maps):
    for dungeon in fly_maps:
        _check_tree(dungeon)
        assert len(dungeon.tiles) == 16
        assert dungeon.tiles[-1].final and dungeon.tiles[-1].domino in ((6, 6),)
        assert sum(t.final for t in dungeon.tiles) == 1
        for tile in dungeon.tiles:
            assert 1 <= tile.blocked_roll <= 8
            assert _ends_of(dungeon, tile.room) == 5  # every room has five possible exits
            assert (tile.risk, tile.reward) == tile.domino
            assert not (tile.locked and tile.secret)


def test_same_seed_same_map():
    for mode in g.MODES:
        assert g.generate_map(random.Random(9), 12, mode) == g.generate_map(random.Random(9), 12, mode)


@pytest.mark.parametrize("tile, low, high", [((3, 5), 3, 5), ((5, 3), 3, 5), ((0, 4), 1, 4), ((0, 0), 1, 1)])
def test_fight_range_counts_a_blank_as_one(tile, low, high):
    assert g.fight_range(tile) == (low, high)


def test_keep_value_is_pips_times_the_chance_to_beat_it_either_way_round():
    assert g.keep_value((1, 6)) == 7.0  # always beaten, seven pips
    assert g.keep_value((6, 6)) == pytest.approx(12 / 6)
    assert g.keep_value((5, 3)) == g.keep_value((3, 5)) == pytest.approx(8 * 3 / 6)
    assert g.keep_value((0, 0)) == 0.0


def test_play_game_is_seeded():
    first = [g.play_game(random.Random(seed), 2) for seed in range(30)]
    assert first == [g.play_game(random.Random(seed), 2) for seed in range(30)]
    assert len({(r.scores, r.turns) for r in first}) > 5


def test_a_small_simulation_adds_up():
    sim = g.simulate.__wrapped__("adds-up", 300, 60)
    assert (sim.seed, sim.solo_games, sim.group_games) == ("adds-up", 300, 60)
    assert 0 < sim.solo_escape and sim.solo_escape + sim.solo_stunned <= 1
    assert all(isinstance(v, Fraction) and 0 <= v <= 23 for _, v in sim.average_score)
    assert all(1 <= v <= 28 for _, v in sim.average_rooms)


def test_an_unknown_map_mode_is_refused():
    with pytest.raises(ValueError, match="unknown map mode 'spiral' \\(expected one of before, fly\\)"):
        g.generate_map(random.Random(1), 12, "spiral")
