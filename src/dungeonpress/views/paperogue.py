"""Paperogue: rolled levels and the Paperogue tables → grid sizes, level sheets and the reference card."""

from __future__ import annotations

from dungeonpress.draw import paperogue_grid as grid
from dungeonpress.model import Content
from dungeonpress.model.paperogue import Level, PaperogueDungeon
from dungeonpress.views.words import counted


PAPER_LABEL = {"a4": "A4", "letter": "US Letter"}
CELL_LABEL = {"5mm": "5 mm squares", "quarter-inch": "\u00bc-inch squares"}
DEFAULT_CELL = {"a4": "5mm", "letter": "quarter-inch"}  # each paper's usual graph paper


# How the reference card groups Tables 2-12 that share a die into one grid: (heading, die, tables).
CARD_GRIDS = (
    ("Treasure subtypes", ("paperogue_armor", "paperogue_weapons", "paperogue_jewelry")),
    ("", ("paperogue_gold", "paperogue_potions", "paperogue_scrolls", "paperogue_magic_books")),
    ("Identify", ("paperogue_equipment_bonus", "paperogue_jewelry_effects", "paperogue_potion_effects",
                  "paperogue_scroll_effects")),
)


CARD_NOTES = ("paperogue_armor", "paperogue_scrolls", "paperogue_jewelry", "paperogue_equipment_bonus")


def legend_view(symbols=("down", "up", "lock", "dead-end"), css: str = "") -> dict:
    """The room legend: a sample room and the map symbols asked for, drawn in the palette `css`."""
    labels = {"down": "stairs down", "up": "stairs up", "lock": "locked door", "dead-end": "dead end"}
    return {"room": grid.legend_room_svg(13.0, labels=("O", "7", "250", "G"), css=css),
            "symbols": [{"svg": grid.legend_symbol_svg(kind, 3.6, css), "label": labels[kind]} for kind in symbols]}


def level_view(level: Level, dungeon: PaperogueDungeon, seed: int, paper: str, css: str = "") -> dict:
    """One level sheet: header facts, the drawn map (in the palette `css`), the filled monster list and the room key."""
    cols, rows = grid.fit_grid(paper, grid.LEVEL_CELL, grid.LEVEL_RESERVED_MM)
    locks = {lock.room: lock.key_room for lock in level.locks if not lock.stub}
    stubs = {lock.room: lock for lock in level.locks if lock.stub}
    keys = {lock.key_room: lock for lock in level.locks}
    rooms = []
    for room in level.rooms:
        treasure = room.treasure
        item = treasure.item if treasure.kind in ("Gold", "Key") else f"{treasure.kind}: {treasure.item}"
        if room.number in keys:
            lock = keys[room.number]
            item += f", opens the {lock.direction} door of {lock.room}" if lock.stub else f", opens {lock.room}"
        notes = []
        if room.number in locks:
            notes.append(f"locked, key in {locks[room.number]}")
        if room.number in stubs:
            notes.append(f"{stubs[room.number].direction} door locked, key in {stubs[room.number].key_room}")
        if "down" in room.stairs:
            notes.append("way out" if level.last else "stairs down")
        rooms.append({"number": room.number, "monster": room.monster,
                      "treasure": item, "notes": ", ".join(notes)})
    half = (len(rooms) + 1) // 2
    stairs_rolls = ", ".join(str(r) for r in level.stairs_rolls)
    return {
        "number": level.number, "of": len(dungeon.levels), "seed": seed, "paper": paper,
        "svg": grid.sheet_svg(cols, rows, grid.CELL_MM[grid.LEVEL_CELL], "square", level, css),
        "facts": f"{level.room_count} rooms ({dungeon.rooms_die}: {', '.join(str(r) for r in level.room_rolls)}) "
                 f"\u00b7 stairs {'out' if level.last else 'down'} in room {level.stairs_room} "
                 f"({dungeon.rooms_die}: {stairs_rolls}) \u00b7 hit rolls {level.hit_dice}",
        "monsters": monster_rows(level),
        "room_columns": [rooms[:half], rooms[half:]],
        "last": level.last,
    }


def monster_rows(level: Level) -> list:
    rows = [{"slot": 1, "initial": "", "name": "none", "roll": "", "dice": ""}]
    for m in level.monsters:
        rows.append({"slot": m.slot, "initial": m.initial, "name": m.name, "roll": str(m.roll),
                     "dice": " + ".join(str(x) for x in m.dice) if len(m.dice) > 1 else ""})
    rows.append({"slot": 6, "initial": "", "name": "roll again", "roll": "", "dice": ""})
    return rows


def about_view(dungeon: PaperogueDungeon, seed: int) -> dict:
    return {"seed": seed, "levels": len(dungeon.levels), "levels_text": counted(len(dungeon.levels), "level"),
            "rooms_die": dungeon.rooms_die,
            "readings": [{"topic": t, "text": x} for t, x in dungeon.readings],
            "command": f"dungeonpress paperogue --seed {seed}"
                       + (f" --levels {len(dungeon.levels)}" if len(dungeon.levels) != 3 else "")
                       + (f" --rooms-die {dungeon.rooms_die}" if dungeon.rooms_die != "d20" else "")}


def card_view(content: Content, css: str = "") -> dict:
    """Tables 1-12 (those sharing a die merged into one grid), the spells and the rules in brief."""
    tables = content.tables
    treasure = tables["paperogue_treasure_type"]
    table_one = [{"roll": row.label, "initial": row.get("initial"), "name": row.get("treasure"),
                  "see": _table_number(tables[row.see].title) if row.see else ""} for row in treasure.rows]
    grids = []
    for heading, ids in CARD_GRIDS:
        chosen = [tables[i] for i in ids]
        dice = sorted({t.die for t in chosen}, key=lambda die: int(die[1:]))
        headers = [t.title.replace("Table ", "T").replace(":", "") + (f" ({t.die})" if len(dice) > 1 else "")
                   for t in chosen]
        results = max(t.rows[-1].high for t in chosen)
        die = dice[0] if len(dice) == 1 else "Roll"
        rows = []
        for result in range(1, results + 1):
            rows.append({"roll": str(result), "cells": [_card_cell(t, result) for t in chosen]})
        grids.append({"heading": heading, "die": die, "headers": headers, "rows": rows})
    notes = [{"table": _table_number(tables[i].title), "text": tables[i].note}
             for i in CARD_NOTES if tables[i].note]
    return {
        "table_one": table_one, "table_one_title": treasure.title, "grids": grids, "notes": notes,
        "spells": [{"name": row.get("spell"), "text": row.get("effect")} for row in tables["paperogue_spells"].rows],
        "rules": [{"topic": row.get("topic"), "text": row.get("rule")} for row in tables["paperogue_rules"].rows],
        # The spells leave half their page: the steps that make a level and the stock monster list fill it.
        "level_steps": [{"step": row.get("step"), "text": row.get("rule")} for row in tables["paperogue_level_steps"].rows],
        "monsters": monster_grid(tables["paperogue_monsters"]),
        "legend": legend_view(css=css),
    }


def monster_grid(table, columns: int = 4) -> dict:
    """The stock monster list as a grid read down each column: rows of `columns` (roll, mark, name) cells."""
    cells = [{"roll": row.label, "initial": row.get("initial"), "name": row.get("monster")} for row in table.rows]
    depth = -(-len(cells) // columns)
    rows = [[cells[c * depth + r] for c in range(columns) if c * depth + r < len(cells)] for r in range(depth)]
    return {"title": table.title, "die": table.die, "columns": columns, "rows": rows}


def _table_number(title: str) -> str:
    """`Table 2` from `Table 2: Gold`."""
    return title.split(":", 1)[0]


def _card_cell(table, result: int) -> dict:
    """One cell of a merged grid: the row's mark and its words, or empty past the table's die."""
    if result > table.rows[-1].high:
        return {"mark": "", "text": ""}
    values = dict(table.row_for(result).values)
    mark = str(values.pop("initial", ""))
    text = " ".join(str(v) if k != "stat" else f"({v})" for k, v in values.items())
    return {"mark": mark, "text": text}


def blank_sheet_view(grid_kind: str, paper: str, cell: str, css: str = "") -> dict:
    """One blank sheet: as many whole cells as fit above the band, and the caption saying what they are."""
    cols, rows = grid.fit_grid(paper, cell, grid.SHEET_RESERVED_MM)
    return {
        "paper": paper, "grid": grid_kind,
        "svg": grid.sheet_svg(cols, rows, grid.CELL_MM[cell], grid_kind, css=css),
        # Two short caption lines in the legend box: what the grid is, then its count and paper.
        "kind": f"{'Dot grid' if grid_kind == 'dot' else 'Graph paper'} \u00b7 {CELL_LABEL[cell]}",
        "caption": f"{cols} \u00d7 {rows} squares \u00b7 {PAPER_LABEL[paper]}",
    }
