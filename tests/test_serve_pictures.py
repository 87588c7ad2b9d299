"""serve.pictures: a PDF → its page count and page PNGs, remembered until the file changes, within a byte budget."""

from __future__ import annotations

import io
import os

import pytest
from PIL import Image

from dungeonpress.serve.pictures import PAGE_HEIGHT, THUMB_WIDTH, Pictures, Unreadable
from tests.test_preview import blank_pdf


def test_pages_and_thumbnails_have_their_stated_sizes(tmp_path):
    pdf = blank_pdf(tmp_path / "a.pdf", pages=3, size=(144, 216))
    pictures = Pictures()
    assert pictures.page_count(pdf) == 3
    page = Image.open(io.BytesIO(pictures.page(pdf, 2)))
    assert page.height == PAGE_HEIGHT and abs(page.width - PAGE_HEIGHT * 144 / 216) <= 1  # PDFium rounds up
    assert Image.open(io.BytesIO(pictures.thumbnail(pdf))).width == THUMB_WIDTH


def test_a_rebuilt_file_is_read_again(tmp_path):
    pdf = blank_pdf(tmp_path / "a.pdf", pages=2)
    pictures = Pictures()
    assert pictures.page_count(pdf) == 2
    blank_pdf(tmp_path / "b.pdf", pages=5)
    os.replace(tmp_path / "b.pdf", pdf)
    assert pictures.page_count(pdf) == 5


def test_the_cache_keeps_within_its_budget(tmp_path):
    pdf = blank_pdf(tmp_path / "a.pdf", pages=4)
    one = len(Pictures().page(pdf, 0))
    pictures = Pictures(budget=2 * one)
    for index in range(4):
        pictures.page(pdf, index)
    assert pictures._size <= 2 * one and len(pictures._cache) == 2


def test_a_file_that_is_not_a_pdf_is_unreadable(tmp_path):
    bad = tmp_path / "bad.pdf"
    bad.write_bytes(b"%PDF-1.7 no more")
    with pytest.raises(Unreadable):
        Pictures().page_count(bad)
