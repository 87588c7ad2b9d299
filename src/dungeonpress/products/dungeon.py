"""Pre-rolled dungeons: content + seed → the one-sheet mini zine, the A5 booklet, packs, and JSON."""

from __future__ import annotations

import dataclasses
import functools
import re
from dataclasses import dataclass

from dungeonpress.dice import d, sub_rng
from dungeonpress.errors import UsageError
from dungeonpress.draw.dungeon_map import LABEL_PT, LARGE_LABEL_PT
from dungeonpress.generate.dungeon import NEEDED, generate_dungeon
from dungeonpress.model.dungeon import Dungeon
from dungeonpress.views import data as data_views
from dungeonpress.views.notes import foe_log, foe_log_page, grid_page, notes_page, notes_view, record_page, \
    room_log_page, threads_page
from dungeonpress.views.tracker import tracker_view
from dungeonpress.views import dungeon as views
from dungeonpress.views.delve_rules import keep_ranges_whole, rule_sections, rule_table_view
from dungeonpress.paginate import geometry
from dungeonpress.products import options
from dungeonpress.products.booklet_fit import FOE_LUCK, MIN_RULES_NOTE_LINES, MIN_SPILL_MAP_MM, NOTE_LINE_PX, \
    RULES_NOTES_HEAD_PX, foe_log_rows, key_note_lines, rules_ending, spilled_legends
from dungeonpress.products.common import BuildContext, Command, Inputs, Job, Output, drawing_css, html_from_template, \
    layout, write
from dungeonpress.products.dungeon_vtt import vtt_outputs

LAYOUTS = ("zine", "booklet", "pack")
PAPERS = options.PAPERS
FORMATS = ("pdf", "html", "json")
MAP_STYLES = ("clean", "sketch")
DEFAULT_ROOMS = views.DEFAULT_ROOMS  # every layout: a seed names one dungeon, printed as zine or booklet
# The key and the rules that follow it share three A7 pages: more rooms than this do not fit them at 7 pt
# (9 rooms did not for seeds 13 and 31337; 8 fit every seed tried, 1-30, 77, 999, 1234, 2024, 4242, 31337, on A4
# and Letter, seed 22 on A4 only in the crowded fit).
MAX_ZINE_ROOMS = 8
MIN_ROOMS, MAX_ROOMS = 3, 30
PACK_COUNT = 6
MAX_PACK = 36  # a d66 picks from at most 36 delves
MAX_RECORD_ROWS = 8  # a pack's record of its delves holds a row for each on one page up to this many delves
MAX_LOG_ROOMS = 12  # a delve's room log holds a row for each room on one page up to this many rooms
# More rooms than this and the log's rows are closer (zine.css: .room-log.long): at the roomy height twelve rooms ran
# onto a second page, which put the next delve's map on a right-hand page (pack 2024 of two, twelve rooms each).
ROOMY_LOG_ROOMS = 8
MAX_BATCH = 1000  # separate dungeons from one --batch run
MAX_ZINE_NOTES = 2  # a one-page key leaves two zine pages to fill
MAX_BOOKLET_NOTES = 3  # the most a booklet needs to reach a multiple of four pages

MAP_BOX = geometry.MAP_BOX  # where the map goes, in mm (width, height), on each page size
# The dungeon's outline, in the emblem's place on a cover (width, height in mm), and beside each delve in a pack's index.
# A zine cover's outline is as wide as its frame's content at most (60 mm on A4, 56.4 mm on Letter, less the 3 mm
# padding each side) less its own 0.6 pt border (zine.css). At 60 mm a long, low dungeon's outline ran 2.4 mm past
# the frame's border on A4 and 4.1 mm on Letter, to 4.1 mm from the sheet's edge (seed 1234567, five rooms).
ZINE_COVER_MAP = {"a4": (52.8, 35.0), "letter": (49.2, 35.0)}
BOOKLET_COVER_MAP = {"a5": (92.0, 72.0), "half-letter": (88.0, 72.0)}
LARGE_PRINT_COVER_MAP = (80.0, 46.0)  # large print's bigger words leave the outline less of the same cover
BOOKLET_NOTE_LINES = 24  # ruled lines on a booklet's notes page
# A zine's log of the foes fought, where its key's last page has room after the rules (zine.css: .zine .foe-log): a
# row, and the heading, the line on how and the table's head with the space above them, in CSS px.
ZINE_FOE_ROW_PX = 6.3 * 96 / 25.4
ZINE_FOE_HEAD_PX = 16 * 96 / 25.4
FOE_PAGE_ROWS = 10  # the foes a page of their own holds, in every theme and on A5 and half-letter
LARGE_PRINT_NOTE_LINES = 22  # large print's taller heading leaves room for two fewer (24 ran one line overleaf)
# Large print's two-line title and condition pushed the map's legend onto a page of its own (10% full):
# its booklet map is drawn shorter, so map and legend share the page. The condition at 14 pt (it was left at 9 pt)
# takes a line more: 10 mm shorter again, a tall map's four-line legend stays under it (pack seed 7, delves 3, 5, 6).
LARGE_PRINT_MAP_BOX = {"a5": (122.0, 106.0), "half-letter": (113.0, 112.0)}
PACK_THUMB = (26.0, 19.0)
# More delves than this and the index is set compact (smaller outlines, closer rows, no rooms count, which the cover
# gives): a table of up to nine rows cannot break (base.css keeps a table's first five and last four rows together),
# and at the roomy size eight rows ran past the page, leaving "Pick Your Delve" alone at the foot of page 2.
ROOMY_INDEX = 6
COMPACT_PACK_THUMB = (22.0, 11.0)
# The pack's cover shows every delve's outline in rows of three up to nine delves; more (up to 36: `--count` takes what
# a d66 picks from) ran off the cover, 12 rows of three for 36 with only 15 shown. They take more, smaller cells instead
# (zine.css: .cover-outlines.cols-N), no taller in all than three rows: (most delves, cells to a row).
COVER_COLUMNS = ((9, 3), (16, 4), (25, 5), (MAX_PACK, 6))
# How much of the pre-rolled oracle each layout prints (the JSON always has all of it).
ORACLE = {"zine": {"oracle_rows": 6, "twists": 3, "d6s": 10}, "booklet": {"oracle_rows": 30, "twists": 8, "d6s": 36}}


# Where the zine prints each rule of delve-rules.md (by its heading's id); any other rule goes on the back page.
# The key's last page has room left over (an entry never turns the page in the first fit): the rules for moving
# through the rooms follow the key there. The oracle's rule stands over its pre-rolled answers; Conflict and
# Fatigue are on the back page.
ZINE_RULE_PAGES = {"the-oracle": "oracle", "navigation-and-light": "key", "doors-puzzles-and-the-end": "key"}
# The last resort, for the longest keys (seed 22's): doors, puzzles and the end move onto the oracle page, and its
# pre-rolled answers print compact (three rows, no dice, one line on how; dungeon_aids.oracle_compact) in the room
# left: play without dice still has answers, twists and d6s.
CROWDED_RULE_PAGES = ZINE_RULE_PAGES | {"doors-puzzles-and-the-end": "oracle"}
CROWDED_ORACLE_ROWS = 3
SNUG_ORACLE_ROWS = 2  # the snug fit's: where three rows run the page over (the dyslexia theme on A4)


JOINED = ("joined", "joined-snug", "joined-bare")  # the fits whose room key runs each room's exits on (FIT_CLASSES)
EASED = ("eased", "eased-snug", "eased-bare", *JOINED)  # the eased fits, and the joined ones that go further
# The fits whose fold-and-cut note stands at the oracle page's foot, not the aids page's (paginate.zine.FITS).
FOLD_NOTE_ON_ORACLE = ("lifted", "trimmed", *EASED, "split")
# The fits whose doors, puzzles and end rule stands on the oracle page, in the room of its full answers.
DOORS_ON_ORACLE = ("crowded", "snug", "bare", *EASED, "split")


def compact_rows(fit: str) -> int:
    """How many rows of pre-rolled answers a crowded (or trimmed) zine's oracle page prints in `fit`, compact (0: none, or
    not a crowded fit: its oracle page prints the zine's usual answers)."""
    return {"crowded": CROWDED_ORACLE_ROWS, "snug": SNUG_ORACLE_ROWS, "trimmed": CROWDED_ORACLE_ROWS,
            "eased": CROWDED_ORACLE_ROWS, "eased-snug": SNUG_ORACLE_ROWS,
            "joined": CROWDED_ORACLE_ROWS, "joined-snug": SNUG_ORACLE_ROWS}.get(fit, 0)


# The zine's classes in each fit (paginate.zine.FITS): 7 pt type, then closed-up key lines, then the play aids
# packed after the key's rules (`packed`: they share the key's last page instead of opening their own); `joined` runs
# each room's exits on after what is seen in it.
FIT_CLASSES = {"dense": " dense", "tight": " dense tight", "packed": " dense tight packed",
               "crowded": " dense tight packed", "snug": " dense tight packed", "bare": " dense tight packed",
               "lifted": " dense tight", "trimmed": " dense tight",
               "eased": " dense tight", "eased-snug": " dense tight", "eased-bare": " dense tight",
               "joined": " dense tight joined", "joined-snug": " dense tight joined", "joined-bare": " dense tight joined",
               "turning": " dense tight split", "split": " dense tight packed split"}


def delve_rules(ctx: BuildContext, prefix: str) -> list:
    """The rules every pre-rolled dungeon prints (content's delve-rules.md): a title, an id and HTML per section.

    Written once as content and shared by the zine, the booklet and the pack; its `[[table ID]]` lines
    become small tables (Harm & Luck, Complications).
    """
    from dungeonpress import render  # loaded when a product is made, not for --help
    chapter = ctx.content.delve_rules
    if chapter is None:
        return []
    out = []
    for title, anchor, body in rule_sections(chapter.text):
        blocks = [("partials/rule_table.html.j2", {"table": rule_table_view(ctx.content.table(arg), ctx.content)})
                  for name, arg, _ in render.chapter_directives(body)]
        html, _ = render.render_chapter(ctx.templates_dir, body, f"{prefix}-{anchor}", blocks,
                                        where=chapter.source.path, version=ctx.version)
        out.append({"id": f"{prefix}-rule-{anchor}", "key": anchor, "title": title, "html": type(html)(keep_ranges_whole(html))})  # still markup
    return out


def zine_rules(ctx: BuildContext, crowded: bool = False) -> dict:
    """The delve rules shared out over the zine's pages: page name → its rules, in the file's order."""
    places = CROWDED_RULE_PAGES if crowded else ZINE_RULE_PAGES
    pages = {"key": [], "oracle": [], "back": []}
    for rule in delve_rules(ctx, "z"):
        pages[places.get(rule["key"], "back")].append(rule)
    return pages


def build_dungeon(ctx: BuildContext, opts: DungeonOptions) -> list[Output]:
    """One dungeon as a zine or booklet, or a pack of them; PDFs come with the JSON of what they print."""
    seed = ctx.seed
    if opts.count is not None or opts.layout == "pack":
        return styled(build_pack(ctx, opts, opts.count or PACK_COUNT), opts.map_style)
    chosen = opts.layout or "zine"
    rooms = opts.rooms or DEFAULT_ROOMS
    fmt = opts.format or "pdf"
    paper = opts.paper or options.DEFAULT_PAPER

    # 1. Roll the dungeon (pure), and keep its data for the JSON beside the print files.
    ctx.tick(0, 3, f"rolling dungeon {seed}")
    dungeon = roll_dungeon(ctx, seed, rooms)
    data = Output(f"dungeon-{seed}.json", data_views.encode_json(data_views.dungeon_data(dungeon, seed=seed)))
    vtt = vtt_outputs(ctx, dungeon, seed, paper, opts.map_style) if opts.vtt else []
    if fmt == "json":
        return [data, *styled(vtt, opts.map_style)]

    # 2. Render the layout asked for.
    ctx.tick(1, 3, f"laying out the {chosen}")
    if chosen == "zine":
        outputs = zine_outputs(ctx, dungeon, seed, rooms, paper, fmt, map_style=opts.map_style,
                               show_rolls=opts.show_rolls)
    else:
        outputs = booklet_outputs(ctx, [(dungeon, seed)], rooms, paper, fmt, name=f"dungeon-{seed}",
                                  signatures=opts.signatures,
                                  map_style=opts.map_style, show_rolls=opts.show_rolls)
    ctx.tick(3, 3, f"{chosen} done")
    return styled(outputs + vtt, opts.map_style) + ([data] if fmt == "pdf" else [])


def styled(outputs: list[Output], map_style: str) -> list[Output]:
    """Files drawn in a map style other than the default carry it in their names (…-zine-a4-sketch.pdf),
    so a sketch run never overwrites the clean one; the JSON is the same dungeon either way."""
    return [Output(style_name(o.name, map_style), o.data) for o in outputs]


def style_name(name: str, map_style: str) -> str:
    """`name` with the map style in it when that is not the default and the file is drawn."""
    stem, _, ext = name.rpartition(".")
    return f"{stem}-{map_style}.{ext}" if map_style != "clean" and ext in DRAWN else name


DRAWN = ("pdf", "html", "png", "dd2vtt")  # the files a map style changes


def roll_dungeon(ctx: BuildContext, seed: int, rooms: int) -> Dungeon:
    """The dungeon a seed makes; its own stream, so a pack's dungeon equals the one built alone from its seed."""
    return generate_dungeon(ctx.content, sub_rng(seed, "dungeon"), rooms=rooms)


def map_rng(seed: int):
    """The map's own stream of a dungeon's seed: the zine, the booklet and the VTT export draw the same map."""
    return sub_rng(seed, "map")


def pack_seeds(seed: int, count: int) -> list[int]:
    """Each delve's seed, derived from the pack's seed and its place in the pack (printed in the pack)."""
    return [d(sub_rng(seed, "pack", str(n)), 999_999_999) for n in range(1, count + 1)]


def zine_outputs(ctx: BuildContext, dungeon: Dungeon, seed: int, rooms: int, paper: str, fmt: str,
                 map_style: str = "clean", show_rolls: bool = False) -> list[Output]:
    """The 8-page mini zine, imposed on one landscape sheet of `paper` (or its HTML)."""
    from dungeonpress import impose  # loaded when a product is made, not for --help
    from dungeonpress.impose import reading_copy
    name = f"dungeon-{seed}-zine-{paper}"
    if fmt == "html":
        return [Output(f"{name}.html", _standalone(ctx, zine_html(ctx, dungeon, seed, rooms, paper, map_style=map_style,
                                                                      show_rolls=show_rolls)))]
    pages = zine_pages(ctx, dungeon, seed, rooms, paper, map_style, show_rolls)
    ctx.tick(2, 3, "imposing the zine")
    # The sheet is for the printer; its eight pages in reading order, tagged, are for reading on screen
    # and for screen readers (the sheet names this file in its metadata), less the note on folding and cutting it.
    reading = f"dungeon-{seed}-zine-reading{'' if paper == 'a4' else '-us'}.pdf"
    return [Output(f"{name}.pdf", impose.impose_zine(pages, paper, reading_copy=ctx.named(style_name(reading, map_style)))),
            Output(reading, reading_copy.without_fold_note(pages))]


def zine_html(ctx: BuildContext, dungeon: Dungeon, seed: int, rooms: int, paper: str, fit: str = "whole",
              map_style: str = "clean", show_rolls: bool = False, turns: tuple = (), probe: bool = False,
              gaps: dict | None = None, rest: bool = False, view=None, part: str = "", lead: int = 1,
              log_rows: int = 0) -> str:
    """The zine's eight pages as HTML, with spare notes pages (dropped after layout when not needed).

    `probe` leaves out all but the room key, the aids and back pages: the parts whose length decides the fit;
    `rest` is the other pages (cover, map, notes pages, oracle): see paginate.zine.assembled. A probe's `part`
    ("key", or "tail" after `lead` empty pages) is one of its two halves (paginate.zine.Candidate).
    `gaps` (px) puts the aids page's foot at the foot of the page (see paginate.zine.foot_gaps).
    `view(oracle_rows, drawn)` gives the dungeon's view (zine_view) where the caller keeps the ones it made.
    `log_rows`: a log of the foes fought, in that many rows, after the key's rules (paginate.zine: the log).
    """
    from dungeonpress.paginate.zine import PACKED  # loaded when a product is made, not for --help
    crowded = fit in DOORS_ON_ORACLE
    oracle_rows = compact_rows(fit) if crowded or compact_rows(fit) else ORACLE["zine"]["oracle_rows"]
    made = (view or functools.partial(zine_view, ctx, dungeon, seed, rooms, paper, map_style))(oracle_rows, not probe)
    return html_from_template(ctx, "dungeon_zine.html.j2", dungeon=made, rules=zine_rules(ctx, crowded),
                              notes_pages=notes_view(MAX_ZINE_NOTES, heading="Delve Notes", lines=16, cls="page notes",
                                                     tag="h2"), flowing=fit != "whole", show_rolls=show_rolls, turns=list(turns),
                              body_class=f"zine zine-{paper}" + FIT_CLASSES.get(fit, ""), packed=fit in PACKED,
                              joined=fit in JOINED,
                              oracle_compact=compact_rows(fit) > 0,
                              foe_log=foe_log(log_rows, luck=FOE_LUCK) if log_rows else None,
                              geometry_css=geometry.zine_css(), probe=probe, rest=rest, part=part,
                              blank_pages=list(range(lead if part in ("tail", "log") else 1)),
                              fold_cut_on="oracle" if fit in FOLD_NOTE_ON_ORACLE else "aids", gaps={page: f"{(gaps or {}).get(page, 0):.3f}px" if (gaps or {}).get(page) else ""
                                                 for page in ("aids",)})


def zine_view(ctx: BuildContext, dungeon: Dungeon, seed: int, rooms: int, paper: str, map_style: str, oracle_rows: int,
              drawn: bool) -> dict:
    """The dungeon's view for the zine: `oracle_rows` pre-rolled answers and, when `drawn`, the map drawn for the
    map page and the cover's outline (a probe prints neither: its view is made without them)."""
    aids = ORACLE["zine"] | {"oracle_rows": oracle_rows}
    return views.dungeon_view(dungeon, seed=seed, rooms=rooms, prefix="d1", map_box=MAP_BOX[f"zine-{paper}"] if drawn else None,
                              map_rng=map_rng(seed), compact=True, map_style=map_style, map_css=map_css(ctx), **aids,
                              outline_box=ZINE_COVER_MAP[paper] if drawn else None, map_labels=map_labels(ctx, zine=True))


def zine_pages(ctx: BuildContext, dungeon: Dungeon, seed: int, rooms: int, paper: str, map_style: str = "clean",
               show_rolls: bool = False) -> bytes:
    """The zine's eight pages in reading order, as PDF bytes (before imposition); paginate.zine chooses the fit."""
    from dungeonpress.paginate import zine as fitting  # loaded when a product is made, not for --help
    render, rules = zine_fit(ctx, dungeon, seed, rooms, paper, map_style, show_rolls)
    problem = f"the zine of '{dungeon.name}' (try fewer --rooms or --layout booklet)"
    return write(ctx, fitting.fit_zine(render, functools.partial(layout, ctx), rules, problem))


def zine_fit(ctx: BuildContext, dungeon: Dungeon, seed: int, rooms: int, paper: str, map_style: str = "clean",
             show_rolls: bool = False) -> tuple:
    """What paginate.zine fits: (the zine's HTML for a candidate fit, the rules: the key's rooms and anchors)."""
    from dungeonpress import pdf  # loaded when a product is made, not for --help
    from dungeonpress.paginate import zine as fitting

    # The dungeon's view (its map drawn three ways to find the best size) is made once for all the candidates it
    # serves, not once a candidate: it depends on the fit only through the oracle's rows, and on the cover's outline.
    view = functools.cache(functools.partial(zine_view, ctx, dungeon, seed, rooms, paper, map_style))

    def render(candidate: fitting.Candidate) -> str:
        return zine_html(ctx, dungeon, seed, rooms, paper, candidate.fit, map_style, show_rolls, candidate.turns,
                         probe=candidate.probe, gaps=candidate.gaps, rest=candidate.rest, view=view,
                         part=candidate.part, lead=candidate.lead, log_rows=candidate.log_rows)

    # The rules that follow the key (navigation, doors) travel with its last entry: its page must hold them too.
    # The fit is searched for from where a key of its length most often lands (a guess: fewer probes, same fit).
    probe = render(fitting.Candidate(fitting.START, probe=True))
    start = likely_fit(key_characters(probe))
    # The fit just roomier than the guess is probed beside it in a forked child where a core is spare, once this
    # process has laid out a zine before (a serve worker): the two never load the stylesheets' fonts together. The
    # guess is then a step tighter: a guess that fits costs one probe's time with the roomier one beside it, while a
    # guess too roomy cost two in turn (seeds 7000-7015, A4 and Letter: 1.38 key layouts a zine here, not 1.62).
    ahead = ctx.ask_ahead is not None and pdf.laid_out_before(probe, base_url=ctx.templates_dir, roots=ctx.roots)
    if ahead:
        start = TIGHTER_GUESS.get(start, start)
    return render, fitting.ZineRules(entries=tuple((room.number, f"d1-room-{room.number}") for room in dungeon.rooms),
                                     tail="zine-key-rules", start=start, halves=True,
                                     log_row_px=ZINE_FOE_ROW_PX, log_head_px=ZINE_FOE_HEAD_PX,
                                     ask_ahead=ctx.ask_ahead if ahead else None)


# Where zines land by the length of their key's text (characters), read off the probes of seeds 1-25 on A4 and
# Letter in the standard theme and 1-12 in dyslexia-friendly and large print: under 1,907 most keep their entries
# whole in the roomy type, over 2,107 most need 7 pt closed up. Starting there took 2.0 probes a zine where
# starting at "dense" took 2.36 (standard; dyslexia-friendly 2.58 -> 2.38, large print 2.21 -> 1.83).
LIKELY_FITS = ((1907, "whole"), (2107, "dense"))
LIKELY_LONGEST = "tight"
# The guess where the fit just roomier is asked ahead (zine_fit): the roomiest guess is left alone, since with nothing
# roomier to ask ahead a zine that keeps its entries whole would then take two probes in turn.
TIGHTER_GUESS = {"flowing": "dense", "dense": "tight"}


def likely_fit(characters: int) -> str:
    """The fit a zine whose key has this many characters of text most likely takes (paginate.zine.ORDERED)."""
    return next((fit for below, fit in LIKELY_FITS if characters < below), LIKELY_LONGEST)


def key_characters(probe_html: str) -> int:
    """How many characters of text the zine's room key holds before its rules (from a probe's HTML)."""
    key = re.search(r'<section class="page key[^>]*>(.*?)<div class="key-rules"', probe_html, re.S)
    return len(re.sub(r"<[^>]+>", "", key.group(1)))


def booklet_outputs(ctx: BuildContext, dungeons: list, rooms: int, paper: str, fmt: str, *, name: str,
                    pack_seed: int | None = None, map_style: str = "clean", show_rolls: bool = False,
                    signatures: int | None = None, by_parts: bool = True) -> list[Output]:
    """An A5 (or half-letter) reading PDF and its saddle-stitch imposition; one dungeon, or a pack with an index.
    A pack's PDF is laid out delve by delve (products.pack_parts) unless `by_parts` is False: as one document, as a
    single delve's booklet is (what the suite holds the pack laid out by parts to)."""
    from dungeonpress import impose, pdf  # loaded when a product is made, not for --help
    from dungeonpress.paginate import pages
    page = "a5" if paper == "a4" else "half-letter"
    cover = LARGE_PRINT_COVER_MAP if ctx.theme == "large-print" else BOOKLET_COVER_MAP[page]
    compact_index = pack_seed is not None and len(dungeons) > ROOMY_INDEX
    outline = (COMPACT_PACK_THUMB if compact_index else PACK_THUMB) if pack_seed is not None else cover
    map_box = LARGE_PRINT_MAP_BOX[page] if ctx.theme == "large-print" else MAP_BOX[page]
    shown = [views.dungeon_view(dg, seed=s, rooms=rooms, prefix=f"d{n}", map_box=map_box, map_rng=map_rng(s),
                               map_style=map_style, map_css=map_css(ctx), **ORACLE["booklet"], outline_box=outline,
                               map_labels=map_labels(ctx))
             for n, (dg, s) in enumerate(dungeons, start=1)]
    index, title = None, shown[0]["name"]
    rules = delve_rules(ctx, "b")
    if pack_seed is not None:
        die = views.pick_die(len(dungeons))
        for view, pick in zip(shown, die["ranges"]):
            view["pick"] = pick
        index = {"seed": pack_seed, "count": len(dungeons), "rooms": rooms, "die": die["die"],
                 "reroll": die["reroll"], "entries": [{"view": view} for view in shown],
                 "compact": compact_index,
                 "cover_columns": next(columns for most, columns in COVER_COLUMNS if len(dungeons) <= most)}
        title = f"A Pack of Delves, seed {pack_seed}"
    note_lines = LARGE_PRINT_NOTE_LINES if ctx.theme == "large-print" else BOOKLET_NOTE_LINES

    def filler_page(anchor: str) -> dict:
        # The page that puts a delve's map on a left-hand page. Before a pack's first delve it follows How to Play,
        # whose last page already ends in ruled notes: there it is the pack's record of its delves, not more lines.
        if index is not None and anchor == shown[0]["anchor"] and len(shown) <= MAX_RECORD_ROWS:
            # (closer rows for more delves than the roomy index holds: eight at 16 mm ran over in wider letters)
            many = " many" if compact_index else ""
            return record_page(f"{anchor}-before", shown, cls=f"bpage notes record{many}", tag="h2")
        # Before a later delve it follows the delve before's oracle: it is that delve's room log (a page a player fills
        # in while playing it), not a page of bare lines.
        before = next((view for view, after in zip(shown, shown[1:]) if after["anchor"] == anchor), None)
        if before is not None and len(before["rooms"]) <= MAX_LOG_ROOMS:
            return delve_log(f"{anchor}-before", before)
        return notes_page(f"{anchor}-before", heading="Delve Notes", lines=note_lines, cls="bpage notes", tag="h2")

    def delve_log(page_id: str, view: dict) -> dict:
        heading = f"Room Log · Delve {view['pick']}" if index is not None else "Room Log"
        long = " long" if len(view["rooms"]) > ROOMY_LOG_ROOMS else ""
        return room_log_page(page_id, [room["number"] for room in view["rooms"]], heading=heading,
                             cls=f"bpage notes room-log{long}", tag="h2")

    # A booklet padded to whole sheets: its first spare page (the one kept first) is the last delve's room log, not
    # more lines (in a pack the delves before have theirs where a filler page puts their successor's map on the left).
    spares = notes_view(MAX_BOOKLET_NOTES, heading="Delve Notes", lines=note_lines, cls="bpage notes", tag="h2")
    if len(shown[-1]["rooms"]) <= MAX_LOG_ROOMS:
        spares[0] = delve_log(spares[0]["id"], shown[-1])
    # The second (large print keeps three: its How to Play runs onto a third page) is squares to map on, not lines.
    spares[1] = grid_page(spares[1]["id"], cls="bpage notes grid-page", tag="h2")

    def third_spare(page_id: str, foes: int) -> dict:
        # A log of the foes fought, or where How to Play already ends in one, the people, places and questions the
        # delve leaves open, under their labels: not a third page of bare lines.
        if foes:
            return threads_page(page_id, cls="bpage notes threads", tag="h2")
        return foe_log_page(page_id, FOE_PAGE_ROWS, luck=FOE_LUCK, cls="bpage notes foe-page", tag="h2")

    def notes_pages(foes: int) -> list:
        return [*spares[:2], third_spare(spares[2]["id"], foes), *spares[3:]]

    context = dict(dungeons=shown, index=index, show_rolls=show_rolls, rules=rules,
                   aids_with_oracle=ctx.theme == "large-print", tracker=tracker_view(), body_class=f"dbook dbook-{page}",
                   doc_title=title)

    def booklet_html(fillers=(), turns=(), rules_notes=0, key_notes=None):
        return html_from_template(ctx, "dungeon_booklet.html.j2", **context, **rules_ending(rules_notes),
                                  turns=list(turns), key_notes=key_notes or {},
                                  notes_pages=notes_pages(foe_log_rows(rules_notes)),
                                  fillers={anchor: [filler_page(anchor)] for anchor in fillers})
    if fmt == "pdf" and index is not None and by_parts:
        from dungeonpress.products import pack_parts
        reading = pack_parts.lay_out_pack(ctx, pack_parts.Pack(
            context=context, dungeons=dungeons, map_box=map_box, map_style=map_style, map_css=map_css(ctx),
            map_labels=map_labels(ctx), map_rng=map_rng, page=page, name=name,
            filler_page=filler_page, notes_pages=notes_pages))
        return _imposed(ctx, reading, name, page, pack_seed, paper, signatures, map_style)
    html = booklet_html()
    if fmt == "html":
        return [Output(f"{name}.html", _standalone(ctx, html))]
    # Laid out once with spare notes pages before the back cover; keep just enough to fold whole sheets.
    # A delve whose map would fall on a right-hand page gets a notes page before it, a key that runs over its
    # page is shared evenly by its pages (no room alone on a page of white), and How to Play, where it runs a few
    # lines over its page (large print, dyslexia-friendly), ends with a log of the foes fought in the rest of its last
    # page (ruled lines for notes where too few foes fit); then the book is laid out again.
    # One layout is held at a time in a long book: its pages are most of the memory a pack holds (a pack of 36 delves,
    # 220 pages, peaked at 938 MB holding two layouts). The layout kept is let go before another is laid out, and laid
    # out again (the same pages) in the rare case it is the one kept after all (KeptLayout).
    kept = KeptLayout(lambda made_from: layout(ctx, made_from), html, layout(ctx, html),
                      let_go=len(shown) > KEEP_LAYOUTS_UP_TO_DELVES)
    measured = pdf.measure(kept.get())
    # A long title and condition in wide letters can push a tall map's legend onto a page of its own (a
    # dyslexia-friendly Letter pack of seven, seed 662102820: its fourth delve's legend alone on p25, 5% of the page).
    # That delve's map is drawn again in a box shorter by what ran over, and the book laid out again (three times at
    # most: a map that went over whole is first brought back onto its page, then its legend).
    boxes = [map_box] * len(shown)
    for _ in range(3):
        cuts = spilled_legends(measured, shown)
        if not cuts:
            break
        for n, cut_mm in cuts.items():
            (dg, s), boxes[n] = dungeons[n], (boxes[n][0], max(boxes[n][1] - cut_mm, MIN_SPILL_MAP_MM))
            shown[n].update(views.map_fields(dg, boxes[n], map_rng(s), map_style=map_style, map_css=map_css(ctx),
                                             map_labels=map_labels(ctx)))
        measured = pdf.measure(kept.replace(booklet_html()))
    page_count = kept.get().page_count
    fillers = pages.even_page_fillers(measured, [view["anchor"] for view in shown])
    turns = pages.even_key_turns(measured, [[room["anchor"] for room in view["rooms"]] for view in shown])
    rules_notes = pages.lines_after(measured, "how-to-play", line=NOTE_LINE_PX, reserve=RULES_NOTES_HEAD_PX)
    rules_notes = rules_notes if rules_notes >= MIN_RULES_NOTE_LINES else 0
    # The key pages' ruled lines are read off this layout as the keys will fall with their turns, and laid out with the
    # rest in one more layout, not two (a third of a pack's CPU). Kept where that layout is the one the two would have
    # made: the pages as many, and its key pages asking for the lines they got; otherwise the two are laid out.
    key_notes = key_note_lines(measured, shown, turns)
    if key_notes is not None and (fillers or turns or rules_notes or key_notes):
        kept.let_go()
        whole = booklet_html(fillers, turns, rules_notes, key_notes)
        again = layout(ctx, whole)
        if again.page_count == page_count + len(fillers) and key_note_lines(pdf.measure(again), shown) == key_notes:
            kept.html, kept.rendered, again = whole, again, None  # handed on: written, then let go before imposing
            return _booklet_files(ctx, kept, name, page, pack_seed, paper, signatures, map_style)
        again = None
    if turns or rules_notes:
        kept.let_go()
        if not kept.replace_if_fits(booklet_html(fillers, turns, rules_notes), page_count + len(fillers)) and fillers:
            kept.replace(booklet_html(fillers))  # they ran over: not them
    elif fillers:
        kept.replace(booklet_html(fillers))
    # A key page the rooms leave a third or more of (8 rooms shared by two pages left each half white) ends in ruled
    # lines for notes on its rooms; laid out again with them, kept if the pages stay as they were.
    key_notes = key_note_lines(pdf.measure(kept.get()), shown)
    if key_notes:
        page_count = kept.get().page_count
        kept.let_go()
        kept.replace_if_fits(booklet_html(fillers, turns, rules_notes, key_notes), page_count)
    return _booklet_files(ctx, kept, name, page, pack_seed, paper, signatures, map_style)


KEEP_LAYOUTS_UP_TO_DELVES = 3  # a booklet or pack of more delves holds one layout at a time (KeptLayout)


class KeptLayout:
    """The layout a booklet would be written from so far, and the HTML it was made from. `let_go` (a long book)
    drops it before another layout is made; it is made again from its HTML, the same pages, if it is kept after all."""

    def __init__(self, lay_out, html: str, rendered, let_go: bool):
        self.lay_out, self.html, self.rendered, self.letting_go = lay_out, html, rendered, let_go

    def get(self):
        if self.rendered is None:
            self.rendered = self.lay_out(self.html)
        return self.rendered

    def let_go(self) -> None:
        if self.letting_go:
            self.rendered = None

    def replace(self, html: str):
        """Lay out `html` instead (the layout before it let go first) and keep it."""
        self.rendered = None
        self.html, self.rendered = html, self.lay_out(html)
        return self.rendered

    def take(self):
        """The layout, no longer held here (the caller lets it go once it is written)."""
        rendered, self.rendered = self.get(), None
        return rendered

    def replace_if_fits(self, html: str, pages: int) -> bool:
        """Lay out `html` and keep it if it has `pages` pages; otherwise keep the layout before it."""
        candidate = self.lay_out(html)
        if candidate.page_count != pages:
            return False
        self.html, self.rendered = html, candidate
        return True


def _booklet_files(ctx: BuildContext, kept: KeptLayout, name: str, page: str, pack_seed: int | None, paper: str,
                   signatures: int | None, map_style: str) -> list[Output]:
    """The laid-out booklet padded to whole sheets: its reading PDF and its imposition (the layout let go once
    written: a pack of 36 delves imposed its 220 pages holding them, 60 MB of its peak)."""
    from dungeonpress.paginate import pages  # loaded when a product is made, not for --help
    return _imposed(ctx, write(ctx, pages.pad_to_multiple(kept.take(), 4, name)), name, page, pack_seed, paper,
                    signatures, map_style)


def _imposed(ctx: BuildContext, reading: bytes, name: str, page: str, pack_seed: int | None, paper: str,
             signatures: int | None, map_style: str) -> list[Output]:
    """The booklet's reading PDF (padded to whole sheets) and its imposition."""
    from dungeonpress import impose  # loaded when a product is made, not for --help
    suffix = "" if paper == "a4" else "-letter"
    reading_name = f"{name}.pdf" if pack_seed is not None else f"{name}-{page}.pdf"  # a pack is pack-<seed>.pdf
    imposed = impose.impose_bound(reading, paper, signatures, reading_copy=ctx.named(style_name(reading_name, map_style)))
    binding = "sewn-booklet" if signatures else "booklet"  # --signatures: sewn signatures (see options.PrintShopOptions)
    return [Output(reading_name, reading), Output(f"{name}-{binding}{suffix}.pdf", imposed)]


# Large print on the zine's A7 map: numbers as large as the booklet's (11 pt) fill its small rooms and squeeze
# the marks in them to specks (seed 30), so the pocket map takes a step up, not the booklet's two.
ZINE_LARGE_LABEL_PT = (9.0, 8.0)


def map_labels(ctx: BuildContext, zine: bool = False) -> tuple:
    """The least printed sizes of the map's room numbers and words: larger in large print."""
    if ctx.theme != "large-print":
        return LABEL_PT
    return ZINE_LARGE_LABEL_PT if zine else LARGE_LABEL_PT


def map_css(ctx: BuildContext) -> str:
    """The map palette (templates/css/map.css) with the theme's layer for drawings after it, copied into each
    map SVG and legend icon: inline SVG keeps its own styles."""
    return drawing_css(ctx, "map.css")


def build_pack(ctx: BuildContext, opts: DungeonOptions, count: int) -> list[Output]:
    """`count` dungeons from seeds derived from the pack seed, in one booklet with a "roll to pick" index."""
    seed = ctx.seed
    rooms = opts.rooms or DEFAULT_ROOMS
    fmt = opts.format or "pdf"
    paper = opts.paper or options.DEFAULT_PAPER
    if fmt == "pdf" and hasattr(ctx.run_parts, "start"):  # its part workers start while the delves are rolled and drawn
        ctx.run_parts.start()
    dungeons = []
    for n, dungeon_seed in enumerate(pack_seeds(seed, count)):
        ctx.tick(n, count + 1, f"rolling delve {n + 1} of {count} (seed {dungeon_seed})")
        dungeons.append((roll_dungeon(ctx, dungeon_seed, rooms), dungeon_seed))
    data = Output(f"pack-{seed}.json", data_views.encode_json(data_views.pack_data(seed, rooms, dungeons)))
    if fmt == "json":
        return [data]
    ctx.tick(count, count + 1, "laying out the pack")
    outputs = booklet_outputs(ctx, dungeons, rooms, paper, fmt, name=f"pack-{seed}", pack_seed=seed,
                              signatures=opts.signatures,
                              map_style=opts.map_style, show_rolls=opts.show_rolls)
    if fmt == "pdf":
        outputs.append(data)
    ctx.tick(count + 1, count + 1, "pack done")
    return outputs


def _standalone(ctx: BuildContext, html: str) -> bytes:
    """HTML that opens in a browser from build/: relative links resolve against the templates folder."""
    if not ctx.templates_href:  # written outside the project: plain relative links, no path of this machine
        return html.encode("utf-8")
    base = f'<base href="{ctx.templates_href}/">'
    return html.replace("<head>", f"<head>\n{base}", 1).encode("utf-8")


@dataclass(frozen=True)
class DungeonOptions(options.Options):
    rooms: int | None = options.option(None, f"how many rooms (default: {DEFAULT_ROOMS}; a zine holds up to "
                                       f"{MAX_ZINE_ROOMS})", min=MIN_ROOMS, max=MAX_ROOMS)
    layout: str | None = options.layout(LAYOUTS, help="zine (one folded sheet), booklet (A5) or pack "
                                                      "(default: zine; pack with --count)")
    paper: str | None = options.paper(help="sheet to print on: a4 or letter (default: a4)")
    count: int | None = options.option(None, f"make a pack of N dungeons in one booklet (a pack has {PACK_COUNT} "
                                       f"by default)", min=1, max=MAX_PACK)
    format: str | None = options.output_format(FORMATS, help="pdf (with the JSON beside it), html, or json only "
                                                             "(default: pdf)")
    map_style: str = options.option("clean", "how the map is drawn: clean lines or sketch (pen hatching) "
                                             "(default: clean)", choices=MAP_STYLES)
    show_rolls: bool = options.switch("print each roll, small, after what it rolled (the JSON always has them)")
    vtt: bool = options.switch("also write the map for virtual tabletops (dungeon-SEED.dd2vtt: image, walls, doors) "
                               "and the player's map without room contents (PDF and PNG)")
    signatures: int | None = options.option(None, "booklet and pack: impose for sewing instead of stapling, signatures "
                                            f"of N folded sheets with collation marks (1-{options.MAX_SIGNATURE_SHEETS})",
                                            min=1, max=options.MAX_SIGNATURE_SHEETS)
    batch: int | None = options.option(None, "write N separate dungeons (zines unless --layout booklet), seeds SEED, "
                                       "SEED+1, ..., made in two supervised worker processes", min=1, max=MAX_BATCH)

    def check(self) -> None:
        if self.batch is not None and (self.count is not None or self.layout == "pack"):
            raise UsageError("--batch writes separate zines or booklets: leave out --count and --layout pack")
        if self.vtt and (self.count is not None or self.layout == "pack"):
            raise UsageError("--vtt exports one dungeon's map: leave out --count and --layout pack (or use --batch)")
        if self.signatures is not None and self.count is None and self.layout in (None, "zine"):
            raise UsageError("--signatures sews a booklet or a pack: use --layout booklet or --count N")
        if self.count is not None and self.layout == "zine":
            raise UsageError("--count makes a pack, which is an A5 booklet: leave out --layout zine")
        if self.count is None and self.layout in (None, "zine") and (self.rooms or 0) > MAX_ZINE_ROOMS:
            raise UsageError(f"--rooms must be at most {MAX_ZINE_ROOMS} in a zine (got {self.rooms}): "
                             f"use --layout booklet for bigger dungeons")


def batch_items(opts: DungeonOptions, seed: int) -> list | None:
    """`--batch N`: N single dungeons with seeds seed, seed+1, ...; each exactly what `--seed S` alone makes."""
    if opts.batch is None:
        return None
    # Only what differs from the defaults: a switch left off or a value left at its default is not an option given,
    # and the batch's labels (progress, manifest) named them ('--show-rolls --vtt' on a batch that asked for neither).
    # (`is not False`, not `in (False, …)`: 0 == False, and a number given as 0 is an option given.)
    one = {f.name: value for f in dataclasses.fields(opts) if f.name != "batch"
           for value in [getattr(opts, f.name)] if value is not False and value not in (None, f.default)}
    return [(one, seed + n) for n in range(opts.batch)]


COMMANDS = (
    Command(
        name="dungeon",
        batch=batch_items,
        help="a pre-rolled dungeon: one-sheet mini zine, A5 booklet, or a pack of delves (--count)",
        run=build_dungeon,
        seeded=True,
        options=DungeonOptions,
        example="dungeonpress dungeon --seed 1234 --layout zine --paper letter",
        build_all=(Job({"layout": "zine", "paper": "a4"}, seed=1234), Job({"layout": "zine", "paper": "letter"}, seed=1234),
                   Job({"layout": "booklet"}, seed=1234), Job({"count": 6}, seed=66)),
        order=40,
        inputs=Inputs(tables=NEEDED, chapters=("delve_rules",)),
        outputs=("dungeon-<seed>-zine-a4.pdf", "dungeon-<seed>-zine-letter.pdf", "dungeon-<seed>-a5.pdf",
                 "dungeon-<seed>-booklet.pdf", "pack-<seed>.pdf", "pack-<seed>-booklet.pdf", "dungeon-<seed>.json"),
    ),
)
