"""The drawn map is the key's one truth: key data (what the room key is printed from) against the SVG (what is drawn).

Over the zine (A4 and Letter), the A5 booklet and a pack, in the clean and sketch styles: every mark,
door kind, dead end and exit the key states is in the SVG, nothing else is, and the map's description
for screen readers names exactly what was drawn. The SVG is read through its data attributes (each
mark a `<g data-room data-mark>`, each door `data-room data-side data-kind`), never through the
generator's intent. SVG only: no PDF is laid out.
"""

from __future__ import annotations

import itertools
import re
import xml.etree.ElementTree as ET

import pytest

from dungeonpress.dice import sub_rng
from dungeonpress.draw.map_reading import WORDS
from dungeonpress.generate.dungeon import generate_dungeon
from dungeonpress.model import MAP_MARKS
from dungeonpress.products.dungeon import MAP_BOX, ORACLE, pack_seeds
from dungeonpress.views import dungeon as dungeon_views

SVG = "{http://www.w3.org/2000/svg}"
STYLES = ("clean", "sketch")
PACK_DELVES = 3
DOOR_MARKS = ("barred", "locked")  # drawn on a door, not on the floor
PLACES = ("stairs", "boss")  # drawn in a room, stated by the key's exits line and its master
# Words the key's printed statement uses for each mark it states (stems, lower case).
STATED_BY = {"rubble": ("rubble", "debris"), "cracks": ("crack",), "columns": ("column",), "statues": ("statue",), "broken_statues": ("broken statue",),
             "alcoves": ("alcove",), "water": ("pool", "water"), "altar": ("altar",), "ritual": ("ritual",), "forge": ("forge",),
             "library": ("librar", "shel"), "vault": ("vault", "strongbox"), "crates": ("crate",),
             "furniture": ("furniture", "table"), "barred": ("barred",), "locked": ("locked",)}


def product_views(content, product: str, seed: int, rooms: int, style: str) -> list:
    """The dungeon views a product prints for `seed`: one for a zine or booklet, one per delve for a pack."""
    if product == "pack":
        seeds = pack_seeds(seed, PACK_DELVES)
        box, compact, oracle = MAP_BOX["a5"], False, ORACLE["booklet"]
    else:
        seeds = [seed]
        box, compact, oracle = (MAP_BOX[product], product.startswith("zine"),
                                ORACLE["zine" if product.startswith("zine") else "booklet"])
    out = []
    for n, s in enumerate(seeds, start=1):
        dungeon = generate_dungeon(content, sub_rng(s, "dungeon"), rooms=rooms)
        out.append(dungeon_views.dungeon_view(dungeon, seed=s, rooms=rooms, prefix=f"d{n}", map_box=box,
                                              map_rng=sub_rng(s, "map"), compact=compact, map_style=style, **oracle))
    return out


def read_svg(svg: str) -> dict:
    """What the map draws, by room: marks, doors by wall and kind, dead ends by wall; and its description."""
    root = ET.fromstring(svg)
    drawn = {"marks": {}, "doors": {}, "dead": set(), "alt": root.find(f"{SVG}desc").text}
    for el in root.iter():
        room = el.get("data-room")
        if room is None:
            continue
        room = int(room)
        if el.get("data-mark"):
            drawn["marks"].setdefault(room, set()).add(el.get("data-mark"))
        elif el.get("data-kind"):
            key = (room, el.get("data-side"))
            assert key not in drawn["doors"], f"two doors drawn on wall {key}"
            drawn["doors"][key] = el.get("data-kind")
        elif "dead-end" in el.get("class", ""):
            drawn["dead"].add((room, el.get("data-side")))
    return drawn


def alt_sentences(alt: str) -> dict:
    """The description's sentence for each room, by number."""
    return {int(m.group(1)): m.group(0) for m in re.finditer(r"Room (\d+), [^.]*\.", alt)}


def mismatches(view: dict) -> list:
    """Every way the drawn map and the key disagree, as readable lines (empty when they agree)."""
    drawn, out = read_svg(view["map"]), []
    sentences = alt_sentences(drawn["alt"])
    for room in view["rooms"]:
        n, where = room["number"], f"{view['anchor']} room {room['number']}"
        floor = set(room["marks"]) - set(DOOR_MARKS)
        stated = floor | ({"stairs"} if room["stairs"] else set()) | ({"boss"} if room["lair"] else set())
        marks = drawn["marks"].get(n, set())
        out += [f"{where}: the key states {m}, the map lacks it" for m in sorted(stated - marks)]
        out += [f"{where}: the map draws {m}, the key does not state it" for m in sorted(marks - stated)]
        # Doors: one drawn on each wall the key lists, of the kind it says, and none elsewhere.
        keyed = {(n, door["dir"]): door["kind"] for door in room["doors"]}
        ours = {key: kind for key, kind in drawn["doors"].items() if key[0] == n}
        if keyed != ours:
            out.append(f"{where}: the key's exits {sorted(keyed.items())} are drawn as {sorted(ours.items())}")
        dead = {(n, door["dir"]) for door in room["doors"] if door["to"] in ("dead end",)}
        if dead != {key for key in drawn["dead"] if key[0] == n}:
            out.append(f"{where}: dead ends {sorted(dead)} are drawn at {sorted(k for k in drawn['dead'] if k[0] == n)}")
        # The key's printed words state each of its marks.
        words = " ".join([room["type"]["told"], *(f["told"] for f in room["features"])]).lower()
        out += [f"{where}: the key's words '{words}' do not state {m}" for m in room["marks"]
                if not any(stem in words for stem in STATED_BY[m])]
        # The description names exactly the marks drawn, and the barred or locked door drawn.
        sentence = sentences.get(n, "")
        for mark in MAP_MARKS:
            named = WORDS[mark] in sentence
            shown = mark in marks or (mark == "alcoves" and "alcoves" in marks) or \
                (mark in DOOR_MARKS and mark in ours.values())
            if named != shown:
                out.append(f"{where}: the description {'names' if named else 'leaves out'} {mark}: '{sentence}'")
        if ("stairs down" in sentence) != ("stairs" in marks) or ("boss's lair" in sentence) != ("boss" in marks):
            out.append(f"{where}: the description's stairs or lair disagree with the map: '{sentence}'")
    return out


def sweep(content, seeds, room_counts, styles=STYLES) -> tuple:
    """(rooms checked, mismatches, (product, style) pairs seen) over the seeds, cycling products and styles."""
    products = ("zine-a4", "zine-letter", "a5", "pack")
    combos = itertools.cycle(itertools.product(styles, products))
    rooms, found, seen = 0, [], set()
    for seed, count in zip(seeds, itertools.cycle(room_counts)):
        style, product = next(combos)
        seen.add((product, style))
        for view in product_views(content, product, seed, count, style):
            rooms += len(view["rooms"])
            found += [f"{product} {style} seed {seed}: {line}" for line in mismatches(view)]
    return rooms, found, seen


@pytest.mark.slow
def test_the_map_draws_the_key_and_only_the_key(content):
    # Sketch maps are drawn with the same marks as clean ones (only the pen and the rock differ) and
    # hatching their rock is slow: the fast tier draws most rooms clean and every product sketched too.
    rooms, found, seen = sweep(content, range(1, 91), (8, 10, 12, 6), styles=("clean",))
    sketched, found_sketched, seen_sketched = sweep(content, range(121, 125), (5,), styles=("sketch",))
    assert rooms + sketched >= 1000
    assert seen | seen_sketched == set(itertools.product(("zine-a4", "zine-letter", "a5", "pack"), STYLES))
    assert found + found_sketched == []


@pytest.mark.slow
def test_the_map_draws_the_key_over_a_large_sweep(content):
    """The same check over more than 4,000 rooms of 3 to 12, half of the maps sketched (marked slow)."""
    rooms, found, _ = sweep(content, range(1000, 1400), range(3, 13))
    assert rooms >= 4000
    assert found == []


def test_the_check_finds_a_dropped_mark_and_a_wrong_door(content):
    """The check can fail: a mark taken out of the SVG and a door of the wrong kind are both reported."""
    view = next(v for seed in range(1, 200) for v in product_views(content, "a5", seed, 8, "clean")
                if any(r["marks"] for r in v["rooms"]) and any(d["kind"] == "barred" or d["kind"] == "locked"
                                                              for r in v["rooms"] for d in r["doors"]))
    assert mismatches(view) == []
    room = next(r for r in view["rooms"] if set(r["marks"]) - set(DOOR_MARKS) - {"alcoves"})
    mark = sorted(set(room["marks"]) - set(DOOR_MARKS) - {"alcoves"})[0]
    dropped = re.sub(rf'<g class="mark" data-room="{room["number"]}" data-mark="{mark}">.*?</g>', "", view["map"])
    assert any(f"states {mark}, the map lacks it" in line for line in mismatches({**view, "map": dropped}))
    plain = re.sub(r'data-kind="(barred|locked)"', 'data-kind="open"', view["map"])
    assert any("are drawn as" in line for line in mismatches({**view, "map": plain}))
    absent = next(m for m in ("crates", "columns", "rubble") if m not in view["rooms"][0]["marks"])
    head, desc = view["map"].split("<desc>", 1)
    undrawn = head + "<desc>" + desc.replace("Room 1, ", f"Room 1, a room with {WORDS[absent]}, ", 1)
    assert any(f"names {absent}" in line for line in mismatches({**view, "map": undrawn}))


def test_every_reading_states_the_marks_it_draws(content):
    """Each table row or reading that lists map marks says them in its own words."""
    for table in content.tables.values():
        for row in table.rows:
            for text, marks in [(str(row.values[0][1]), row.marks), *((c.text, c.marks) for c in row.choices)]:
                for mark in marks:
                    assert any(stem in text.lower() for stem in STATED_BY[mark]), (table.id, row.label, text, mark)


def test_every_key_statement_is_concrete(content):
    """The key says what a room is, never the table's alternatives ("barred or locked", "columns/statues")."""
    told = set()
    for seed in range(120):
        dungeon = generate_dungeon(content, sub_rng(seed, "dungeon"), rooms=12)
        for room in dungeon.rooms:
            view = dungeon_views.room_view(dungeon, room.number, "d1", compact=seed % 2 == 0)
            for words in (view["type"]["told"], *(f["told"] for f in view["features"])):
                told.add(words)
                assert not re.search(r"/| or |e\.g\.|\{", words), (seed, room.number, words)
    # every reading of the rows that offer them turns up
    wanted = {c.text for table in ("room_type", "room_features") for row in content.table(table).rows
              for c in row.choices if "{door}" not in c.text}
    assert wanted <= told
    assert {f"The {wall} door is {how} shut" for wall in ("north", "east", "south", "west")
            for how in ("barred", "locked")} <= told
