"""Reading limits measured on a PDF's raw objects before anything renders it: form nesting, pages, page area."""

from __future__ import annotations

import re
from pathlib import Path

import pikepdf
import pytest

from dungeonpress.impose import limits
from tests.test_preview import blank_pdf


def _chain_of_forms(path: Path, depth: int, loop: bool = False) -> Path:
    """Forms each drawing the next once (depth), or one form drawing itself (loop)."""
    pdf = pikepdf.new()
    pdf.add_blank_page(page_size=(200, 200))
    forms = [pdf.make_stream(b"0 0 1 1 re f") for _ in range(depth)]
    for index, form in enumerate(forms):
        form.Type, form.Subtype, form.BBox = pikepdf.Name.XObject, pikepdf.Name.Form, [0, 0, 10, 10]
        nxt = forms[0] if loop else forms[index + 1] if index + 1 < depth else None
        if nxt is not None:
            form.write(b"/X Do")
            form.Resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary(X=nxt))
    page = pdf.pages[0]
    page.Resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary(X=forms[0]))
    page.Contents = pdf.make_stream(b"/X Do")
    pdf.save(path)
    return path


@pytest.mark.parametrize("depth, loop, refusal", [
    (20, False, "form XObjects nested more than 12 deep (limit 12)"),
    (1, True, "draws itself"),
])
def test_forms_nested_too_deep_or_in_a_loop_are_refused(tmp_path, depth, loop, refusal):
    pdf = _chain_of_forms(tmp_path / "forms.pdf", depth, loop)
    with pytest.raises(limits.UnsafePDF, match=re.escape(refusal)):
        limits.check_limits(pdf)


def test_a_chain_of_forms_within_the_limits_is_read(tmp_path):
    assert limits.check_limits(_chain_of_forms(tmp_path / "forms.pdf", 10)) == [(0.0, 0.0, 200.0, 200.0)]


def test_too_many_pages_is_refused(tmp_path):
    pdf = blank_pdf(tmp_path / "many.pdf", pages=12)
    with pytest.raises(limits.UnsafePDF, match=r"^more than 10 pages \(limit 10\)$"):
        limits.check_limits(pdf, limits.ReadLimits(pages=10))
    assert len(limits.check_limits(pdf, limits.ReadLimits(pages=12))) == 12


def test_a_page_over_the_area_limit_is_refused(tmp_path):
    pdf = blank_pdf(tmp_path / "poster.pdf", pages=1, size=(14400, 14400))
    with pytest.raises(limits.UnsafePDF, match=r"page 1 is 25\.8 square metres \(limit 2\)"):
        limits.check_limits(pdf)
