"""The one-sheet zine's fit: the product's HTML for each candidate fit → the laid-out eight pages.

The product says how to make the HTML of a candidate (`render(Candidate) -> str`) and how to lay HTML
out (`lay_out(html, pages_at_most=None) -> pdf.Rendered`, None for a document longer than `pages_at_most`,
as pdf.layout_html); this module chooses the fit, balances the key's pages and puts
the aids page's foot down, from what the layouts measured.
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass, field

from dungeonpress import pdf
from dungeonpress.errors import RenderError
from dungeonpress.paginate import geometry
from dungeonpress.paginate.pages import anchor_boxes, anchor_pages, keep_pages, spare_pages

PAGES = 8
# Ways to lay out the zine, tried in turn until it fits; in "packed" the play aids follow the key's rules on its
# last page; "crowded" is for the longest keys (the product moves a rule off the key's pages), and "split", where a
# key entry may turn the page between its paragraphs, the last resorts: "turning" (the aids on a page of their own,
# the rules after the key: seed 13 on A4) and then "split" (packed and crowded too). Before them "lifted" keeps every
# entry whole: it is "tight" with the fold-and-cut note moved from the aids page to the oracle page's foot, for a
# wandering table that fills its page alone (seed 29 on Letter had the split fit, its fifth page 37% full). After
# them "eased" keeps every entry whole too: "lifted" with the doors rule moved off the key's last page to the oracle
# page, its answers compact as in "crowded" (then fewer, then none): seed 13 turned room 8's treasure onto the next
# page in four themes (turning, or split in the wider letters), where the key with the doors rule taken off it keeps
# each entry on one page. Then "joined": "eased" with each room's exits run on after what is seen in it rather than on
# a line of their own (a line or more saved in most entries), for the longest keys in the widest letters
# (dyslexia-friendly seed 23 on Letter turned two entries' pages, seed 34 split one on both papers).
FITS = ("whole", "flowing", "dense", "tight", "packed", "crowded", "snug", "bare", "lifted", "trimmed", "eased",
        "eased-snug", "eased-bare", "joined", "joined-snug", "joined-bare", "turning", "split")
PACKED = ("packed", "crowded", "snug", "bare", "split")  # the fits whose aids page opens on the key's last page
# The crowded fit prints its pre-rolled answers compact on the oracle page, which the probe does not lay out; where
# they leave the page's rules no room (a theme with larger or wider letters) the whole layout finds it, and the same
# fit with fewer answers ("snug"), then none ("bare": the twists and the d6s stay) is taken, before any fit that
# turns an entry's page. The three share one probe: they differ only on the oracle page. So do "lifted" and
# "trimmed", its answers compact, where the fold-and-cut note leaves the oracle page no room for them in full, and
# the three eased fits (and the three joined ones), whose oracle page holds the doors rule and the fold-and-cut note as
# well.
BARE = {"crowded": "snug", "snug": "bare", "lifted": "trimmed", "eased": "eased-snug", "eased-snug": "eased-bare",
        "joined": "joined-snug", "joined-snug": "joined-bare"}
# The cover, map, oracle and back pages: one page each in every fit (the full layout checks it); a probe
# lays out one empty page in place of the cover and map, leaves the oracle out and lays the back page out
# itself (PROBED), as its length follows the fit's type.
FIXED_PAGES = 4
PROBED = ("back",)  # one-panel pages the probe lays out as they will be in the zine
# Zine pages that must each stay on their one panel. The aids page is not among them: when no fit keeps
# it whole (Atkinson's wider letters), its fold-and-cut note takes the panel a spare notes page would
# have had, and the oracle and rules pages keep theirs (the fit prefers one that keeps it whole).
ONE_PAGE = ("cover", "map", "oracle", "back")
FEET = ("aids",)  # pages whose foot is put at the page's foot by a measured gap (the back page's is zine.css's)
# The first fits, each as compact as the one before or more (the same type, then entries free to turn the page,
# then 7 pt, then closed-up lines): a zine one of them fits is fitted by every later one, so the first that fits
# is found from any of them: down while they fit, or up until one does. Starting where the zine is likely to land
# (ZineRules.start, which the product guesses from its key's length) takes one or two probes where trying them in
# turn took up to four; a wrong guess costs probes, never a different fit.
ORDERED = ("whole", "flowing", "dense", "tight")
START = "dense"  # the middle: most zines take "dense" or "tight"
# The fits whose key ends on a page the aids do not share: a probe of one is laid out in halves (ZineRules.halves),
# and the room its key's rules leave is put to use (ZineRules.log_row_px).
HALVED = (*ORDERED, "lifted", "eased", "joined")


@dataclass(frozen=True)
class Candidate:
    """One way to lay the zine out, asked of the product's render function.

    `fit` is one of FITS; `turns` the key entries (their labels) that open a key page; `probe` asks for
    the key, aids and back pages alone, `rest` for the other pages (cover, map, notes, oracle); `gaps`
    (page → px) puts a page's foot at the foot of the page. A probe's `part` asks for one half of it: "key"
    (its empty first page and the key), or "tail" (the aids and back pages, after `lead` empty pages that stand
    for the key half's, so each page has the number it has in the whole probe). `log_rows` asks for a log of that
    many rows after the key's rules (see ZineRules); part "log" for that log alone, after `lead` empty pages, to be
    moved onto the key's last page (_with_log).
    """

    fit: str = "whole"
    turns: tuple = ()
    probe: bool = False
    gaps: dict | None = None
    rest: bool = False
    part: str = ""
    lead: int = 1
    log_rows: int = 0  # rows of the log after the key's rules (ZineRules.log_row_px), 0 for none


@dataclass(frozen=True)
class ZineRules:
    """What the fit must keep: `entries` are the key's (label, anchor) pairs in order, e.g. (3, "d1-room-3")."""

    entries: tuple
    tail: str = ""  # the anchor of what follows the last entry on its page (it travels with it), if any
    pages: int = PAGES
    fits: tuple = FITS
    fixed_pages: int = FIXED_PAGES
    one_page: tuple = ONE_PAGE
    foot_at_px: dict = field(default_factory=lambda: dict(geometry.ZINE_FOOT_AT_PX))
    page_foot_px: float = geometry.PAGE_FOOT_PX
    start: str = START  # the fit probed first (first_fitting): a guess, which changes the probes, never the fit
    halves: bool = False  # the product lays a probe out in halves (Candidate.part): see fit_zine
    # A log the product prints after the key's rules (a table to fill in in play) where the key's last page leaves room
    # for `min_log_rows` rows or more: one row's height and its heading's (with the space above it), in CSS px; 0: none
    log_row_px: float = 0.0
    log_head_px: float = 0.0
    min_log_rows: int = 2
    # Where a core would stand idle (forks.ask_ahead): the fit just roomier than the guess is probed beside it, in a
    # child process that answers whether it fits; a guess that fits then costs one probe's time, not two. None: in turn.
    ask_ahead: object = None


def fit_zine(render, lay_out, rules: ZineRules, problem: str):
    """The zine laid out in the first fit that keeps it to `rules.pages` pages, its spare pages dropped.

    RenderError naming `problem` (what to tell the user) when a one-panel page runs over or no fit fits.
    """
    # Key entries stay whole on a page when they can; if that overflows the eight pages, they may
    # turn the page between paragraphs, then the type steps down to 7 pt, and as a last resort (a
    # long key of 11 or 12 rooms) the key's lines and gaps close up, the type staying at 7 pt.
    # Notes pages fill a short key up to eight; the spares are dropped.
    # The fit is chosen by laying out only the key, aids and back pages (a probe: under half the zine's
    # layout work), from the product's guess (rules.start) down or up (first_fitting). The chosen probe's pages
    # are the zine's: its key balanced (laid out again, in the "whole" fit only) and the aids page's foot put down
    # from what the probe measured; the other pages (cover, map, notes, oracle) are laid out once, and the two are
    # put in order (assembled). Each section starts its own page, so these pages come out as the whole zine laid
    # out at once makes them; if the zine still runs over (a fixed page that grew), every fit is tried on the
    # whole zine (by_trial).
    # A fit should also keep the aids page to one page (in a theme with wider letters the
    # aids page can run over onto a page of its own, in a notes page's place); when no fit does, the first
    # that keeps eight pages is taken. In a packed fit the aids page opens on the key's last page by design.
    # The probe holds the back page too (PROBED): a fit whose back page runs over is passed by, as the
    # whole zine's layout would be (before, such a fit sent the zine to by_trial: five whole layouts).
    # A probe of a HALVED fit is laid out in two halves where the product can (rules.halves): the key alone first,
    # and the aids and back pages only when the key leaves them room. Most fits ruled out are ruled out by the key
    # alone (39 of 44 failing probes over 48 zines in three themes): a roomier fit checked after one that fits, or a
    # guess that was too roomy. The halves' pages are the whole probe's: each section opens a page, and the second
    # half's empty lead pages give its pages the numbers they have in the whole probe.
    fits = {}  # fit → (the probe laid out, its measures, pages the zine will have)
    keys = {}  # fit → the key half laid out, where the probe was laid out in halves

    def probed(fit: str, whole: bool = True) -> tuple:
        """(the probe laid out, its measures, pages the zine will have) of `fit`, laid out once. With `whole` False,
        a fit whose key alone takes too many pages gives (its key half, its measures, at least the zine's pages)."""
        plain = next((full for full, bare in BARE.items() if bare == fit), None)
        if plain in rules.fits:  # a barer fit's probe is its fuller fit's (the probe leaves the oracle page out)
            return probed(plain, whole)
        if fit in fits:
            return fits[fit]
        if not (rules.halves and fit in HALVED):
            probe = lay_out(render(Candidate(fit, probe=True)))
        else:
            # The key half takes its empty first page (for the cover and map) and the key's pages; with at least one
            # aids page and the fixed pages (the back page among them) the zine has `least` pages. A key too long
            # for any aids to follow is known as its layout starts the page too many: it is not laid out further.
            room = rules.pages - rules.fixed_pages
            stopped = fit in keys and keys[fit] is None
            if fit not in keys or (stopped and whole):
                keys[fit] = lay_out(render(Candidate(fit, probe=True, part="key")),
                                    **({} if whole else {"pages_at_most": room}))
            key = keys[fit]
            if key is None:  # stopped as it started page room + 1: no aids page could follow
                return None, (), rules.pages + 1
            least = key.page_count - 1 + 1 + rules.fixed_pages
            if least > rules.pages and not whole:
                return key, pdf.measure(key), least
            tail = lay_out(render(Candidate(fit, probe=True, part="tail", lead=key.page_count)))
            probe = pdf.combined([(key, range(key.page_count)), (tail, range(key.page_count, tail.page_count))])
        measures = pdf.measure(probe)
        fits[fit] = probe, measures, _pages(measures, rules)
        return fits[fit]

    def fitting(fit: str) -> bool:
        """Does `fit` keep eight pages, every one-panel page whole and the aids page on one (packed: two)?"""
        _, measures, pages = probed(fit, whole=False)  # a key half alone comes with too many pages: no aids to read
        return pages <= rules.pages and not overflowing_pages(measures, rules) and \
            (len(anchor_pages(measures)["zine-aids"]) == 1 or fit in PACKED)

    fit = _first_fitting_ahead(rules, fitting)
    if fit is None:  # no fit fits: the first that keeps eight pages, else the last
        fit = next((f for f in rules.fits if probed(f, whole=False)[2] <= rules.pages), rules.fits[-1])
    probe, measures, expected = probed(fit)
    # a packed zine's aids follow the key's rules, their foot after them (zine.css hides the spacer): no gap
    gaps = foot_gaps(measures, rules) if fit not in PACKED else {}
    turns = tuple(balanced_turns(measures, rules)) if fit == "whole" else ()
    if turns:  # the key's pages balanced: the probe laid out again with entries opening pages
        probe = _balanced(render, lay_out, fit, turns, probe, keys.get(fit))
    if rules.log_row_px and rules.halves and fit in HALVED:  # the room the key's rules leave put to use
        probe = _with_log(render, lay_out, rules, fit, turns, probe)
    rendered = _assembled_in_fit(render, lay_out, rules, fit, probe, gaps, expected)
    if rendered is None:  # the zine runs over where the probe did not foresee it: every fit tried on the whole zine
        rendered = by_trial(render, lay_out, rules)
    measured = pdf.measure(rendered)
    spilled = overflowing_pages(measured, rules)
    if spilled:
        raise RenderError(f"{problem}: its {', '.join(spilled)} page runs over onto another page")
    return keep_pages(rendered, rules.pages, problem)


def _first_fitting_ahead(rules: ZineRules, fitting) -> str | None:
    """first_fitting from the guess, the ORDERED fit just roomier than it asked ahead where the rules allow (the
    same fit as asking in turn: the child probes it exactly as this process would)."""
    at = ORDERED.index(rules.start) if rules.start in ORDERED else 0
    ahead, roomier = None, None
    if rules.ask_ahead is not None and at > 0 and rules.fits[:len(ORDERED)] == ORDERED:
        roomier = ORDERED[at - 1]
        ahead = rules.ask_ahead(functools.partial(fitting, roomier))
    answers = {}

    def known(fit: str) -> bool:
        if ahead is not None and fit == roomier:
            if fit not in answers:
                answers[fit] = ahead.answer()
            if answers[fit] is not None:
                return answers[fit]
        return fitting(fit)
    try:
        return first_fitting(rules.fits, known, rules.start)
    finally:
        if ahead is not None:
            ahead.drop()


def _pages(measures, rules: ZineRules) -> int:
    """The pages a zine will have whose probe measured `measures`: the probe's empty first page stands for the cover
    and map, its back page's pages are counted as laid out (0 of them for a product whose probe has none)."""
    back = len(anchor_pages(measures).get("zine-back", ()))
    return len(measures) - 1 + rules.fixed_pages - (1 if back else 0)


def _balanced(render, lay_out, fit: str, turns: tuple, probe, key=None):
    """The probe with its key's pages balanced (`turns` open pages). Where it was laid out in halves, the key half
    alone is laid out again: balanced entries keep the key's pages, so the aids and back pages are as they were."""
    if key is not None:
        again = lay_out(render(Candidate(fit, turns, probe=True, part="key")))
        if again.page_count == key.page_count:
            return pdf.combined([(again, range(again.page_count)), (probe, range(key.page_count, probe.page_count))])
    return lay_out(render(Candidate(fit, turns, probe=True)))


def _with_log(render, lay_out, rules: ZineRules, fit: str, turns: tuple, probe):
    """The probe with the product's log after the key's rules, in as many rows as the key's last page leaves room for
    (a fit whose aids open a page of their own left that room white: seed 17's fifth page 40%). Only the log is laid
    out, alone, and moved onto that page (the key half laid out again with it where the two are not alike); the probe
    as it was where fewer than `rules.min_log_rows` rows fit or the key's pages change."""
    measures = pdf.measure(probe)
    spans = anchor_pages(measures)
    if not rules.tail or rules.tail not in spans or "zine-aids" not in spans:
        return probe
    key_pages = spans["zine-aids"][0]  # the probe's empty first page and the key's pages
    last = spans[rules.tail][-1]
    if last != key_pages - 1:
        return probe
    room = measures[last].text_bottom - measures[last].boxes[rules.tail][1]
    rows = int((room - rules.log_head_px) // rules.log_row_px)
    if rows < rules.min_log_rows:
        return probe
    # The log alone, on a page of the number and type of the key's last page, and moved under the rules there: the key
    # laid out again for it cost a fifth of a zine. Where the pages' columns differ, the key is laid out again with it.
    log = lay_out(render(Candidate(fit, turns, probe=True, part="log", lead=last, log_rows=rows)))
    if log.page_count == last + 1 and pdf.moved_across(probe, log, last, rules.tail, "foe-log"):
        return probe
    again = lay_out(render(Candidate(fit, turns, probe=True, part="key", log_rows=rows)))
    if again.page_count != key_pages:
        return probe
    return pdf.combined([(again, range(key_pages)), (probe, range(key_pages, probe.page_count))])


def _assembled_in_fit(render, lay_out, rules: ZineRules, fit: str, probe, gaps: dict, expected: int):
    """The zine in `fit` from its probe and the rest laid out once, or None where it does not come out at the
    `expected` pages with every one-panel page whole (as laying it out whole in that fit would show).

    A crowded fit whose oracle page runs over takes its barer fits in turn: they differ only on that page.
    """
    if not _lowered_feet(probe, gaps):  # its aids page's foot would turn the page
        return None
    rendered = assembled(probe, lay_out(render(Candidate(fit, rest=True))), packed=fit in PACKED)
    measured = pdf.measure(rendered)
    while fit in BARE and BARE[fit] in rules.fits and overflowing_pages(measured, rules) == ["oracle"]:
        fit = BARE[fit]
        rendered = assembled(probe, lay_out(render(Candidate(fit, rest=True))), packed=fit in PACKED)
        measured = pdf.measure(rendered)
    if len(measured) - len(spare_pages(measured)) != expected or overflowing_pages(measured, rules):
        return None
    return rendered


def assembled(probe, rest, packed: bool):
    """The zine's pages in order, from the chosen fit's probe (its key, aids and back pages, feet lowered) and the
    layout of the rest (cover, map, notes pages, oracle), as the whole zine's HTML orders them.

    Every section opens a page, so each page is as the whole zine's layout makes it: the zine is not laid out again.
    The notes pages come before the aids page, or after it when packed (the aids then open on the key's last page).
    """
    rest_measured = pdf.measure(rest)
    near, far, notes = anchor_pages(pdf.measure(probe)), anchor_pages(rest_measured), spare_pages(rest_measured)
    aids = near["zine-aids"][0] if "zine-aids" in near else probe.page_count
    back = near["zine-back"][0] if "zine-back" in near else probe.page_count
    opening = range(min(notes + far.get("zine-oracle", [rest.page_count])))  # the cover and map
    oracle = range(far["zine-oracle"][0], rest.page_count) if "zine-oracle" in far else ()
    key, aids_pages = range(1, aids), range(aids, back)  # the probe's first page stands for the cover and map
    order = [(rest, opening), (probe, key), (rest, notes), (probe, aids_pages)] if not packed else \
        [(rest, opening), (probe, key), (probe, aids_pages), (rest, notes)]
    return pdf.combined([*order, (rest, oracle), (probe, range(back, probe.page_count))])


def _lowered_feet(probe, gaps: dict) -> bool:
    """Each FEET page's foot put `gaps[page]` px down (in place), as the whole zine's HTML sets the spacer above it;
    False when a foot would then pass its page's text area, where that HTML turns the page before the foot."""
    measured = pdf.measure(probe)
    where = anchor_boxes(measured)
    for page, gap in gaps.items():
        gap = round(gap, 3)  # the spacer's height is written with three decimals (products.dungeon.zine_html)
        foot = where.get(f"zine-{page}-foot")
        if not gap or foot is None:
            continue
        if foot[2] + gap > measured[foot[0]].text_bottom:
            return False
        pdf.lower(probe, foot[0], f"zine-{page}-foot", gap)
    return True


def first_fitting(fits: tuple, fitting, start: str = START) -> str | None:
    """The first of `fits` for which `fitting(fit)` holds (None if none), asking fewer of the ORDERED ones,
    from `start` (one of ORDERED) down or up.

    Same answer as asking each in turn, given that among ORDERED a fit that fits is followed only by fits that fit.
    """
    if fits[:len(ORDERED)] != ORDERED:
        return next((fit for fit in fits if fitting(fit)), None)
    at = ORDERED.index(start)
    if fitting(start):
        chosen = start
        for fit in reversed(ORDERED[:at]):  # down while they fit: the first that fails ends the search
            if not fitting(fit):
                break
            chosen = fit
        return chosen
    return next((fit for fit in fits[at + 1:] if fitting(fit)), None)


def by_trial(render, lay_out, rules: ZineRules):
    """The safe way: the whole zine laid out in each fit in turn until it fits, then balanced if that keeps its
    pages, then once more with the aids page's foot put down. Spare pages are kept (fit_zine drops them)."""
    for fit in rules.fits:
        rendered = lay_out(render(Candidate(fit)))
        measured = pdf.measure(rendered)
        if len(measured) - len(spare_pages(measured)) <= rules.pages and not overflowing_pages(measured, rules):
            break
    turns = tuple(balanced_turns(measured, rules)) if fit == "whole" else ()
    if turns:
        balanced = lay_out(render(Candidate(fit, turns)))
        again = pdf.measure(balanced)
        if len(again) - len(spare_pages(again)) == len(measured) - len(spare_pages(measured)):
            rendered, measured = balanced, again
        else:
            turns = ()
    gaps = foot_gaps(measured, rules)
    if any(gaps.values()):
        rendered = lay_out(render(Candidate(fit, turns, gaps=gaps)))
    return rendered


def foot_gaps(measured, rules: ZineRules) -> dict:
    """The gap (px) above each FEET page's foot that puts the foot at the bottom, from a layout without gaps.

    Without a gap the foot follows what is above it; the page's content is then as tall as from the
    section's top to the foot's bottom, and the gap brings that up to the page's least height.
    """
    where, spans = anchor_boxes(measured), anchor_pages(measured)
    gaps = {}
    for page in FEET:
        section, foot = where.get(f"zine-{page}"), where.get(f"zine-{page}-foot")
        if section and foot and len(spans[f"zine-{page}"]) == 1:  # a page that ran over keeps its foot where it fell
            gaps[page] = max(0.0, rules.foot_at_px[page] - (foot[2] - section[1]))
    return gaps


def overflowing_pages(measured, rules: ZineRules | None = None) -> list[str]:
    """The one-panel zine pages that were split over more than one page.

    The page count alone does not show it: the spare notes pages absorb the extra page, and the
    oracle and rules pages, which must stand under the slit, land on other panels.
    """
    pages = anchor_pages(measured)
    return [name for name in (rules.one_page if rules else ONE_PAGE) if len(pages.get(f"zine-{name}", ())) > 1]


def balanced_turns(measured, rules: ZineRules) -> list:
    """Entries (labels) that should open a key page so its pages are about equally full (same page count).

    The first layout fills each page before turning, which can leave the last key page nearly empty;
    here the entries are shared out over the same pages so that the fullest page is as empty as it can be.
    """
    where = anchor_boxes(measured)  # anchor → (page index, top, bottom) of the entry's box, in CSS px
    labels = [label for label, _ in rules.entries]
    try:
        boxes = [where[anchor] for _, anchor in rules.entries]
    except KeyError:
        return []
    tail = where.get(rules.tail) if rules.tail else None
    tail_height = tail[2] - tail[1] if tail and tail[0] == boxes[-1][0] else 0.0
    starts = [(page, top) for page, top, _ in boxes]
    pages = sorted({page for page, _ in starts})
    if len(pages) < 2:
        return []
    heights = [bottom - top for _, top, bottom in boxes]
    heights[-1] += tail_height
    first_top = starts[0][1]
    later_top = min(y for page, y in starts if page != pages[0])
    foot = measured[pages[0]].height - rules.page_foot_px
    best, best_cuts = None, None
    for cuts in itertools.combinations(range(1, len(labels)), len(pages) - 1):
        bounds = (0, *cuts, len(labels))
        fills = []
        for g in range(len(pages)):
            room = foot - (first_top if g == 0 else later_top)
            fills.append(sum(heights[bounds[g]:bounds[g + 1]]) / room)
        worst = max(fills)
        if worst <= 0.98 and (best is None or worst < best - 1e-9):
            best, best_cuts = worst, cuts
    if best_cuts is None:
        return []
    natural = [labels[i] for i, (page, _) in enumerate(starts) if i and page != starts[i - 1][0]]
    chosen = [labels[i] for i in best_cuts]
    return [] if chosen == natural else chosen
