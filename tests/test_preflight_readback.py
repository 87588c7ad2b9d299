"""preflight.readback: a written PDF's text read back against what its pages were laid out with."""

from __future__ import annotations

import pytest

from dungeonpress import pdf, resources
from dungeonpress.preflight import readback
from tests.test_pdf import FEATURED, TEMPLATES, _pdf


def test_readback_names_the_page_and_the_characters_a_whole_font_loses():
    rendered = pdf.layout_html(FEATURED, base_url=TEMPLATES, roots=[TEMPLATES])
    broken = rendered.document.write_pdf(full_fonts=True)  # the old way without HarfBuzz-Subset
    lines = readback.lost_text(broken, {0: pdf.page_text(rendered, 0)})
    assert len(lines) == 1 and lines[0].startswith("page 1: ") and "0123456789" in lines[0]
    assert readback.lost_text(_pdf(), {0: pdf.page_text(rendered, 0)}) == []


@pytest.mark.parametrize("count, expected", [(0, []), (3, [0, 1, 2]), (8, list(range(8))),
                                             (112, [0, 16, 32, 48, 63, 79, 95, 111])])
def test_readback_samples_pages_from_first_to_last(count, expected):
    assert readback.sample(count) == expected
