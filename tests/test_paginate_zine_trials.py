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
    is laid out whole once, in 'flowing', and by_trial (every fit on the whole zine) is never called."""
    calls = []
    monkeypatch.setattr(fitting, "by_trial", lambda *args: calls.append(args))
    render, asked = toy_zine({"whole": 40, "flowing": 5})
    rendered = fitting.fit_zine(render, lay_out, fitting.ZineRules(entries=tuple((n, f"d1-room-{n}") for n in range(1, 7))),
                                "the toy zine")
    assert calls == []
    assert [(c.fit, c.probe) for c in asked] == [("whole", True), ("flowing", True), ("flowing", False)]
    assert rendered.page_count == 8


@pytest.mark.slow  # lays real zines out
@pytest.mark.parametrize("seed,paper,bound", [(5, "a4", 4), (1234, "a4", 5)])
def test_a_zine_is_laid_out_whole_once_after_a_few_probes(content, monkeypatch, seed, paper, bound):
    """Seed 5 on A4 ran its back page over in the 'whole' fit, which only a whole layout found, and took six
    layouts (one probe, five whole, by_trial); now three probes and one whole. Seed 1234 takes four probes."""
    kinds = []
    real = product.layout
    monkeypatch.setattr(product, "layout", lambda ctx, html: kinds.append('id="notes-1"' in html) or real(ctx, html))
    ctx = build.context_for(content, seed=seed)
    rooms = product.DEFAULT_ROOMS
    product.zine_pages(ctx, product.roll_dungeon(ctx, seed, rooms), seed, rooms, paper)
    assert kinds.count(True) == 1  # the whole zine, laid out once
    assert len(kinds) <= bound
