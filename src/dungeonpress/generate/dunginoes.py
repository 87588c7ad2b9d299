"""Turn a seeded Random into Dunginoes games (rules engine and simulator) and domino dungeon maps.

The game is played on an abstract table: what a player may do depends only on the numbers
showing on the free ends, so the simulator keeps a list of them. The map generators lay real
tiles on a grid, where one half of a domino is a 2 x 2 square of grid units, and never let
two tiles overlap or touch unless one was laid on the other.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import lru_cache

from dungeonpress.dice import d, pick, roll_on, shuffled, sub_rng
from dungeonpress.model.dunginoes import DominoMap, End, GameResult, Simulation, Tile, square

# --- the set and the fight rule ------------------------------------------------------------

DOUBLE_SIX_SET = tuple((low, high) for low in range(7) for high in range(low, 7))  # 28 dominoes
MODES = ("before", "fly")


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


_VALUE = {tile: float(win_chance(tile)) * pips(tile) for tile in DOUBLE_SIX_SET}


def keep_value(tile) -> float:
    """The score a domino is expected to bring out of the boss fight: its pips times its win chance."""
    return _VALUE[(min(tile), max(tile))]


# --- the game ------------------------------------------------------------------------------

POLICY = (
    "Explore whenever a domino in hand fits, playing the one worth least (pips times the chance "
    "to beat it) on the end that keeps the most dominoes playable, your own first; search only "
    "when nothing fits; after a won fight keep the dominoes worth most; after a lost fight flip "
    "the one worth least."
)


@dataclass
class _Player:
    up: list  # face-up dominoes: usable, and the loot
    down: list = field(default_factory=list)  # flipped by lost fights: unusable, worth nothing
    stunned: bool = False


def _fits(tile, ends: list) -> bool:
    return tile[0] in ends or tile[1] in ends


def ends_after(ends: list, tile, value: int) -> list:
    """The free ends once `tile` is laid on an end showing `value`; a double opens three of its number."""
    after = list(ends)
    after.remove(value)
    after += [value] * 3 if is_double(tile) else [tile[1] if value == tile[0] else tile[0]]
    return after


def _choose_play(rng: random.Random, tiles: list, ends: list, hand: list, pile: list):
    """(domino, end value) to play from `tiles`: the domino worth least, on the end keeping most playable."""
    options = [(tile, value) for tile in tiles for value in sorted(set(tile)) if value in ends]
    if not options:
        return None

    def score(option):
        tile, value = option
        after = ends_after(ends, tile, value)
        mine = sum(_fits(t, after) for t in hand if t != tile)
        return -keep_value(tile), 3 * mine + sum(_fits(t, after) for t in pile)
    best = max(score(option) for option in options)
    return pick(rng, [option for option in options if score(option) == best])


def _fight(rng: random.Random, player: _Player, monster, pile: list) -> bool:
    """Roll one die against `monster`: a win swaps it into the hand, a loss flips a domino face down."""
    if fight_wins(monster, d(rng, 6)):
        player.up.append(monster)
        player.up.remove(min(player.up, key=keep_value))
        return True
    pile.insert(d(rng, len(pile) + 1) - 1, monster)  # back into the heap, anywhere in it
    worst = min(player.up, key=keep_value)
    player.up.remove(worst)
    player.down.append(worst)
    player.stunned = not player.up
    return False


def _deal(rng: random.Random, players: int):
    """Shuffle and deal two each until someone holds a double: (heap, hands, first player, their double)."""
    while True:
        pile = shuffled(rng, DOUBLE_SIX_SET)
        hands = [_Player(up=[pile.pop(), pile.pop()]) for _ in range(players)]
        doubles = [(tile, index) for index, hand in enumerate(hands) for tile in hand.up if is_double(tile)]
        if doubles:
            tile, first = max(doubles)
            return pile, hands, first, tile


def play_game(rng: random.Random, players: int = 1) -> GameResult:
    """Play one game by the rules with `players` simulated players who follow POLICY."""
    # 1. The player with the highest double lays it (three free ends), draws, then takes a turn.
    pile, hands, current, start = _deal(rng, players)
    hands[current].up.remove(start)
    hands[current].up.append(pile.pop())
    ends = [start[0]] * 3
    rooms, turns, won, lost, stalled = 1, 0, 0, 0, False

    # 2. Turns go round until the last domino is drawn, everyone is stunned, or nothing can be played.
    while pile and not all(hand.stunned for hand in hands):
        player = hands[current]
        current = (current + 1) % players
        if player.stunned:
            continue
        standing = [t for hand in hands if not hand.stunned for t in hand.up]
        if not any(_fits(t, ends) for t in pile) and not any(_fits(t, ends) for t in standing):
            stalled = True
            break
        turns += 1
        play = _choose_play(rng, player.up, ends, player.up, pile)
        if play:  # explore: lay a domino from the hand, then draw
            player.up.remove(play[0])
            ends = ends_after(ends, *play)
            rooms += 1
            player.up.append(pile.pop())
            continue
        found = pile.pop()  # search: a secret passage, or a monster to fight
        last = not pile
        secret = _choose_play(rng, [found], ends, player.up, pile)
        if secret:
            ends = ends_after(ends, *secret)
            rooms += 1
        elif _fight(rng, player, found, pile):
            won += 1
        else:
            lost += 1
        if last:  # drawing the last domino starts the endgame, even if a lost fight put it back
            break

    # 3. The boss fight: everyone still standing fights each face-up domino once; the survivors score.
    for player in hands:
        if not player.stunned:
            player.up = [t for t in player.up if fight_wins(t, d(rng, 6))]
    scores = tuple(0 if p.stunned else sum(pips(t) for t in p.up) for p in hands)
    return GameResult(scores=scores, stunned=tuple(p.stunned for p in hands), turns=turns, rooms=rooms,
                      fights_won=won, fights_lost=lost, stalled=stalled)


@lru_cache(maxsize=4)
def simulate(seed: str = "dunginoes/simulation", solo_games: int = 4000, group_games: int = 1000) -> Simulation:
    """Play many games for 1-4 players, each player count on its own seeded stream."""
    scores, rooms, escaped, stunned = [], [], 0, 0
    for players in range(1, 5):
        rng = sub_rng(seed, f"players-{players}")
        games = solo_games if players == 1 else group_games
        total = table = 0
        for _ in range(games):
            result = play_game(rng, players)
            total += sum(result.scores)
            table += result.rooms
            escaped += players == 1 and result.escaped[0]
            stunned += players == 1 and result.stunned[0]
        scores.append((players, Fraction(total, games * players)))
        rooms.append((players, Fraction(table, games)))
    return Simulation(seed=seed, solo_games=solo_games, group_games=group_games,
                      solo_escape=Fraction(escaped, solo_games), solo_stunned=Fraction(stunned, solo_games),
                      average_score=tuple(scores), average_rooms=tuple(rooms))


# --- maps ----------------------------------------------------------------------------------

_TURNS = {(1, 0): (0, 1), (0, 1): (-1, 0), (-1, 0): (0, -1), (0, -1): (1, 0)}  # clockwise (y grows down)


class _Grid:
    """Which room holds each grid cell; room 0 is the entrance passage."""

    def __init__(self):
        self.owner: dict = {}

    def fits(self, halves, parent: int) -> bool:
        """Free cells, and no side shared with any room but the parent (so no loops, even drawn ones)."""
        cells = [cell for cx, cy, _ in halves for cell in square(cx, cy)]
        if any(cell in self.owner for cell in cells):
            return False
        for x, y in cells:
            for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                owner = self.owner.get((nx, ny))
                if owner is not None and owner != parent:
                    return False
        return True

    def take(self, cells, room: int) -> None:
        for cell in cells:
            self.owner[cell] = room


def _shapes(end: End, near: int, far: int, crosswise: bool):
    """Ways to lay a domino on `end`: (halves, free ends as (x, y, dx, dy, number)).

    A normal domino goes straight on or turns a corner (not off the long side of a double, where a
    turn would lie alongside it); a double in mode before lies crosswise, centred on the end, and opens
    its far side and both short ends.
    """
    px, py, dx, dy = end.x, end.y, end.dx, end.dy
    if crosswise:
        ex, ey = _TURNS[(dx, dy)]
        halves = ((px + dx + ex, py + dy + ey, near), (px + dx - ex, py + dy - ey, far))
        ends = ((px + 2 * dx, py + 2 * dy, dx, dy, near, True), (px + dx + 2 * ex, py + dy + 2 * ey, ex, ey, near),
                (px + dx - 2 * ex, py + dy - 2 * ey, -ex, -ey, near))
        return [(halves, ends)]
    out = []
    turns = () if end.long_side else (_TURNS[(dx, dy)], _TURNS[(-dx, -dy)])
    for ex, ey in ((dx, dy), *turns):
        cx, cy = px + dx, py + dy
        fx, fy = cx + 2 * ex, cy + 2 * ey
        out.append((((cx, cy, near), (fx, fy, far)), ((fx + ex, fy + ey, ex, ey, far),)))
    return out


def _edges(halves, entry: End) -> list:
    """Every outer edge of a tile but the one it was entered by: five doors a room may have (mode fly)."""
    (ax, ay, av), (bx, by, bv) = halves
    inner = ((ax + bx) // 2, (ay + by) // 2)
    out = []
    for cx, cy, value in halves:
        for ux, uy in ((0, -1), (1, 0), (0, 1), (-1, 0)):
            x, y = cx + ux, cy + uy
            if (x, y) != inner and (x, y) != (entry.x, entry.y):
                out.append((x, y, ux, uy, value))
    return out


def generate_map(rng: random.Random, size: int, mode: str, specials=None) -> DominoMap:
    """Lay a domino dungeon of up to `size` rooms by the seed's 'before the game' or 'on the fly' procedure."""
    if mode == "before":
        return _before(rng, size, specials)
    if mode == "fly":
        return _fly(rng, size)
    raise ValueError(f"unknown map mode {mode!r} (expected one of {', '.join(MODES)})")


def _before(rng: random.Random, size: int, specials) -> DominoMap:
    """Hand of three; numbers match; one domino per free end; doubles crosswise; stuck → marker, discard."""
    # 1. Shuffle face down, take three, and start with the domino that opens most: a double if any.
    pile = shuffled(rng, DOUBLE_SIX_SET)
    hand = [pile.pop() for _ in range(3)]

    def opening(tile):
        ends = [tile[0]] * 3 if is_double(tile) else list(tile)
        return is_double(tile), sum(_fits(t, ends) for t in hand if t != tile)
    best = max(opening(t) for t in hand)
    first = pick(rng, [t for t in hand if opening(t) == best])
    hand.remove(first)
    entrance = End(0, 0, 1, 0, first[0], 0)
    grid = _Grid()
    if is_double(first):
        halves, made = _shapes(entrance, first[0], first[1], True)[0]
        grid.take([c for cy in (-2, -1, 0, 1) for c in ((-2, cy), (-1, cy))], 0)  # the way in
    else:
        first = shuffled(rng, first)
        halves = ((1, 0, first[0]), (3, 0, first[1]))
        made = ((0, 0, -1, 0, first[0]), (4, 0, 1, 0, first[1]))
    tiles = [Tile(room=1, halves=halves, parent=0, via=None, crosswise=is_double(first))]
    grid.take(tiles[0].cells(), 1)
    ends = [_end(e, 1) for e in made]
    specials_at, discarded = {}, []
    hand.append(pile.pop())

    # 2. Lay one domino on a matching free end, then draw back up to three; when stuck, mark and discard.
    while len(tiles) < size:
        options = []
        for tile in hand:
            for end in ends:
                if end.value not in tile:
                    continue
                far = tile[1] if tile[0] == end.value else tile[0]
                fits = [s for s in _shapes(end, end.value, far, is_double(tile)) if grid.fits(s[0], end.room)]
                if fits:
                    options.append((tile, end, fits))
        if not options:
            if len(tiles) not in specials_at:
                specials_at[len(tiles)] = roll_on(rng, specials)[1].text if specials else "special encounter"
            if not hand:
                break
            thrown = pick(rng, hand)
            hand.remove(thrown)
            discarded.append(thrown)
            if pile:
                hand.append(pile.pop())
            continue
        tile, end, fits = pick(rng, options)
        halves, made = pick(rng, fits)
        room = len(tiles) + 1
        tiles.append(Tile(room=room, halves=halves, parent=end.room, via=end, crosswise=is_double(tile)))
        grid.take(tiles[-1].cells(), room)
        ends.remove(end)
        ends.extend(_end(e, room) for e in made)
        hand.remove(tile)
        while len(hand) < 3 and pile:
            hand.append(pile.pop())

    tiles = [replace(t, special=specials_at.get(t.room, "")) for t in tiles]
    return DominoMap(mode="before", size=size, tiles=tuple(tiles), open_ends=tuple(ends), blocked=(),
                     discarded=tuple(discarded), entrance=entrance)


def _fly(rng: random.Random, size: int) -> DominoMap:
    """Double six buried at room `size`; rooms drawn as explored; d8 exits blocked; left risk, right reward."""
    # 1. One stack, with the double six as deep as the final encounter should be.
    rest = shuffled(rng, [t for t in DOUBLE_SIX_SET if t != (6, 6)])
    stack = rest[:size - 1] + [(6, 6)] + rest[size - 1:]
    stack.reverse()  # draw with pop()
    grid = _Grid()
    grid.take([(-2, -1), (-1, -1), (-2, 0), (-1, 0)], 0)  # the way in
    entrance = End(0, 0, 1, 0, 0, 0)
    tiles, open_exits, blocked = [], [], []

    def lay(domino, end: End, shapes, locked=False, secret=False):
        risk, reward = domino if d(rng, 2) == 1 else domino[::-1]  # as revealed: left, right
        halves = pick(rng, shapes)[0]
        halves = ((halves[0][0], halves[0][1], risk), (halves[1][0], halves[1][1], reward))
        room = len(tiles) + 1
        exits = [_end(e, room) for e in _edges(halves, end)]
        grid.take([c for cx, cy, _ in halves for c in square(cx, cy)], room)
        roll = d(rng, 8)
        cramped = [e for e in exits if not _room_for(grid, e)]
        roomy = shuffled(rng, [e for e in exits if _room_for(grid, e)])
        shut = (cramped + roomy)[:min(roll, len(exits))]  # the DM blocks the cramped ones first
        blocked.extend(shut)
        open_exits.extend(e for e in exits if e not in shut)
        tiles.append(Tile(room=room, halves=halves, parent=end.room, via=end if end.room else None,
                          risk=risk, reward=reward, blocked_roll=roll, locked=locked, secret=secret,
                          final=domino == (6, 6)))

    lay(stack.pop(), entrance, _shapes(entrance, 0, 0, False)[:1])

    # 2. Explore an open exit: pre-draw the next domino (a locked door unless a number matches), lay it.
    while len(tiles) < size and stack:
        secret = not open_exits
        choices = open_exits or [e for e in blocked if _room_for(grid, e)]
        if not choices:
            break  # nowhere left to dig: the dungeon ends early
        end = pick(rng, choices)
        (open_exits if not secret else blocked).remove(end)
        shapes = [s for s in _shapes(end, 0, 0, False) if grid.fits(s[0], end.room)]
        if not shapes:  # another passage took the space: this exit has caved in
            blocked.append(end)
            continue
        domino = stack.pop()
        lay(domino, end, shapes, locked=not secret and end.value not in domino, secret=secret)

    return DominoMap(mode="fly", size=size, tiles=tuple(tiles), open_ends=tuple(open_exits),
                     blocked=tuple(blocked), discarded=(), entrance=entrance)


def _end(made: tuple, room: int) -> End:
    """An End from a shape's (x, y, dx, dy, number[, long side]) tuple."""
    return End(*made[:5], room=room, long_side=len(made) > 5 and made[5])


def _room_for(grid: _Grid, end: End) -> bool:
    return any(grid.fits(s[0], end.room) for s in _shapes(end, 0, 0, False))


