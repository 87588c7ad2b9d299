"""Make the small product pictures the README shows (docs/images/*.png) from freshly built PDFs.

usage: python scripts/readme_images.py [--out docs/images]
Each picture is a few pages side by side, rendered with the preview code (pypdfium2) and
reduced to a small palette so it stays under about 60 KB.
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

# picture name -> (the command that makes the PDFs, [(PDF, 0-based page), ...])
PICTURES = {
    "rulebook": (["build", "rulebook", "--layout", "pages"], [("dungeoneer-rulebook.pdf", 0), ("dungeoneer-rulebook.pdf", 25)]),
    "tables": (["build", "tables"], [("tables.pdf", 4), ("tables.pdf", 5)]),
    "zine": (["dungeon", "--seed", "1234", "--paper", "a4", "--format", "pdf"], [("dungeon-1234-zine-a4.pdf", 0)]),
    "dungeon-booklet": (["dungeon", "--seed", "1234", "--layout", "booklet", "--format", "pdf"],
                        [("dungeon-1234-a5.pdf", 0), ("dungeon-1234-a5.pdf", 1), ("dungeon-1234-a5.pdf", 2)]),
    "sheets": (["sheet", "--paper", "a4", "--print"], [("sheet-dungeoneer-a4-print.pdf", 0), ("sheet-dungeoneer-a4-print.pdf", 1),
                                                        ("sheet-paperogue-a4.pdf", 0)]),
    "characters": (["character", "--seed", "7", "--count", "1", "--format", "pdf"], [("characters-7.pdf", 0)]),
    "paper": (["paper", "--paper", "a4"], [("paper-square-a4.pdf", 0), ("paper-dot-a4.pdf", 0)]),
    "paperogue": (["paperogue", "--seed", "1234", "--format", "pdf", "--paper", "a4"],
                  [("paperogue-1234.pdf", 0), ("paperogue-reference.pdf", 0), ("paperogue-reference.pdf", 1)]),
    "dunginoes": (["dunginoes", "--seed", "1234", "--mode", "before"],
                  [("dunginoes-rules.pdf", 0), ("dunginoes-map-1234-before.pdf", 0)]),
    "delve": (["delve", "--seed", "1234"], [("solo-procedure.pdf", 0), ("delve-1234.pdf", 0)]),
}


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
        for name, (argv, pages) in PICTURES.items():
            if main([*argv, "--out", work, "--quiet"]) != 0:
                raise SystemExit(f"{name}: build failed")
            picture = side_by_side([page_image(Path(work) / pdf, index, HEIGHT) for pdf, index in pages])
            size = save_small(picture, out / f"{name}.png")
            print(f"{out / name}.png: {picture.width}x{picture.height}, {size // 1000} KB")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", type=Path, default=Path("docs/images"))
    main_images(parser.parse_args().out)
