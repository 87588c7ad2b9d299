"""Turn a generated Dungeon into plain values: view-models for the zine and booklet templates, and the JSON export."""

from __future__ import annotations

import copy
import random
import re

from dungeonpress.draw.dungeon_map import LABEL_PT, draw_dungeon_map, turned
from dungeonpress.draw.map_marks import legend_icon, legend_label
from dungeonpress.model.dungeon import Chain, Dungeon, TableRoll
from dungeonpress.model.plan import OUTSIDE
from dungeonpress.model.oracle import OracleRoll
from dungeonpress.model import Creature

DIRECTIONS = {"N": "North", "E": "East", "S": "South", "W": "West"}


DEFAULT_ROOMS = 8  # what `dungeonpress dungeon` rolls when --rooms is not given


def regenerate_command(seed: int, rooms: int) -> str:
    """The command that rolls this dungeon again, as printed on it."""
    extra = "" if rooms == DEFAULT_ROOMS else f" --rooms {rooms}"
    return f"dungeonpress dungeon --seed {seed}{extra}"


# The zine's seed box is one line in every theme (the dyslexia theme's Letter back page has no line to spare):
# a command longer than the default seed's (four digits) is printed without its label.
SEED_BOX_LABEL = "Roll it again: "
SEED_BOX_LABELLED = len(regenerate_command(1234, DEFAULT_ROOMS))


def seed_box_label(command: str) -> str:
    return SEED_BOX_LABEL if len(command) <= SEED_BOX_LABELLED else ""


def command_parts(command: str) -> list[str]:
    """The command in the pieces a line may break between: the program and each option with its value. Broken at
    "--" ("... --seed 484514568 --" / "rooms 5") it no longer reads as one command to type."""
    program, *options = command.split(" --")
    return [program, *(f"--{option}" for option in options)]


# ---------------------------------------------------------------- template views


def dungeon_view(dungeon: Dungeon, *, seed: int, rooms: int, prefix: str, map_box: tuple | None, oracle_rows: int,
                 twists: int, d6s: int, map_rng: random.Random, compact: bool = False, map_style: str = "clean",
                 map_css: str = "", outline_box: tuple | None = None, map_labels: tuple = LABEL_PT) -> dict:
    """Everything the templates print for one dungeon, already formatted; `prefix` keeps anchors unique in a pack.

    `compact` is for the A7 zine: compass letters instead of words, and the in-between rolls
    of a chain without their parenthetical examples ("Hostile monster", not "… (moderate strength)").
    `map_rng` is the map's own stream of the seed (products.dungeon.map_rng): the same dungeon draws the
    same caves and furniture in both styles; left as it was given (a map drawn again starts from the same state).
    `map_labels` are the least printed sizes of the map's room numbers and words (large print sets them larger).
    `map_box` None leaves the map out (a zine's probe lays out only its key and aids: see products.dungeon.zine_view).
    """
    command = regenerate_command(seed, rooms)
    return {
        "name": dungeon.name,
        "title": keep_last_words(dungeon.name),
        "anchor": f"{prefix}-dungeon",
        "pick": "",  # a pack sets the die result that picks this delve
        "seed": seed,
        "rooms_count": len(dungeon.rooms),
        "regenerate": command,
        "seed_box_label": seed_box_label(command),
        "regenerate_parts": command_parts(command),
        "condition": {"roll": roll_label(dungeon.condition), "tag": dungeon.condition.text,
                      "effect": condition_effect(dungeon.condition)},
        **map_fields(dungeon, map_box, map_rng, compact, map_style, map_css, map_labels),
        "rooms": [room_view(dungeon, room.number, prefix, compact) for room in dungeon.rooms],
        "wandering": [{"face": face, **chain_view(chain, compact)} for face, chain in enumerate(dungeon.wandering, start=1)],
        "oracle": [oracle_row_view(n, row) for n, row in enumerate(dungeon.oracle[:oracle_rows], start=1)],
        "twists": [{"number": n, "text": twist.text,
                    "rolls": f"{twist.subject.value} · {twist.action.value}"}
                   for n, twist in enumerate(dungeon.twists[:twists], start=1)],
        "d6s": [str(value) for value in dungeon.d6s[:d6s]],
        "outline": outline_view(dungeon, outline_box, map_style, map_css, map_rng) if outline_box else None,
    }


def map_fields(dungeon: Dungeon, map_box: tuple | None, map_rng: random.Random, compact: bool = False,
               map_style: str = "clean", map_css: str = "", map_labels: tuple = LABEL_PT) -> dict:
    """A dungeon view's map entries: its map drawn to print its squares largest in `map_box` (None: no map), and its
    legend. A booklet whose legend ran onto the next page draws its map again in a shorter box (products.dungeon)."""
    drawn, legend_side = (_map_drawn(dungeon, map_box, map_rng, compact, map_style, map_css, map_labels) if map_box
                          else (None, False))
    return {
        "map": drawn.svg if drawn else "",  # SVG we drew: the template marks it safe
        "map_alt": drawn.alt if drawn else "",
        "map_legend_side": legend_side,
        "map_turned": bool(drawn and drawn.turned),
        "map_legend": [{"icon": legend_icon(mark, map_css), "label": legend_label(mark)} for mark in drawn.legend]
        if drawn else [],
    }


def _map_drawn(dungeon: Dungeon, map_box: tuple, map_rng: random.Random, compact: bool, map_style: str, map_css: str,
               map_labels: tuple) -> tuple:
    """(the map drawn at the size that prints its squares largest in `map_box`, whether its legend goes beside it)."""
    width_mm, height_mm = map_box
    def draw(width, height):  # each try at a size draws from the stream as it was given
        return draw_dungeon_map(dungeon, width_mm=width, height_mm=height, style=map_style,
                                rng=copy.copy(map_rng), css=map_css, title=f"Map of {dungeon.name}", label_pt=map_labels)
    drawn = draw(width_mm, height_mm)
    extra = legend_lines(drawn.legend, width_mm, compact) - 1  # the box leaves room for one legend line
    if extra > 0:
        drawn = draw(width_mm, height_mm - extra * (LEGEND_LINE_MM[compact]))
    legend_side = False
    if compact:
        # A tall map on the A7 page reads bigger with its legend in a column beside it, taking the
        # legend's lines below for the map: kept when that prints the squares larger.
        beside = width_mm - side_legend_width(drawn.legend)
        side = draw(beside, height_mm + LEGEND_LINE_MM[compact])
        if side.size[0] / side.view[0] > drawn.size[0] / drawn.view[0] * 1.02:
            drawn, legend_side = side, True
        # A wide map on the zine's tall page reads bigger turned on its side (draw.dungeon_map.turned), its legend
        # upright under it: kept when that prints the squares TURN_GAIN larger or more. Upright, Letter seeds 9, 11 and
        # 24 filled two-thirds of their page; turned, their squares print 15%, 24% and 26% larger.
        if not legend_side:
            side_on = draw(height_mm - max(extra, 0) * LEGEND_LINE_MM[compact], width_mm)
            if side_on.size[0] / side_on.view[0] >= drawn.size[0] / drawn.view[0] * TURN_GAIN:
                drawn = turned(side_on)
    return drawn, legend_side


TURN_GAIN = 1.15  # how much larger a zine's map must print its squares turned on its side to be turned (5 of
# the first 60 seeds, on A4 and on Letter)


# A thumbnail this small shows the shape only: its scale bar and north arrow would print over its passages.
THUMB_MM = 30.0
BARE_CSS = " .scale, .scale-text, .north, .north-text { display: none; }"


def outline_view(dungeon: Dungeon, box: tuple, map_style: str, map_css: str, map_rng: random.Random) -> dict:
    """The dungeon's outline for a cover or an index: the player's map (walls, doors, passages, the way in), with no
    room numbered and nothing in the rooms, so it shows only what a delver sees before play. Same seed, same walls."""
    thumbnail = max(box) < THUMB_MM  # the shape only: no grid, heavier walls, no scale bar or north
    css = map_css + (BARE_CSS if thumbnail else "")
    drawn = draw_dungeon_map(dungeon, width_mm=box[0], height_mm=box[1], style=map_style,
                             rng=copy.copy(map_rng), css=css, players=True,
                             title=outline_title(dungeon), thumbnail=thumbnail)
    # A pack prints each outline twice, on its cover and in its index: the second copy names its hatching pattern
    # apart (WeasyPrint warned of every sketch-style pack's patterns as anchors defined twice).
    again = type(drawn.svg)(_OUTLINE_PATTERN.sub(r"\1-again", str(drawn.svg)))
    return {"svg": drawn.svg, "alt": drawn.alt, "svg_again": again}


_OUTLINE_PATTERN = re.compile(r"\b(hatch-[0-9a-f]{10})-outline\b")


def outline_title(dungeon: Dungeon) -> str:
    """The outline's title, which a tagged PDF gives the figure as its alternative text: what the drawing shows."""
    return (f"Outline of {dungeon.name}: its {len(dungeon.rooms)} rooms, passages and the way in, "
            "no room numbered and nothing in the rooms")


LEGEND_LINE_MM = {True: 3.6, False: 4.8}  # one legend line: zine (6.3 pt), booklet (8 pt)


def side_legend_width(marks) -> float:
    """About how wide (mm) the zine's map legend is as a column beside the map, with the gap before it."""
    return 2.0 + 3.8 + max(len(legend_label(mark)) for mark in marks) * 1.1


def legend_lines(marks, width_mm: float, compact: bool) -> int:
    """About how many lines the map legend takes (icon, label, gap per entry), so the map can leave room."""
    char, icon = (1.15, 4.6) if compact else (1.5, 5.6)
    lines, used = 1, 0.0
    for mark in marks:
        entry = icon + len(legend_label(mark)) * char
        if used and used + entry > width_mm:
            lines, used = lines + 1, 0.0
        used += entry
    return lines


def keep_last_words(name: str) -> str:
    """A title whose last two words stay on one line (a no-break space): no lone "Mire" under "The Ivel"."""
    head, _, last = name.rpartition(" ")
    return f"{head}\u00a0{last}" if head else name


def roll_label(roll: TableRoll) -> str:
    """`2d6 = 9:`: the roll part of "2d6 = 9: Large chamber with columns/statues"."""
    return f"{roll.dice} = {roll.value}:"


def room_view(dungeon: Dungeon, number: int, prefix: str, compact: bool = False) -> dict:
    room, placed = dungeon.room(number), dungeon.plan.room(number)
    doors = []
    for door in placed.doors:
        if door.to == OUTSIDE:
            where = "way out" if compact else "the way out"
        elif door.to is None:
            where = "dead end"
        else:
            where = f"room {door.to}"
        doors.append({"dir": door.side, "direction": door.side if compact else DIRECTIONS[door.side], "to": where,
                      "room": door.to if door.to else None, "anchor": f"{prefix}-room-{door.to}" if door.to else "",
                      "extra": door.extra, "kind": door_kind(room, door)})
    rolled = room.exit_count
    return {
        "number": number,
        "anchor": f"{prefix}-room-{number}",
        "type": {"roll": roll_label(room.type), "rolled": f"{room.type.dice} = {room.type.value}",  # no colon: ends a line
                 "text": room.type.text, "told": stated(room.type)},
        "special": room.special,
        "features": [{"roll": roll_label(f), "text": f.text, "told": stated(f)} for f in room.features],
        "marks": list(room.marks),  # what the key states the map draws in the room (the map check reads this)
        "exits": {"roll": roll_label(room.exits), "count": rolled,
                  "text": f"{rolled} exit{'s' if rolled != 1 else ''}"},
        "doors": doors,
        "extra_doors": placed.extra_doors,
        "entrance": number == dungeon.plan.entrance,
        "stairs": number == dungeon.plan.stairs,
        "boss": room.boss and room.encounter_check is None,
        "lair": room.boss,  # the dungeon's master is met here (its chamber, or a Dungeon Boss encounter)
        "check": {"roll": roll_label(room.encounter_check), "text": room.encounter_check.text}
        if room.encounter_check else None,
        "encounter": chain_view(room.encounter, compact),
        "trap": chain_view(room.trap, compact),
        "treasure": chain_view(room.treasure, compact),
    }


def door_kind(room, door) -> str:
    """How the key says an exit is: "broken" (broken through), a "barred" or "locked" door, or "open" (a passage)."""
    if door.extra:
        return "broken"
    shut = [mark for mark in ("barred", "locked") if mark in room.marks]
    return shut[0] if shut and door.side == room.shut_door else "open"


def chain_view(chain: Chain | None, compact: bool = False) -> dict | None:
    if chain is None:
        return None
    return {"steps": chain_steps(chain, compact), "creature": creature_line(chain.creature), "told": told(chain),
            "rolls": ", ".join(f"{roll.dice} = {roll.value}" for roll in chain.rolls)}


def stated(roll: TableRoll) -> str:
    """What the key says a roll is: the reading the generator picked, else the row as a reader sees it."""
    return roll.said or plain(roll.text)


def plain(text: str) -> str:
    """A table row as a reader sees it: without the generator's bracketed hints ("Functional room (e.g., forge…)")."""
    return re.sub(r"\s*\([^)]*\)", "", text).strip()


def told(chain: Chain) -> dict:
    """A chain written for the player: what kind of thing it is (the first roll, plainly) and what it is (the last
    roll, with its other columns); the rolls in between only pointed from one table to the next."""
    first, last = chain.rolls[0], chain.rolls[-1]
    details, before = [], last.text
    for _, header, value in last.fields[1:]:
        details.append({"sep": " " if before.rstrip().endswith((".", "!", "?")) else ". ",
                        "header": header, "text": str(value)})
        before = str(value)
    return {"kind": plain(first.text) if len(chain.rolls) > 1 else "", "text": last.text, "details": details}


def chain_steps(chain: Chain, compact: bool = False) -> list:
    """Each roll of a chain: its roll label, its main text, the row's other columns, and any reroll note."""
    steps = []
    for n, roll in enumerate(chain.rolls):
        text = roll.text
        if compact and n < len(chain.rolls) - 1:  # the next roll says what it is; drop the examples
            text = text.split(" (", 1)[0]
        details, before = [], text
        for _, header, value in roll.fields[1:]:  # "Trap. Trigger: … Effect: …", one full stop between
            details.append({"sep": " " if before.rstrip().endswith((".", "!", "?")) else ". ",
                            "header": header, "text": str(value)})
            before = str(value)
        steps.append({"roll": roll_label(roll), "text": text, "note": roll.note, "details": details})
    return steps


def creature_line(creature: Creature | None) -> dict | None:
    """The creature's tags, as the key prints them under the encounter."""
    if creature is None:
        return None
    return {"key": creature.key, "name": creature.name, "tier": creature.tier, "concept": creature.concept,
            "skills": ", ".join(creature.skills), "frailty": creature.frailty, "gear": ", ".join(creature.gear),
            "goal": creature.goal or "", "motive": creature.motive or "", "nemesis": creature.nemesis or ""}


def oracle_row_view(number: int, row) -> dict:
    return {"number": number, "cells": [oracle_cell(roll) for roll in (row.plain, row.advantage, row.disadvantage)]}


def oracle_cell(roll: OracleRoll) -> dict:
    """One pre-rolled answer, with the dice that made it (Chance dice, then Risk dice) and the double mark."""
    dice = f"{'/'.join(map(str, roll.chance))}:{'/'.join(map(str, roll.risk))}"
    return {"answer": roll.answer, "dice": dice.replace(":", " · "), "double": roll.double}


def pick_die(count: int) -> dict:
    """How a pack's index is rolled: 1d6 for up to six delves (ranges for 2 or 3, a d4 for 4), else the smallest die that fits."""
    if count == 4:
        die = 4
    elif count <= 6:
        die = 6
    else:
        die = next((size for size in (8, 10, 12, 20) if size >= count), None)
    if die is None:
        return {"die": "", "ranges": [str(n) for n in range(1, count + 1)], "reroll": ""}
    if die % count == 0:
        step = die // count
        ranges = [str(1 + i * step) if step == 1 else f"{1 + i * step}–{(i + 1) * step}" for i in range(count)]
        return {"die": f"1d{die}", "ranges": ranges, "reroll": ""}
    spare = f"{count + 1}–{die}" if count + 1 < die else str(die)
    return {"die": f"1d{die}", "ranges": [str(n) for n in range(1, count + 1)], "reroll": f"roll again on {spare}"}


def condition_effect(roll: TableRoll) -> str:
    """A row's second column (a condition's effect), or nothing."""
    return str(roll.fields[1][2]) if len(roll.fields) > 1 else ""





