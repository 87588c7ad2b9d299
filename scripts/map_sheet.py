"""Contact sheet of the maps: twelve seeds' zine maps in both styles, Paperogue levels and Dunginoes maps → PNGs.

usage: python scripts/map_sheet.py OUT_FOLDER [--seeds 1-12] [--rooms 10]

The zine maps are drawn at their printed size (the A4 zine's map box) through the project's
own PDF path, so the PNG shows what a printer would; the Paperogue and Dunginoes pages are
their products' PDFs, rasterised. Also writes the first seed's map alone per style (map-clean.png, map-sketch.png) for the README.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image

from dungeonpress import build, pdf
from dungeonpress.dice import sub_rng
from dungeonpress.draw.dungeon_map import STYLES, draw_dungeon_map
from dungeonpress.generate.dungeon import generate_dungeon
from dungeonpress.products.dungeon import MAP_BOX

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"


def zine_maps_pdf(seeds, rooms: int, style: str) -> bytes:
    """One page of maps at the zine's printed size, with seed and legend under each."""
    content = build.load_content()
    css = (TEMPLATES / "css" / "map.css").read_text(encoding="utf-8")
    width, height = MAP_BOX["zine-a4"]
    cells = []
    for seed in seeds:
        dungeon = generate_dungeon(content, sub_rng(seed, "dungeon"), rooms=rooms)
        drawn = draw_dungeon_map(dungeon, width_mm=width, height_mm=height, style=style,
                                 rng=random.Random(f"{seed}/map"), css=css, title=f"Map of {dungeon.name}")
        cells.append(f'<div class="c"><div class="box">{drawn.svg}</div><p>seed {seed} · {style} · '
                     f'{", ".join(drawn.legend)}</p></div>')
    html = (f'<html><head><link rel="stylesheet" href="css/fonts.css"><style>@page {{ size: 420mm 200mm; margin: 4mm }}'
            f' body {{ font: 6pt Vollkorn }} .c {{ display: inline-block; width: {width}mm; margin: 0 1mm 2mm;'
            f' vertical-align: top }} .box {{ width: {width}mm; height: {height}mm; outline: 0.2pt dashed #aaa;'
            f' display: flex; align-items: center; justify-content: center }}</style></head><body>'
            f'{"".join(cells)}</body></html>')
    rendered = pdf.layout_html(html, base_url=TEMPLATES, roots=(TEMPLATES,))
    return pdf.write_pdf(rendered)


def raster(data_or_path, scale: float, pages=None) -> list:
    doc = pdfium.PdfDocument(data_or_path)
    chosen = range(len(doc)) if pages is None else [p for p in pages if p < len(doc)]
    return [doc[i].render(scale=scale).to_pil().convert("RGB") for i in chosen]


def stack(images, cols: int, pad: int = 12) -> Image.Image:
    width = max(i.width for i in images)
    height = max(i.height for i in images)
    rows = (len(images) + cols - 1) // cols
    sheet = Image.new("RGB", (cols * (width + pad) + pad, rows * (height + pad) + pad), "#9a9a9a")
    for n, image in enumerate(images):
        sheet.paste(image, (pad + (n % cols) * (width + pad), pad + (n // cols) * (height + pad)))
    return sheet


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("out", type=Path)
    parser.add_argument("--seeds", default="1-12")
    parser.add_argument("--rooms", type=int, default=10)
    args = parser.parse_args()
    low, high = (int(v) for v in args.seeds.split("-"))
    seeds = range(low, high + 1)
    args.out.mkdir(parents=True, exist_ok=True)

    rows = []
    for style in STYLES:
        page = raster(zine_maps_pdf(seeds, args.rooms, style), 2.2)[0]
        page.save(args.out / f"zine-maps-{style}.png")
        px = 2.2 * 72 / 25.4  # pixels per mm at this scale
        width, height = MAP_BOX["zine-a4"]
        page.crop((round(3 * px), round(2 * px), round((7 + width) * px), round((7 + height) * px))).save(
            args.out / f"map-{style}.png")  # the first seed's map alone, for the README
        rows.append(page)
    with tempfile.TemporaryDirectory() as tmp:
        cli = [sys.executable, "-m", "dungeonpress"]
        subprocess.run([*cli, "paperogue", "--seed", "5", "--out", tmp], check=True, capture_output=True)
        subprocess.run([*cli, "dunginoes", "--seed", "5", "--out", tmp], check=True, capture_output=True)
        others = []
        for path in sorted(Path(tmp).glob("paperogue-5.pdf")):  # the three level sheets
            others += raster(str(path), 0.9, pages=[0, 1, 2])
        for path in sorted(Path(tmp).glob("dunginoes-map-*.pdf")):  # both map procedures
            others += raster(str(path), 0.9)
    if others:
        extra = stack(others, len(others))
        extra.save(args.out / "paperogue-dunginoes.png")
        rows.append(extra)
    width = max(r.width for r in rows)
    sheet = Image.new("RGB", (width, sum(r.height for r in rows)), "#9a9a9a")
    y = 0
    for r in rows:
        sheet.paste(r, (0, y))
        y += r.height
    sheet.save(args.out / "contact-sheet.png")
    print(args.out / "contact-sheet.png")


if __name__ == "__main__":
    main()
