"""Turn a seeded Random into Dunginoes games (rules engine, simulator) and domino dungeon maps.

The game is played on an abstract table: what a player can do depends only on the values of
the free ends, so the simulator keeps a list of them. The map generators lay real tiles on a
grid (one domino half is a 2 x 2 square of grid units) and never let two tiles overlap.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

from dungeonpress.dice import d, pick, roll_on, shuffled, sub_rng

# --- the set and the fight rule ------------------------------------------------------------

DOUBLE_SIX_SET = tuple((low, high) for low in range(7) for high in range(low, 7))  # 28 dominoes
SOLO_GOAL = 14  # a solo player wants to escape with more than this


def is_double(tile) -> bool:
    return tile[0] == tile[1]


def pips(tile) -> int:
    """What a domino scores: its pips (a blank scores nothing; it only fights as a 1)."""
    return tile[0] + tile[1]


def fight_range(tile) -> tuple[int, int]:
    """The rolls that beat a domino: between its two ends inclusive, a blank end counting as 1."""
    low, high = sorted(max(1, end) for end in tile)
    return low, high


def fight_wins(tile, roll: int) -> bool:
    low, high = fight_range(tile)
    return low <= roll <= high


def win_chance(tile) -> Fraction:
    low, high = fight_range(tile)
    return Fraction(high - low + 1, 6)


_KEEP = {tile: float(win_chance(tile)) * pips(tile) for tile in DOUBLE_SIX_SET}


def keep_value(tile) -> float:
    """The score a domino is expected to bring out of the boss fight: pips x chance to win."""
    return _KEEP[tuple(sorted(tile))]


# --- the game ------------------------------------------------------------------------------

POLICY = (
    "Each simulated player plays the least valuable domino that fits, but keeps a domino "
    "worth {keep} or more (pips times its chance to be beaten) and searches instead; after "
    "a won fight they keep the two dominoes worth most, and a lost fight flips the one worth "
    "least. A value of 0 means: always explore when a domino fits."
)
KEEP_AT = 4.0  # the simulated player's threshold (chosen by simulation, see `simulate`)


@dataclass
class _Player:
    up: list  # face-up dominoes: usable, and the loot
    down: list = field(default_factory=list)  # flipped by lost fights: unusable, scores nothing
    stunned: bool = False


@dataclass(frozen=True)
class GameResult:
    """One finished game: each player's score, whether they were stunned, and what happened."""

    scores: tuple
    stunned: tuple
    turns: int
    rooms: int  # dominoes on the table, the starting double included
    fights_won: int
    fights_lost: int
    stalled: bool  # the endgame came because nothing more could be played

    @property
    def escaped(self) -> tuple:
        """Solo goal per player: not stunned and a score above 14."""
        return tuple(not s and score > SOLO_GOAL for score, s in zip(self.scores, self.stunned))


def _fits(tile, ends: list) -> bool:
    return tile[0] in ends or tile[1] in ends


def _attach(rng: random.Random, tile, ends: list) -> None:
    """Put `tile` on a free end it matches (a random one if several): doubles open three ends."""
    options = [end for end in tile if end in ends]
    value = pick(rng, options)
    ends.remove(value)
    if is_double(tile):
        ends.extend([value] * 3)
    else:
        ends.append(tile[1] if value == tile[0] else tile[0])


def _fight(rng: random.Random, player: _Player, monster, pile: list) -> bool:
    """Roll one die against `monster`; a win swaps it into the hand, a loss flips a domino."""
    if fight_wins(monster, d(rng, 6)):
        player.up.append(monster)
        player.up.remove(min(player.up, key=keep_value))
        return True
    pile.insert(int(rng.random() * (len(pile) + 1)), monster)  # back into the heap, anywhere
    worst = min(player.up, key=keep_value)
    player.up.remove(worst)
    player.down.append(worst)
    player.stunned = not player.up
    return False


def play_game(rng: random.Random, players: int = 1, keep_at: float = KEEP_AT) -> GameResult:
    """Play one game of Dunginoes by the rules with `players` simulated players (see POLICY)."""
    # 1. Deal two each; without a double anywhere, everyone puts them back and redraws.
    while True:
        pile = shuffled(rng, DOUBLE_SIX_SET)
        hands = [_Player(up=[pile.pop(), pile.pop()]) for _ in range(players)]
        doubles = [(max((t for t in p.up if is_double(t)), default=None), i) for i, p in enumerate(hands)]
        doubles = [(t, i) for t, i in doubles if t is not None]
        if doubles:
            break
    start_tile, current = max(doubles)

    # 2. The starting player opens the dungeon with their highest double, draws, then takes a turn.
    ends = [start_tile[0]] * 3
    hands[current].up.remove(start_tile)
    hands[current].up.append(pile.pop())
    rooms, turns, won, lost, stalled = 1, 0, 0, 0, False
    endgame = not pile

    # 3. Turns go round until the last domino has been drawn (or nothing can be played).
    while not endgame:
        player = hands[current]
        if not player.stunned:
            if not any(_fits(t, ends) for t in pile) and not any(
                    _fits(t, ends) for p in hands if not p.stunned for t in p.up):
                stalled = True
                break
            turns += 1
            playable = sorted((t for t in player.up if _fits(t, ends)), key=keep_value)
            if playable and keep_value(playable[0]) < keep_at or playable and keep_at <= 0:
                player.up.remove(playable[0])
                _attach(rng, playable[0], ends)
                rooms += 1
                player.up.append(pile.pop())
            else:
                found = pile.pop()
                endgame_now = not pile
                if _fits(found, ends):
                    _attach(rng, found, ends)
                    rooms += 1
                elif _fight(rng, player, found, pile):
                    won += 1
                else:
                    lost += 1
                endgame = endgame_now
            endgame = endgame or not pile
        if all(p.stunned for p in hands):
            break
        current = (current + 1) % players

    # 4. The boss fight: every player still standing fights each face-up domino once.
    for player in hands:
        if not player.stunned:
            player.up = [t for t in player.up if fight_wins(t, d(rng, 6))]
    scores = tuple(0 if p.stunned else sum(pips(t) for t in p.up) for p in hands)
    return GameResult(scores=scores, stunned=tuple(p.stunned for p in hands), turns=turns, rooms=rooms,
                      fights_won=won, fights_lost=lost, stalled=stalled)


@dataclass(frozen=True)
class Simulation:
    """Many games with a fixed seed: the solo escape rate and the average score by player count."""

    seed: str
    games: int  # per player count
    keep_at: float
    solo_escape: Fraction
    solo_stunned: Fraction
    average_score: tuple  # (players, average score per player) for 1..4 players
    average_rooms: tuple  # (players, average dominoes on the table)


@lru_cache(maxsize=8)
def simulate(seed: str = "dunginoes/simulation", games: int = 2000, keep_at: float = KEEP_AT) -> Simulation:
    """Play `games` games for each of 1-4 players, each count on its own seeded stream."""
    scores, rooms, escape, stunned = [], [], 0, 0
    for players in range(1, 5):
        rng = sub_rng(seed, f"players-{players}")
        total, table = 0, 0
        for _ in range(games):
            result = play_game(rng, players, keep_at)
            total += sum(result.scores)
            table += result.rooms
            if players == 1:
                escape += result.escaped[0]
                stunned += result.stunned[0]
        scores.append((players, Fraction(total, games * players)))
        rooms.append((players, Fraction(table, games)))
    return Simulation(seed=seed, games=games, keep_at=keep_at, solo_escape=Fraction(escape, games),
                      solo_stunned=Fraction(stunned, games), average_score=tuple(scores), average_rooms=tuple(rooms))
