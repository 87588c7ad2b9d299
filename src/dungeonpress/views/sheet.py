"""Character sheets: content and an optional rolled character → every field and box of a sheet, ready to print."""

from __future__ import annotations

from dataclasses import dataclass

from dungeonpress.model.character import Character, TableValue
from dungeonpress.model.paperogue import PaperogueCharacter
from dungeonpress.model import Content
from dungeonpress.views import tables as views

GEAR_SLOTS, BACKPACK_SLOTS, DURABILITY_BOXES = 6, 2, 5
LUCK_BOXES, TWIST_BOXES, MEAL_BOXES = 6, 3, 3
# The rulebook's one-page pencil sheet: fewer durability boxes a slot, and light and rations tracks.
SIMPLE_DURABILITY_BOXES, SIMPLE_LIGHT_BOXES, SIMPLE_RATION_BOXES = 4, 6, 6


@dataclass(frozen=True)
class SheetSpace:
    """How many writing lines and boxes one paper size holds (the CSS sizes them to fit one page)."""

    skills_gained: int
    frailties_gained: int
    tag_lines: int  # stress, fatigue and conditions each
    treasure_lines: int
    list_lines: int  # NPCs, locations and events each
    log_rows: int
    light: int
    rations: int
    items: int  # Paperogue identified-item lines
    spells: int
    # A pre-rolled Paperogue rogue's spell lines: its sheet prints how the stats were rolled under the swap, a line the
    # blank sheet leaves out; on A4 and Letter a row of spell lines gives that room back (the page's foot held none:
    # the score's last row ran under the rules at its foot on every pre-rolled rogue).
    prerolled_spells: int


SPACE = {
    "a4": SheetSpace(skills_gained=3, frailties_gained=1, tag_lines=3, treasure_lines=2, list_lines=7, log_rows=31,
                 light=10, rations=8, items=11, spells=6, prerolled_spells=4),
    "letter": SheetSpace(skills_gained=3, frailties_gained=1, tag_lines=3, treasure_lines=2, list_lines=5, log_rows=29,
                     light=10, rations=8, items=9, spells=4, prerolled_spells=2),
    "a5": SheetSpace(skills_gained=2, frailties_gained=1, tag_lines=3, treasure_lines=1, list_lines=4, log_rows=19,
                 light=8, rations=8, items=8, spells=4, prerolled_spells=4),
}


# A pre-rolled value longer than this may not fit its writing line on an A5 sheet (a Drive line, beside its label,
# holds about 34 characters of Vollkorn and fewer of Atkinson Hyperlegible): `long` lets it take two lines there
# (sheet.css) rather than be cut off at the line's end.
LONG_VALUE = 28
# On A4 and Letter too a pre-rolled trait with its roll longer than this takes two lines (`longer`, sheet.css): "Chart a
# way to the surface, having been born below" and its "26" (52) ran under the roll in Atkinson, and the longest nemesis
# ("The Velvet Shovels, a gang who loot every tomb a step ahead of them", 67) in every theme.
LONGER_VALUE = 44
# The longest pre-rolled name the masthead sets at full size beside the longest concept ("Arcane Cartographer") on A4
# in every theme; a longer one ("Miren “Shadowblade” Stonehollow", 31) is set smaller (sheet.css: .long-name).
MASTHEAD_NAME_CHARS = 29


def text(name: str, title: str, value="", note: str = "") -> dict:
    """A writing line; in the fillable PDF a text field called `name`."""
    value = "" if value is None else str(value)
    return {"name": name, "title": title, "value": value, "note": note, "off": False, "long": len(value) > LONG_VALUE,
            "longer": False}


def box(name: str, title: str, *, checked: bool = False, off: bool = False) -> dict:
    """A tick box; in the fillable PDF a checkbox called `name`. `off` draws nothing (a slot not in use)."""
    return {"name": name, "title": title, "checked": checked, "off": off}


def _texts(prefix: str, title: str, count: int, start: int = 1, values=()) -> list:
    values = list(values)
    return [text(f"{prefix}_{n}", f"{title} {n}", values[n - start] if n - start < len(values) else "")
            for n in range(start, start + count)]


def _boxes(prefix: str, title: str, count: int) -> list:
    return [box(f"{prefix}_{n}", f"{title} {n}") for n in range(1, count + 1)]


def roll_note(content: Content, *rolls: TableValue) -> str:
    """The rolls behind a value, small: `42` for a d66 (the sheet says so once), `2d6 7` for other dice,
    `42 (21 rerolled)` when a repeat was thrown away; several rolls joined by ` · `."""
    parts = []
    for roll in rolls:
        table = content.tables.get(roll.table)
        die = views.die_label(table) if table else ""
        part = str(roll.result) if die == "d66" else f"{die} {roll.result}".strip()
        if roll.rerolled:
            part += f" ({', '.join(str(r) for r in roll.rerolled)} rerolled)"
        parts.append(part)
    return " · ".join(parts)


def simple_sheet_view() -> dict:
    """The rulebook's pencil character sheet: each track's boxes and the gear slots (backpack ones starred)."""
    return {"luck": list(range(LUCK_BOXES)), "twist": list(range(TWIST_BOXES)),
            "gear": [{"n": n, "backpack": n > GEAR_SLOTS} for n in range(1, GEAR_SLOTS + BACKPACK_SLOTS + 1)],
            "durability": list(range(SIMPLE_DURABILITY_BOXES)), "light": list(range(SIMPLE_LIGHT_BOXES)),
            "rations": list(range(SIMPLE_RATION_BOXES))}


def dungeoneer_view(content: Content, layout: SheetSpace, character: Character | None, *, kicker: str,
                    legend: str = "", anchor: str = "sheet") -> dict:
    """Every field of the Dungeoneer sheet, empty or filled from a pre-rolled Character."""
    c = character

    def trait(name: str, title: str, roll: TableValue | None) -> dict:
        """A line, filled with a pre-rolled value and its roll when there is one (on two lines where the two are long)."""
        if not roll:
            return text(name, title)
        line = text(name, title, roll.value, roll_note(content, roll))
        return line | {"longer": len(line["value"]) + len(line["note"]) > LONGER_VALUE}

    name_note = f"d6 {c.name_list_roll} · {roll_note(content, c.first_name, c.nickname, c.surname)}" if c else ""
    return {
        "anchor": anchor,
        "kicker": kicker,
        "legend": legend,
        "name": text("name", "Name", c.name if c else "", name_note),
        "name_class": "name long-name" if c and len(c.name) > MASTHEAD_NAME_CHARS else "name",
        "concept": trait("concept", "Concept", c and c.concept),
        "skills": [trait(f"skill_{n}", f"Skill {n}", c and c.skills[n - 1]) for n in (1, 2)],
        "skills_gained": _texts("skill", "Skill", layout.skills_gained, start=3),
        "frailty": trait("frailty_1", "Frailty 1", c and c.frailty),
        "frailties_gained": _texts("frailty", "Frailty", layout.frailties_gained, start=2),
        "goal": trait("goal", "Goal", c and c.goal),
        "motive": trait("motive", "Motive", c and c.motive),
        "nemesis": trait("nemesis", "Nemesis", c and c.nemesis),
        "gear": _gear_slots(content, c),
        "luck": _boxes("luck", "Luck", LUCK_BOXES),
        "twist": _boxes("twist", "Twist", TWIST_BOXES),
        "stress": _texts("stress", "Stress tag", layout.tag_lines),
        "fatigue": _texts("fatigue", "Fatigue tag", layout.tag_lines),
        "conditions": _texts("condition", "Condition", layout.tag_lines),
        "light_source": _starting_light(content, c),
        "light": _boxes("light", "Light, scenes left", layout.light),
        "rations": _boxes("ration", "Ration", layout.rations),
        "meal": _boxes("meal", "Scenes since last meal", MEAL_BOXES),
        "treasure": _texts("treasure", "Treasure", layout.treasure_lines),
        "lists": [
            {"title": "NPCs", "name": "npcs", "lines": _texts("npc", "NPC", layout.list_lines)},
            {"title": "Locations", "name": "locations", "lines": _texts("location", "Location", layout.list_lines)},
            {"title": "Events", "name": "events", "lines": _texts("event", "Event", layout.list_lines)},
        ],
        "log": log_view(content, layout, c.name if c else ""),
    }


def _starting_light(content: Content, character: Character | None) -> dict:
    """The light source line: blank on a blank sheet; on a pre-rolled one, the light its gear gives
    (an item named on the Light Sources table, with how long it lasts) or, plainly, none yet."""
    if character is None:
        return text("light_source", "Light source")
    table = content.tables.get("light_sources")
    rows = [dict(row.values) for row in table.rows] if table else []
    for gear in character.gear:
        name = gear.item.value.lower()
        for row in rows:
            source = str(row.get("source", ""))
            if source and source.split(" (")[0].lower() in name:
                return text("light_source", "Light source", gear.item.value, str(row.get("duration", "")))
    # Said at writing size, not as a small grey note: it is an instruction, not a roll.
    return text("light_source", "Light source", "None: stock up first")


def _gear_slots(content: Content, character: Character | None) -> list:
    """Eight slots, 7 and 8 the backpack's; a pre-rolled item shows exactly its durability boxes."""
    slots = []
    for n in range(1, GEAR_SLOTS + BACKPACK_SLOTS + 1):
        gear = character.gear[n - 1] if character and n <= len(character.gear) else None
        item = text(f"gear_{n}", f"Gear {n}", gear.item.value if gear else "",
                    roll_note(content, gear.item) if gear else "")
        boxes = [box(f"gear_{n}_durability_{k}", f"Gear {n} durability {k}") for k in range(1, DURABILITY_BOXES + 1)]
        dur_text = ""
        if gear:
            marks = views.boxes_for(gear.durability) if gear.durability else 0
            boxes = [b | {"off": k >= marks} for k, b in enumerate(boxes)]
            dur_text = "" if marks else (gear.durability or "no rating")
        slots.append({"number": str(n), "item": item, "boxes": boxes, "dur_text": dur_text,
                      "backpack": n > GEAR_SLOTS, "first_backpack": n == GEAR_SLOTS + 1})
    return slots


def log_view(content: Content, layout: SheetSpace, delver: str) -> dict:
    rows = [{"scene": text(f"log_{n}_scene", f"Log {n} scene"),
             "question": text(f"log_{n}_question", f"Log {n} question"),
             "answer": text(f"log_{n}_answer", f"Log {n} answer"),
             "twist": text(f"log_{n}_twist", f"Log {n} twist count")} for n in range(1, layout.log_rows + 1)]
    return {"delver": text("log_delver", "Delver", delver), "delve": text("log_delve", "Delve"),
            "session": text("log_session", "Session"), "rows": rows, "twist_table": twist_table_view(content)}


def twist_table_view(content: Content) -> dict | None:
    """The twist table turned on its side: one row per column (Subject, Action), one cell per die face."""
    table = content.tables.get("twist")
    if table is None:
        return None
    rows = [{"header": header, "cells": [str(row.get(key)) for row in table.rows]} for key, header in table.columns]
    return {"title": table.title, "how": "When the counter reaches 3: roll a d6 for each line, read them together.",
            "numbers": [views.roll_label(row.low, row.high) for row in table.rows], "rows": rows}


PAPEROGUE_STATS = (("hp_roll", "HP roll"), ("mp_roll", "MP roll"), ("str", "STR"), ("dex", "DEX"), ("int", "INT"))


PAPEROGUE_GAINS = (("hp", "HP"), ("mp", "MP"))


LEDGER_ROWS = (("start", "Start"), ("level_2", "Level 2"), ("level_3", "Level 3"))


DEFAULT_ARMOR = ("Helmet", "Mail", "Breastplate", "Gauntlets", "Boots", "Belt")


JEWELRY_SLOTS = (("neck", "Neck"), ("monocle", "Monocle"), ("wrist_left", "Left wrist"),
                 ("wrist_right", "Right wrist"), ("ear_left", "Left ear"), ("ear_right", "Right ear"))


FINGERS = 5


STAT_KEYS = ("str", "dex", "int", "hp", "mp")  # ledger columns an item bonus may name


SCORE_LINES = (("gold", "Gold", "× 1"), ("slain_1", "Slain on level 1", "× 1"),
               ("slain_2", "Slain on level 2", "× 2"), ("slain_3", "Slain on level 3", "× 3"),
               ("items", "Items carried", "× 1"), ("hp_left", "HP left", "× 10"),
               ("alive", "Made it out alive", "+ 1000"))


def paperogue_view(content: Content, layout: SheetSpace, character: PaperogueCharacter | None, *, kicker: str,
                   legend: str = "", anchor: str = "sheet") -> dict:
    """Every field of the Paperogue sheet, empty or filled from a pre-rolled character."""
    c = character
    scores = dict(c.scores) if c else {}
    stat_values = {"hp_roll": scores.get("HP"), "mp_roll": scores.get("MP"), "str": scores.get("STR"),
                   "dex": scores.get("DEX"), "int": scores.get("INT"),
                   "hp": c.hp if c else None, "mp": c.mp if c else None}
    columns = PAPEROGUE_STATS + PAPEROGUE_GAINS
    bonuses = _stat_bonuses(c)

    def cell(field, stat):
        return {"field": field, "gain": stat in dict(PAPEROGUE_GAINS), "off": False}

    ledger = []
    for key, label in LEDGER_ROWS:
        values = stat_values if key == "start" else {}
        ledger.append({"label": label, "cls": key, "cells": [
            cell(text(f"{key}_{stat}", f"{label} {title}", values.get(stat, "")), stat) for stat, title in columns]})
    # Totals and item bonuses have nothing to add under the bare HP and MP rolls.
    for key, label, values in (("total", "Total", stat_values), ("bonus", "Items", bonuses)):
        cells = [cell(text(f"{key}_{stat}", f"{label} {title}", values.get(stat, "")), stat) for stat, title in columns]
        for item, (stat, _) in zip(cells, columns):
            item["off"] = stat.endswith("_roll")
        ledger.append({"label": label, "cls": key, "cells": cells})
    rolled = ""
    if c:  # the swap is on the line above it (its box and pair): said again, the line took two in wider letters
        rolled = "Rolled " + ", ".join(f"{stat} {roll}" for stat, roll in c.rolls) + "."
    items = list(c.items) if c else []
    weapon = next((i for i in items if i.kind == "weapon"), None)
    armor = {i.name.casefold(): i for i in items if i.kind == "armor"}
    jewels = {_jewel_slot(i.name): i for i in items if i.kind == "jewelry"}
    pack = [i for i in items if i.kind in ("potion", "scroll", "book", "key")]
    return {
        "anchor": anchor,
        "kicker": kicker,
        "legend": legend,
        "name": text("name", "Name"),
        "level": [box(f"level_{n}", f"Level {n}", checked=bool(c) and n == 1) | {"label": str(n)} for n in (1, 2, 3)],
        "headers": [{"title": title, "gain": stat in dict(PAPEROGUE_GAINS)} for stat, title in columns],
        "ledger": ledger,
        "rolled": rolled,
        "swap": box("swap_used", "Swap used", checked=bool(c and c.swap)),
        "swap_pair": text("swap_pair", "Swapped stats", f"{c.swap[0]} ↔ {c.swap[1]}" if c and c.swap else ""),
        # A worn, identified "+5 HP" counts from the start.
        "hp_current": text("hp_current", "Current HP", c.hp + int(bonuses.get("hp", 0)) if c else ""),
        "mp_current": text("mp_current", "Current MP", c.mp + int(bonuses.get("mp", 0)) if c else ""),
        "weapons": [_weapon_line(n, weapon if n == 1 else None, content) for n in (1, 2)],
        "armor": [_armor_line(name, armor.get(name.casefold()), content) for name in _armor_names(content)],
        "jewelry": [_jewel_line(key, label, jewels.get(key), content) for key, label in JEWELRY_SLOTS],
        "rings": [{"hand": hand, "fingers": [_ring(f"ring_{side}_{n}", f"{hand} finger {n}",
                                                  jewels.get("ring") if side == "left" and n == 1 else None)
                                            for n in range(1, FINGERS + 1)]}
                  for side, hand in (("left", "Left hand"), ("right", "Right hand"))],
        "pack": [_pack_line(n, pack[n - 1] if n <= len(pack) else None, content) for n in range(1, layout.items + 1)],
        "known": _known_types(content),
        "spells": _texts("spell", "Spell", layout.prerolled_spells if c else layout.spells,
                         values=list(c.spells) if c else []),
        "gold": text("gold", "Gold", c.gold if c and c.gold else ""),
        "key_count": text("keys", "Keys", sum(1 for i in items if i.kind == "key") or ""),
        "score": [{"label": label, "factor": factor, "tally": text(f"score_{key}_count", f"{label} count"),
                   "points": text(f"score_{key}", f"{label} points")} for key, label, factor in SCORE_LINES],
        "score_total": text("score_total", "Score total"),
        "rules": PAPEROGUE_RULES,
        # Only the two-page A5 sheet has room for these, on its back.
        "notes": _texts("note", "Note", PAPEROGUE_NOTE_LINES),
    }


PAPEROGUE_NOTE_LINES = 21


# The play rules a player needs at the table, in our words (the seed's Steps 3-5).
PAPEROGUE_RULES = (
    {"term": "Fight:", "text": "roll 1d10 on level 1, 2d10 on level 2, 3d10 on level 3; at or under your weapon's "
                              "stat (bare hands: STR or DEX) the monster loses 1 HP, over it you lose 1 HP. "
                              "0 HP ends the game."},
    {"term": "Dual wield:", "text": "two weapons of different stats; pass both rolls to hit."},
    {"term": "Backtrack:", "text": "roll any die, odd means the monsters are back."},
    {"term": "Rest:", "text": "d20, 1–12 regain half your max HP (round down), 13–20 monsters respawn."},
    {"term": "Spells:", "text": "roll under INT; success costs 1 MP. Regain 1 MP every 2 rooms."},
    {"term": "Descend:", "text": "HP and MP refill; roll a d10 for each stat and add it, as in the ledger."},
)


def _stat_bonuses(character) -> dict:
    """Identified item bonuses by ledger column: `+3 INT` → {"int": "+3"}."""
    out = {}
    if not character:
        return out
    for item in character.items:
        parts = item.effect.split()
        if item.identified and len(parts) == 2 and parts[0][:1] in "+-" and parts[1].lower() in STAT_KEYS:
            out[parts[1].lower()] = parts[0]
    return out


# A Paperogue slot's value and its grey rolls fit in this many characters on every paper, in every theme: a longer pair
# cut the value away under its rolls ("Scroll: Vinzit Coro Donia" and "d8 6 · d10 1" in a pack line on A4, "Heal 1d4 per
# room" and "d8 8 · d6 3 · d12 1" on a neck on A5, "Green potion" and "d8 5 · d10 2" on A5 in Atkinson). The rolls of a
# longer one are left to the JSON. (A weapon's line on A5 leaves its rolls out: sheet.css.)
SLOT_LINE_CHARS = 22


def _slot_text(name: str, title: str, value: str, note: str) -> dict:
    """A slot's writing line with its rolls, where the two fit it together (SLOT_LINE_CHARS)."""
    return text(name, title, value, note if len(str(value)) + len(note) <= SLOT_LINE_CHARS else "")


def _item_note(content: Content, item) -> str:
    if not item:
        return ""
    note = roll_note(content, *item.rolls)
    for notation, results in item.dice:
        note += f" · {notation} {'+'.join(str(r) for r in results)}"
    return note


def _weapon_line(n: int, item, content: Content) -> dict:
    label = "Main hand" if n == 1 else "Off hand"
    return {"label": label,
            "item": text(f"weapon_{n}", f"Weapon {n}", item.name if item else "", _item_note(content, item)),
            "stat": text(f"weapon_{n}_stat", f"Weapon {n} stat", item.stat if item else ""),
            "bonus": text(f"weapon_{n}_bonus", f"Weapon {n} bonus", item.effect if item else ""),
            "known": box(f"weapon_{n}_id", f"Weapon {n} identified", checked=bool(item and item.identified))}


def _armor_names(content: Content) -> list:
    table = content.tables.get("paperogue_armor")
    if table is None:
        return list(DEFAULT_ARMOR)
    return [str(dict(row.values).get("item", row.values[-1][1])) for row in table.rows]


def _armor_line(name: str, item, content: Content) -> dict:
    key = _field_key(name)
    return {"label": name,
            "bonus": _slot_text(f"armor_{key}", f"{name} bonus", item.effect if item else "", _item_note(content, item)),
            "worn": box(f"armor_{key}_worn", f"{name} worn", checked=bool(item)),
            "known": box(f"armor_{key}_id", f"{name} identified", checked=bool(item and item.identified))}


def _jewel_slot(name: str) -> str:
    lowered = name.casefold()
    for word, slot in (("earring", "ear_left"), ("ring", "ring"), ("bracelet", "wrist_left"), ("watch", "wrist_left"),
                       ("necklace", "neck"), ("monocle", "monocle")):
        if word in lowered:
            return slot
    return "neck"


def _jewel_line(key: str, label: str, item, content: Content) -> dict:
    # The slot names the jewel, except on a wrist, which takes a bracelet or a wristwatch.
    value = (f"{item.name}: {item.effect}" if key.startswith("wrist") else item.effect) if item else ""
    return {"label": label,
            "item": _slot_text(f"jewel_{key}", label, value, _item_note(content, item)),
            "known": box(f"jewel_{key}_id", f"{label} identified", checked=bool(item and item.identified))}


def _ring(name: str, title: str, item) -> dict:
    return text(name, title, item.effect if item else "")


def _pack_line(n: int, item, content: Content) -> dict:
    return {"item": _slot_text(f"item_{n}", f"Item {n}", item.name if item else "", _item_note(content, item)),
            "effect": text(f"item_{n}_effect", f"Item {n} effect", item.effect if item else ""),
            "known": box(f"item_{n}_id", f"Item {n} identified", checked=bool(item and item.identified))}


def _known_types(content: Content) -> list:
    """Potion colours and scroll names from the content, each with a line for what it turned out to do."""
    out = []
    for table_id, kind, title in (("paperogue_potions", "potion", "Potions"),
                                  ("paperogue_scrolls", "scroll", "Scrolls")):
        table = content.tables.get(table_id)
        if table is None:
            continue
        rows = []
        for row in table.rows:
            label = str(dict(row.values).get("item", row.values[-1][1]))
            rows.append({"label": label, "field": text(f"{kind}_{row.low}", f"{title}: {label}")})
        out.append({"title": f"{title} identified", "rows": rows})
    return out


def _field_key(label: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in label.casefold()).strip("_")
