"""How many layouts a zine's fit costs: probes (key, aids and back pages) and whole-zine layouts, counted.

A warm `serve` or `--batch` zine costs its layouts and little else (issue 24 §2), so the number of
layouts is the figure to keep down; counted here, never timed.
"""

from __future__ import annotations

import pytest

from dungeonpress import build, pdf
from dungeonpress.paginate import zine as fitting
from dungeonpress.products import dungeon as product


def lay_out(html: str):
    return pdf.layout_html(html, base_url=build.TEMPLATES_DIR, roots=[build.TEMPLATES_DIR])


def toy_zine(back_lines: dict):
    """Six short key entries and a back page whose number of lines depends on the fit; its log of candidates."""
    asked = []

    def render(candidate: fitting.Candidate) -> str:
        asked.append(candidate)
        entries = "".join(f"<div id='d1-room-{n}' style='height: 10mm'>{n}</div>" for n in range(1, 7))
        aids = "<section id='zine-aids'><p>aids</p><div id='zine-aids-foot'>foot</div></section>"
        back = "<section id='zine-back'>" + "<p>back</p>" * back_lines.get(candidate.fit, 1) + "</section>"
        style = "<style>@page { size: 74mm 105mm; margin: 5mm } section { break-before: page } p { margin: 0 }</style>"
        if candidate.probe:
            return f"<html><head>{style}</head><body><section></section><section>{entries}</section>{aids}{back}</body></html>"
        return (f"<html><head>{style}</head><body><section id='zine-cover'>cover</section><section id='zine-map'>map"
                f"</section><section>{entries}</section>{aids}<section id='zine-oracle'>oracle</section>{back}"
                "<section id='notes-1'>n</section><section id='notes-2'>n</section><section id='notes-3'>n</section>"
                "</body></html>")

    return render, asked


def test_a_fit_whose_back_page_runs_over_in_the_probe_is_passed_by_without_the_trial_loop(monkeypatch):
    """The back page is probed with the key: 'whole' runs it over (40 lines), 'flowing' keeps it (5): the zine
    is laid out whole once, in 'flowing', and by_trial (every fit on the whole zine) is never called. (Probed
    from 'dense' down: see paginate.zine.first_fitting.)"""
    calls = []
    monkeypatch.setattr(fitting, "by_trial", lambda *args: calls.append(args))
    render, asked = toy_zine({"whole": 40, "flowing": 5})
    rendered = fitting.fit_zine(render, lay_out, fitting.ZineRules(entries=tuple((n, f"d1-room-{n}") for n in range(1, 7))),
                                "the toy zine")
    assert calls == []
    assert [(c.fit, c.probe) for c in asked] == [("dense", True), ("flowing", True), ("whole", True), ("flowing", False)]
    assert rendered.page_count == 8


@pytest.mark.slow  # lays real zines out
@pytest.mark.parametrize("seed,paper,bound", [(5, "a4", 3), (1234, "a4", 3), (31337, "letter", 5)])
def test_a_zine_is_laid_out_whole_once_after_a_few_probes(content, monkeypatch, seed, paper, bound):
    """Layouts counted before this bound was set (probes in turn, the back page not probed): seed 5 on A4 six
    (one probe; its back page ran over in 'whole', which only the whole layout found, so five whole layouts
    by_trial), seed 1234 on A4 five (four probes, 'tight'), seed 31337 on Letter sixteen (no probe fitted: eight
    probes, then eight whole layouts by_trial). Now 'dense' then 'flowing' (5), 'dense' then 'tight' (1234),
    'dense', 'tight', 'packed', 'crowded' (31337), each then laid out whole once."""
    kinds = []
    real = product.layout
    monkeypatch.setattr(product, "layout", lambda ctx, html: kinds.append('id="notes-1"' in html) or real(ctx, html))
    ctx = build.context_for(content, seed=seed)
    rooms = product.DEFAULT_ROOMS
    product.zine_pages(ctx, product.roll_dungeon(ctx, seed, rooms), seed, rooms, paper)
    assert kinds.count(True) == 1  # the whole zine, laid out once
    assert len(kinds) <= bound


@pytest.mark.parametrize("first", range(len(fitting.FITS) + 1))
def test_the_fit_found_from_the_middle_is_the_first_that_fits_and_asks_fewer(first):
    """For every place the first fitting fit can be (len(FITS): none fits), with the ORDERED fits monotone (once
    one fits, every later one does) and the later fits fitting from `first` on: the same answer as trying in turn."""
    asked = []

    def fitting_from(fit):
        asked.append(fit)
        return fitting.FITS.index(fit) >= first

    found = fitting.first_fitting(fitting.FITS, fitting_from)
    assert found == (fitting.FITS[first] if first < len(fitting.FITS) else None)
    assert len(set(asked)) == len(asked)  # no fit probed twice
    # "whole" and "flowing": three probes (was one and two); "dense" and "tight": two (was three and four); every
    # later fit, and none: two fewer than in turn ("dense" and "tight" asked, none of the four before them)
    assert len(asked) == {0: 3, 1: 3, 2: 2, 3: 2}.get(first, min(first + 1, len(fitting.FITS)) - 2)


def test_fits_out_of_the_known_order_are_tried_in_turn():
    asked = []
    fits = ("tight", "whole", "flowing")
    assert fitting.first_fitting(fits, lambda fit: asked.append(fit) or fit == "whole") == "whole"
    assert asked == ["tight", "whole"]
