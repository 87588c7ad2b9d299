"""Dunginoes: the map SVG, the rules card and map sheet PDFs."""

from __future__ import annotations

import io
import random
import xml.etree.ElementTree as ET

import pytest
from pypdf import PdfReader

from dungeonpress import build, cli
from dungeonpress.draw.dominoes import ICONS, draw_domino_map, draw_icon
from dungeonpress.generate import dunginoes as g
from dungeonpress.generate.oracle import percent
from dungeonpress.products import dunginoes as product

SEEDS = range(150)


@pytest.fixture(scope="module")
def before_maps():
    return [g.generate_map(random.Random(seed), 16, "before") for seed in SEEDS]


@pytest.fixture(scope="module")
def fly_maps():
    return [g.generate_map(random.Random(seed), 16, "fly") for seed in SEEDS]


def test_svg_draws_every_tile_and_pip(before_maps, fly_maps):
    for dungeon in (before_maps[0], fly_maps[0]):
        root = ET.fromstring(draw_domino_map(dungeon))
        groups = [el for el in root.iter("{http://www.w3.org/2000/svg}g") if el.get("class") == "tile"]
        assert len(groups) == len(dungeon.tiles)
        for group, tile in zip(groups, dungeon.tiles):
            pips = [c for c in group.iter("{http://www.w3.org/2000/svg}circle") if c.get("class") == "pip"]
            assert len(pips) == sum(tile.domino)
    for kind in ICONS:
        ET.fromstring(draw_icon(kind))


def _tiles_box_mm(svg: str) -> tuple:
    """(left, top, right, bottom) in mm from the SVG's top-left of the tiles, the way-in arrow and the unexplored
    ways on, and the SVG's size in mm."""
    root = ET.fromstring(svg)
    vx, vy, vw, vh = (float(v) for v in root.get("viewBox").split())
    w_mm, h_mm = (float(root.get(k).removesuffix("mm")) for k in ("width", "height"))
    ns = "{http://www.w3.org/2000/svg}"
    xs, ys = [], []
    for group in root.iter(f"{ns}g"):
        rect = group.find(f"{ns}rect")
        x, y, w, h = (float(rect.get(k)) for k in ("x", "y", "width", "height"))
        xs += [x, x + w]
        ys += [y, y + h]
    for polygon in root.iter(f"{ns}polygon"):
        if polygon.get("class") == "entrance":  # the way-in arrow
            for point in polygon.get("points").split():
                px, py = (float(v) for v in point.split(","))
                xs.append(px)
                ys.append(py)
    for line in root.iter(f"{ns}line"):
        if line.get("class") == "stub":  # an unexplored way on (mode fly) is part of the layout
            xs += [float(line.get("x1")), float(line.get("x2"))]
            ys += [float(line.get("y1")), float(line.get("y2"))]
    k = w_mm / vw
    return ((min(xs) - vx) * k, (min(ys) - vy) * k, (max(xs) - vx) * k, (max(ys) - vy) * k), (w_mm, h_mm)


@pytest.mark.parametrize("mode", g.MODES)
def test_the_tiles_are_centred_and_scaled_to_the_sheet(mode):
    """The grid fills the map's box on the sheet; the tiles sit in its middle and span 70% of its width or height.

    (A map of a few rooms stops at life size, a domino half 24 mm square: it is centred, not blown up.)
    """
    box = product.MAP_BOX[mode]
    for size in (8, 12, 16, 22, 28):
        for seed in range(8):
            dungeon = g.generate_map(random.Random(f"{seed}/{size}"), size, mode)
            (left, top, right, bottom), (w, h) = _tiles_box_mm(
                draw_domino_map(dungeon, width_mm=box[0], height_mm=box[1]))
            assert (round(w, 1), round(h, 1)) == box
            assert abs(left - (w - right)) <= 3 and abs(top - (h - bottom)) <= 3, (size, seed)
            assert right - left >= 0.7 * w or bottom - top >= 0.7 * h, (size, seed, right - left, bottom - top)


def _printed_pt(svg: str) -> list:
    root = ET.fromstring(svg)
    k = float(root.get("width").removesuffix("mm")) / float(root.get("viewBox").split()[2])
    return [(t.text, float(t.get("font-size")) * k * 72 / 25.4) for t in root.iter("{http://www.w3.org/2000/svg}text")]


def test_every_letter_on_a_map_and_its_legend_prints_at_six_points_or_more():
    for mode in g.MODES:
        box = product.MAP_BOX[mode]
        for size in (8, 16, 28):
            for seed in range(6):
                dungeon = g.generate_map(random.Random(f"{seed}/{size}"), size, mode)
                words = _printed_pt(draw_domino_map(dungeon, width_mm=box[0], height_mm=box[1]))
                assert words and all(pt >= 6.0 for _, pt in words), [(t, round(pt, 1)) for t, pt in words if pt < 6]
    for kind in ICONS:
        assert all(pt >= 6.0 for _, pt in _printed_pt(draw_icon(kind))), kind


# --- the product ------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def built():
    content = build.load_content()

    def make():
        ctx = build.context_for(content, seed=1234)
        outputs = product.build_dunginoes(ctx, product.DunginoesOptions(size=16))
        return ctx, {o.name: o.data for o in outputs}
    return make(), make()


def test_outputs_are_named_and_byte_identical(built):
    (ctx, first), (_, second) = built
    assert sorted(first) == ["dunginoes-map-1234-before.pdf", "dunginoes-map-1234-fly.pdf", "dunginoes-rules.pdf"]
    assert first == second
    assert ctx.warnings == []


def test_rules_card_prints_credit_and_simulated_odds(built):
    (_, outputs), _ = built
    reader = PdfReader(io.BytesIO(outputs["dunginoes-rules.pdf"]))
    assert len(reader.pages) == 3  # card front, card back, score sheet
    text = " ".join(" ".join(page.extract_text().split()) for page in reader.pages)
    assert "loveandlossgames.com" in text and "non-commercial" in text
    assert percent(g.simulate().solo_escape) in text
    assert "Solo Score Sheet" in text


def test_map_sheet_is_one_page_and_the_key_the_next(built):
    """The map, its legend and the procedure's paragraph fill page 1; the key stays whole on page 2."""
    (_, outputs), _ = built
    for mode in g.MODES:
        pages = PdfReader(io.BytesIO(outputs[f"dunginoes-map-1234-{mode}.pdf"])).pages
        texts = [" ".join(page.extract_text().split()) for page in pages]
        assert len(texts) == 2
        assert "Laid by the procedure" in texts[0] and "Room key" not in texts[0].title()
        assert "Made with dungeonpress" in texts[1] and texts[1].title().startswith("Room Key")


def test_a_long_key_stays_on_one_page_under_its_heading():
    ctx = build.context_for(build.load_content(), seed=1234)
    outputs = {o.name: o.data for o in product.build_dunginoes(ctx, product.DunginoesOptions(size=28, mode="fly"))}
    pages = PdfReader(io.BytesIO(outputs["dunginoes-map-1234-fly.pdf"])).pages
    texts = [" ".join(page.extract_text().split()) for page in pages]
    assert len(texts) == 2 and texts[1].title().startswith("Room Key")
    assert "Final encounter" in texts[1] and "Made with dungeonpress" in texts[1]


def test_map_pdf_has_key(built):
    (_, outputs), _ = built
    text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(outputs["dunginoes-map-1234-fly.pdf"])).pages)
    assert "Room key" in text.title() or "ROOM KEY" in text.upper()
    assert "Final encounter" in text


def test_cli_refuses_a_size_the_set_cannot_make(tmp_path):
    err = io.StringIO()
    status = cli.main(["dunginoes", "--seed", "1", "--size", "40", "--quiet", "--out", str(tmp_path)],
                      stdout=io.StringIO(), stderr=err)
    assert status == 2 and "--size must be a whole number from 2 to 28 (got 40)" in err.getvalue()
    assert not list(tmp_path.iterdir())
