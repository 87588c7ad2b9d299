"""PDF bytes we made → a PNG of its first page at an exact size in pixels (pypdfium2 renders, Pillow encodes)."""

from __future__ import annotations

import io

import pypdfium2 as pdfium
from PIL import Image

MAX_PIXELS = 40_000_000  # a map image far larger than any VTT loads comfortably is refused, not made


def png_from_pdf(pdf_bytes: bytes, width_px: int, height_px: int) -> bytes:
    """The first page scaled to `width_px` × `height_px` on white; same PDF and size → same PNG bytes."""
    if width_px * height_px > MAX_PIXELS:
        raise ValueError(f"a {width_px} × {height_px} px image is over the {MAX_PIXELS:,} pixel budget")
    document = pdfium.PdfDocument(pdf_bytes)
    try:
        page = document[0]
        scale = width_px / page.get_width()
        image = page.render(scale=scale, fill_color=(255, 255, 255, 255)).to_pil().convert("RGB")
    finally:
        document.close()
    if image.size != (width_px, height_px):  # rounding can leave a pixel over or short: pad or crop to size
        canvas = Image.new("RGB", (width_px, height_px), "white")
        canvas.paste(image, (0, 0))
        image = canvas
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()
