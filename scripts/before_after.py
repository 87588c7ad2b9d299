"""Before-and-after sheets of every product: each page of two builds side by side, one PNG a product.

usage: python -m scripts.before_after BEFORE_BUILD AFTER_BUILD [--out docs/review] [--theme THEME] [--only NAME,...]

BEFORE_BUILD and AFTER_BUILD are folders made by `dungeonpress build all` (e.g. `make` at two commits:
`git worktree add /tmp/old REV && make -C /tmp/old`). Each sheet shows every page of one product as a
thumbnail, the older build's pages in the upper band and the newer's below, so a reviewer sees at a glance
which pages were filled, moved or redrawn; open the PDFs themselves for detail. With `--theme`, both folders hold
that theme's build (its files carry the theme's name) and each sheet's name gets it too: `rulebook-large-print.png`.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from PIL import Image, ImageDraw

from dungeonpress import preview

# sheet name -> the PDF of the standard `build all` it shows (the products a print review rates)
PRODUCTS = {
    "rulebook": "dungeoneer-rulebook.pdf",
    "rulebook-booklet": "dungeoneer-rulebook-booklet-a4.pdf",
    "tables": "tables.pdf",
    "zine": "dungeon-1234-zine-a4.pdf",
    "dungeon-booklet": "dungeon-1234-a5.pdf",
    "pack": "pack-66.pdf",
    "dungeoneer-sheet": "sheet-dungeoneer-a4-print.pdf",
    "characters": "characters-1234.pdf",
    "paperogue-sheet": "sheet-paperogue-a4.pdf",
    "paper": "paper-square-a4.pdf",
    "paperogue-level": "paperogue-1234.pdf",
    "paperogue-reference": "paperogue-reference.pdf",
    "dunginoes-rules": "dunginoes-rules.pdf",
    "dunginoes-map": "dunginoes-map-1234-before.pdf",
    "solo-procedure": "solo-procedure.pdf",
    "delve-log": "delve-1234.pdf",
    "oracle-card": "oracle-card.pdf",
    "foe-cards": "foe-cards-dungeon-1234-a7-a4.pdf",
}


def thumb_height(pages: int) -> int:
    """A page's height on the sheet, px: large enough to read a card or a short kit, small for a book."""
    return 560 if pages <= 2 else 420 if pages <= 4 else 260 if pages <= 12 else 150 if pages <= 40 else 110 if pages <= 120 else 80
WIDTH = 1500  # px: a band wraps to rows of at most this width
GAP = 6
LABEL = 18  # px: the band's label line
MAX_BYTES = 300_000


def band(pdf: Path, label: str, height: int) -> Image.Image:
    """Every page of `pdf` as thumbnails `height` px tall in rows, under a one-line label."""
    count = preview.page_count(pdf) if pdf.is_file() else 0
    pages = [preview.render_page(pdf, index, height=height) for index in range(count)]
    rows, row, x = [], [], 0
    for page in pages:
        if row and x + page.width > WIDTH:
            rows.append(row)
            row, x = [], 0
        row.append(page)
        x += page.width + GAP
    if row:
        rows.append(row)
    width = max([WIDTH // 3] + [sum(p.width + GAP for p in r) for r in rows])
    image = Image.new("RGB", (width, LABEL + max(1, len(rows)) * (height + GAP)), "white")
    ImageDraw.Draw(image).text((2, 2), f"{label}: {count} pages" if count else f"{label}: not built", fill="black")
    for r, row in enumerate(rows):
        x = 0
        for page in row:
            image.paste(page, (x, LABEL + r * (height + GAP)))
            ImageDraw.Draw(image).rectangle((x, LABEL + r * (height + GAP), x + page.width - 1,
                                             LABEL + r * (height + GAP) + height - 1), outline="#999999")
            x += page.width + GAP
    return image


def sheet(before: Path, after: Path, pdf: str) -> Image.Image:
    counts = [preview.page_count(folder / pdf) for folder in (before, after) if (folder / pdf).is_file()]
    height = thumb_height(max(counts, default=1))
    upper, lower = band(before / pdf, f"before ({pdf})", height), band(after / pdf, "after", height)
    image = Image.new("RGB", (max(upper.width, lower.width), upper.height + lower.height + 2 * GAP), "white")
    image.paste(upper, (0, 0))
    ImageDraw.Draw(image).line((0, upper.height + GAP, image.width, upper.height + GAP), fill="#cc3333", width=2)
    image.paste(lower, (0, upper.height + 2 * GAP))
    return image


def save_small(image: Image.Image, target: Path) -> int:
    for colours in (64, 32, 16):
        image.quantize(colours, dither=Image.Dither.NONE).save(target, optimize=True)
        if target.stat().st_size <= MAX_BYTES:
            break
    return target.stat().st_size


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--out", type=Path, default=Path("docs/review"))
    parser.add_argument("--theme", default="standard", help="the theme both builds were made in")
    parser.add_argument("--only", default="", help="the sheets to make, by name, comma-separated (default: all)")
    args = parser.parse_args(argv)
    wanted = [name for name in args.only.split(",") if name]
    unknown = sorted(set(wanted) - set(PRODUCTS))
    if unknown:
        parser.error(f"no sheet named {', '.join(unknown)} (expected some of {', '.join(PRODUCTS)})")
    args.out.mkdir(parents=True, exist_ok=True)
    themed = "" if args.theme == "standard" else f"-{args.theme}"
    for name, pdf in PRODUCTS.items():
        if wanted and name not in wanted:
            continue
        image = sheet(args.before, args.after, pdf.replace(".pdf", f"{themed}.pdf"))
        size = save_small(image, args.out / f"{name}{themed}.png")
        print(f"{args.out / name}{themed}.png: {image.width}x{image.height}, {size // 1000} KB")


if __name__ == "__main__":
    main()
