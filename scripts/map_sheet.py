"""Contact sheet of the maps: twelve seeds' zine maps in both styles, Paperogue levels and Dunginoes maps → PNGs.

usage: python scripts/map_sheet.py OUT_FOLDER [--seeds 1-12] [--rooms 12]

The zine maps are the A4 zine's map page (page 2) as the zine product lays it out, legend and
all, so the PNG shows what a printer would; the Paperogue and Dunginoes pages are their
products' PDFs, rasterised. Also writes the first seed's map page alone per style
(map-clean.png, map-sketch.png) for the README.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image, ImageDraw

from dungeonpress import build
from dungeonpress.draw.dungeon_map import STYLES
from dungeonpress.products import dungeon as product
from dungeonpress.products.common import layout

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"


def zine_map_pages(seeds, rooms: int, style: str, scale: float) -> list:
    """Each seed's zine map page (page 2) as printed: laid out by the zine product itself, rasterised."""
    content = build.load_content()
    images = []
    for seed in seeds:
        ctx = build.context_for(content, seed=seed)
        dungeon = product.roll_dungeon(ctx, seed, rooms)
        rendered = layout(ctx, product.zine_html(ctx, dungeon, seed, rooms, "a4", map_style=style))
        page = raster(rendered.document.copy([rendered.document.pages[1]]).write_pdf(), scale)[0]
        images.append(page)
    return images


def label(image: Image.Image, text: str) -> Image.Image:
    """The image with a caption strip under it."""
    out = Image.new("RGB", (image.width, image.height + 22), "white")
    out.paste(image, (0, 0))
    ImageDraw.Draw(out).text((8, image.height + 4), text, fill="black")
    return out


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
    parser.add_argument("--rooms", type=int, default=12)
    args = parser.parse_args()
    low, high = (int(v) for v in args.seeds.split("-"))
    seeds = range(low, high + 1)
    args.out.mkdir(parents=True, exist_ok=True)

    rows = []
    for style in STYLES:
        pages = zine_map_pages(seeds, args.rooms, style, 3.0)
        first = pages[0]
        # The first seed's map page alone, for the README: 64 colours keep the picture small.
        first.resize((first.width * 2 // 3, first.height * 2 // 3)).quantize(64).save(
            args.out / f"map-{style}.png", optimize=True)
        sheet = stack([label(page, f"seed {seed} · {args.rooms} rooms · {style}") for seed, page in zip(seeds, pages)], 6)
        sheet.save(args.out / f"zine-maps-{style}.png")
        rows.append(sheet)
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
