"""Generated things → plain JSON data (dungeons, packs, characters, Paperogue levels) and its one encoding to bytes."""

from __future__ import annotations

import dataclasses
import json

from dungeonpress.model.dungeon import Chain, Dungeon, TableRoll
from dungeonpress.views.dungeon import condition_effect, stated
from dungeonpress.model.plan import OUTSIDE
from dungeonpress.model.oracle import OracleRoll
from dungeonpress.model.paperogue import PaperogueCharacter, PaperogueDungeon


def encode_json(data) -> bytes:
    """Stable JSON bytes: keys in the order built, UTF-8 kept readable, two-space indent, a newline at the end."""
    return (json.dumps(data, ensure_ascii=False, indent=2) + "\n").encode("utf-8")


JSON_FORMAT = "dungeonpress-dungeon/1"


def dungeon_data(dungeon: Dungeon, *, seed: int) -> dict:
    """The stable JSON shape documented in the README (grid coordinates in cells, rooms numbered from 1)."""
    plan = dungeon.plan
    rooms = []
    for room in dungeon.rooms:
        placed = plan.room(room.number)
        rooms.append({
            "id": room.number,
            "type": room.type.text,
            "features": [f.text for f in room.features],
            "key": {"type": stated(room.type), "features": [stated(f) for f in room.features],
                    "marks": list(room.marks), "shut_door": room.shut_door},
            "exits": room.exit_count,
            "x": placed.x, "y": placed.y, "w": placed.w, "h": placed.h,
            "depth": placed.depth,
            "doors": [{"side": door.side, "x": door.x, "y": door.y,
                       "to": "entrance" if door.to == OUTSIDE else door.to, "extra": door.extra}
                      for door in placed.doors],
            "encounter": _chain_data(room.encounter),
            "trap": _chain_data(room.trap),
            "treasure": _chain_data(room.treasure),
            "stairs": room.number == plan.stairs,
            "boss": room.boss,
            "rolls": [_roll_data(roll) for roll in _room_rolls(room)],
        })
    return {
        "format": JSON_FORMAT,
        "seed": seed,
        "name": dungeon.name,
        "condition": {"tag": dungeon.condition.text, "effect": condition_effect(dungeon.condition),
                      "roll": _roll_data(dungeon.condition)},
        "entrance": plan.entrance,
        "stairs": plan.stairs,
        "boss": plan.boss,
        "grid": {"width": plan.width, "height": plan.height},
        "rooms": rooms,
        "connections": [list(pair) for pair in plan.connections],
        "corridors": [{"from": c.start, "to": "entrance" if c.end == OUTSIDE else c.end,
                       "points": [list(p) for p in c.points]} for c in plan.corridors],
        "wandering": [{"roll": face, **_chain_data(chain)} for face, chain in enumerate(dungeon.wandering, start=1)],
        "oracle": [{mode: _oracle_data(getattr(row, mode)) for mode in ("plain", "advantage", "disadvantage")}
                   for row in dungeon.oracle],
        "twists": [{"subject": t.subject.fields[0][2], "action": t.action.fields[1][2],
                    "rolls": [_roll_data(t.subject, column=0), _roll_data(t.action, column=1)]}
                   for t in dungeon.twists],
        "d6": list(dungeon.d6s),
        "name_rolls": [_roll_data(roll) for roll in dungeon.name_rolls],
    }


def _room_rolls(room) -> list:
    rolls = [room.type, *room.features, room.exits]
    if room.encounter_check:
        rolls.append(room.encounter_check)
    for chain in (room.encounter, room.trap, room.treasure):
        if chain:
            rolls.extend(chain.rolls)
    return rolls


def _roll_data(roll: TableRoll, column: int | None = None) -> dict:
    """A roll as JSON; `column` names the one cell it stands for (a twist's action die reads the second)."""
    out = {"table": roll.table, "dice": roll.dice, "value": roll.value, "result": roll.text}
    if column is not None:
        key, _, cell = roll.fields[column]
        out |= {"column": key, "result": cell}
    if roll.note:
        out["note"] = roll.note
    return out


def _chain_data(chain: Chain | None) -> dict | None:
    if chain is None:
        return None
    result, creature = chain.result, chain.creature
    kept = [roll for roll in chain.rolls if not roll.note]  # without results that were rolled again
    return {
        "kind": kept[0].text,
        "table": result.table,
        "result": result.text,
        "fields": {key: value for key, _, value in result.fields},
        "creature": None if creature is None else {
            "key": creature.key, "name": creature.name, "tier": creature.tier, "concept": creature.concept,
            "skills": list(creature.skills), "frailty": creature.frailty, "gear": list(creature.gear)},
        "rolls": [_roll_data(roll) for roll in chain.rolls],
    }


def _oracle_data(roll: OracleRoll) -> dict:
    return {"chance": list(roll.chance), "risk": list(roll.risk), "answer": roll.answer, "double": roll.double}


def character_record(character) -> dict:
    """A character as plain JSON values: dataclass fields, with stat pairs and dice turned into objects."""
    record = dataclasses.asdict(character)
    if isinstance(character, PaperogueCharacter):
        record["rolls"] = dict(character.rolls)
        record["scores"] = dict(character.scores)
        record["swap"] = list(character.swap) if character.swap else None
        for item in record["items"]:
            item["dice"] = [{"dice": notation, "results": list(results)} for notation, results in item["dice"]]
    else:
        record = {"name": character.name, **record}
    return record


def paperogue_data(dungeon: PaperogueDungeon, seed: int) -> dict:
    """The dungeon as plain data, with the seed and the readings it was rolled by."""
    data = dataclasses.asdict(dungeon)
    data["readings"] = [{"topic": topic, "reading": text} for topic, text in dungeon.readings]
    return {"game": "Paperogue", "seed": seed, **data}


def pack_data(seed: int, rooms: int, dungeons: list) -> dict:
    """A pack of delves: its seed and each (dungeon, seed) in pack order."""
    return {"format": "dungeonpress-pack/1", "seed": seed, "rooms": rooms,
            "dungeons": [dungeon_data(dg, seed=s) for dg, s in dungeons]}


def characters_data(game: str, seed: int, version: str, characters: list) -> dict:
    """Every value with the table and roll behind it; stable key order, so a seed gives the same bytes."""
    items = [{"number": number, **character_record(character)} for number, character in enumerate(characters, start=1)]
    return {"game": game, "seed": seed, "count": len(characters), "generator": f"dungeonpress {version}",
            "characters": items}
