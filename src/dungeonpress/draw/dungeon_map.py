"""Draw the player's map of a rolled dungeon: Dungeon, box, style and a seeded Random → MapDrawing (SVG, alt text, legend).

The map shows what a floor plan shows: walls, doors, passages, dead ends, the entrance, the
stairs down, the boss's lair, and each room's architecture as its key states it (caves, water,
columns, statues, an altar, furniture, rubble, barred and locked doors, walls broken through).
Encounters, traps and treasure are never drawn. Colours and strokes are CSS classes; the
palette is the stylesheet passed in (templates/css/map.css), copied into the SVG so it prints
anywhere.

The drawing is the one truth the words are checked against: every mark drawn in a room is a
group `<g class="mark" data-room="3" data-mark="crates">`, every exit a `<rect class="door …"
data-room="3" data-side="N" data-kind="barred">` (kinds: open, barred, locked, broken), each
alcove floor `data-mark="alcoves"`; the description for screen readers is written from what
was drawn.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, replace
from html import escape

from dungeonpress.draw import map_marks
from dungeonpress.draw.cave import cave_outline, smooth
from dungeonpress.draw.ell_room import ell_outline
from dungeonpress.draw.free_floor import INWARD, FreeFloor, thresholds
from dungeonpress.draw.furnish import furnish
from dungeonpress.draw.geometry import clip_inside, num, rect_polygon
from dungeonpress.draw.hatching import TILE, frame_cells, hatch_band, hatch_tile
from dungeonpress.draw.map_reading import read_rooms
from dungeonpress.draw.number_space import give_number_room
from dungeonpress.draw.round_room import MOUTH, apsed_outline, chamfered_outline, collapsed_outline, round_outline
from dungeonpress.draw.pen import UNIT, Pen, u
from dungeonpress.model.plan import OUTSIDE

STYLES = ("clean", "sketch")
PASSAGE = 1.0        # a passage's width between its walls' middles, in cells: one square, on the grid
ALCOVE = (0.8, 0.5)  # an alcove's width and depth, in cells: a niche cut half a square into the wall
OPENING = (0.84, 0.36)  # an open exit's gap: along the wall (the passage's floor), across it (over the wall's ink)
NUMBER_UNITS, NUMBER_PT = 9.5, 6.5  # a room number's size in user units, and its least printed size in points
LABEL_PT = (NUMBER_PT, map_marks.TEXT_PT)  # the least printed sizes of the room numbers and of "30 ft" and the N
LARGE_LABEL_PT = (11.0, 9.0)  # the same in large print
FILLS = 0.4  # half a room number's height, in squares, past which it fills its square and marks crowd it


@dataclass(frozen=True)
class MapDrawing:
    """A drawn map: the SVG text, its description for screen readers, the marks it uses, and geometry for checks."""

    svg: str
    alt: str
    legend: tuple     # mark names used, in legend order
    items: tuple      # (room number, Furnishing) for every mark drawn in a room
    doors: tuple      # (room number, door index, barred, kind) for every exit drawn; kind: open, barred, locked, broken
    floors: tuple     # floor polygons in cells (rooms, alcoves, passages)
    hatch: tuple      # sketch style: the bands of rock (polygons in cells) the hatching pattern fills; clean: ()
    size: tuple       # (width, height) in mm as printed
    view: tuple       # (width, height) of the view box in cells
    outlines: tuple = ()  # (room number, polygon in cells) of each room walled off its rectangle: caves, round rooms,
    # apsed chapels, L-shaped workrooms, cut-cornered halls and chambers, niched hallways
    numbers: tuple = ()  # (room number, (x0, y0, x1, y1)): the box each room's number keeps clear, in cells
    turned: bool = False  # drawn turned a quarter to the left on its page (turned): north along the page's left edge


def draw_dungeon_map(dungeon, *, width_mm: float, height_mm: float, style: str = "clean",
                     rng: random.Random, css: str = "", title: str = "Dungeon map", players: bool = False,
                     thumbnail: bool = False, label_pt: tuple = LABEL_PT) -> MapDrawing:
    """The map scaled to fit a `width_mm` × `height_mm` box; `rng` comes from the seed (e.g. "<seed>/map").

    `players` draws the player's map: the same walls, doors, passages, dead ends and entrance, with
    the room numbers (the key's), the marks in rooms (furniture, water, the stairs down, the boss's
    lair) and the legend left out, for a player who explores blind. The same rng gives the same walls.
    `thumbnail` draws a map a few centimetres across (a pack's index): no floor grid, which at that size
    outweighed the walls, and the walls heavier (the `map-thumb` class; templates/css/map.css).
    `label_pt` are the least printed sizes of the room numbers and of the scale's and north's words
    (LARGE_LABEL_PT for large print); a number is set smaller only to fit across its room, never under 6 pt.
    """
    if style not in STYLES:
        raise ValueError(f"unknown map style {style!r} (expected one of {', '.join(STYLES)})")
    plan = dungeon.plan
    looks = read_rooms(dungeon)  # drawn the same in both styles: read before the pen starts shaking
    shape_rng = random.Random(rng.random())
    pen = Pen(random.Random(rng.random()) if style == "sketch" else None)
    W, H = plan.width, plan.height

    # 1. Floors: room outlines (caves are irregular), alcoves, passages.
    outlines, floors, alcoves = {}, [], []
    for room in plan.rooms:
        doors = [(door.x, door.y) for door in room.doors]
        shape = looks[room.number - 1].shape
        if shape == "cave":
            control = cave_outline(room.x, room.y, room.w, room.h, doors, shape_rng)
            outlines[room.number] = ("cave", control, smooth(control))
        elif shape == "apse" and (apse := apsed_outline(room.x, room.y, room.w, room.h, doors, _way_in(room))):
            outlines[room.number] = ("apse", None, apse)
        elif shape in ("round", "apse"):  # a chapel whose doors leave no wall an apse: round, as a shrine
            outlines[room.number] = ("round", None, round_outline(room.x, room.y, room.w, room.h, doors))
        elif shape == "hall":
            outlines[room.number] = ("hall", None, chamfered_outline(room.x, room.y, room.w, room.h, doors))
        elif shape == "collapsed":
            outlines[room.number] = ("collapsed", None, collapsed_outline(room.x, room.y, room.w, room.h, doors,
                                                                          _way_in(room)))
        elif shape == "ell" and (ell := ell_outline(room.x, room.y, room.w, room.h, doors, _way_in(room))):
            outlines[room.number] = ("ell", None, ell)
        else:
            outlines[room.number] = ("rect", None, rect_polygon(room.x, room.y, room.w, room.h))
        if "alcoves" in looks[room.number - 1].marks:
            niches = _alcoves(room)
            alcoves.extend((room.number, a) for a in niches)
            if niches and shape == "rect":  # the wall runs round each niche: cut into it, not boxed off
                outlines[room.number] = ("notched", None, notched(room, niches))
        floors.append(outlines[room.number][2])
    # A chapel or workroom whose doors left no wall for its apse or L is drawn round or square: say what was drawn.
    looks = tuple(replace(look, shape=outlines[look.number][0]) if look.shape in ("apse", "ell") else look
                  for look in looks)
    floors.extend(a for _, a in alcoves)
    passages = [_passage_rects(c) for c in plan.corridors]
    floors.extend(r for rects in passages for r in rects)

    # 2. Marks in rooms. Words on the map keep a legible printed size however small the squares come out: sizes are
    # set on each text (overriding the stylesheet) from the scale, never below the stylesheet's own.
    scale = min(width_mm / W, height_mm / H)
    number_size = text_units(scale, NUMBER_UNITS, label_pt[0])
    items, doors_drawn, numbers = [], [], {}
    for room, look in zip(plan.rooms, looks):
        printed = number_half(room.number, number_size)
        space = FreeFloor(room, outlines[room.number][2], shape_rng, printed)
        furnished = furnish(space, look)  # furnished either way, so the rng runs on as in the keyed map
        if printed[1] > FILLS:  # figures near a square's height (large print on a small map): give them room
            space.number, furnished = give_number_room(space.number, outlines[room.number][2], furnished,
                                                       thresholds(room), scale)
        for item in furnished:
            if not players:
                items.append((room.number, item))
        numbers[room.number] = space.number  # the middle, unless a mark stands there (a ritual space's altar)
        for index, door in enumerate(room.doors):
            kind = door_kind(door, index, look)
            doors_drawn.append((room.number, index, kind == "barred", kind))
    used = () if players else map_marks.legend_marks(plan, looks, items, alcoves, doors_drawn)

    # 3. Rock: a grey band (clean) or pen hatching (sketch): one tile of strokes repeated over a band
    # round every floor, the floors painted over it.
    hatch, tile, pattern_id = [], [], ""
    if style == "sketch":
        hatch_rng = random.Random(rng.random())
        tile = hatch_tile(hatch_rng)
        straight = [outlines[r.number][0] in ("rect", "notched", "ell") for r in plan.rooms] + [True] * (len(floors) - len(plan.rooms))
        frame = frame_cells(scale)  # a margin clear of the map's edge, where a cover draws its frame
        hatch = [hatch_band(f, flat, W, H, hatch_rng, frame) for f, flat in zip(floors, straight)]
        # one per map: a pack inlines many maps in one page, and a zine its cover's outline (the player's map,
        # same rng) beside the keyed map
        pattern_id = f"hatch-{hatch_rng.getrandbits(40):010x}{'-outline' if players else ''}"

    alt = map_marks.describe(dungeon, looks, title, items, alcoves, doors_drawn) if not players else (
        f"{title}: {len(plan.rooms)} rooms joined by passages, the way in at the bottom edge; "
        "nothing in the rooms is shown")
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="dungeon-map map-{style}{" map-thumb" if thumbnail else ""}" viewBox="0 0 {W * UNIT} {H * UNIT}" '
        f'width="{num(W * scale)}mm" height="{num(H * scale)}mm" role="img" aria-label="{escape(alt)}">',
        f"<title>{escape(title)}</title><desc>{escape(alt)}</desc>",
        f"<style>{css}</style>" if css else "",
        f'<rect class="paper" x="0" y="0" width="{W * UNIT}" height="{H * UNIT}"/>',
        _rock(plan, outlines, alcoves) if style == "clean" else "",
        _hatch(hatch, tile, pattern_id) if hatch else "",
        _passages(plan, pen),
        "" if thumbnail else _passage_grid(plan),
        *(_floor(outlines[room.number]) for room in plan.rooms),
        *(f'<path class="floor" data-room="{n}" data-mark="alcoves" d="{_d(a)}"/>' for n, a in alcoves),
        "" if thumbnail else _grid(plan, outlines),
        *(_room_walls(outlines[room.number], pen) for room in plan.rooms),
        "".join(_mark(number, item) for number, item in items),
        *(_doors(room, look) for room, look in zip(plan.rooms, looks)),
        _dead_ends(plan),
        _entrance(plan),
        *(_number(room, numbers[room.number], _fitted(room, number_size, scale)) for room in plan.rooms if not players),
        map_marks.scale_and_north(plan, scale, label_pt[1]),
        "</svg>",
    ]
    svg = "\n".join(part for part in parts if part)
    return MapDrawing(svg, alt, used, tuple(items), tuple(doors_drawn), tuple(floors), tuple(hatch),
                      (W * scale, H * scale), (W, H),
                      tuple((r.number, outlines[r.number][2]) for r in plan.rooms if outlines[r.number][0] != "rect"),
                      tuple(sorted(numbers.items())))


def turned(drawing: MapDrawing) -> MapDrawing:
    """The same map turned a quarter to the left on its page: its top along the page's left edge, read with the page
    turned clockwise. Its size is as printed (width and height swapped); its view box, marks and numbers stay the map's
    own, in its cells."""
    (width, height), (cells_w, cells_h) = drawing.size, drawing.view
    head, _, rest = drawing.svg.partition(">")  # the opening <svg …> tag, then what it holds
    head = (head.replace(f'viewBox="0 0 {cells_w * UNIT} {cells_h * UNIT}"', f'viewBox="0 0 {cells_h * UNIT} {cells_w * UNIT}"')
            .replace(f'width="{num(width)}mm" height="{num(height)}mm"', f'width="{num(height)}mm" height="{num(width)}mm"'))
    head = head.replace('class="dungeon-map ', 'class="dungeon-map map-turned ', 1)
    body, _, _ = rest.rpartition("</svg>")
    intro, _, drawn = body.partition('<rect class="paper"')  # its title, description and style stay first
    svg = (f'{head}>{intro}<g transform="translate(0 {cells_w * UNIT}) rotate(-90)">'
           f'<rect class="paper"{drawn}</g>\n</svg>')
    return replace(drawing, svg=svg, size=(height, width), turned=True)


def _way_in(room) -> tuple:
    """The point of a room's way in: its door toward the lowest-numbered room (the one it is reached from)."""
    door = min(room.doors, key=lambda door: door.to if door.to is not None else 99)
    return door.x, door.y


def door_kind(door, index: int, look) -> str:
    """How an exit is drawn: broken through (a ragged hole), a barred or a locked door, or open (a gap in the wall).

    The key's exits are passages; a door is drawn only where the key states one (barred or locked shut).
    """
    if door.extra:
        return "broken"
    if index in look.barred:
        return "barred"
    if index in look.locked:
        return "locked"
    return "open"


def _mark(number: int, item) -> str:
    """One mark in a room, grouped and labelled so a check can read the map without the generator."""
    return f'<g class="mark" data-room="{number}" data-mark="{item.mark}">{item.svg}</g>'


# Where a hallway's alcoves may go, tried in turn until one fits: every other cell of the long walls
# well clear of doors, then any cell of them a little clear, then the short walls too.
ALCOVE_TRIES = (("long", range(1, 99, 2), 1.5), ("long", range(0, 99), 1.0), ("all", range(0, 99), 1.0))


def _alcoves(room) -> list:
    """Niches off the long walls of a hallway, clear of doors and corners (the short walls when the long have no room)."""
    for walls, cells, clearance in ALCOVE_TRIES:
        found = _alcoves_along(room, walls, cells, clearance)
        if found:
            return found
    return []


def _alcoves_along(room, walls: str, cells, clearance: float) -> list:
    out = []
    long_x = room.w >= room.h
    sides = (("N", "S") if long_x else ("W", "E")) if walls == "long" else ("N", "S", "W", "E")
    aw, ad = ALCOVE
    for side in sides:
        along_x = side in ("N", "S")
        length = room.w if along_x else room.h
        first = 1 if walls == "long" and length > 2 else 0  # keep off the corners where the wall is long enough
        for k in (c for c in cells if first <= c < length - first):
            at = (room.x + k + 0.5) if along_x else (room.y + k + 0.5)
            if any(door.side == side and abs((door.x if along_x else door.y) - at) < clearance for door in room.doors):
                continue
            if side == "N":
                out.append(rect_polygon(at - aw / 2, room.y - ad, aw, ad))
            elif side == "S":
                out.append(rect_polygon(at - aw / 2, room.y + room.h, aw, ad))
            elif side == "W":
                out.append(rect_polygon(room.x - ad, at - aw / 2, ad, aw))
            else:
                out.append(rect_polygon(room.x + room.w, at - aw / 2, ad, aw))
    return out


def _passage_rects(corridor) -> list:
    """Each straight run of a passage as a floor rectangle (ends overlap so the bends are covered)."""
    half = PASSAGE / 2
    out = []
    for (x0, y0), (x1, y1) in zip(corridor.points, corridor.points[1:]):
        ax, bx = sorted((x0, x1))
        ay, by = sorted((y0, y1))
        out.append(rect_polygon(ax - half, ay - half, bx - ax + 2 * half, by - ay + 2 * half))
    return out


def _d(points) -> str:
    return "M" + "L".join(f"{u(x)} {u(y)}" for x, y in points) + "Z"


def _rock(plan, outlines, alcoves) -> str:
    """The clean style's rock: a soft band round every floor, painted before the floor covers its inside."""
    d = "".join(_d(outline[2]) for outline in outlines.values()) + "".join(_d(a) for _, a in alcoves)
    lines = "".join("M" + "L".join(f"{u(x)} {u(y)}" for x, y in c.points) for c in plan.corridors)
    return f'<path class="rock" d="{d}"/><path class="rock wide" d="{lines}"/>'


def _hatch(bands, tile, pattern_id: str) -> str:
    """The hatching tile as an SVG pattern, and one path of every band filled with it (nonzero: overlaps merge)."""
    strokes = "".join(f"M{u(a[0])} {u(a[1])}L{u(b[0])} {u(b[1])}" for a, b in tile)
    return (f'<defs><pattern id="{pattern_id}" patternUnits="userSpaceOnUse" x="0" y="0" width="{u(TILE)}" '
            f'height="{u(TILE)}"><path class="hatch" d="{strokes}"/></pattern></defs>'
            f'<path class="hatch-band" fill="url(#{pattern_id})" d="{"".join(_d(band) for band in bands)}"/>')


def _passages(plan, pen: Pen) -> str:
    """Passages as a wall-coloured band with the floor inside it."""
    d = "".join(pen.path(c.points) for c in plan.corridors)
    return f'<path class="passage-wall" d="{d}"/><path class="passage" d="{d}"/>'


def _passage_grid(plan) -> str:
    """The grid's lines across each passage, one a square: a passage is a row of squares like a room's floor.

    The passage's floor stroke is PASSAGE wide less the wall's ink, so the lines stop inside it (0.42 each side).
    """
    d = []
    for corridor in plan.corridors:
        for (x0, y0), (x1, y1) in zip(corridor.points, corridor.points[1:]):
            if y0 == y1:  # across an east-west run: a line at each whole x strictly inside it
                lo, hi = sorted((x0, x1))
                d += [f"M{u(k)} {u(y0 - 0.42)}V{u(y0 + 0.42)}" for k in range(math.floor(lo) + 1, math.ceil(hi))]
            else:
                lo, hi = sorted((y0, y1))
                d += [f"M{u(x0 - 0.42)} {u(k)}H{u(x0 + 0.42)}" for k in range(math.floor(lo) + 1, math.ceil(hi))]
    return f'<path class="grid" d="{"".join(d)}"/>' if d else ""


def _floor(outline) -> str:
    return f'<path class="floor" d="{_outline_d(outline, Pen(), walls=False)}"/>'


def _outline_d(outline, pen: Pen, walls: bool) -> str:
    kind, control, flat = outline
    if kind == "cave":
        n = len(control)
        mids = [((control[i - 1][0] + control[i][0]) / 2, (control[i - 1][1] + control[i][1]) / 2) for i in range(n)]
        d = f"M{u(mids[0][0])} {u(mids[0][1])}"
        for i in range(n):
            end = mids[(i + 1) % n]
            d += f"Q{u(control[i][0])} {u(control[i][1])} {u(end[0])} {u(end[1])}"
        return d + "Z"
    return pen.path(flat, closed=True) if walls else _d(flat)


def _grid(plan, outlines) -> str:
    """Graph paper inside the rooms only (cut to a cave's or a round room's wall)."""
    d = []
    for room in plan.rooms:
        kind, _, flat = outlines[room.number]
        lines = [((room.x + i, room.y), (room.x + i, room.y + room.h)) for i in range(1, room.w)]
        lines += [((room.x, room.y + j), (room.x + room.w, room.y + j)) for j in range(1, room.h)]
        for a, b in (_clear_of_mouths(line, room) for line in lines):
            if a == b:
                continue
            for p, q in (clip_inside(a, b, flat) if kind not in ("rect", "notched") else [(a, b)]):
                d.append(f"M{u(p[0])} {u(p[1])}L{u(q[0])} {u(q[1])}")
    return f'<path class="grid" d="{"".join(d)}"/>'


def _clear_of_mouths(line, room) -> tuple:
    """The grid line (a, b) cut back to the cross line a square in where it would run into the middle of a door's
    mouth: a passage centred on a grid line (a hallway's two-square end, the door across from it) opens onto a
    square's width of floor, not onto a line splitting it."""
    (ax, ay), (bx, by) = line
    for door in room.doors:
        if door.side in ("N", "S") and ax == bx == door.x:
            if door.side == "N" and ay == door.y:
                ay = min(ay + 1, by)
            elif door.side == "S" and by == door.y:
                by = max(by - 1, ay)
        elif door.side in ("E", "W") and ay == by == door.y:
            if door.side == "W" and ax == door.x:
                ax = min(ax + 1, bx)
            elif door.side == "E" and bx == door.x:
                bx = max(bx - 1, ax)
    return (ax, ay), (bx, by)


def _room_walls(outline, pen: Pen) -> str:
    """The wall line round the room's outline (a hallway's niches are cut into it, open to the room)."""
    return f'<path class="wall" d="{_outline_d(outline, pen, walls=True)}"/>'


def notched(room, niches) -> tuple:
    """The room's rectangle with each niche cut into its wall: one outline, clockwise from the top-left corner.

    Each door's gap is marked by its ends and middle, as on a round room's outline, so the VTT export
    opens the wall there."""
    corners = rect_polygon(room.x, room.y, room.w, room.h)
    out = []
    for k, a in enumerate(corners):
        b = corners[(k + 1) % 4]
        dx, dy = (b[0] > a[0]) - (b[0] < a[0]), (b[1] > a[1]) - (b[1] < a[1])

        def along(p, a=a, dx=dx, dy=dy):  # how far along this wall, and whether on its line
            return (p[0] - a[0]) * dx + (p[1] - a[1]) * dy

        def on_wall(p, a=a, dx=dx, dy=dy):
            return (p[0] - a[0]) * dy - (p[1] - a[1]) * dx == 0

        cuts = []
        for niche in niches:
            mouth = sorted((p for p in niche if on_wall(p)), key=along)
            if len(mouth) != 2:
                continue
            back = [p for p in niche if p not in mouth]
            b0 = min(back, key=lambda p: abs(along(p) - along(mouth[0])))
            b1 = next(p for p in back if p is not b0)
            cuts.append((along(mouth[0]), (mouth[0], b0, b1, mouth[1])))
        for door in room.doors:
            if on_wall((door.x, door.y)):
                gap = tuple((door.x + dx * t, door.y + dy * t) for t in (-MOUTH, 0.0, MOUTH))
                cuts.append((along(gap[0]), gap))
        for p in (a, *(p for _, points in sorted(cuts) for p in points)):
            if not out or p != out[-1]:  # a gap's end may fall on a corner
                out.append(p)
    return tuple(out[:-1] if out[-1] == out[0] else out)


def _doors(room, look) -> str:
    """Each exit in the wall: an open gap the passage runs through; a barred door filled and crossed by its bar,
    a locked one with a keyhole; a wall broken through a ragged hole with stones."""
    out = []
    for index, door in enumerate(room.doors):
        x, y = door.x, door.y
        across = door.side in ("N", "S")
        kind = door_kind(door, index, look)
        data = f'data-room="{room.number}" data-side="{door.side}" data-kind="{kind}"'
        if kind == "broken":
            out.append(map_marks.broken_wall(x, y, across, data))
            continue
        if kind == "open":  # floor over the wall line, as wide as the passage's floor: its walls run on into the room's
            w, h = (OPENING[0], OPENING[1]) if across else (OPENING[1], OPENING[0])
            out.append(f'<rect class="door opening" {data} x="{u(x - w / 2)}" y="{u(y - h / 2)}" width="{u(w)}" '
                       f'height="{u(h)}"/>')
            continue
        w, h = (0.9, 0.3) if across else (0.3, 0.9)  # the leaf fills the passage's mouth
        out.append(f'<rect class="door {kind}" {data} x="{u(x - w / 2)}" y="{u(y - h / 2)}" width="{u(w)}" '
                   f'height="{u(h)}"/>')
        if kind == "barred":
            dx, dy = INWARD[door.side]
            out.append(f'<path class="bar" d="M{u(x - dy * 0.45)} {u(y - dx * 0.45)}L{u(x + dy * 0.45)} '
                       f'{u(y + dx * 0.45)}"/>')
        else:
            out.append(f'<circle class="keyhole" cx="{u(x)}" cy="{u(y)}" r="{u(0.1)}"/>')
    return "".join(out)


def _dead_ends(plan) -> str:
    """A wall across the end of each dead-end passage, with rubble before it."""
    out = []
    for corridor in plan.corridors:
        if corridor.end is not None:
            continue
        (x0, y0), (x1, y1) = corridor.points[0], corridor.points[-1]
        side = "E" if x1 > x0 else "W" if x1 < x0 else "S" if y1 > y0 else "N"
        out.append(f'<g class="dead-end" data-room="{corridor.start}" data-side="{_leaving(x0, y0, plan.room(corridor.start))}">'
                   f'{map_marks.dead_end(x1, y1, side)}</g>')
    return "".join(out)


def _leaving(x: float, y: float, room) -> str:
    """The wall of `room` the point (x, y) lies on."""
    return "N" if y == room.y else "S" if y == room.y + room.h else "W" if x == room.x else "E"


def _entrance(plan) -> str:
    """An arrow up the entrance passage from the bottom edge."""
    for corridor in plan.corridors:
        if corridor.end == OUTSIDE:
            x, bottom = corridor.points[-1]
            return map_marks.arrow(x, bottom - 0.2, 1.6)
    return ""


def text_units(scale_mm: float, base: float, least_pt: float) -> float:
    """A font size in user units: `base`, or more if that would print under `least_pt` at `scale_mm` mm a square."""
    # rounded up, never under (with slack for the printed width, written rounded to 0.01 mm)
    return max(base, math.ceil(least_pt * 25.4 / 72 / (scale_mm / UNIT) * map_marks.PRINT_SLACK * 100) / 100)


def _fitted(room, size: float, scale: float) -> float:
    """`size`, or less so the room's number fits across its room (a two-wide hallway numbered 11 on an A7 page),
    though never under the least size any word on the map prints at."""
    fits = (room.w - 0.1) / (0.7 * len(str(room.number))) * UNIT
    return max(min(size, fits), text_units(scale, NUMBER_UNITS, map_marks.TEXT_PT))


def number_half(number: int, size: float) -> tuple:
    """Half the width and height, in cells, a room's number takes printed at `size` user units (figures 0.7 em wide)."""
    return 0.35 * size / UNIT * len(str(number)) + 0.02, 0.36 * size / UNIT + 0.02


def _number(room, box, size: float) -> str:
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    # The baseline sits a little over a third of the size below the centre, so the figures look centred.
    return (f'<text class="num" x="{u(cx)}" y="{num(cy * UNIT + size * 0.36)}" '
            f'style="font-size:{num(size)}px">{room.number}</text>')

