"""Rock round the floor: floor outlines (cells) and a seeded Random → one tile of pen hatching and the band it fills.

The sketch style shades rock as a cartographer does with a pen: little bundles of three strokes
at random angles, in a band along every wall. The bundles are drawn once, in a square tile that
repeats (an SVG pattern: WeasyPrint writes it as one PDF tiling pattern, a few hundred strokes
however large the map, where stroking every bundle took thousands). The pattern fills a band
round each floor with a ragged outer edge; the floors are painted over it, so the walls cut it.
"""

from __future__ import annotations

import math
import random

from dungeonpress.draw.geometry import bbox, clip_inside, grow, rect_polygon


def frame_cells(scale_mm: float) -> float:
    """The margin the hatching keeps inside the map's edge, in cells, for a map printed at `scale_mm` mm a square."""
    return max(FRAME, FRAME_MM / scale_mm)

TILE = 3.7       # the tile's side, in cells: not a whole number, so the repeat never lines up with the grid
SPACING = 0.42   # cells between bundle centres
STROKE = 0.42    # length of one stroke, in cells
GAP = 0.11       # between the strokes of a bundle
BAND = 0.85      # cells of hatching out from a wall
RAGGED = 0.12    # how far the band's outer edge wanders in or out, in cells
EDGE_STEP = 0.5  # cells between points of the band's outer edge
FRAME = 0.3      # the band stays at least this far inside the map's edge, in cells
FRAME_MM = 1.0   # and at least this far as printed: a cover draws its frame round the map's edge


def hatch_tile(rng: random.Random) -> list:
    """Strokes ((x0, y0), (x1, y1)) of one tile, inside the square 0..TILE; it tiles without a seam.

    A bundle that crosses the tile's edge is drawn again on the opposite edge, and every copy cut to the
    tile, so the strokes meet where tiles meet.
    """
    square = rect_polygon(0, 0, TILE, TILE)
    count = round(TILE / SPACING)
    step = TILE / count
    strokes = []
    for j in range(count):
        for i in range(count):
            x = (i + 0.5) * step + (rng.random() - 0.5) * step * 0.6
            y = (j + 0.5) * step + (rng.random() - 0.5) * step * 0.6
            angle = rng.random() * math.pi
            dx, dy = math.cos(angle) * STROKE / 2, math.sin(angle) * STROKE / 2
            nx, ny = -math.sin(angle) * GAP, math.cos(angle) * GAP
            for k in (-1, 0, 1):
                cx, cy = x + nx * k, y + ny * k
                for ox in (-TILE, 0.0, TILE):
                    for oy in (-TILE, 0.0, TILE):
                        a, b = (cx - dx + ox, cy - dy + oy), (cx + dx + ox, cy + dy + oy)
                        if _apart(a, b):
                            continue  # most of the nine copies: cutting them to the tile leaves nothing
                        strokes += [piece for piece in clip_inside(a, b, square) if math.dist(*piece) > 1e-6]
    return strokes


def _apart(a, b) -> bool:
    """Whether segment a→b lies wholly outside the tile's square (its box misses it): no piece of it is inside."""
    return (max(a[0], b[0]) < 0 or min(a[0], b[0]) > TILE or max(a[1], b[1]) < 0 or min(a[1], b[1]) > TILE)


def hatch_band(floor, straight: bool, width: float, height: float, rng: random.Random, frame: float = FRAME) -> tuple:
    """The band of rock round one floor (a polygon in cells), to be filled with the hatching tile.

    `straight` floors (rooms and passages on the grid) are grown by BAND with rounded corners; others
    (caves, round rooms) are pushed out from their centre. The outer edge wanders by up to RAGGED, the
    way a pen's hatching stops unevenly, and stays `frame` cells inside the map's edge (a margin kept clear).
    """
    outline = _rounded(floor, BAND) if straight else list(grow(floor, BAND))
    out = []
    n = len(outline)
    cx = sum(p[0] for p in outline) / n
    cy = sum(p[1] for p in outline) / n
    for (x0, y0), (x1, y1) in zip(outline, outline[1:] + outline[:1]):
        pieces = max(1, int(math.hypot(x1 - x0, y1 - y0) / EDGE_STEP))
        for k in range(pieces):
            t = k / pieces
            x, y = x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
            length = math.hypot(x - cx, y - cy) or 1.0
            off = (rng.random() * 2 - 1) * RAGGED
            x, y = x + (x - cx) / length * off, y + (y - cy) / length * off
            out.append((min(max(x, frame), width - frame), min(max(y, frame), height - frame)))
    return tuple(out)


def _rounded(polygon, by: float) -> list:
    """The polygon's bounding box grown by `by` on every side, its corners rounded with radius `by`."""
    x0, y0, x1, y1 = bbox(polygon)
    corners = ((x1, y0, -math.pi / 2), (x1, y1, 0.0), (x0, y1, math.pi / 2), (x0, y0, math.pi))
    out = []
    for cx, cy, start in corners:  # clockwise on the page (y grows down): NE, SE, SW, NW
        for k in range(4):
            a = start + k * math.pi / 6
            out.append((cx + math.cos(a) * by, cy + math.sin(a) * by))
    return out

