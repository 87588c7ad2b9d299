"""Dunginoes: a laid domino map and the simulated odds → map facts, room key, legend and odds tables."""

from __future__ import annotations

from dungeonpress.draw.dominoes import draw_icon
from dungeonpress.generate import dunginoes
from dungeonpress.generate.oracle import percent
from dungeonpress.model import Content
from dungeonpress.model.dunginoes import DominoMap, Simulation
from dungeonpress.views.words import counted


MODE_TITLES = {"before": "Laid before the game", "fly": "Laid on the fly"}


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


LONG_KEY = 20  # rooms past which the key is set a size smaller so it stays on one page


def legend_view(dungeon: DominoMap, css: str = "") -> list:
    """The legend entries for the marks this map actually shows, drawn in the map's palette `css`."""
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
    return [{"svg": draw_icon(kind, css), "label": label} for kind, label in LEGEND if shown[kind]]


def simulation_view(sim: Simulation) -> dict:
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


def map_view(content: Content, dungeon: DominoMap, seed: int) -> dict:
    """Title, facts and the room key of one map."""
    tables = content.tables
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
        "laid_text": counted(laid, "room"),
        "short": short,
        "rooms": rooms,
        "key_class": f"rooms {dungeon.mode}" + (" long" if len(rooms) > LONG_KEY else ""),
        "specials": sum(1 for t in dungeon.tiles if t.special),
        "discarded": ", ".join(f"{a}–{b}" for a, b in dungeon.discarded),
        "final_found": any(t.final for t in dungeon.tiles),
        "command": f"dungeonpress dunginoes --seed {seed} --size {dungeon.size} --mode {dungeon.mode}",
    }
