"""PDF page → PNG at an exact pixel size, and the pixel budget."""

from __future__ import annotations

import io

import pikepdf
import pytest
from PIL import Image

from dungeonpress import raster


def _blank_pdf(width_pt: float, height_pt: float) -> bytes:
    pdf = pikepdf.new()
    pdf.add_blank_page(page_size=(width_pt, height_pt))
    out = io.BytesIO()
    pdf.save(out, deterministic_id=True)
    return out.getvalue()


@pytest.mark.parametrize("size", [(230, 250), (1150, 1250), (101, 97)])
def test_the_png_is_exactly_the_size_asked_for(size):
    png = raster.png_from_pdf(_blank_pdf(326.0, 354.3), *size)
    image = Image.open(io.BytesIO(png))
    assert image.size == size and image.getpixel((0, 0)) == (255, 255, 255)


def test_same_pdf_same_png_bytes():
    data = _blank_pdf(200, 200)
    assert raster.png_from_pdf(data, 300, 300) == raster.png_from_pdf(data, 300, 300)


def test_an_image_over_the_pixel_budget_is_refused():
    with pytest.raises(ValueError, match="pixel budget"):
        raster.png_from_pdf(_blank_pdf(200, 200), 10_000, 10_000)
