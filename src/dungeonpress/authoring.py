"""For pack authors: a starter pack written to a folder, and which products use each table."""

from __future__ import annotations

import shutil
from pathlib import Path

from dungeonpress import resources
from dungeonpress.model import Content

SCHEMAS = ("table", "bestiary", "media", "book")

# --- new-pack ------------------------------------------------------------------------------

_D66_FIRST = ("Mossy", "Humming", "Cracked", "Drowned", "Gilded", "Whispering")
_D66_SECOND = ("idol", "lantern", "door", "skull", "mirror", "well")


def _modeline(schema: str, depth: int) -> str:
    """The comment that lets editors with the YAML language server check the file against its schema."""
    return f"# yaml-language-server: $schema={'../' * depth}.schema/{schema}.schema.json\n"


def _table(table_id: str, title: str, die: str, rows: list[tuple[str, str]], *, column=("result", "Result"),
           note: str = "", comment: str = "") -> str:
    lines = [_modeline("table", 1)]
    if comment:
        lines.append(f"# {comment}\n")
    lines += [f"id: {table_id}          # must equal the file name (tables/{table_id}.yaml)\n",
              f"title: {title}\n", f"die: {die}\n",
              "source: My Pack           # who made it: printed as this table's credit\n",
              "group: my pack            # the section of the tables booklet it is printed in\n"]
    if note:
        lines.append(f"note: {note}\n")
    lines.append(f"columns:\n  {column[0]}: {column[1]}\n")
    lines.append("rows:\n")
    lines += [f"  {key}: {text}\n" for key, text in rows]
    return "".join(lines)


def starter_pack() -> dict[str, str]:
    """Every file of the starter pack: relative path -> text. Valid as written, commented to be edited."""
    files = {}
    files["tables/environmental_conditions.yaml"] = _modeline("table", 1) + """\
# Same id as a built-in table: this one replaces it (validate lists every table a pack replaces).
# The dungeon generator reads the two columns below, so keep their keys.
id: environmental_conditions
title: Weather Below
die: d6
source: My Pack
group: generator
note: Roll once for the whole dungeon.
columns:
  condition: Condition tag
  effect: Effect on exploration
rows:
  1: {condition: Dripping Ceilings, effect: Torches gutter; light burns faster}
  2: {condition: Warm Draught, effect: You can follow the air to an exit once}
  3: {condition: Echoing Halls, effect: Wandering monsters hear you sooner}
  4: {condition: Thick Dust, effect: Tracks show who passed; so do yours}
  5: {condition: Bitter Cold, effect: Resting costs an extra ration}
  6: {condition: Glowing Lichen, effect: Dim light everywhere; no torch needed to read}
"""
    files["tables/my_rumours.yaml"] = _table("my_rumours", "Rumours", "d4", [
        ("1", "The lowest level floods every full moon."), ("2", "A lost delver still answers when called."),
        ("3", "The idol on the stair is hollow."), ("4", "Nothing down there is as old as it looks.")],
        comment="A d4 table: one row per result, 1 to 4. One column, so each row can be plain text.")
    files["tables/my_loot.yaml"] = _table("my_loot", "Pocket Loot", "d8", [
        ("1", "{item: Bent copper key, worth: 1}"), ("2", "{item: Chalk stub, worth: 1}"),
        ("3", "{item: Silver ring, worth: 20}"), ("4", "{item: Tin whistle, worth: 2}"),
        ("5", "{item: Map scrap, worth: 5}"), ("6", "{item: Lucky bone die, worth: 3}"),
        ("7", "{item: Vial of lamp oil, worth: 4}"), ("8", "{item: Uncut garnet, worth: 30}")],
        column=("item", "Item"), comment="A d8 table with two columns: each row is a mapping with every column.")
    files["tables/my_loot.yaml"] = files["tables/my_loot.yaml"].replace(
        "columns:\n  item: Item\n", "columns:\n  item: Item\n  worth: Worth (silver)\n")
    files["tables/my_doors.yaml"] = _table("my_doors", "Doors", "d10", [
        ("1-3", "Wooden, swollen shut"), ("4-5", "Iron-banded, locked"), ("6-7", "Ajar"),
        ("8", "Painted on the wall"), ("9", "Portcullis, winch nearby"), ("10", "Stone slab with a riddle")],
        comment="A d10 table. Ranges like 1-3 cover several results (d4 to d20, 2d6 and d100; not d66).")
    files["tables/my_fungi.yaml"] = _table("my_fungi", "Fungi", "d12", [
        (str(n), text) for n, text in enumerate(
            ["Pale caps, edible", "Blue shelf, glows when touched", "Puffball, bursts into spores",
             "Red gills, bitter", "Hairy stalk, sticky", "Black cups full of water", "Tiny bells, chime in wind",
             "Gray mat, muffles steps", "Striped cone, sweet smell", "Web-like threads", "Giant cap, shelter",
             "Golden crust, valuable"], start=1)],
        comment="A d12 table: every result 1-12 needs a row (validate says which are missing).")
    files["tables/my_voices.yaml"] = _table("my_voices", "Who Is There?", "d20", [
        ("1-4", "Nobody, only the wind"), ("5-8", "A rat, loud for its size"), ("9-11", "Another delver, lost"),
        ("12-14", "A guard on a round"), ("15-17", "Something dragging chains"), ("18-19", "A ghost, polite"),
        ("20", "Yourself, a moment ago")], comment="A d20 table, with ranges.")
    files["tables/my_events.yaml"] = _table("my_events", "Corridor Events", "2d6", [
        ("2", "A pit opens"), ("3-4", "Rubble blocks the way"), ("5-6", "Old bones"), ("7", "Nothing happens"),
        ("8-9", "A draught from a hidden crack"), ("10-11", "Footsteps ahead"),
        ("12", "A creature, see the next row's table", )],
        comment="A 2d6 table (two dice added): results 2-12. A row may send you to another table with see:.")
    files["tables/my_events.yaml"] = files["tables/my_events.yaml"].replace(
        "  12: A creature, see the next row's table\n", "  12: {result: A wandering creature, see: my_voices}\n")
    d66 = [(f"{a}{b}", f"{_D66_FIRST[a - 1]} {_D66_SECOND[b - 1]}") for a in range(1, 7) for b in range(1, 7)]
    files["tables/my_oddities.yaml"] = _table("my_oddities", "Oddities", "d66", d66,
        comment="A d66 table: roll two dice, tens then units (3 then 5 is 35). All 36 results, no ranges.")
    files["tables/my_hoard.yaml"] = _table("my_hoard", "Hoard Size", "d100", [
        ("1-40", "A handful of coins"), ("41-70", "A purse"), ("71-90", "A small chest"), ("91-99", "A heap"),
        ("100", "A dragon's bed")], comment="A d100 table: ranges make it short.")
    files["bestiary.yaml"] = _modeline("bestiary", 0) + """\
# Creatures replace the built-in ones with the same d66 key (the built-in bestiary has all 36).
title: Creatures & Foes
creatures:
  11:
    name: Lantern Moth Swarm
    tier: vermin             # vermin | minion | brute | elite | boss
    living: true             # false for constructs and the mindless: they have no goal, motive or nemesis
    concept: Dazzling Swarm  # adjective + noun
    skills: [Snuff Out Flames, Blind with Dust]   # exactly two
    frailty: Drawn to Any Light                   # exactly one
    gear: [Glittering Scales, Nothing Else]       # exactly two
    goal: Reach the brightest light
    motive: Hunger for warmth
    nemesis: Cave bats
    description: A cloud of pale wings that puts out torches; lure it away with a spare candle.
  12:
    name: Rusted Door Warden
    tier: minion
    living: false
    concept: Creaking Guardian
    skills: [Block a Doorway, Grind Weapons]
    frailty: Slow to Turn
    gear: [Iron Key on a Chain, Shield of Old Planks]
    description: A suit of armour bolted to a door frame. It lets through whoever carries its key.
"""
    files["book.yaml"] = _modeline("book", 0) + """\
# The book `dungeonpress build rulebook --content DIR` prints from this pack (it replaces the built-in one).
title: My Pack
subtitle: A starter pack
chapters:                  # Markdown files, in reading order, relative to this folder
  - chapters/01-my-pack.md
"""
    files["chapters/01-my-pack.md"] = """\
# My Pack

One `#` heading per chapter file, `##` for sections. A line holding only a directive is replaced
by generated content: a table by its id, the bestiary, the media list, or exact odds.

## Rumours

[[table my_rumours]]

## Oddities

[[table my_oddities]]

## Who is down there

[[bestiary]]
"""
    files["README.md"] = """\
# My Pack

A content pack for dungeonpress. Check it and build with it:

    dungeonpress validate --content .
    dungeonpress build tables --content .
    dungeonpress dungeon --seed 5 --content .

The `.schema/` folder holds the JSON Schemas the `# yaml-language-server:` line at the top of
each YAML file points to, so editors with YAML support complete and check keys as you type.
"""
    return files


def write_new_pack(target: Path) -> list[Path]:
    """Write the starter pack and its schemas into `target` (which must be missing or empty)."""
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise FileExistsError(f"{target} already exists and is not empty (choose a new folder)")
    written = []
    for name, text in starter_pack().items():
        path = target / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    schemas = target / ".schema"
    schemas.mkdir(parents=True, exist_ok=True)
    for kind in SCHEMAS:
        source = resources.data_dir("schema") / f"{kind}.schema.json"
        shutil.copyfile(source, schemas / source.name)
        written.append(schemas / source.name)
    return written


# --- tables --------------------------------------------------------------------------------

def tables_by_product(content: Content, commands) -> dict[str, set]:
    """table id -> names of the commands that roll on or print it, as each command's `inputs` declare.

    The tables a command names, then every table their rows `see:`; the Markdown it prints (the book's
    chapters, the delve rules) adds the tables its `[[table ID]]` lines name. Commands that show every table (`build tables`,
    `export tables`) are left out: they would be in every row.
    """
    used: dict[str, set] = {table_id: set() for table_id in content.tables}
    for command in commands:
        if command.inputs.every:
            continue
        found = set(command.inputs.tables)
        for chapter in _chapters(content, command.inputs.chapters):
            found |= _directive_tables(chapter.text)
        for table_id in _closure(content, found):
            used[table_id].add(command.full_name)
    return used


def _chapters(content: Content, names) -> list:
    """The chapters of the content a product prints: "book" is the rulebook's, "delve_rules" the dungeons' rules."""
    found = []
    if "book" in names and content.book:
        found += content.book.chapters
    if "delve_rules" in names and content.delve_rules:
        found.append(content.delve_rules)
    return found


def _directive_tables(text: str) -> set:
    out = set()
    for line in text.splitlines():
        parts = line.strip().removeprefix("[[").removesuffix("]]").split()
        if line.strip().startswith("[[") and len(parts) == 2 and parts[0] == "table":
            out.add(parts[1])
    return out


def _closure(content: Content, ids: set) -> set:
    todo, seen = list(ids), set()
    while todo:
        table_id = todo.pop()
        if table_id in seen or table_id not in content.tables:
            continue
        seen.add(table_id)
        todo.extend(row.see for row in content.tables[table_id].rows if row.see)
    return seen


def tables_listing(content: Content, commands) -> list[str]:
    """One aligned line per table: id, die, title, pack, commands that use it."""
    used = tables_by_product(content, commands)
    rows = [("id", "die", "title", "pack", "used by")]
    for table in sorted(content.tables.values(), key=lambda t: t.id):
        rows.append((table.id, table.die, table.title, table.source_pack, ", ".join(sorted(used[table.id])) or "-"))
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row[:4], widths)) + "  " + row[4] for row in rows]
    every = " and ".join(f"`{command.full_name}`" for command in commands if command.inputs.every)
    return lines + [f"{len(content.tables)} tables" + (f"; {every} show every one" if every else "")]
