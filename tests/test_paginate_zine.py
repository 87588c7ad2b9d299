"""paginate.zine: the fit chosen from probes, balanced key pages, the aids page's foot, one-panel pages, the fallback."""

from __future__ import annotations

import dataclasses
import functools
import io
import os
import re

import pypdf
import pypdfium2 as pdfium
import pytest

from dungeonpress import build, pdf
from dungeonpress.errors import RenderError
from dungeonpress.paginate import geometry, pages
from dungeonpress.paginate import zine as fitting
from dungeonpress.pdf import PageMeasure
from dungeonpress.products import dungeon as product
from dungeonpress.products.common import write

SEED = 1234


def lay_out(html: str, pages_at_most: int | None = None):
    return pdf.layout_html(html, base_url=build.TEMPLATES_DIR, roots=[build.TEMPLATES_DIR], pages_at_most=pages_at_most)


def rules_for(count: int, **changes) -> fitting.ZineRules:
    return fitting.ZineRules(entries=tuple((n, f"d1-room-{n}") for n in range(1, count + 1)), **changes)


# ---------------------------------------------------------------- measures in, decisions out (no layout)


def test_balanced_turns_share_the_key_out_over_the_same_pages():
    """Four entries that filled page 1 with three leave one on page 2; balanced, page 2 opens at entry 3."""
    first = PageMeasure(400.0, {f"d1-room-{n}": (20.0 + 100 * (n - 1), 20.0 + 100 * n) for n in range(1, 4)})
    second = PageMeasure(400.0, {"d1-room-4": (20.0, 120.0)})
    assert fitting.balanced_turns((first, second), rules_for(4)) == [3]


def test_balanced_turns_leave_a_natural_or_one_page_key_alone():
    one = PageMeasure(400.0, {f"d1-room-{n}": (20.0 + 50 * (n - 1), 20.0 + 50 * n) for n in range(1, 4)})
    assert fitting.balanced_turns((one,), rules_for(3)) == []  # one page: nothing to balance
    even = (PageMeasure(400.0, {"d1-room-1": (20.0, 150.0), "d1-room-2": (150.0, 280.0)}),
            PageMeasure(400.0, {"d1-room-3": (20.0, 150.0), "d1-room-4": (150.0, 280.0)}))
    assert fitting.balanced_turns(even, rules_for(4)) == []  # already turned where balance would
    assert fitting.balanced_turns(even, rules_for(5)) == []  # an entry the layout lacks: no guess


def test_foot_gaps_bring_the_aids_foot_down_to_the_pages_least_height():
    aids = PageMeasure(400.0, {"zine-aids": (0.0, 200.0), "zine-aids-foot": (150.0, 200.0)})
    assert fitting.foot_gaps((aids,), rules_for(1)) == {"aids": pytest.approx(geometry.ZINE_FOOT_AT_PX["aids"] - 200.0)}
    full = PageMeasure(400.0, {"zine-aids": (0.0, 380.0), "zine-aids-foot": (330.0, 380.0)})
    assert fitting.foot_gaps((full,), rules_for(1)) == {"aids": 0.0}
    split = (PageMeasure(400.0, {"zine-aids": (0.0, 380.0)}), PageMeasure(400.0, {"zine-aids": (0.0, 50.0),
                                                                                   "zine-aids-foot": (0.0, 50.0)}))
    assert fitting.foot_gaps(split, rules_for(1)) == {}  # a page that ran over keeps its foot where it fell


def test_overflowing_pages_are_the_one_panel_pages_split_in_two():
    measured = (PageMeasure(400.0, {"zine-cover": (0, 1)}), PageMeasure(400.0, {"zine-oracle": (0, 1)}),
                PageMeasure(400.0, {"zine-oracle": (0, 1), "zine-aids": (0, 1)}), PageMeasure(400.0, {"zine-aids": (0, 1)}))
    assert fitting.overflowing_pages(measured) == ["oracle"]  # the aids page may run over
    assert fitting.overflowing_pages(measured, rules_for(0, one_page=("cover",))) == []


# ---------------------------------------------------------------- the fit, on small hand-made zines


def toy_zine(entry_mm: dict, fixed_long: bool = False):
    """A render function for a zine of six key entries whose height (mm) depends on the fit, and its log."""
    asked = []

    def render(candidate: fitting.Candidate) -> str:
        asked.append(candidate)
        height = entry_mm.get(candidate.fit, min(entry_mm.values()))  # a fit the toy does not size: its closest
        turns = set(candidate.turns)
        entries = "".join(f"<div id='d1-room-{n}' style='height: {height}mm{'; break-before: page' if n in turns else ''}'>"
                          f"{n}</div>" for n in range(1, 7))
        gap = (candidate.gaps or {}).get("aids", 0)
        aids = (f"<section id='zine-aids'><p>aids</p><div style='height: {gap:.3f}px'></div>"
                "<div id='zine-aids-foot' style='height: 10mm'>foot</div></section>")
        style = "<style>@page { size: 74mm 105mm; margin: 5mm } section { break-before: page } p { margin: 0 }</style>"
        if candidate.probe:  # the key, aids and back pages, after a page standing for the cover and map
            return (f"<html><head>{style}</head><body><section></section><section>{entries}</section>{aids}"
                    "<section id='zine-back'>back</section></body></html>")
        oracle = "<p>oracle</p>" * (30 if fixed_long else 1)
        if candidate.rest:  # the pages a probe leaves out, in the order the real zine's HTML has them
            return (f"<html><head>{style}</head><body><section id='zine-cover'>cover</section><section id='zine-map'>"
                    "map</section><section id='notes-1'>n</section><section id='notes-2'>n</section>"
                    f"<section id='notes-3'>n</section><section id='zine-oracle'>{oracle}</section></body></html>")
        return (f"<html><head>{style}</head><body><section id='zine-cover'>cover</section><section id='zine-map'>map"
                f"</section><section>{entries}</section>{aids}<section id='zine-oracle'>{oracle}</section>"
                "<section id='zine-back'>back</section><section id='notes-1'>n</section><section id='notes-2'>n</section>"
                "<section id='notes-3'>n</section></body></html>")

    return render, asked


def test_the_first_fit_whose_probe_keeps_eight_pages_is_laid_out_once():
    """50 mm entries need six key pages (eleven in all); 30 mm ones (`flowing`) need two: that fit is chosen."""
    render, asked = toy_zine({"whole": 50, "flowing": 30, "dense": 10, "tight": 5})
    rendered = fitting.fit_zine(render, lay_out, rules_for(6), "the toy zine")
    assert rendered.page_count == 8
    # probed from "dense" down (paginate.zine.first_fitting): "dense" and "flowing" fit, "whole" does not
    # then the pages the probe leaves out, once, in the chosen fit: the probe's pages are the zine's
    assert [(c.fit, c.probe, c.rest) for c in asked] == [("dense", True, False), ("flowing", True, False),
                                                         ("whole", True, False), ("flowing", False, True)]
    where = pages.anchor_boxes(pdf.measure(rendered))
    assert where["zine-aids-foot"][2] - where["zine-aids"][1] == pytest.approx(geometry.ZINE_FOOT_AT_PX["aids"], abs=0.05)


def test_a_whole_fit_gets_its_key_pages_balanced():
    render, asked = toy_zine({"whole": 22, "flowing": 22, "dense": 22, "tight": 22})  # four on page 1, two on page 2
    rendered = fitting.fit_zine(render, lay_out, rules_for(6), "the toy zine")
    # the probe laid out again with its key balanced, then the pages it leaves out
    assert (asked[-2].fit, asked[-2].probe, asked[-2].turns) == ("whole", True, (4,)) and asked[-1].rest
    assert [sorted(a for a in page.boxes if a.startswith("d1-")) for page in pdf.measure(rendered)[2:4]] == \
        [["d1-room-1", "d1-room-2", "d1-room-3"], ["d1-room-4", "d1-room-5", "d1-room-6"]]


@pytest.mark.slow
def test_a_fixed_page_that_runs_over_is_an_error_naming_the_zine():
    render, _ = toy_zine({"whole": 10, "flowing": 10, "dense": 10, "tight": 10}, fixed_long=True)
    with pytest.raises(RenderError, match=r"^the toy zine: its oracle page runs over onto another page$"):
        fitting.fit_zine(render, lay_out, rules_for(6), "the toy zine")


def test_a_layout_the_probe_did_not_foresee_is_fitted_by_trial(monkeypatch):
    """A probe that foresees a page too few: the whole zine is then tried fit by fit, and still comes out at eight."""
    calls = []
    real = fitting.by_trial
    monkeypatch.setattr(fitting, "by_trial", lambda *args: calls.append(args) or real(*args))
    render, _ = toy_zine({"whole": 50, "flowing": 30, "dense": 10, "tight": 5})
    rendered = fitting.fit_zine(render, lay_out, rules_for(6, fixed_pages=fitting.FIXED_PAGES - 1), "the toy zine")
    assert len(calls) == 1 and rendered.page_count == 8


# ---------------------------------------------------------------- the real zine


def test_a_one_panel_page_that_runs_over_is_found():
    """A page split over two is caught, though the page count may still be eight."""
    line = "<p>The lantern gutters as you count the doors again.</p>"
    html = ("<html><head><style>@page { size: 74mm 105mm; margin: 5mm } section { break-before: page }</style></head><body>"
            "<section id='zine-cover'>Cover</section>"
            f"<section id='zine-oracle'>{line * 40}</section>"
            "<section id='zine-back'>Rules</section></body></html>")
    assert fitting.overflowing_pages(pdf.measure(lay_out(html))) == ["oracle"]
    assert fitting.overflowing_pages(pdf.measure(lay_out(html.replace(line * 40, line)))) == []


def trial_zine(content, seed, rooms, paper, theme="standard"):
    """The zine as the whole-zine trial loop makes it (every fit on the whole zine in turn): the reference."""
    ctx = build.context_for(content, seed=seed, theme=theme)
    render, rules = product.zine_fit(ctx, product.roll_dungeon(ctx, seed, rooms), seed, rooms, paper)
    rendered = fitting.by_trial(render, functools.partial(product.layout, ctx), rules)
    return write(ctx, pages.keep_pages(rendered, fitting.PAGES, "zine"))


@pytest.mark.slow  # lays whole zines out
@pytest.mark.parametrize("seed,rooms,paper,theme", [(5, 8, "a4", "standard"), (8, 8, "a4", "standard"),
                                                    (22, 8, "a4", "standard"), (2, 8, "letter", "dyslexia-friendly"),
                                                    (3, 8, "a4", "large-print")])
def test_fit_chosen_from_the_key_alone_is_the_fit_the_whole_zine_needs(content, seed, rooms, paper, theme):
    """Laying out only the key and aids pages picks the same fit and page turns as trying each fit on the whole zine,
    and the zine put together from that probe's pages and the rest laid out once is the whole zine, byte for byte.

    Seed 5 balances its two key pages, seed 8 needs the closest fit, seed 22 (the longest key found, with the rules
    after it) the crowded one; dyslexia-friendly seed 2 on Letter packs its aids after the key (no gap above their
    foot) and takes the snug fit, its crowded oracle running over; large print seed 3 lowers its aids page's foot.
    """
    ctx = build.context_for(content, seed=seed, theme=theme)
    planned = product.zine_pages(ctx, product.roll_dungeon(ctx, seed, rooms), seed, rooms, paper)
    assert planned == trial_zine(content, seed, rooms, paper, theme)


@pytest.mark.slow  # lays whole zines out
def test_a_zine_whose_fixed_pages_grow_falls_back_to_the_trial_loop(content, monkeypatch):
    """When the full layout has more pages than the probe foresaw, the zine is made the safe way, still eight pages."""
    calls = []
    real = fitting.by_trial
    monkeypatch.setattr(fitting, "by_trial", lambda *args: calls.append(args) or real(*args))
    ctx = build.context_for(content, seed=5)
    render, rules = product.zine_fit(ctx, product.roll_dungeon(ctx, 5, 8), 5, 8, "a4")
    rules = dataclasses.replace(rules, fixed_pages=fitting.FIXED_PAGES - 1)  # the probe foresees a page too few
    made = write(ctx, fitting.fit_zine(render, functools.partial(product.layout, ctx), rules, "zine"))
    assert len(calls) == 1
    assert len(pypdf.PdfReader(io.BytesIO(made)).pages) == 8
    monkeypatch.undo()
    assert made == trial_zine(content, 5, 8, "a4")


@pytest.mark.slow  # lays whole zines out
@pytest.mark.parametrize("seed,rooms,paper", [(SEED, 8, "letter"), (2, 8, "letter")])
def test_the_aids_and_back_pages_keep_their_foot_at_the_foot_of_the_page(content, monkeypatch, seed, rooms, paper):
    """The fold-cut diagram and the credits end where the flex column put them (seed 2 is laid out tight, its key on
    three pages). Aids packed after the key's rules (paginate.zine.PACKED) open on the key's last page and end, with
    their foot, on the next."""
    real = product.layout
    rest = []  # layouts of the pages a probe leaves out (a probe has no notes pages)
    monkeypatch.setattr(product, "layout", lambda ctx, html, **kw: rest.append('id="notes-1"' in html) or real(ctx, html, **kw))
    made = written_zines(monkeypatch)
    ctx = build.context_for(content, seed=seed)
    _, rules = product.zine_fit(ctx, product.roll_dungeon(ctx, seed, rooms), seed, rooms, paper)
    product.zine_pages(ctx, product.roll_dungeon(ctx, seed, rooms), seed, rooms, paper)
    final = pdf.measure(made[-1])
    where, spans = pages.anchor_boxes(final), pages.anchor_pages(final)
    for page in ("aids", "back"):
        if page == "aids" and len(spans["zine-aids"]) == 2:  # packed: the foot follows what is above it
            assert where["zine-aids-foot"][0] == spans["zine-aids"][-1] and fitting.foot_gaps(final, rules) == {}
            continue
        assert len(spans[f"zine-{page}"]) == 1  # one page each
        section, foot = where[f"zine-{page}"], where[f"zine-{page}-foot"]
        assert section[0] == foot[0]
        assert foot[2] - section[1] == pytest.approx(geometry.ZINE_FOOT_AT_PX[page], abs=0.05) or \
            fitting.foot_gaps(final, rules).get(page, 0) == 0  # a full page: the foot follows what is above it
    assert rest.count(True) == 1  # after its probes, the pages they leave out are laid out once


def written_zines(monkeypatch) -> list:
    """Every zine the product writes from here on, as the laid-out document it writes (the eight pages in order)."""
    made = []
    real = product.write
    monkeypatch.setattr(product, "write", lambda ctx, rendered, **kw: made.append(rendered) or real(ctx, rendered, **kw))
    return made


# ---------------------------------------------------------------- the zine read at the table
# Issue 27 found seed 42's room 4 and seed 2024's room 5 split over a page turn, "cut along this edge" printed on
# two pages of the folded zine, and "4–6" and "CC BY-SA" broken over two lines.

def laid_out_zine(content, monkeypatch, seed: int, paper: str, theme: str = "standard"):
    """(the zine's reading pages as PDF bytes, the measures of its eight pages as written)."""
    made = written_zines(monkeypatch)
    ctx = build.context_for(content, seed=seed, theme=theme)
    rooms = product.DEFAULT_ROOMS
    data = product.zine_pages(ctx, product.roll_dungeon(ctx, seed, rooms), seed, rooms, paper)
    return data, pdf.measure(made[-1]), rooms


def page_lines(data: bytes) -> list:
    document = pdfium.PdfDocument(data)
    return [document[i].get_textpage().get_text_range().replace("\r", "").split("\n") for i in range(len(document))]


@pytest.mark.slow  # lays whole zines out
@pytest.mark.parametrize("seed,paper", [(42, "a4"), (42, "letter"), (2024, "a4"), (2024, "letter")])
def test_no_key_entry_turns_the_page(content, monkeypatch, seed, paper):
    data, measured, rooms = laid_out_zine(content, monkeypatch, seed, paper)
    spans = pages.anchor_pages(measured)
    split = [n for n in range(1, rooms + 1) if len(spans[f"d1-room-{n}"]) != 1]
    assert split == []
    lines = [line for page in page_lines(data) for line in page]
    assert not any("cut along this edge" in line.lower() for line in lines)
    # a range of die faces or the licence's name ends no line half said
    for before, after in zip(lines, lines[1:]):
        assert not (re.search(r"\d[–-]$", before.strip()) and re.match(r"\d", after.strip())), (before, after)
        assert not before.strip().endswith(("CC BY-", "CC", "CC BY")), (before, after)


# ---------------------------------------------------------------- how many layouts a fit costs (counted, never timed)
# A warm `serve` or `--batch` zine costs its layouts and little else (issue 24 §2): probes (key, aids and back
# pages) and whole-zine layouts are counted here.


def toy_zine_with_back(back_lines: dict):
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
        if candidate.rest:
            return (f"<html><head>{style}</head><body><section id='zine-cover'>cover</section><section id='zine-map'>map"
                    "</section><section id='notes-1'>n</section><section id='notes-2'>n</section><section id='notes-3'>"
                    "n</section><section id='zine-oracle'>oracle</section></body></html>")
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
    render, asked = toy_zine_with_back({"whole": 40, "flowing": 5})
    rendered = fitting.fit_zine(render, lay_out, fitting.ZineRules(entries=tuple((n, f"d1-room-{n}") for n in range(1, 7))),
                                "the toy zine")
    assert calls == []
    # then the pages the probe leaves out, once, in the chosen fit: the probe's pages are the zine's
    assert [(c.fit, c.probe, c.rest) for c in asked] == [("dense", True, False), ("flowing", True, False),
                                                         ("whole", True, False), ("flowing", False, True)]
    assert rendered.page_count == 8


def layout_kinds(monkeypatch) -> list:
    """What each layout of a real zine holds, as they are made: "key" (a probe's key half), "tail" (its aids and back
    pages), "log" (the foes' log alone, moved onto the key's last page), "probe" (a whole probe: the fits laid out whole) or "rest" (the pages the probes leave out).
    A layout stopped at the page too many (a key too long for the zine: pdf.layout_html's pages_at_most) is marked
    " (stopped)"."""
    kinds = []
    real = product.layout

    def kind(html):
        if 'id="notes-1"' in html:
            return "rest"
        if 'id="zine-key-rules"' not in html:
            return "log" if 'id="zine-aids"' not in html else "tail"
        return "key" if 'id="zine-aids"' not in html else "probe"

    def counted(ctx, html, **kw):
        laid = real(ctx, html, **kw)
        kinds.append(kind(html) + (" (stopped)" if laid is None else ""))
        return laid
    monkeypatch.setattr(product, "layout", counted)
    return kinds


@pytest.mark.slow  # lays real zines out
@pytest.mark.parametrize("seed,paper,made", [(5, "a4", ["key", "tail", "rest"]),
                                             (1234, "a4", ["key (stopped)", "key", "tail", "rest"]),
                                             (31337, "letter", ["key (stopped)", "probe", "probe", "rest"])])
def test_a_zine_is_laid_out_whole_once_after_a_few_probes(content, monkeypatch, seed, paper, made):
    """Layouts counted before the probes were set (probes in turn, the back page not probed): seed 5 on A4 six
    (one probe; its back page ran over in 'whole', which only the whole layout found, so five whole layouts
    by_trial), seed 1234 on A4 five (four probes, 'tight'), seed 31337 on Letter sixteen (no probe fitted: eight
    probes, then eight whole layouts by_trial). Then whole probes from 'dense': 'dense', 'flowing', 'whole' (5), 'dense'
    then 'tight' (1234), 'dense', 'tight', 'packed', 'crowded' (31337), each then laid out whole once. Now each starts
    from its guess and lays an ORDERED fit's key out first, its aids and back pages only where the key leaves them
    room: seed 5 'whole' (the roomiest: no check above it); 1234 'dense' ruled out by its key alone, then 'tight';
    31337 'tight' ruled out by its key alone, then the packed fits, probed whole. A key ruled out is laid out only as
    far as the page too many, where its layout stops."""
    kinds = layout_kinds(monkeypatch)
    ctx = build.context_for(content, seed=seed)
    rooms = product.DEFAULT_ROOMS
    product.zine_pages(ctx, product.roll_dungeon(ctx, seed, rooms), seed, rooms, paper)
    assert kinds == made


@pytest.mark.slow  # lays real zines out
@pytest.mark.parametrize("seed,paper,made", [(17, "a4", ["key (stopped)", "key", "tail", "log", "rest"]),
                                             (1, "a4", ["key", "tail", "rest"])])
def test_only_the_log_is_laid_out_for_the_foes_log(content, monkeypatch, seed, paper, made):
    """Seed 17 on A4 ('whole') left its key's last page 40% white under the rules: once the fit is chosen the log of the
    foes fought is laid out alone and moved onto that page (pdf.moved_across); nothing else is laid out again. Seed 1's
    key page is nine-tenths full: too few rows fit, and nothing more is laid out."""
    kinds = layout_kinds(monkeypatch)
    logged = []
    real = product.layout
    monkeypatch.setattr(product, "layout", lambda ctx, html, **kw: logged.append("Foes Fought" in html) or real(ctx, html, **kw))
    ctx = build.context_for(content, seed=seed)
    rooms = product.DEFAULT_ROOMS
    product.zine_pages(ctx, product.roll_dungeon(ctx, seed, rooms), seed, rooms, paper)
    assert [kind + (" with the log" if log and kind != "log" else "") for kind, log in zip(kinds, logged)] == made


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


@pytest.mark.parametrize("start", fitting.ORDERED)
@pytest.mark.parametrize("first", range(len(fitting.FITS) + 1))
def test_the_fit_found_from_any_start_is_the_first_that_fits(start, first):
    """Where the search starts (ZineRules.start, the product's guess) changes which fits are asked, never the answer;
    a right guess asks one fit for "whole" (nothing roomier to try) and two for any other."""
    asked = []

    def fitting_from(fit):
        asked.append(fit)
        return fitting.FITS.index(fit) >= first

    assert fitting.first_fitting(fitting.FITS, fitting_from, start) == (fitting.FITS[first] if first < len(fitting.FITS) else None)
    assert len(set(asked)) == len(asked)
    if fitting.FITS.index(start) == first:
        assert len(asked) == (1 if start == "whole" else 2)


@pytest.mark.slow  # lays a real zine out
def test_a_short_key_is_probed_in_the_roomiest_fit_first_and_laid_out_twice_in_all(content, monkeypatch):
    """Seed 14's key (1,683 characters) keeps its entries whole in the roomy type: the guess starts there, so one probe
    (its two halves) and the pages it leaves out are the zine's layouts (from "dense" it took three probes)."""
    asked = []
    real = product.zine_html
    monkeypatch.setattr(product, "zine_html", lambda *a, **k: asked.append((a[5], k.get("probe"), k.get("rest")))
                        or real(*a, **k))
    ctx = build.context_for(content, seed=14)
    dungeon = product.roll_dungeon(ctx, 14, 8)
    _, rules = product.zine_fit(ctx, dungeon, 14, 8, "a4")
    assert rules.start == "whole"
    kinds = layout_kinds(monkeypatch)
    asked.clear()
    product.zine_pages(ctx, dungeon, 14, 8, "a4")
    assert kinds == ["key", "tail", "rest"]  # one probe, in halves, and the pages it leaves out
    assert [a for a in asked if a[1] or a[2]][-3:] == [("whole", True, False)] * 2 + [("whole", False, True)]


def test_a_zine_guesses_its_fit_from_its_keys_length():
    assert [product.likely_fit(n) for n in (1200, 1906, 1907, 2106, 2107, 3000)] == \
        ["whole", "whole", "dense", "dense", "tight", "tight"]
    html = ('<section class="page cover">Cover</section><section class="page key flowing"><h2>Room Key</h2><p>Ab <b>cd'
            '</b></p><div class="key-rules" id="zine-key-rules">Rules</div></section>')
    assert product.key_characters(html) == len("Room KeyAb cd")


def test_fits_out_of_the_known_order_are_tried_in_turn():
    asked = []
    fits = ("tight", "whole", "flowing")
    assert fitting.first_fitting(fits, lambda fit: asked.append(fit) or fit == "whole") == "whole"
    assert asked == ["tight", "whole"]


@pytest.mark.slow  # lays real zines out
@pytest.mark.parametrize("seed,paper,fit,theme", [(1234, "a4", "tight", "standard"), (14, "a4", "whole", "standard"),
                                                  (2, "letter", "dense", "dyslexia-friendly")])
def test_a_probe_laid_out_in_halves_is_the_probe_laid_out_whole(content, seed, paper, fit, theme):
    """The key half's pages, then the tail's after its empty lead pages, written as one document: the bytes, page by
    page measures and anchors of the probe laid out at once."""
    ctx = build.context_for(content, seed=seed, theme=theme)
    render, _ = product.zine_fit(ctx, product.roll_dungeon(ctx, seed, 8), seed, 8, paper)
    whole = product.layout(ctx, render(fitting.Candidate(fit, probe=True)))
    key = product.layout(ctx, render(fitting.Candidate(fit, probe=True, part="key")))
    tail = product.layout(ctx, render(fitting.Candidate(fit, probe=True, part="tail", lead=key.page_count)))
    assert 3 <= key.page_count < whole.page_count == tail.page_count  # the key's pages and the lead pages for them
    halves = pdf.combined([(key, range(key.page_count)), (tail, range(key.page_count, tail.page_count))])
    assert pdf.measure(halves) == pdf.measure(whole)
    assert pdf.write_pdf(halves) == pdf.write_pdf(whole)



@pytest.mark.slow  # lays real zines out, each twice
@pytest.mark.parametrize("seed,paper", [(16, "a4"), (17, "a4"), (20, "a4"), (9, "letter"), (12, "letter")])
def test_the_log_moved_onto_the_key_page_is_the_key_laid_out_again_with_it(content, monkeypatch, seed, paper):
    """The log laid out alone and moved under the key's rules gives the zine, byte for byte, that laying the key half
    out again with the log gave (the way it was made before, still taken where the two are not alike): the same
    place after the rules' last margin, the table's rule lines and boxes where they belong (their backgrounds placed
    again), the same tags."""
    ctx = build.context_for(content, seed=seed)
    moved = []
    real = pdf.moved_across
    monkeypatch.setattr(pdf, "moved_across", lambda *args: moved.append(real(*args)) or moved[-1])
    made = product.zine_pages(ctx, product.roll_dungeon(ctx, seed, 8), seed, 8, paper)
    assert moved == [True]
    monkeypatch.setattr(pdf, "moved_across", lambda *args: False)
    assert made == product.zine_pages(ctx, product.roll_dungeon(ctx, seed, 8), seed, 8, paper)


@pytest.mark.slow  # lays real zines out, each twice
def test_a_roomier_fit_asked_ahead_in_a_child_gives_the_same_zines(content, monkeypatch):
    """Where a core is spare and the process has laid a zine out before (a serve worker), the fit just roomier than
    the guess is probed in a forked child beside it (forks.ask_ahead), the guess a step tighter: the zines are byte for
    byte those made asking in turn. On A4, seed 7004's child says its roomier fit fits too (this process then probes
    further itself), seed 7005's says it does not (the guess stands), and seed 7012's is stopped unasked (its guess
    does not fit: the next is tighter)."""
    from dungeonpress import forks

    def zine(seed):
        ctx = build.context_for(content, seed=seed)
        return product.zine_pages(ctx, product.roll_dungeon(ctx, seed, 8), seed, 8, "a4")
    zine(7000)  # as a serve worker has: the fonts are loaded, so a child never loads them beside this process
    seeds = (7004, 7005, 7012)
    alone = [zine(seed) for seed in seeds]
    monkeypatch.setattr(forks, "_SPARE_CORE", True)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1})
    monkeypatch.setattr(forks, "_running", lambda: 1)
    told = []
    real_answer, real_drop = forks.Ahead.answer, forks.Ahead.drop
    monkeypatch.setattr(forks.Ahead, "answer", lambda self: told.append(real_answer(self)) or told[-1])
    monkeypatch.setattr(forks.Ahead, "drop", lambda self: (told.append("stopped") if not self.done else None) or
                        real_drop(self))
    assert [zine(seed) for seed in seeds] == alone
    assert told == [True, False, "stopped"]
