"""Preflight's contrast check on pages with many filled shapes: found through a grid, bounded, same answers."""

from __future__ import annotations

import random
from types import SimpleNamespace

from dungeonpress.preflight import boxes, text


def _fill(x, y, w, h, colour, painted):
    return {"x0": x, "x1": x + w, "top": y, "bottom": y + h, "fill": True, "non_stroking_color": colour,
            "painted": painted}


def _char(x, y, order, colour=(0.0,)):
    return {"text": "x", "x0": x, "x1": x + 4, "top": y, "bottom": y + 6, "non_stroking_color": colour,
            "order": (order, 0)}


def _page(fills, chars, width=14400.0, height=14400.0):
    return SimpleNamespace(number=1, width=width, height=height, rects=fills, curves=[], images=[], chars=chars)


def _table_page(cells: int):
    """A grid of `cells` table cells, each a fill with a letter on it; every other cell dark grey."""
    fills, chars = [], []
    side = int(cells ** 0.5) + 1
    for n in range(cells):
        x, y = 20 + (n % side) * 10, 20 + (n // side) * 10
        colour = (0.3,) if n % 2 else (0.95,)
        fills.append(_fill(x, y, 9, 9, colour, painted=2 * n))
        chars.append(_char(x + 2, y + 1, order=2 * n + 1))
    return _page(fills, chars)


def test_a_page_of_twenty_thousand_fills_is_checked_with_linear_work():
    page = _table_page(20_000)
    budget = boxes.Budget()
    fills = text.backgrounds(page, budget)
    low = text.low_contrast(page, text.MIN_CONTRAST, fills, budget)
    assert len(fills) == 20_000 and len(low) == 10_000  # every dark cell's letter, no light one
    spent = boxes.WORK_BUDGET - budget.left
    assert spent < 60 * 20_000  # pairing every fill with every other would be 400,000,000


def test_the_grid_gives_the_answers_of_pairing_everything():
    rng = random.Random("preflight/boxes")
    for _ in range(20):
        fills = []
        for n in range(60):
            x, y, w, h = rng.uniform(0, 200), rng.uniform(0, 200), rng.uniform(2, 80), rng.uniform(2, 80)
            colour = rng.choice([(0.2,), (0.9,), (0.5, 0.5, 0.5)])
            fills.append(_fill(x, y, w, h, colour, painted=n))
            if rng.random() < 0.3:  # a border: the same colour again, just inside
                fills.append(_fill(x + 1, y + 1, w - 2, h - 2, colour, painted=n))
        chars = [_char(rng.uniform(0, 250), rng.uniform(0, 250), order=rng.randrange(70)) for _ in range(200)]
        page = _page(fills, chars, 300, 300)
        rings = {i for i, a in enumerate(fills) for j, b in enumerate(fills)
                 if i != j and a["non_stroking_color"] == b["non_stroking_color"]
                 and (text._nested_close(b, a) or text._nested_close(a, b))}
        expected = [f for i, f in enumerate(fills) if i not in rings]
        found = text.backgrounds(page)
        assert found == expected
        brute = []
        for c in chars:
            x, y = (c["x0"] + c["x1"]) / 2, (c["top"] + c["bottom"]) / 2
            under = [r for r in expected if r["x0"] <= x <= r["x1"] and r["top"] <= y <= r["bottom"]
                     and r["painted"] < c["order"][0]]
            background = max(under, key=lambda r: r["painted"])["non_stroking_color"] if under else (1.0,)
            if text._contrast(c["non_stroking_color"], background) < text.MIN_CONTRAST:
                brute.append(c)
        assert [c for c, _ in text.low_contrast(page, text.MIN_CONTRAST, found)] == brute


def test_shapes_piled_on_one_spot_stop_the_check_with_a_warning():
    fills = [_fill(100, 100, 50 + n * 0.001, 50, (0.3,), painted=n) for n in range(3000)]
    page = _page(fills, [_char(110, 110, order=5000)], 600, 800)
    findings = list(text.check_contrast(SimpleNamespace(pages=[page])))
    assert findings == [(1, "warning", "contrast not checked: 1 letters over 3000 shapes are more than the "
                                       "check compares")]
