"""The Dunginoes kit: content and a seed → rules card and solo score sheet PDF, and domino map PDFs."""

from __future__ import annotations

from dungeonpress.dice import sub_rng
from dungeonpress.draw.dominoes import draw_domino_map, draw_icon
from dungeonpress.errors import RenderError
from dungeonpress.generate import dunginoes
from dungeonpress.generate.oracle import percent
from dungeonpress.products.common import BuildContext, Command, Option, Output, pdf_from_template

SIZES = (2, 28)  # a map needs two rooms; the set has 28 dominoes
DEFAULT_SIZE = 16
MODE_TITLES = {"before": "Laid before the game", "fly": "Laid on the fly"}


def build_dunginoes(ctx: BuildContext, options: dict) -> list[Output]:
    """The rules card with score sheet, and one map for each mode asked for (both by default)."""
    # 1. Check the options before making anything.
    size = DEFAULT_SIZE if options.get("size") is None else options["size"]
    if not SIZES[0] <= size <= SIZES[1]:
        raise RenderError(f"dunginoes: --size must be {SIZES[0]}-{SIZES[1]} rooms (got {size})")
    modes = [options["mode"]] if options.get("mode") else list(dunginoes.MODES)
    seed = ctx.seed if ctx.seed is not None else 0

    # 2. The card, with odds simulated now from the rules, and the score sheet.
    ctx.tick(0, 1 + len(modes), "simulating Dunginoes games")
    simulation = dunginoes.simulate()
    outputs = [Output("dunginoes-rules.pdf", pdf_from_template(
        ctx, "dunginoes_rules.html.j2", sim=simulation_view(simulation), odds=fight_odds_view(),
        score_rows=list(range(1, 19))))]

    # 3. One map per mode, each from its own stream of the seed.
    for done, mode in enumerate(modes, start=1):
        ctx.tick(done, 1 + len(modes), f"laying the {mode} map")
        specials = ctx.content.tables.get("dunginoes_specials")
        dungeon = dunginoes.generate_map(sub_rng(seed, "dunginoes", "map", mode), size, mode, specials)
        outputs.append(Output(f"dunginoes-map-{seed}-{mode}.pdf", pdf_from_template(
            ctx, "dunginoes_map.html.j2", map=map_view(ctx, dungeon, seed), svg=draw_domino_map(dungeon),
            legend=legend_view(dungeon))))
    ctx.tick(1 + len(modes), 1 + len(modes), "Dunginoes done")
    return outputs


LEGEND = (
    ("entrance", "the way in"),
    ("room", "room number, in the order laid"),
    ("special", "room with a special encounter"),
    ("final", "the double six: final encounter"),
    ("door", "door"),
    ("locked", "locked door"),
    ("secret", "secret exit"),
    ("unexplored", "open exit, not yet explored"),
)


def legend_view(dungeon: dunginoes.DominoMap) -> list:
    """The legend entries for the marks this map actually shows."""
    tiles = dungeon.tiles
    shown = {
        "entrance": True,
        "room": True,
        "special": any(t.special for t in tiles),
        "final": any(t.final for t in tiles),
        "door": any(t.via and not t.locked and not t.secret for t in tiles) and dungeon.mode == "fly",
        "locked": any(t.locked and not t.secret for t in tiles),
        "secret": any(t.secret for t in tiles),
        "unexplored": dungeon.mode == "fly" and bool(dungeon.open_ends),
    }
    return [{"svg": draw_icon(kind), "label": label} for kind, label in LEGEND if shown[kind]]


def simulation_view(sim: dunginoes.Simulation) -> dict:
    """The simulated odds as printed sentences and figures."""
    return {
        "solo_games": f"{sim.solo_games:,}",
        "group_games": f"{sim.group_games:,}",
        "escape": percent(sim.solo_escape),
        "stunned": percent(sim.solo_stunned),
        "scores": [{"players": p, "score": f"{float(s):.1f}"} for p, s in sim.average_score],
        "rooms": [{"players": p, "rooms": f"{float(r):.0f}"} for p, r in sim.average_rooms],
        "policy": dunginoes.POLICY,
        "seed": sim.seed,
    }


def fight_odds_view() -> dict:
    """Winning faces out of six for every domino: rows by the high end, columns by the low end."""
    rows = []
    for high in range(7):
        cells = [{"text": str(int(dunginoes.win_chance((low, high)) * 6)) if low <= high else "",
                  "sure": low <= high and dunginoes.win_chance((low, high)) == 1} for low in range(7)]
        rows.append({"high": high, "cells": cells})
    return {"lows": list(range(7)), "rows": rows}


def map_view(ctx: BuildContext, dungeon: dunginoes.DominoMap, seed: int) -> dict:
    """Title, facts and the room key of one map."""
    tables = ctx.content.tables
    risk = {row.get("pips"): row.get("risk") for row in tables["dunginoes_risk"].rows} \
        if "dunginoes_risk" in tables else {}
    reward = {row.get("pips"): row.get("reward") for row in tables["dunginoes_reward"].rows} \
        if "dunginoes_reward" in tables else {}
    rooms = []
    for tile in dungeon.tiles:
        near, far = tile.domino
        door = (f"from room {tile.parent}" if dungeon.mode == "fly" else f"on room {tile.parent}") \
            if tile.parent else "the way in"
        notes = []
        if tile.final:
            notes.append("final encounter")
        if tile.special:
            notes.append(f"special encounter: {tile.special}")
        if tile.secret:
            notes.append("entered by a secret exit")
        elif tile.locked:
            notes.append("door in is locked")
        exits = sum(1 for end in dungeon.open_ends if end.room == tile.room)
        if dungeon.mode == "fly" and exits:
            notes.append(f"{exits} unexplored exit{'s' if exits > 1 else ''}")
        rooms.append({
            "room": tile.room,
            "domino": f"{near}–{far}",
            "door": door,
            "risk": f"{tile.risk}: {risk.get(tile.risk, '')}" if tile.risk is not None else "",
            "reward": f"{tile.reward}: {reward.get(tile.reward, '')}" if tile.reward is not None else "",
            "blocked": f"d8 {tile.blocked_roll}" if tile.blocked_roll else "",
            "notes": "; ".join(notes)[:1].upper() + "; ".join(notes)[1:],
            "special": bool(tile.special),
        })
    laid = len(dungeon.tiles)
    short = laid < dungeon.size
    return {
        "mode": dungeon.mode,
        "title": MODE_TITLES[dungeon.mode],
        "seed": seed,
        "size": dungeon.size,
        "laid": laid,
        "short": short,
        "rooms": rooms,
        "specials": sum(1 for t in dungeon.tiles if t.special),
        "discarded": ", ".join(f"{a}–{b}" for a, b in dungeon.discarded),
        "final_found": any(t.final for t in dungeon.tiles),
        "command": f"dungeonpress dunginoes --seed {seed} --size {dungeon.size} --mode {dungeon.mode}",
    }


COMMANDS = (
    Command(
        name="dunginoes",
        help="the Dunginoes kit: rules card with solo score sheet, and domino dungeon maps",
        run=build_dunginoes,
        seeded=True,
        options=(
            Option(("--size",), f"rooms in each map, {SIZES[0]}-{SIZES[1]} (default {DEFAULT_SIZE})", type=int,
                   default=DEFAULT_SIZE, min=SIZES[0], max=SIZES[1]),
            Option(("--mode",), "which map procedure: before (laid before the game) or fly (on the fly); "
                                "default both", choices=dunginoes.MODES),
        ),
        example="dungeonpress dunginoes --seed 1234 --size 20 --mode before",
    ),
)
