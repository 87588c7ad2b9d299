"""Rasterise PDFs to PNG pages (and contact sheets) so a person can look at what we print.

usage: python scripts/preview.py PDF_OR_FOLDER OUT_FOLDER [--scale 0.8] [--sheet-cols 6]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image


def render_pdf(path: Path, out: Path, scale: float) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    pdf = pdfium.PdfDocument(str(path))
    pages = []
    for index in range(len(pdf)):
        target = out / f"{path.stem}-p{index + 1:03d}.png"
        pdf[index].render(scale=scale).to_pil().save(target)
        pages.append(target)
    return pages


def contact_sheet(pages: list[Path], target: Path, cols: int) -> None:
    images = [Image.open(p) for p in pages]
    width = max(i.width for i in images)
    height = max(i.height for i in images)
    rows = (len(images) + cols - 1) // cols
    sheet = Image.new("RGB", (cols * width, rows * height), "#888")
    for n, image in enumerate(images):
        sheet.paste(image, ((n % cols) * width, (n // cols) * height))
    sheet.save(target)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("source", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--scale", type=float, default=0.8)
    parser.add_argument("--sheet-cols", type=int, default=6)
    parser.add_argument("--per-sheet", type=int, default=12)
    args = parser.parse_args()
    pdfs = sorted(args.source.rglob("*.pdf")) if args.source.is_dir() else [args.source]
    for path in pdfs:
        pages = render_pdf(path, args.out, args.scale)
        for start in range(0, len(pages), args.per_sheet):
            contact_sheet(pages[start:start + args.per_sheet],
                          args.out / f"{path.stem}-sheet{start // args.per_sheet + 1}.png", args.sheet_cols)
        print(f"{path}: {len(pages)} pages")


if __name__ == "__main__":
    main()
