"""paginate.geometry: the zine's measures are written once; the stylesheet reads them and agrees with them."""

from __future__ import annotations

import re

import pytest

from dungeonpress import build
from dungeonpress.paginate import geometry

ZINE_CSS = (build.TEMPLATES_DIR / "css" / "zine.css").read_text()


def page_rule(name: str) -> dict:
    """The size and margins (mm, top right bottom left) the @page NAME rules of zine.css give, later rules winning."""
    found: dict = {}
    for selectors, body in re.findall(r"@page ([^{]+)\{([^{}]*)", ZINE_CSS):
        if name not in [s.strip() for s in selectors.split(",")]:
            continue
        size = re.search(r"size: ([\d.]+)mm ([\d.]+)mm", body)
        if size:
            found["size"] = tuple(map(float, size.groups()))
        margin = re.search(r"margin: ([\d.]+)mm ([\d.]+)mm ([\d.]+)mm ([\d.]+)mm", body)
        if margin:
            found["margin"] = list(map(float, margin.groups()))
        bottom = re.search(r"margin-bottom: ([\d.]+)mm", body)
        if bottom:
            found["margin"][2] = float(bottom.group(1))
    return found


def test_the_stylesheet_takes_the_zines_foot_from_the_python():
    assert "94mm" not in ZINE_CSS
    assert "min-height: var(--zine-foot)" in ZINE_CSS and "margin-bottom: var(--zine-foot-up)" in ZINE_CSS
    assert geometry.zine_css() == (":root { --zine-foot: 94mm; --zine-foot-up: -94mm; }"
                                   " .zine-letter .back { --zine-foot: 97.95mm; --zine-foot-up: -97.95mm; }")


@pytest.mark.parametrize("paper, foot", [("a4", geometry.ZINE_FOOT_MM), ("letter", geometry.ZINE_LETTER_BACK_FOOT_MM)])
def test_the_back_pages_text_box_is_the_foot_height(paper, foot):
    # Letter's panel is taller: its back page's text box is its own (the other pages' 5 mm margins), not A4's 94 mm
    rule = page_rule(f"zine-{paper}-back")
    top, _, bottom, _ = rule["margin"]
    assert rule["size"][1] - top - bottom == pytest.approx(foot)
    assert page_rule(f"zine-{paper}")["margin"][2] <= bottom


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_key_pages_foot_and_the_map_box_fit_the_page(paper):
    key, page = page_rule(f"zine-{paper}-key"), page_rule(f"zine-{paper}")
    assert key["margin"][2] == geometry.ZINE_PAGE_FOOT_MM
    width, height = page["size"]
    top, right, bottom, left = page["margin"]
    box_w, box_h = geometry.MAP_BOX[f"zine-{paper}"]
    assert box_w <= width - left - right and box_h <= height - top - bottom


def test_lengths_are_css_px():
    assert geometry.px(25.4) == 96
    assert geometry.ZINE_FOOT_AT_PX["back"] == pytest.approx(94 / 25.4 * 96)
    assert geometry.ZINE_FOOT_AT_PX["aids"] < geometry.ZINE_FOOT_AT_PX["back"]
