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


def read_back_pages(monkeypatch) -> list:
    """The page indices every later read-back is asked for, one list a document."""
    asked, real = [], readback.lost_text
    monkeypatch.setattr(readback, "lost_text", lambda data, laid_out: asked.append(sorted(laid_out)) or
                        real(data, laid_out))
    return asked


def test_a_book_part_is_read_back_on_its_first_and_last_pages(monkeypatch):
    """A product reads eight pages of a document back; a book's part (the rulebook has seventeen) reads two."""
    from dungeonpress.paginate import book
    from dungeonpress.products import common, rulebook
    html = "<html lang='en'><body>" + "".join(f"<p style='break-before: page'>Page {n}: 2d6 and 4–6</p>" for n in range(12))
    asked = read_back_pages(monkeypatch)
    rendered = pdf.layout_html(html + "</body></html>", base_url=TEMPLATES, roots=[TEMPLATES])
    common.checked_pdf(rendered, variant=pdf.TAGGED_VARIANT)
    [part] = rulebook.PartLayout(TEMPLATES, (TEMPLATES,), None, False)(book.Job("part", html + "</body></html>"))
    assert part.pages == 12 and part.warnings == ()
    assert asked == [readback.sample(12), [0, 11]] and len(asked[0]) == readback.SAMPLE_PAGES == 8
