"""A rolled dungeon → its map for play online: Universal VTT (`dungeon-SEED.dd2vtt`) and the player's map (PDF, PNG)."""

from __future__ import annotations

import json

from dungeonpress.dice import sub_rng
from dungeonpress.draw.dungeon_map import draw_dungeon_map
from dungeonpress.draw.geometry import num
from dungeonpress.export import uvtt
from dungeonpress.model.dungeon import Dungeon
from dungeonpress.products.common import BuildContext, Output, drawing_css, html_from_template, layout, write

PIXELS_PER_GRID = uvtt.PIXELS_PER_GRID  # one map cell is one grid square of this many pixels
CELL_MM = 5.0  # a cell on the page that is rasterised (any size works: the raster is scaled to the grid)
PLAYERS_BOX = (180.0, 222.0)  # the player's map on A4 or Letter, inside 15 mm margins and under its heading


def vtt_outputs(ctx: BuildContext, dungeon: Dungeon, seed: int, paper: str, map_style: str) -> list[Output]:
    """The .dd2vtt (keyed map image, walls, doors, entrance) and the player's map as PDF and PNG."""
    plan = dungeon.plan
    css = drawing_css(ctx, "map.css")

    def drawn(players: bool, box: tuple):
        # The same stream as the printed map (dungeon.map_rng): the same caves, the same barred door.
        return draw_dungeon_map(dungeon, width_mm=box[0], height_mm=box[1], style=map_style,
                                rng=sub_rng(seed, "map"), css=css, players=players,
                                title=f"{'Player’s map' if players else 'Map'} of {dungeon.name}")

    # 1. The keyed map, one grid square a cell, as the image of the Universal VTT file.
    cells = (plan.width * CELL_MM, plan.height * CELL_MM)
    keyed = drawn(False, cells)
    barred = {(number, index) for number, index, is_barred, _ in keyed.doors if is_barred}
    kinds = {(number, index): kind for number, index, _, kind in keyed.doors}
    # Rooms drawn off their rectangle (caves, round shrines) are walled along the outline drawn.
    shaped = dict(keyed.outlines)
    document = uvtt.uvtt(plan, png=_png(ctx, keyed), barred=barred, name=dungeon.name, seed=seed, outlines=shaped,
                         kinds=kinds)
    outputs = [Output(f"dungeon-{seed}.dd2vtt", (json.dumps(document, ensure_ascii=False) + "\n").encode("utf-8"))]

    # 2. The player's map: the same walls and doors, nothing in the rooms, no numbers; a page and a PNG.
    page = drawn(True, PLAYERS_BOX)
    html = html_from_template(ctx, "players_map.html.j2", svg=page.svg, alt=page.alt,
                              doc_title=f"Player’s map of {dungeon.name}, seed {seed}",
                              heading=f"{dungeon.name}: player’s map",
                              facts=f"Seed {seed} · {len(plan.rooms)} rooms · nothing in the rooms is shown: "
                                    f"mark what you find as you go",
                              body_class="letter" if paper == "letter" else "")
    outputs.append(Output(f"dungeon-{seed}-players-map-{paper}.pdf", write(ctx, layout(ctx, html))))
    outputs.append(Output(f"dungeon-{seed}-players-map.png", _png(ctx, drawn(True, cells))))
    return outputs


def _png(ctx: BuildContext, drawing) -> bytes:
    """A drawing drawn at CELL_MM a cell, laid out alone on a page its size, rasterised at PIXELS_PER_GRID."""
    from dungeonpress import raster  # loaded when a map is exported, not for --help
    width, height = drawing.view
    html = html_from_template(ctx, "map_image.html.j2", svg=drawing.svg, alt=drawing.alt, doc_title=drawing.alt,
                              page_width=f"{num(width * CELL_MM)}mm", page_height=f"{num(height * CELL_MM)}mm")
    pdf_bytes = write(ctx, layout(ctx, html))
    return raster.png_from_pdf(pdf_bytes, width * PIXELS_PER_GRID, height * PIXELS_PER_GRID)
