"""Make the small product pictures the README shows (docs/images/*.png) from freshly built PDFs.

usage: python scripts/readme_images.py [--out docs/images]
Each picture is a few pages of the standard `build all` side by side, rendered with the preview
code (pypdfium2) and reduced to a small palette so it stays under about 60 KB.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from PIL import Image

from dungeonpress import preview
from dungeonpress.cli import main

HEIGHT = 330  # pixels: enough to see the layout, small enough for the README
MAX_BYTES = 60_000

# picture name -> [(PDF, 0-based page), ...]: pages of the standard `build all`, so the suite can hold
# every picture against the build it makes anyway (tests/test_docs.py) and say when one is stale.
PICTURES = {
    "rulebook": [("dungeoneer-rulebook.pdf", 0), ("dungeoneer-rulebook.pdf", 25), ("dungeoneer-rulebook.pdf", 26)],
    "tables": [("tables.pdf", 3), ("tables.pdf", 4)],  # Loner core opens on a left-hand page
    "zine": [("dungeon-1234-zine-a4.pdf", 0)],
    "dungeon-booklet": [("dungeon-1234-a5.pdf", 0), ("dungeon-1234-a5.pdf", 1), ("dungeon-1234-a5.pdf", 2)],
    "sheets": [("sheet-dungeoneer-a4-print.pdf", 0), ("sheet-dungeoneer-a4-print.pdf", 1), ("sheet-paperogue-a4.pdf", 0)],
    "characters": [("characters-1234.pdf", 0)],
    "paper": [("paper-square-a4.pdf", 0), ("paper-dot-a4.pdf", 0)],
    "paperogue": [("paperogue-1234.pdf", 0), ("paperogue-reference.pdf", 0), ("paperogue-reference.pdf", 1)],
    "dunginoes": [("dunginoes-rules.pdf", 0), ("dunginoes-map-1234-before.pdf", 0)],
    "delve": [("solo-procedure.pdf", 0), ("delve-1234.pdf", 0)],
}


def picture(folder: Path, name: str) -> Image.Image:
    """The picture `name`, its pages side by side, from the PDFs in `folder` (before the palette is reduced)."""
    return side_by_side([page_image(folder / pdf, index, HEIGHT) for pdf, index in PICTURES[name]])


def page_image(pdf: Path, index: int, height: int) -> Image.Image:
    return preview.render_page(pdf, index, height=height)


def side_by_side(images: list, gap: int = 12) -> Image.Image:
    width = sum(i.width for i in images) + gap * (len(images) - 1)
    sheet = Image.new("RGB", (width, max(i.height for i in images)), "white")
    x = 0
    for image in images:
        sheet.paste(image, (x, 0))
        x += image.width + gap
    return sheet


def save_small(image: Image.Image, target: Path) -> int:
    for colours in (64, 32, 16, 8):
        image.quantize(colours, dither=Image.Dither.NONE).save(target, optimize=True)
        if target.stat().st_size <= MAX_BYTES:
            break
    return target.stat().st_size


def main_images(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        if main(["build", "all", "--no-preflight", "--out", work, "--quiet"]) != 0:
            raise SystemExit("build all failed")
        for name in PICTURES:
            image = picture(Path(work), name)
            size = save_small(image, out / f"{name}.png")
            print(f"{out / name}.png: {image.width}x{image.height}, {size // 1000} KB")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", type=Path, default=Path("docs/images"))
    main_images(parser.parse_args().out)
