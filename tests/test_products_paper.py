"""Blank Paperogue sheets: whole cells of exactly 5 mm or 1/4 inch inside the printable area, and the boxes around them."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pypdfium2
import pypdfium2.raw as pdfium_raw
import pytest
from pypdf import PdfReader

from dungeonpress import build, cli
from dungeonpress.draw import paperogue_grid as grid
from dungeonpress.products import paper as product
from dungeonpress.views import paperogue as paper_views
from tests.conftest import slow_fixture, standard_build

MM = 72 / 25.4  # PDF points per millimetre
PAGE_PT = {"a4": (595, 842), "letter": (612, 792)}


@pytest.fixture(scope="module")
@slow_fixture
def sheets():
    """The default `paper` run: square and dot, A4 and Letter (`build all`'s paper job, shared by the run)."""
    return standard_build("paper")


@pytest.mark.slow
def test_default_run_makes_four_sheets_without_warnings(sheets):
    outputs, warnings = sheets
    assert sorted(outputs) == ["paper-dot-a4.pdf", "paper-dot-letter.pdf", "paper-square-a4.pdf",
                               "paper-square-letter.pdf"]
    assert warnings == []


@pytest.mark.parametrize("grid_kind", ["square", "dot"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_one_page_with_whole_cells_of_the_exact_size(sheets, grid_kind, paper):
    data = sheets[0][f"paper-{grid_kind}-{paper}.pdf"]
    reader = PdfReader(io.BytesIO(data))
    assert len(reader.pages) == 1
    box = reader.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == PAGE_PT[paper]
    cell = paper_views.DEFAULT_CELL[paper]
    size = grid.CELL_MM[cell] * MM
    cols, rows = grid.fit_grid(paper, cell, grid.SHEET_RESERVED_MM)
    xs, ys = _grid_positions(data, grid_kind)
    assert (len(xs), len(ys)) == (cols + 1, rows + 1)
    assert all(abs((b - a) - size) < 0.01 for a, b in zip(xs, xs[1:]))
    assert all(abs((b - a) - size) < 0.01 for a, b in zip(ys, ys[1:]))
    # inside the printable area: at least the page margin from every edge
    width, height = PAGE_PT[paper]
    margin = grid.MARGIN_MM * MM - 0.5
    assert xs[0] >= margin and xs[-1] <= width - margin and ys[0] >= margin and ys[-1] <= height - margin
    # the grid fills the width: one more cell would not fit
    assert (cols + 1) * size > width - 2 * grid.MARGIN_MM * MM


@pytest.mark.slow
def test_sheet_carries_the_legend_the_monster_lists_and_the_tally(sheets):
    text = PdfReader(io.BytesIO(sheets[0]["paper-square-a4.pdf"])).pages[0].extract_text()
    for needle in ("Top left", "Top right", "Bottom left", "Bottom right", "1d10", "2d10", "3d10", "none",
                   "Kills, level 3", "HP left", "Out alive", "Total", "5 mm squares"):
        assert needle in text, needle
    letter = PdfReader(io.BytesIO(sheets[0]["paper-dot-letter.pdf"])).pages[0].extract_text()
    assert "\u00bc-inch squares" in letter


@pytest.mark.slow
def test_cell_option_overrides_the_paper_default(content):
    ctx = build.context_for(content)
    outputs = product.build_paper(ctx, product.PaperOptions(grid="square", paper="letter", cell="5mm"))
    assert [o.name for o in outputs] == ["paper-square-letter-5mm.pdf"]
    xs, _ = _grid_positions(outputs[0].data, "square")
    assert all(abs((b - a) - 5 * MM) < 0.01 for a, b in zip(xs, xs[1:]))
    assert product.sheet_name("dot", "a4", "quarter-inch") == "paper-dot-a4-quarter-inch.pdf"
    assert ctx.warnings == []


@pytest.mark.slow
def test_cli_paper_command(tmp_path):
    out, err = io.StringIO(), io.StringIO()
    status = cli.main(["paper", "--grid", "dot", "--paper", "a4", "--cell", "quarter-inch", "--out", str(tmp_path),
                       "--quiet"], stdout=out, stderr=err)
    assert status == 0, err.getvalue()
    assert [p.name for p in tmp_path.iterdir() if not p.name.startswith(".")] == ["paper-dot-a4-quarter-inch.pdf"]


def _grid_positions(data: bytes, grid_kind: str):
    """Sorted x and y positions (pt) of the grid's lines, or of its dots, read from the page's path objects."""
    pdf = pypdfium2.PdfDocument(data)
    xs, ys = set(), set()
    for obj in pdf[0].get_objects(max_depth=20):
        if obj.type != pdfium_raw.FPDF_PAGEOBJ_PATH:
            continue
        left, bottom, right, top = obj.get_bounds()
        w, h = right - left, top - bottom
        if grid_kind == "dot":
            if 1.0 < w < 2.5 and 1.0 < h < 2.5:  # a dot of 0.6 mm
                xs.add(round((left + right) / 2, 3))
                ys.add(round((top + bottom) / 2, 3))
        elif w < 1.2 and h > 300:
            xs.add(round((left + right) / 2, 3))
        elif h < 1.2 and w > 300:
            ys.add(round((top + bottom) / 2, 3))
    pdf.close()
    return sorted(xs), sorted(ys)


def test_the_css_states_the_sheet_geometry_the_grid_is_fitted_to():
    """The margin and the boxes under the grid are written in paperogue_grid and in the CSS: they must agree."""
    css = (Path(__file__).resolve().parents[1] / "templates" / "css" / "paperogue.css").read_text()
    margin = f"{grid.MARGIN_MM:g}mm"
    assert f"@page paper-a4 {{ size: A4; margin: {margin}; }}" in css
    assert f"@page paper-letter {{ size: Letter; margin: {margin}; }}" in css
    assert re.search(rf"\n\.band {{[^}}]*height: {grid.SHEET_BAND_MM:g}mm; margin-top: {grid.BAND_GAP_MM:g}mm;", css)
    assert f"\n.level .band {{ height: {grid.LEVEL_BAND_MM:g}mm; }}" in css
    assert re.search(rf"\n\.level-head {{ height: {grid.LEVEL_HEAD_MM:g}mm;", css)
