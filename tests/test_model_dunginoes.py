"""model.dunginoes: games, tiles and domino maps as data; who escaped, a tile's domino and its grid cells."""

from __future__ import annotations

from dungeonpress.model.dunginoes import SOLO_GOAL, GameResult, Tile, square


def test_escaped_needs_a_score_above_the_goal_and_no_stun():
    result = GameResult(scores=(SOLO_GOAL + 1, SOLO_GOAL, 20, 0), stunned=(False, False, True, True), turns=9,
                        rooms=5, fights_won=1, fights_lost=2, stalled=False)
    assert result.escaped == (True, False, False, False)


def test_square_is_the_four_cells_around_a_half_centre():
    assert square(3, 5) == ((2, 4), (3, 4), (2, 5), (3, 5))


def test_a_tile_reads_its_domino_from_its_halves_and_covers_eight_cells():
    tile = Tile(room=2, halves=((3, 5, 4), (5, 5, 1)), parent=1, via=None)
    assert tile.domino == (4, 1)
    cells = tile.cells()
    assert len(cells) == len(set(cells)) == 8
    assert set(cells) == set(square(3, 5)) | set(square(5, 5))
