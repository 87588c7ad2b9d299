"""The dungeon product: zine imposition order and orientation, booklet and pack, JSON, determinism, CLI."""

from __future__ import annotations

import io
from pathlib import Path
import shutil
import json
import re
import types

import pypdf
import pytest

from dungeonpress import build, impose
from dungeonpress.cli import main
from dungeonpress.model.plan import OUTSIDE
from dungeonpress.products import booklet_fit, dungeon as product
from dungeonpress.products.options import parse
from dungeonpress.views import data as data_views
from dungeonpress.views import dungeon as dungeon_views
from tests.conftest import SHARED, run_cli, slow_fixture, standard_build

MM = 72 / 25.4
SEED = 1234


def make(content, **options):
    """Run the dungeon command as the CLI would; return ({name: bytes}, the build context)."""
    ctx = build.context_for(content, seed=options.pop("seed", None))
    outputs = product.build_dungeon(ctx, parse(product.DungeonOptions, options))
    return {o.name: o.data for o in outputs}, ctx


# The zines, booklet and pack are `build all`'s own dungeon jobs in the standard theme, made once per run and
# shared with the theme, preflight and accessibility tests: ({name: bytes}, WeasyPrint's warnings).
@pytest.fixture(scope="module")
@slow_fixture
def zine_a4():
    return standard_build("dungeon", 0)  # seed 1234, zine, A4


@pytest.fixture(scope="module")
@slow_fixture
def zine_letter():
    return standard_build("dungeon", 1)  # seed 1234, zine, Letter


@pytest.fixture(scope="module")
@slow_fixture
def booklet():
    return standard_build("dungeon", 2)  # seed 1234, booklet


PACK_SEED, PACK_COUNT = 66, 6


@pytest.fixture(scope="module")
@slow_fixture
def pack():
    return standard_build("dungeon", 3)  # seed 66, a pack of six


@pytest.fixture(scope="module")
@slow_fixture
def pack_texts(pack):
    """The text of each page of the pack's reading copy (read once: extraction is most of these tests' time)."""
    return [page.extract_text() for page in reader(pack[0][f"pack-{PACK_SEED}.pdf"]).pages]


@pytest.fixture(scope="module")
@slow_fixture
def zine_pages_a4(content):
    """The zine's eight pages as laid out: imposed, they are the A4 sheet; less the fold note, its tagged reading copy
    (test_same_seed_same_pdf_bytes). Laid out here, in this process: ({name: bytes}, WeasyPrint's warnings)."""
    ctx = build.context_for(content, seed=SEED)
    rooms = product.DEFAULT_ROOMS
    return product.zine_pages(ctx, product.roll_dungeon(ctx, SEED, rooms), SEED, rooms, "a4"), ctx.warnings


def test_the_shared_builds_are_the_jobs_these_tests_name():
    jobs = next(c for c in build.commands() if c.name == "dungeon" and c.parent != "export").build_all
    assert [(job.seed, job.options) for job in jobs] == [
        (SEED, {"layout": "zine", "paper": "a4"}), (SEED, {"layout": "zine", "paper": "letter"}),
        (SEED, {"layout": "booklet"}), (PACK_SEED, {"count": PACK_COUNT})]


def reader(data: bytes) -> pypdf.PdfReader:
    return pypdf.PdfReader(io.BytesIO(data))


def size_mm(page) -> tuple:
    box = page.mediabox
    return round(float(box.width) / MM, 1), round(float(box.height) / MM, 1)


@pytest.mark.slow
def test_outputs_are_named_as_documented(zine_a4, zine_letter, booklet, pack):
    assert sorted(zine_a4[0]) == [f"dungeon-{SEED}-zine-a4.pdf", f"dungeon-{SEED}-zine-reading.pdf", f"dungeon-{SEED}.json"]
    assert sorted(zine_letter[0]) == [f"dungeon-{SEED}-zine-letter.pdf", f"dungeon-{SEED}-zine-reading-us.pdf",
                                      f"dungeon-{SEED}.json"]
    assert sorted(booklet[0]) == [f"dungeon-{SEED}-a5.pdf", f"dungeon-{SEED}-booklet.pdf", f"dungeon-{SEED}.json"]
    assert sorted(pack[0]) == [f"pack-{PACK_SEED}-booklet.pdf", f"pack-{PACK_SEED}.json", f"pack-{PACK_SEED}.pdf"]


@pytest.mark.slow
def test_no_weasyprint_warnings(zine_a4, zine_letter, booklet, pack, zine_pages_a4):
    for _, warnings in (zine_a4, zine_letter, booklet, pack, zine_pages_a4):
        assert warnings == []


def test_zine_is_one_landscape_sheet_of_eight_quarter_pages(zine_a4, zine_letter, zine_pages_a4):
    assert [size_mm(p) for p in reader(zine_a4[0][f"dungeon-{SEED}-zine-a4.pdf"]).pages] == [(297.0, 210.0)]
    assert [size_mm(p) for p in reader(zine_letter[0][f"dungeon-{SEED}-zine-letter.pdf"]).pages] == [(279.4, 215.9)]
    pages = reader(zine_pages_a4[0]).pages
    assert len(pages) == 8
    assert {size_mm(p) for p in pages} == {(74.3, 105.0)}  # 297/4 by 210/2


PLACEMENT = re.compile(rb"q (-?[\d.]+) 0 0 (-?[\d.]+) (-?[\d.]+) (-?[\d.]+) cm (?:[-\d. ]+ re W n )?(/P\d) Do Q")  # clip to trim


def test_zine_panel_order_and_orientation(zine_a4, zine_pages_a4):
    """Top row 5 4 3 2 upside down, bottom row 6 7 8 1 upright, read back from the imposed PDF."""
    sheet = reader(zine_a4[0][f"dungeon-{SEED}-zine-a4.pdf"]).pages[0]
    width, height = float(sheet.mediabox.width), float(sheet.mediabox.height)
    placed = PLACEMENT.findall(sheet["/Contents"].get_object().get_data())
    assert len(placed) == 8
    pages = reader(zine_pages_a4[0]).pages
    streams = [page["/Contents"].get_object().get_data() for page in pages]
    xobjects = sheet["/Resources"]["/XObject"]
    seen = []
    for a, d, e, f, name in placed:
        a, d, e, f = float(a), float(d), float(e), float(f)
        page_number = streams.index(xobjects[name.decode()].get_object().get_data()) + 1
        upside_down = a < 0 and d < 0
        # the panel's lower-left corner on the sheet (a rotated panel is drawn from its far corner)
        left = e - width / 4 if upside_down else e
        bottom = f - height / 2 if upside_down else f
        row = "top" if bottom > height / 4 else "bottom"
        seen.append((row, round(left / (width / 4)), page_number, upside_down))
    top = sorted((col, page, flipped) for row, col, page, flipped in seen if row == "top")
    bottom = sorted((col, page, flipped) for row, col, page, flipped in seen if row == "bottom")
    assert top == [(0, 5, True), (1, 4, True), (2, 3, True), (3, 2, True)]
    assert bottom == [(0, 6, False), (1, 7, False), (2, 8, False), (3, 1, False)]


def test_same_seed_same_pdf_bytes(zine_a4, zine_pages_a4):
    from dungeonpress.impose import reading_copy
    reading = f"dungeon-{SEED}-zine-reading.pdf"
    # The A4 sheet is its pages imposed, and the reading copy the same pages less the fold note: each a plain
    # function of the pages, which this process laid out to the bytes the shared build's did. The zine laid out
    # again in another process, with another hash seed, gives the same bytes: test_reliability_faults.py (R1).
    assert impose.impose_zine(zine_pages_a4[0], "a4", reading_copy=reading) == zine_a4[0][f"dungeon-{SEED}-zine-a4.pdf"]
    assert reading_copy.without_fold_note(zine_pages_a4[0]) == zine_a4[0][reading]


def test_different_seeds_differ(content, zine_a4):
    other, _ = make(content, seed=SEED + 1, layout="zine", paper="a4", format="json")
    assert other[f"dungeon-{SEED + 1}.json"] != zine_a4[0][f"dungeon-{SEED}.json"]


@pytest.mark.slow
def test_zine_pages_read_in_order(content, zine_pages_a4):
    texts = [page.extract_text() for page in reader(zine_pages_a4[0]).pages]
    data = json.loads(make_json(build.context_for(content, seed=SEED)))
    assert data["name"].split()[-1] in texts[0] and f"seed {SEED}" in texts[0].lower()
    assert texts[1].startswith("Map")
    assert "Room Key" in texts[2]
    assert "Wandering Encounters" in texts[5]
    assert "Pre-rolled Oracle" in texts[6] and "Twists" in texts[6]
    assert "The Oracle" in texts[6] and "Conflict" in texts[7] and f"dungeonpress dungeon --seed {SEED}" in texts[7]
    key = " ".join(" ".join(texts[2:5]).split())
    # The key is written for the player: each room's type and features as the one reading picked, in plain
    # words, no dice log, no generator hints, no table alternatives.
    assert " = " not in key and "e.g." not in key and "(moderate" not in key
    for room in data["rooms"]:
        for said in (room["key"]["type"], *room["key"]["features"]):
            assert said in key
            assert " or " not in said and "/" not in said


def make_json(ctx) -> bytes:
    return data_views.encode_json(data_views.dungeon_data(product.roll_dungeon(ctx, SEED, 8), seed=SEED))


DOOR = re.compile(r'<span class="door">(\w+)(?: → <a href="#d1-room-(\d+)">(\d+)</a>|: ([\w ]+))( \(broken through\))?</span>')


@pytest.mark.parametrize("compact", [True, False])
@pytest.mark.slow
def test_every_key_reference_matches_the_layout(content, compact):
    """Each key entry's exits, read from the HTML, are the room's doors: same compass side, same room."""
    ctx = build.context_for(content, seed=SEED)
    for seed in range(40):
        dungeon = product.roll_dungeon(ctx, seed, 10)
        view = dungeon_views.dungeon_view(dungeon, seed=seed, rooms=10, prefix="d1", map_box=(60, 80),
                                          oracle_rows=1, twists=1, d6s=1, compact=compact, map_rng=product.map_rng(seed))
        html = product.html_from_template(ctx, "dungeon_zine.html.j2", dungeon=view,
                                          notes_pages=[], flowing=False, body_class="zine zine-a4")
        entries = re.split(r'<div class="room" id="d1-room-(\d+)"', html)[1:]
        assert [int(n) for n in entries[::2]] == [room.number for room in dungeon.rooms]
        for number, entry in zip(entries[::2], entries[1::2]):
            placed = dungeon.plan.room(int(number))
            printed = []
            for side, href, shown, other, extra in DOOR.findall(entry.split("</p>", 2)[1]):
                assert href == shown
                printed.append((side[0], int(href) if href else other, bool(extra)))
            expected = [(door.side, door.to if door.to not in (None, OUTSIDE) else
                         ("dead end" if door.to is None else ("way out" if compact else "the way out")), door.extra)
                        for door in placed.doors]
            assert printed == expected
            for side, to, _ in printed:
                if isinstance(to, int):
                    assert tuple(sorted((int(number), to))) in dungeon.plan.connections
            assert ("Stairs down" in entry) == (int(number) == dungeon.plan.stairs)


def test_the_player_map_has_no_encounter_marks(zine_a4, content):
    ctx = build.context_for(content, seed=SEED)
    dungeon = product.roll_dungeon(ctx, SEED, 8)
    html = product.zine_html(ctx, dungeon, SEED, 8, "a4")
    svg = html.split('<div class="map">', 1)[1].split("</svg>", 1)[0]
    assert re.findall(r'<text class="num"[^>]*>([^<]*)</text>', svg) == [str(n) for n in range(1, 9)]
    for room in dungeon.rooms:
        if room.encounter:
            assert room.encounter.result.text not in svg


def test_json_export_shape(zine_a4):
    data = json.loads(zine_a4[0][f"dungeon-{SEED}.json"])
    assert data["format"] == "dungeonpress-dungeon/1"
    assert {"seed", "name", "condition", "entrance", "rooms", "connections"} <= set(data)
    assert data["seed"] == SEED and data["entrance"] == 1
    for room in data["rooms"]:
        assert {"id", "type", "features", "exits", "x", "y", "w", "h", "encounter", "treasure", "stairs"} <= set(room)
        assert all(isinstance(room[k], int) for k in ("x", "y", "w", "h", "exits"))
        assert room["encounter"] is None or {"table", "result", "rolls"} <= set(room["encounter"])
    assert sum(room["stairs"] for room in data["rooms"]) == 1
    ids = {room["id"] for room in data["rooms"]}
    assert all(a in ids and b in ids and a < b for a, b in data["connections"])


def test_booklet_folds_from_whole_sheets(booklet):
    reading = reader(booklet[0][f"dungeon-{SEED}-a5.pdf"])
    count = len(reading.pages)
    assert count % 4 == 0 and {size_mm(p) for p in reading.pages} == {(148.0, 210.0)}
    imposed = reader(booklet[0][f"dungeon-{SEED}-booklet.pdf"])
    assert len(imposed.pages) == count // 2 and size_mm(imposed.pages[0]) == (297.0, 210.0)
    # the booklet shows the same dungeon as the zine of the same seed
    assert "Room Key" in reading.pages[2].extract_text() or "Room Key" in reading.pages[1].extract_text()


@pytest.mark.slow
def test_pack_index_seeds_and_dungeons(pack, pack_texts, content):
    data = json.loads(pack[0][f"pack-{PACK_SEED}.json"])
    seeds = product.pack_seeds(PACK_SEED, PACK_COUNT)
    assert [d["seed"] for d in data["dungeons"]] == seeds and len(set(seeds)) == PACK_COUNT
    text = "\n".join(pack_texts)
    assert "Roll 1d6, then turn to the page shown." in text
    for seed, pick in zip(seeds, dungeon_views.pick_die(PACK_COUNT)["ranges"]):
        assert f"seed {seed}" in text and pick in text
    # a pack's delve is the dungeon its own seed makes alone
    alone, _ = make(content, seed=seeds[0], format="json")
    assert json.loads(alone[f"dungeon-{seeds[0]}.json"]) == data["dungeons"][0]
    assert len(pack_texts) % 4 == 0


def test_pick_die():
    assert dungeon_views.pick_die(6) == {"die": "1d6", "ranges": ["1", "2", "3", "4", "5", "6"], "reroll": ""}
    assert dungeon_views.pick_die(2)["ranges"] == ["1–3", "4–6"]
    assert dungeon_views.pick_die(5) == {"die": "1d6", "ranges": ["1", "2", "3", "4", "5"], "reroll": "roll again on 6"}
    assert dungeon_views.pick_die(4)["die"] == "1d4"
    assert dungeon_views.pick_die(7)["reroll"] == "roll again on 8"
    assert dungeon_views.pick_die(12)["die"] == "1d12"


@pytest.mark.slow  # lays whole zines out
@pytest.mark.parametrize("seed,rooms,paper", [(13, 8, "a4"), (13, 8, "letter"), (31337, 8, "letter"), (22, 8, "a4")])
def test_the_most_rooms_a_zine_holds_fit_it(content, seed, rooms, paper):
    """The zine stays eight pages with every room's entry, and the rules after the key, on the three key pages
    (these seeds' keys are the longest found)."""
    ctx = build.context_for(content, seed=seed)
    pages = reader(product.zine_pages(ctx, product.roll_dungeon(ctx, seed, rooms), seed, rooms, paper))
    assert len(pages.pages) == 8
    where = {name: pages.get_destination_page_number(dest) for name, dest in pages.named_destinations.items()}
    assert {where[f"d1-room-{n}"] for n in range(1, rooms + 1)} <= {2, 3, 4}  # pages 3-5
    key = " ".join(pages.pages[i].extract_text() for i in (2, 3, 4))
    assert key.count("Exits") == rooms
    assert ctx.warnings == []
    # the one-panel pages are where the fold puts them: wandering (on page 6, or opening on the key's last page when
    # packed after its rules), oracle, rules
    assert "Wandering Encounters" in pages.pages[4].extract_text() + pages.pages[5].extract_text()
    assert "Pre-rolled Oracle" in pages.pages[6].extract_text() and "Conflict" in pages.pages[7].extract_text()
    assert where["z-rule-navigation-and-light"] in {2, 3, 4}
    # after the key, or (the crowded fit: these keys, each entry kept whole, leave it no room) in the pre-rolled
    # answers' place
    assert where["z-rule-doors-puzzles-and-the-end"] in ({6} if (seed, paper) in CROWDED_ZINES else {2, 3, 4})


# The longest keys found, whose zines are laid out crowded or eased (paginate.zine.FITS) to keep every entry whole: the
# doors rule moves to the oracle page.
CROWDED_ZINES = {(22, "a4"), (31337, "letter"), (13, "a4"), (13, "letter")}


@pytest.mark.slow
def test_cli_json_progress_and_quiet(tmp_path):
    out, err = io.StringIO(), io.StringIO()
    assert main(["dungeon", "--seed", "5", "--format", "json", "--out", str(tmp_path)], out, err) == 0
    assert err.getvalue() == ""  # no terminal: no bar
    assert re.fullmatch(r"wrote 1 file \(\d+ kB\) to \S+/ in \d+\.\d s\n", out.getvalue())
    assert json.loads((tmp_path / "dungeon-5.json").read_text())["seed"] == 5
    out, err = io.StringIO(), io.StringIO()
    assert main(["dungeon", "--format", "json", "--quiet", "--out", str(tmp_path)], out, err) == 0
    assert re.fullmatch(r"seed: \d+\n", err.getvalue())  # a fresh seed is printed; no progress


def test_cli_rejects_bad_options(tmp_path):
    err = io.StringIO()
    assert main(["dungeon", "--rooms", "1", "--out", str(tmp_path)], io.StringIO(), err) == 2
    assert err.getvalue() == "dungeonpress dungeon: error: --rooms must be a whole number from 3 to 30 (got 1)\n"
    err = io.StringIO()
    assert main(["dungeon", "--seed", "1", "--rooms", "9", "--out", str(tmp_path)], io.StringIO(), err) == 2
    assert err.getvalue() == ("dungeonpress dungeon: error: --rooms must be at most 8 in a zine (got 9): "
                              "use --layout booklet for bigger dungeons\n")
    assert not list(tmp_path.glob("*.pdf"))


@pytest.mark.slow
def test_html_output_carries_no_path_of_the_building_machine(tmp_path, monkeypatch):
    """Standalone HTML links its stylesheets relatively inside the folder it is run from, not at all outside it."""
    root = Path(__file__).resolve().parents[1]
    monkeypatch.chdir(root)
    for out in (tmp_path / "out", root / "build" / "html-test"):
        try:
            assert main(["dungeon", "--seed", "5", "--format", "html", "--quiet", "--out", str(out)],
                        io.StringIO(), io.StringIO()) == 0
            html = (out / "dungeon-5-zine-a4.html").read_text()
            assert str(root) not in html and str(tmp_path) not in html and "file:" not in html
        finally:
            if out.is_relative_to(root):
                shutil.rmtree(out, ignore_errors=True)
    assert '<base href="../../templates/">' in html


def test_pack_maps_face_their_keys(pack_texts):
    """Every delve's map is on a left-hand (even) page, with its Room Key on the page facing it."""
    texts = pack_texts
    maps = [n for n, text in enumerate(texts, start=1) if "rooms · seed" in text and "Room Key" not in text
            and n > 2]
    assert len(maps) == PACK_COUNT
    for n in maps:
        assert n % 2 == 0, n
        assert texts[n].lstrip().startswith("Room Key")  # texts[n] is page n + 1


def test_each_delves_pre_rolled_oracle_is_one_page(booklet, pack_texts):
    """The booklet's oracle page holds its whole table: no page of three leftover rows after it."""
    for pages in ([page.extract_text() for page in reader(booklet[0][f"dungeon-{SEED}-a5.pdf"]).pages], pack_texts):
        starts = [n for n, text in enumerate(pages) if "Pre-rolled Oracle" in text]
        assert starts
        for n in starts:
            rows = pages[n].count("·")
            assert rows >= 3 * product.ORACLE["booklet"]["oracle_rows"], (n, rows)  # one "·" in each of a row's three cells
            assert "Plain" not in pages[n + 1]  # no continued table (its header repeats) on the next page


def test_a_doubles_plus_one_follows_its_dice(booklet):
    """"Yes, but…+1 5·5" read as one number, +15: the twist counter's +1 follows the dice."""
    pages = [page.extract_text() for page in reader(booklet[0][f"dungeon-{SEED}-a5.pdf"]).pages]
    oracle = next(text for text in pages if "Pre-rolled Oracle" in text)
    assert re.findall(r"\d\s?·\s?\d\s?\+1", oracle), oracle  # seed 1234's oracle rolls doubles
    assert not re.search(r"…\s?\+1", oracle)


@pytest.mark.slow
def test_an_oracle_cell_with_a_double_stays_on_its_page(tmp_path):
    """An oracle cell is one line: "Yes, but… 6/1 · 6 +1", one space wider than the cell had been, ran off the Letter
    zine's page (seed 1168883492, five rooms), and a roll from the preview page failed on it."""
    code, _out, err = run_cli("dungeon", "--seed", "1168883492", "--rooms", "5", "--paper", "letter",
                              "--out", str(tmp_path), "--quiet", "--no-preflight")
    assert (code, err) == (0, "")
    assert (tmp_path / "dungeon-1168883492-zine-letter.pdf").exists()


def test_a_map_style_other_than_clean_is_in_the_print_files_names():
    from dungeonpress.products.common import Output
    from dungeonpress.products.dungeon import styled
    outputs = [Output("dungeon-1-zine-a4.pdf", b""), Output("dungeon-1-a5.html", b""), Output("dungeon-1.json", b"")]
    assert [o.name for o in styled(outputs, "sketch")] == ["dungeon-1-zine-a4-sketch.pdf", "dungeon-1-a5-sketch.html",
                                                           "dungeon-1.json"]
    assert styled(outputs, "clean") == outputs


def _figure_alts(data: bytes, page_index: int) -> list[str]:
    """The /Alt of every Figure tagged on one page of a PDF."""
    import pikepdf
    alts = []
    with pikepdf.open(io.BytesIO(data)) as pdf:
        page = pdf.pages[page_index].obj
        stack = [pdf.Root.StructTreeRoot]
        while stack:
            node = stack.pop()
            if isinstance(node, pikepdf.Array):
                stack.extend(reversed(list(node)))  # reading order
            elif isinstance(node, pikepdf.Dictionary):
                if node.get("/S") == "/Figure" and node.get("/Pg") is not None and node.Pg.objgen == page.objgen:
                    alts.append(str(node.get("/Alt", "")))
                if "/K" in node:
                    stack.append(node.K)
    return alts


@pytest.mark.slow
def test_the_zine_and_booklet_covers_show_the_dungeons_outline_and_the_pack_cover_and_index_each_delves(zine_a4, booklet, pack):
    name = json.loads(zine_a4[0][f"dungeon-{SEED}.json"])["name"]
    for data in (zine_a4[0][f"dungeon-{SEED}-zine-reading.pdf"], booklet[0][f"dungeon-{SEED}-a5.pdf"]):
        assert any(alt.startswith(f"Outline of {name}") for alt in _figure_alts(data, 0)), _figure_alts(data, 0)
        cover = reader(data).pages[0].extract_text()
        assert "Read a room" in cover and not re.search(r"^\d+$", cover, re.M)  # no room number printed on the cover
    # the pack's cover (was its emblem alone) and its index page: one outline per delve, in the index's order (the alt
    # text itself: test_views_dungeon)
    names = [d["name"] for d in json.loads(pack[0]["pack-66.json"])["dungeons"]]
    for page in (0, 1):
        outlines = [alt for alt in _figure_alts(pack[0]["pack-66.pdf"], page) if alt.startswith("Outline of ")]
        assert len(outlines) == len(names) == 6  # build all's pack of six
        assert all(alt.startswith(f"Outline of {n}: its 8 rooms") for n, alt in zip(names, outlines)), (names, outlines)


def test_signatures_are_for_a_booklet_or_a_pack_not_a_zine():
    status, _, err = run_cli("dungeon", "--seed", "5", "--signatures", "2")
    assert status == 2 and err.strip().splitlines() == [
        "dungeonpress dungeon: error: --signatures sews a booklet or a pack: use --layout booklet or --count N"]


@pytest.mark.slow
def test_a_sewn_booklet_is_named_so_and_marks_each_signature(content):
    made, _ = make(content, seed=SEED, layout="booklet", signatures=2)
    assert f"dungeon-{SEED}-sewn-booklet.pdf" in made and f"dungeon-{SEED}-booklet.pdf" not in made
    pages = len(reader(made[f"dungeon-{SEED}-a5.pdf"]).pages)
    sheet = made[f"dungeon-{SEED}-sewn-booklet.pdf"]
    assert len(reader(sheet).pages) == pages // 2
    blocks = re.findall(rb"q 0 g [-\d.]+ [-\d.]+ [-\d.]+ [-\d.]+ re f Q", b"".join(
        page.get_contents().get_data() for page in reader(sheet).pages))
    assert len(blocks) == len(impose.signature_sizes(pages, 2))


# ---------------------------------------------------------------- the fold-and-cut note (issue 27: seed 13, Letter,
# dyslexia-friendly, came out at nine pages)

NOTE = "Cut only along the red line"


def sections(html: str) -> dict:
    """The zine's page sections by id: id → its HTML up to the next section."""
    parts = re.split(r'<section class="page[^"]*" id="(zine-[a-z]+)"', html)
    return dict(zip(parts[1::2], parts[2::2]))


@pytest.mark.parametrize("fit,page", [("whole", "zine-aids"), ("packed", "zine-aids"), ("crowded", "zine-aids"),
                                      ("lifted", "zine-oracle"), ("trimmed", "zine-oracle"), ("eased", "zine-oracle"),
                                      ("eased-bare", "zine-oracle"), ("joined", "zine-oracle"), ("split", "zine-oracle")])
def test_the_fold_note_is_printed_once_on_the_page_its_fit_gives_it(content, fit, page):
    """The last resort (split) leaves out the oracle's pre-rolled answers: the note takes two of those lines, not the
    aids page's foot, which a long wandering table in wide letters ran onto a ninth page."""
    ctx = build.context_for(content, seed=13)
    dungeon = product.roll_dungeon(ctx, 13, product.DEFAULT_ROOMS)
    html = product.zine_html(ctx, dungeon, 13, product.DEFAULT_ROOMS, "letter", fit)
    found = {name: body.count("only along the red line") for name, body in sections(html).items()}
    assert found[page] == 1
    assert sum(found.values()) == 1


@pytest.mark.slow  # lays whole zines out
@pytest.mark.parametrize("seed,paper,theme", [(13, "letter", "dyslexia-friendly"), (13, "a4", "dyslexia-friendly"),
                                              (22, "a4", "dyslexia-friendly"), (31337, "letter", "large-print")])
def test_a_long_key_in_wide_letters_stays_eight_pages(content, seed, paper, theme):
    """Seed 13 on Letter in dyslexia-friendly came out at nine pages (an error); the longest keys in the wide themes."""
    ctx = build.context_for(content, seed=seed, theme=theme)
    rooms = product.DEFAULT_ROOMS
    pages = pypdf.PdfReader(io.BytesIO(product.zine_pages(ctx, product.roll_dungeon(ctx, seed, rooms), seed, rooms,
                                                          paper))).pages
    assert len(pages) == 8
    text = [" ".join(page.extract_text().split()) for page in pages]
    assert sum(page.count(NOTE) for page in text) == 1
    assert sum(page.count("Exits") for page in text[2:5]) == rooms


@pytest.mark.slow  # lays whole zines out
@pytest.mark.parametrize("theme,paper", [("standard", "a4"), ("dyslexia-friendly", "letter"), ("large-print", "letter")])
def test_a_key_whose_last_entry_would_turn_the_page_moves_the_doors_rule_to_the_oracle_page(content, monkeypatch,
                                                                                             theme, paper):
    """Seed 13's room 8 lost its treasure line to the next page (the turning fit; split in dyslexia-friendly, its
    foe's stats overleaf): with the doors rule on the oracle page (the eased fits) every entry stands whole."""
    fits = laid_out_fits(monkeypatch)
    ctx = build.context_for(content, seed=13, theme=theme)
    rooms = product.DEFAULT_ROOMS
    pages = reader(product.zine_pages(ctx, product.roll_dungeon(ctx, 13, rooms), 13, rooms, paper)).pages
    text = [" ".join(page.extract_text().split()) for page in pages]
    assert len(text) == 8 and fits[-1] in ("eased", "eased-snug", "eased-bare")
    assert text[2].startswith("Room Key") and all(re.match(r"\d+ [A-Z]", page) for page in text[3:5])
    assert sum(page.count("Exits") for page in text[2:5]) == rooms and "Navigation and Light" in text[4]
    assert "Doors, Puzzles and the End" in text[6] and "Doors, Puzzles" not in " ".join(text[2:6])
    assert NOTE in text[6] and sum(page.count(NOTE) for page in text) == 1


@pytest.mark.slow  # lays whole zines out
@pytest.mark.parametrize("seed,paper", [(23, "letter"), (34, "a4")])
def test_the_longest_keys_in_the_widest_letters_run_their_exits_on_and_keep_every_entry_whole(content, monkeypatch,
                                                                                               seed, paper):
    """Dyslexia-friendly seed 23 on Letter turned two entries' pages even eased (the turning fit), seed 34 split one
    (two lines and eight over): their exits run on after what is seen in each room (the joined fits), a line saved in
    most entries, and every entry stands whole on its page."""
    fits = laid_out_fits(monkeypatch)
    ctx = build.context_for(content, seed=seed, theme="dyslexia-friendly")
    rooms = product.DEFAULT_ROOMS
    pdf = product.zine_pages(ctx, product.roll_dungeon(ctx, seed, rooms), seed, rooms, paper)
    text = [" ".join(page.extract_text().split()) for page in reader(pdf).pages]
    assert len(text) == 8 and fits[-1] in product.JOINED
    # each key page opens on an entry (or, past the key, on its rules: seed 23's key now takes two pages)
    assert text[2].startswith("Room Key") and all(re.match(r"\d+ [A-Z]|Navigation and Light", page) for page in text[3:5])
    assert sum(page.count("Exits") for page in text[2:5]) == rooms and "Navigation and Light" in " ".join(text[3:5])
    assert "Doors, Puzzles and the End" in text[6]
    # run on: an entry's exits follow its last words on their line, never opening one; an exit never parts at its arrow
    lines = [line.strip() for line in page_lines(pdf, range(2, 5))]
    assert sum(line.startswith("Exits") for line in lines) < rooms / 2
    assert not any(re.search(r"\b[NESW]$", line) for line in lines)


def page_lines(pdf: bytes, pages) -> list:
    """The text lines of `pages` (0-based) as pdfium reads them."""
    import pypdfium2
    document = pypdfium2.PdfDocument(pdf)
    try:
        return [line for n in pages for line in document[n].get_textpage().get_text_range().splitlines()]
    finally:
        document.close()


# The crowded zine (the longest keys) keeps its pre-rolled oracle answers: compact, three rows, on the oracle page
# with the rule its key pages have no room for, every key entry whole on one page. Seeds ranked by key length
# over 1-400 and laid out: all of these take the crowded fit (on main its answers were left out).
CROWDED_KEYS = [(22, "a4"), (82, "a4"), (334, "a4"), (195, "letter"), (349, "letter"), (31337, "letter")]


def laid_out_fits(monkeypatch) -> list:
    """The fit of every whole zine laid out from here on (probes left out), in order."""
    fits, real = [], product.zine_html

    def spy(*args, **kwargs):
        if not kwargs.get("probe"):
            fits.append(args[5] if len(args) > 5 else kwargs.get("fit", "whole"))
        return real(*args, **kwargs)
    monkeypatch.setattr(product, "zine_html", spy)
    return fits


@pytest.mark.slow  # renders three zines' HTML with their maps
def test_a_crowded_zine_prints_compact_answers_and_a_bare_one_none(content):
    ctx = build.context_for(content, seed=22)
    dungeon = product.roll_dungeon(ctx, 22, 8)
    crowded = product.zine_html(ctx, dungeon, 22, 8, "a4", "crowded")
    oracle = crowded.split('id="zine-oracle"')[1].split("</table>")[0]
    assert 'class="oracle compact"' in oracle and oracle.count('<span class="box">') == product.CROWDED_ORACLE_ROWS == 3
    assert 'class="dice"' not in oracle  # the dice are left out, so each answer keeps to one line
    assert "z-rule-doors-puzzles-and-the-end" in crowded.split('id="zine-oracle"')[1]
    bare = product.zine_html(ctx, dungeon, 22, 8, "a4", "bare")
    assert 'class="oracle' not in bare.split('id="zine-oracle"')[1] and "Twists" in bare.split('id="zine-oracle"')[1]
    whole = product.zine_html(ctx, dungeon, 22, 8, "a4", "whole")
    assert whole.split('id="zine-oracle"')[1].count('<span class="box">') >= 6 and "compact" not in whole


@pytest.mark.slow  # lays whole zines out
@pytest.mark.parametrize("seed,paper", CROWDED_KEYS)
def test_the_longest_keys_keep_their_oracle_answers_and_every_entry_whole(content, monkeypatch, seed, paper):
    fits = laid_out_fits(monkeypatch)
    ctx = build.context_for(content, seed=seed)
    pages = reader(product.zine_pages(ctx, product.roll_dungeon(ctx, seed, 8), seed, 8, paper))
    assert len(pages.pages) == 8 and fits[-1] == "crowded"  # not "turning" or "split": no entry turns the page
    oracle = pages.pages[6].extract_text()
    assert re.search(r"Plain\s+Advantage\s+Disadvantage", oracle)
    answers = re.findall(r"(?:Yes|No)(?:, (?:and|but)…)?", oracle.split("Disadvantage", 1)[1].split("Twists")[0])
    assert len(answers) == 3 * product.CROWDED_ORACLE_ROWS
    assert "Doors, Puzzles and the End" in oracle and "Twists" in oracle


@pytest.mark.slow  # lays whole zines out
@pytest.mark.parametrize("snug,fits,rows", [(2, ["crowded", "snug"], 2), (30, ["crowded", "snug", "bare"], 0)])
def test_compact_answers_that_do_not_fit_leave_the_page_to_its_rules(content, monkeypatch, snug, fits, rows):
    """Where the answers would push the oracle page's rules over (here: thirty rows), the same fit is laid out with
    fewer ("snug"), then without them ("bare"), before any fit that lets an entry turn the page."""
    monkeypatch.setattr(product, "CROWDED_ORACLE_ROWS", 30)
    monkeypatch.setattr(product, "SNUG_ORACLE_ROWS", snug)
    laid_out = laid_out_fits(monkeypatch)
    ctx = build.context_for(content, seed=22)
    pages = reader(product.zine_pages(ctx, product.roll_dungeon(ctx, 22, 8), 22, 8, "a4"))
    assert laid_out == fits and len(pages.pages) == 8
    oracle = pages.pages[6].extract_text()
    assert bool(re.search(r"Plain\s+Advantage", oracle)) == bool(rows)
    assert len(re.findall(r"(?:Yes|No)(?:, (?:and|but)…)?", oracle.split("Twists")[0])) == 3 * rows
    assert "Doors, Puzzles and the End" in oracle and "Twists" in oracle


@pytest.mark.slow  # lays whole zines out
def test_the_dyslexia_themes_wider_letters_keep_two_rows_of_answers(content, monkeypatch):
    """Three compact rows run seed 22's oracle page over in Atkinson's wider letters (A4): two are printed."""
    laid_out = laid_out_fits(monkeypatch)
    ctx = build.context_for(content, seed=22, theme="dyslexia-friendly")
    pages = reader(product.zine_pages(ctx, product.roll_dungeon(ctx, 22, 8), 22, 8, "a4"))
    assert laid_out == ["crowded", "snug"] and len(pages.pages) == 8
    oracle = pages.pages[6].extract_text()
    assert len(re.findall(r"(?:Yes|No)(?:, (?:and|but)…)?", oracle.split("Twists")[0])) == 3 * product.SNUG_ORACLE_ROWS


@pytest.mark.slow  # lays out three zines in the dyslexia-friendly theme
@pytest.mark.parametrize("seed, rooms", [(123456789, None), (484514568, 5), (999999999999999999, 7)])
def test_a_long_seed_keeps_the_dyslexia_friendly_letter_zines_back_page_whole(tmp_path, seed, rooms):
    # Its back page had no line to spare: a seed of five digits or more wrapped the seed box and the zine
    # failed ("its back page runs over"). A longer command is printed without its label; a fresh nine-digit seed
    # with --rooms (and the longest seed the CLI takes) breaks before an option, onto a line the back page now has.
    extra = ("--rooms", rooms) if rooms else ()
    status, _, err = run_cli("dungeon", "--seed", seed, *extra, "--paper", "letter", "--theme", "dyslexia-friendly",
                             "--out", tmp_path, "--no-preflight", "--quiet")
    assert status == 0, err
    reading = pypdf.PdfReader(tmp_path / f"dungeon-{seed}-zine-reading-us-dyslexia-friendly.pdf")
    assert len(reading.pages) == 8
    back = reading.pages[7].extract_text()
    command = dungeon_views.regenerate_command(seed, rooms or dungeon_views.DEFAULT_ROOMS)
    printed = back[back.index("dungeonpress dungeon"):back.index("Loner and")].strip()
    assert re.sub(r"\n(?=--)", " ", printed) == command and "Roll it again" not in back  # broken before an option only


@pytest.mark.slow  # lays out two zines
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_long_low_dungeons_outline_stays_inside_the_cover_frame(tmp_path, paper):
    # Seed 1234567's five rooms run in a line: drawn 60 mm wide, the outline crossed the frame's right border (by
    # 4.1 mm on Letter, to 4.1 mm from the sheet's edge on the imposed sheet).
    from dungeonpress.preflight.reading import open_pdf
    status, _, err = run_cli("dungeon", "--seed", "1234567", "--rooms", "5", "--paper", paper, "--out", tmp_path,
                             "--no-preflight", "--quiet")
    assert status == 0, err
    doc = open_pdf(next(tmp_path.glob("dungeon-1234567-zine-reading*.pdf")))
    try:
        boxes = [r for r in doc.pages[0].rects if r["x1"] - r["x0"] > 100]  # the frame's rules and the outline's box
        frame = min(boxes, key=lambda r: r["x0"])
        outline = max(boxes, key=lambda r: r["top"])
        assert outline["top"] > frame["top"] + 50  # the outline, below the title
        assert frame["x0"] < outline["x0"] and outline["x1"] < frame["x1"]
        assert abs((outline["x0"] - frame["x0"]) - (frame["x1"] - outline["x1"])) < 0.5  # centred, as it fits
    finally:
        doc.close()


def test_a_batch_item_names_only_the_options_given():
    # a batch's labels (progress lines, manifest) read '--map-style clean --show-rolls --vtt' when neither switch was on
    opts = parse(product.DungeonOptions, {"batch": 2, "format": "json", "rooms": 7})
    assert product.batch_items(opts, 40) == [({"format": "json", "rooms": 7}, 40), ({"format": "json", "rooms": 7}, 41)]
    opts = parse(product.DungeonOptions, {"batch": 1, "show_rolls": True, "map_style": "sketch"})
    assert product.batch_items(opts, 5) == [({"show_rolls": True, "map_style": "sketch"}, 5)]


@pytest.mark.slow
@pytest.mark.builds("dyslexia-friendly/dungeon/3")
def test_a_packs_rules_ending_in_a_foes_log_are_followed_by_its_record_not_a_notes_page():
    # dyslexia-friendly: How to Play ran onto p4 and ended in ruled notes (a log of the foes fought now), and the page
    # that puts the first delve's map on a left-hand page was another page of them (p5, 'Delve Notes'); it is the
    # pack's record of its delves now
    pack, _ = SHARED.result("dyslexia-friendly/dungeon/3")
    texts = [page.extract_text() for page in pypdf.PdfReader(io.BytesIO(pack["pack-66.pdf"])).pages]
    record = [i for i, text in enumerate(texts) if "Delves Played" in text]
    assert len(record) == 1 and "Foes Fought" in texts[record[0] - 1] and "Delve Notes" not in texts[record[0]]
    titles = re.findall(r"^\d (.+)$", texts[1], flags=re.M)  # the index: each delve's roll and name
    flat = " ".join(texts[record[0]].split())
    assert len(titles) == 6 and all(" ".join(t.split()[:2]) in flat for t in titles), titles


@pytest.mark.slow
@pytest.mark.builds("large-print/dungeon/2")
def test_a_padded_booklets_first_spare_page_is_its_room_log():
    # large print's booklet of seed 1234 ran to 13 pages and was padded with three Delve Notes pages after How to
    # Play's own ruled notes (its log of the foes fought now); the first of them is the delve's room log now, a row
    # for each room
    booklet, _ = SHARED.result("large-print/dungeon/2")
    texts = [page.extract_text() for page in pypdf.PdfReader(io.BytesIO(booklet["dungeon-1234-a5.pdf"])).pages]
    log = [i for i, text in enumerate(texts) if "Room Log" in text]
    assert len(log) == 1 and "Foes Fought" in texts[log[0] - 1]
    assert re.findall(r"^(\d+)$", texts[log[0]], flags=re.M)[:9] == [str(n) for n in range(1, 9)] + [str(log[0] + 1)]  # and the folio
    # the second is squares to map on (issue 27: two pages of bare lines were padding), the third the delve's threads
    assert "Your Map" in texts[log[0] + 1] and "Threads" in texts[log[0] + 2]
    assert sum("Delve Notes" in text for text in texts) == 0


@pytest.mark.slow  # lays a booklet out twice, then three times
def test_a_booklets_key_notes_are_read_off_its_first_layout_and_make_the_same_booklet(content, monkeypatch):
    """The ruled lines under key pages are read off the first layout as the keys will fall with their turns, and laid
    out with the turns: two layouts, not three (the third was a third of a pack's CPU), and the same booklet."""
    from dungeonpress.paginate import pages
    counted, real = [], product.layout
    monkeypatch.setattr(product, "layout", lambda ctx, html, **kw: counted.append(html) or real(ctx, html, **kw))
    opts = parse(product.DungeonOptions, {"layout": "booklet"})
    two = {o.name: o.data for o in product.build_dungeon(build.context_for(content, seed=SEED), opts)}
    assert len(counted) == 2 and "key-notes" in counted[-1] and 'class="room turn"' in counted[-1]
    counted.clear()
    monkeypatch.setattr(pages, "lines_under_turned_pages", lambda *args, **kwargs: None)  # only a layout can tell
    three = {o.name: o.data for o in product.build_dungeon(build.context_for(content, seed=SEED), opts)}
    assert len(counted) == 3 and three == two


@pytest.mark.slow  # lays a pack out
def test_large_print_keys_turn_their_pages_where_the_even_turns_say(content, monkeypatch):
    """Large print lets a key's last three rooms fill their page, and that rule outweighed a turn: pack seed 5's first
    delve kept rooms 1-3 | 4-6 | 7-8 (p9 42% full) where the turns said 1-3 | 4-5 | 6-8. (A notes block before a
    room hid it: the room was then not among the last three. Here no key page gets notes.)"""
    monkeypatch.setattr(booklet_fit, "MIN_KEY_NOTE_LINES", 1000)
    ctx = build.context_for(content, seed=5, theme="large-print")
    made = {o.name: o.data for o in product.build_dungeon(ctx, parse(product.DungeonOptions, {"count": 3}))}
    pdf_reader = reader(made["pack-5.pdf"])
    where = {name: pdf_reader.get_destination_page_number(dest) for name, dest in pdf_reader.named_destinations.items()}
    pages_of = [where[f"d1-room-{n}"] for n in range(1, 9)]
    assert pages_of[3:5] == [pages_of[0] + 1] * 2 and pages_of[5:] == [pages_of[0] + 2] * 3


# ---------------------------------------------------------------- one layout held at a time in a long booklet (issue
# 24: a pack of 36 delves, 220 pages, peaked at 938 MB holding its first layout while laying out the next)

def test_a_layout_let_go_is_made_again_from_its_html_when_it_is_kept_after_all():
    made = []

    def lay_out(html):
        made.append(html)
        return types.SimpleNamespace(page_count=len(html))
    kept = product.KeptLayout(lay_out, "abc", lay_out("abc"), let_go=True)
    kept.let_go()
    assert not kept.replace_if_fits("abcd", 3)  # four pages where three were asked: the one before is kept
    assert kept.get().page_count == 3 and made == ["abc", "abcd", "abc"]  # ...made again from its HTML
    assert kept.replace_if_fits("xyz", 3) and kept.html == "xyz" and kept.get() is kept.get() and made[-1] == "xyz"
    short = product.KeptLayout(lay_out, "ab", lay_out("ab"), let_go=False)
    short.let_go()
    short.get()
    assert made.count("ab") == 1  # a short book holds its layout: laying it out again would cost more


@pytest.mark.slow  # lays a pack out
def test_a_pack_is_laid_out_part_by_part_holding_one_part_at_a_time(content, monkeypatch):
    # A pack laid out as one document held every page's boxes until it was written (36 delves: 616 MB). Laid out delve
    # by delve (products.pack_parts), no document is longer than its longest part but the page numbers' furniture (empty
    # pages), and a part's layout is let go before the next part's: one more is alive only while a delve is refitted.
    import gc
    import weakref
    from dungeonpress import pdf
    laid, held, lengths = [], [], []
    real = pdf.layout_html

    def tracked(html, **kwargs):
        gc.collect()
        held.append(sum(ref() is not None for ref in laid))
        rendered = real(html, **kwargs)
        laid.append(weakref.ref(rendered))
        if "furniture-page" not in html:
            lengths.append(rendered.page_count)
        return rendered
    imposing = impose.impose_bound

    def imposed(*args, **kwargs):  # the pages are written by then: none is held while the sheets are made
        gc.collect()
        held.append(sum(ref() is not None for ref in laid))
        return imposing(*args, **kwargs)
    monkeypatch.setattr(pdf, "layout_html", tracked)
    monkeypatch.setattr(impose, "impose_bound", imposed)
    ctx = build.context_for(content, seed=66)
    made = {o.name: o.data for o in product.build_dungeon(ctx, parse(product.DungeonOptions, {"count": 4, "rooms": 3}))}
    pages = impose.page_count(made["pack-66.pdf"])
    assert len(lengths) >= 4 + 3 and max(lengths) * 4 <= pages  # the front, four delves, the back, fillers: 20 pages
    assert max(held) <= 1 and held[-1] == 0


# ---------------------------------------------------------------- a pack's index of seven to nine delves (issue 27:
# `--count 8` left "Pick Your Delve" alone at the foot of page 2, its table on page 3)

def pack_findings(content, tmp_path, count: int, theme: str = "standard", seed: int = SEED, **options) -> tuple:
    """(the pack's reading PDF, what the preflight finds in it)."""
    from dungeonpress import preflight
    from tests.conftest import shared_reader
    ctx = build.context_for(content, seed=seed, theme=theme)
    made = {o.name: o.data for o in product.build_dungeon(ctx, parse(product.DungeonOptions, {"count": count, **options}))}
    path = tmp_path / f"pack-{count}.pdf"
    path.write_bytes(made[f"pack-{seed}.pdf"])
    return made[f"pack-{seed}.pdf"], [str(f) for f in preflight.check_file(path, reader=shared_reader())]


@pytest.mark.slow  # lays a pack out
def test_a_pack_of_ten_shows_every_outline_on_its_cover_and_how_to_play_follows_its_index(content, tmp_path):
    # In rows of three the outlines of ten delves or more ran off the cover (36: twelve rows, fifteen shown, ink 2 mm
    # from the edge in large print), and the index's closing lines stood alone on page 3 (3% full) before How to Play.
    # Ten small delves (their maps drawn large print their scale, "30 ft", large: not a heading).
    made, findings = pack_findings(content, tmp_path, 10, seed=66, rooms=3)
    assert findings == []
    pages = reader(made).pages
    assert "10 pre-rolled delves" in pages[0].extract_text() and "Pick Your Delve" in pages[1].extract_text()
    assert "How to Play" in pages[2].extract_text()  # on the page the index runs onto


def test_a_packs_cover_grid_of_outlines_is_never_taller_than_three_rows_of_nine_delves():
    """zine.css sets each cover grid (products.dungeon.COVER_COLUMNS) in cells no taller in all than the nine-delve
    cover's three rows, which fits in every theme and paper; rows of three ran 36 delves off the cover."""
    import math
    css = (build.TEMPLATES_DIR / "css" / "zine.css").read_text()

    def mm(selector: str, prop: str, default: float | None = None) -> float:
        found = re.search(re.escape(selector) + r" \{[^}]*?\b" + prop + r": ([\d.]+)mm", css)
        return float(found.group(1)) if found else default
    base = ".dbook .cover .cover-outlines"
    three_rows = 3 * mm(f"{base}.compact .cover-outline", "height") + 2 * mm(base, "gap")
    width = mm(base, "width")
    for count in (10, 16, 17, 25, 26, product.MAX_PACK):
        columns = next(c for most, c in product.COVER_COLUMNS if count <= most)
        cell = f"{base}.cols-{columns}"
        gap, height, cell_width = mm(cell, "gap"), mm(f"{cell} .cover-outline", "height"), mm(f"{cell} .cover-outline", "width")
        rows = math.ceil(count / columns)
        assert rows * height + (rows - 1) * gap <= three_rows, count
        assert columns * cell_width + (columns - 1) * gap < width, count  # a row holds its cells (104 mm exactly wrapped)


@pytest.mark.slow  # lays a pack out
def test_a_large_print_record_of_seven_delves_stays_under_its_title_on_half_letter(content, tmp_path):
    # At 14 pt its names took a third of the measure, three or four lines each, and the table went overleaf whole:
    # "Delves Played" alone on a page 11% full (seed 66, Letter).
    made, findings = pack_findings(content, tmp_path, 7, theme="large-print", seed=66, paper="letter")
    assert findings == []
    played = [page.extract_text() for page in reader(made).pages if "Tick each delve you play" in page.extract_text()]
    assert len(played) == 1 and "Nameless" in played[0] and "Vesper" in played[0]  # its first and last delves


@pytest.mark.slow  # lays packs out
@pytest.mark.parametrize("count", [7, 8, 9])
def test_a_pack_of_seven_to_nine_delves_keeps_its_index_on_one_page(content, tmp_path, count):
    """The index of a pack too large for the roomy rows is set compact: heading, table and notes on page 2."""
    made, findings = pack_findings(content, tmp_path, count)
    assert findings == []
    page = reader(made).pages[1].extract_text()
    assert "Pick Your Delve" in page and "How to Play, which follows" in page
    assert all(view in page for view in ("seed", str(count)))


@pytest.mark.slow  # lays a pack out
def test_the_roomy_index_strands_its_heading_in_a_pack_of_eight(content, tmp_path, monkeypatch):
    """The planted fault: the roomy rows for eight delves give the preflight's stranded-heading error back."""
    monkeypatch.setattr(product, "ROOMY_INDEX", 36)
    assert any("stranded_headings: heading 'Pick Your Delve'" in f for f in pack_findings(content, tmp_path, 8)[1])


@pytest.mark.slow  # lays a pack out
def test_a_large_print_pack_of_eight_breaks_its_index_under_a_repeated_header(content, tmp_path):
    """Large print's index rows do not fit page 2 even compact: the table breaks after its heading and first rows,
    and the delves' record fits its page (its rows were 16 mm)."""
    made, findings = pack_findings(content, tmp_path, 8, theme="large-print")
    assert findings == []
    pages = [page.extract_text() for page in reader(made).pages[1:3]]
    assert "Pick Your Delve" in pages[0] and " 1 " in pages[0].replace("\n", " ")
    assert pages[1].lstrip().startswith("1d8")  # the header again, over the rows that turned the page


# ---------------------------------------------------------------- no bare filler page between a pack's delves (issue
# 27: the dyslexia-friendly pack of seed 66 had "Delve Notes" pages of bare lines at p11, p23 and p29)

def pages_between_delves(made: dict) -> list:
    """The headings of the pack's pages from its first delve's map to its last delve's oracle, and of the page after."""
    texts = [page.extract_text() for page in reader(made[f"pack-{PACK_SEED}.pdf"]).pages]
    heads = [text.strip().splitlines()[0] if text.strip() else "" for text in texts]
    first = next(i for i, text in enumerate(texts) if "seed " in text and "Room Key" not in text and i > 2)
    last = max(i for i, head in enumerate(heads) if head.startswith("Pre-rolled Oracle"))
    return heads[first:last + 2]


def dyslexia_friendly_pack(content, count: int) -> dict:
    """A dyslexia-friendly pack of seed 66 laid out here (a planted fault patches the product first)."""
    ctx = build.context_for(content, seed=PACK_SEED, theme="dyslexia-friendly")
    return {o.name: o.data for o in product.build_dungeon(ctx, parse(product.DungeonOptions, {"count": count}))}


@pytest.mark.builds("dyslexia-friendly/dungeon/3")  # `build all`'s pack, seed 66, in that theme
def test_the_page_that_puts_a_delves_map_on_the_left_is_the_delve_befores_room_log():
    heads = pages_between_delves(SHARED.result("dyslexia-friendly/dungeon/3")[0])
    assert not [head for head in heads if "Delve Notes" in head]
    logs = [head for head in heads if head.startswith("Room Log")]
    assert logs and all(re.fullmatch(r"Room Log · Delve \d", head) for head in logs)


@pytest.mark.slow  # lays a pack out
def test_bare_notes_pages_between_delves_are_found(content, monkeypatch):
    """The planted fault: with no delve short enough for a log, the bare filler pages come back and are seen: a pack of two
    shows them as the pack of six does, in 8 s of layout instead of 20."""
    monkeypatch.setattr(product, "MAX_LOG_ROOMS", 0)
    assert [head for head in pages_between_delves(dyslexia_friendly_pack(content, 2)) if "Delve Notes" in head]


# ---------------------------------------------------------------- the large-print booklet's spare pages (issue 27:
# about three and a half pages of it were ruled lines to reach a multiple of four)

def large_print_booklet(content) -> dict:
    """The large-print booklet of seed 1234 laid out here (a planted fault patches the product first)."""
    ctx = build.context_for(content, seed=SEED, theme="large-print")
    return {o.name: o.data for o in product.build_dungeon(ctx, parse(product.DungeonOptions, {"layout": "booklet"}))}


def spare_page_heads(made: dict) -> list:
    texts = [page.extract_text().strip() for page in reader(made[f"dungeon-{SEED}-a5.pdf"]).pages]
    return [text.splitlines()[0] for text in texts[:-1]
            if text.startswith(("Room Log", "Your Map", "Delve Notes", "Threads", "Foes Fought"))]


@pytest.mark.builds("large-print/dungeon/2")  # `build all`'s booklet, seed 1234, in that theme
def test_the_large_print_booklets_spare_pages_are_a_room_log_a_map_grid_and_its_threads():
    # the third was a page of bare lines (Delve Notes); How to Play's last page holds the log of the foes fought, so
    # the third spare page holds the people, places and open questions under their labels
    assert spare_page_heads(SHARED.result("large-print/dungeon/2")[0]) == ["Room Log", "Your Map", "Threads"]


@pytest.mark.slow  # lays a booklet out
def test_a_booklet_padded_with_bare_lines_is_seen(content, monkeypatch):
    """The planted fault: the map grid back to ruled lines gives a bare notes page."""
    monkeypatch.setattr(product, "grid_page", lambda page_id, **kw: product.notes_page(page_id, heading="Delve Notes",
                                                                                       cls="bpage notes", tag="h2"))
    assert spare_page_heads(large_print_booklet(content)) == ["Room Log", "Delve Notes", "Threads"]


# ---------------------------------------------------------------- large print's booklet and pack set every word at
# 14 pt (issue 27: How to Play's Harm & Luck and Complications tables, the condition and facts under each map's title
# and the cover's facts and warning kept the booklet's 8.6 to 10 pt in the large-print theme)

LARGE_PRINT_MIN_PT = 13.5  # large print's 14 pt, less rounding


def small_words(data: bytes, tmp_path, name: str) -> list:
    """(page, size, word) for each word of three letters or more set under large print's size: the map's own labels
    (room numbers, the scale's "30ft", the compass "N") are drawn, not read, and have no such word."""
    from dungeonpress.preflight.reading import open_pdf
    path = tmp_path / name
    path.write_bytes(data)
    return [(page.number, round(word["size"], 1), word["text"]) for page in open_pdf(path).pages
            for seg in page.segments for word in seg.words
            if sum(c.isalpha() for c in word["text"]) >= 3 and word["size"] < LARGE_PRINT_MIN_PT]


@pytest.mark.builds("large-print/dungeon/2", "large-print/dungeon/3")
def test_large_prints_booklet_and_pack_set_no_word_under_fourteen_points(tmp_path):
    booklet, _ = SHARED.result("large-print/dungeon/2")
    pack, _ = SHARED.result("large-print/dungeon/3")
    assert small_words(booklet[f"dungeon-{SEED}-a5.pdf"], tmp_path, "booklet.pdf") == []
    assert small_words(pack[f"pack-{PACK_SEED}.pdf"], tmp_path, "pack.pdf") == []


@pytest.mark.slow  # lays a booklet out
def test_the_booklet_sets_its_rule_tables_small_where_large_print_is_not_asked_for(content, tmp_path):
    """The check above can fail: the standard booklet's Complications table is set at 8.6 pt."""
    made, _ = make(content, seed=SEED, layout="booklet")
    assert ("Complications" in {word for _, _, word in small_words(made[f"dungeon-{SEED}-a5.pdf"], tmp_path, "b.pdf")})


@pytest.mark.slow  # lays a pack out
def test_a_large_print_packs_tall_maps_keep_their_legends_on_their_page(content, tmp_path):
    """Pack seed 7's delves 3, 5 and 6 are tall maps with four-line legends: with the condition at 14 pt the legend
    ran onto a page of its own (preflight: fill warnings) until the large-print map box was drawn shorter."""
    from dungeonpress import preflight
    from tests.conftest import shared_reader
    ctx = build.context_for(content, seed=7, theme="large-print")
    made = {o.name: o.data for o in product.build_dungeon(ctx, parse(product.DungeonOptions, {"count": PACK_COUNT}))}
    path = tmp_path / "pack-7.pdf"
    path.write_bytes(made["pack-7.pdf"])
    assert [str(f) for f in preflight.check_file(path, reader=shared_reader())] == []


# ---------------------------------------------------------------- a room key's pages end in notes lines, not white
# (issue 27: the A5 booklet of seed 1234 shared its eight rooms over two pages, each about half white)

@pytest.mark.builds("standard/dungeon/2")
def test_the_booklets_two_key_pages_each_end_in_lines_for_notes_on_its_rooms():
    import pypdfium2 as pdfium
    booklet, _ = SHARED.result("standard/dungeon/2")
    document = pdfium.PdfDocument(booklet[f"dungeon-{SEED}-a5.pdf"])
    assert len(document) == 8
    for index in (2, 3):  # the key's pages
        text = document[index].get_textpage().get_text_range()
        assert "Notes" in text and ("Room Key" in text) == (index == 2), (index, text[-200:])
        picture = document[index].render(scale=1, grayscale=True).to_pil().convert("L")
        width, height = picture.size
        inked = [y for y in range(int(height * 0.9)) if any(picture.getpixel((x, y)) < 240 for x in range(0, width, 2))]
        assert inked[-1] > height * 0.8, (index, inked[-1] / height)  # ruled down to the page's foot


@pytest.mark.builds("large-print/dungeon/3")
def test_large_prints_pack_lays_a_key_on_the_pages_its_rooms_fill():
    """Keeping a key's last four rooms together (zine.css) is more than a page at 14 pt: delve 1 of pack seed 66 took
    four pages about half white each (rooms 1-3, room 4 alone, rooms 5-7, room 8); in large print it takes three."""
    pack, _ = SHARED.result("large-print/dungeon/3")
    texts = [page.extract_text() for page in reader(pack[f"pack-{PACK_SEED}.pdf"]).pages]
    key = next(i for i, text in enumerate(texts) if text.lstrip().startswith("Room Key"))
    wandering = next(i for i, text in enumerate(texts) if i > key and text.lstrip().startswith("Wandering Encounters"))
    assert wandering - key == 3, [text.split("\n", 1)[0] for text in texts[key:wandering]]


# ---------------------------------------------------------------- the rest of How to Play's page logs the foes fought
# (issue 27: the dyslexia-friendly booklet ruled notes on p3, p8 and p11)

@pytest.mark.slow  # lays five zines out
def test_large_print_zines_pass_the_preflight(content, tmp_path):
    """Seed 9 on A4 failed with a one-row table fragment at p3's foot: room 4's entry was whole there, but its last two
    lines, in the panel's foot 12 mm, were read as a folio and its first line as a table row alone."""
    from dungeonpress import preflight
    from tests.conftest import shared_reader
    ctx = build.context_for(content, theme="large-print")
    rooms = product.DEFAULT_ROOMS
    for seed in range(7, 12):
        data = product.zine_pages(ctx, product.roll_dungeon(ctx, seed, rooms), seed, rooms, "a4")
        path = tmp_path / f"dungeon-{seed}-zine-reading-large-print.pdf"
        path.write_bytes(data)
        assert [str(f) for f in preflight.check_file(path, reader=shared_reader())] == [], seed
        pages = [" ".join(page.extract_text().split()) for page in pypdf.PdfReader(io.BytesIO(data)).pages]
        assert len(pages) == 8 and sum(text.count("Exits") for text in pages) == rooms, seed


# ---------------------------------------------------------------- a map whose legend runs onto a page of its own (a
# dyslexia-friendly Letter pack of seven, seed 662102820: the fourth delve's two-line title and condition pushed its
# tall map's three-line legend onto p25, 5% of the page)

TALL_MAP_SEED = 991155686  # the pack's fourth delve: a tall map


@pytest.mark.slow  # lays booklets out
@pytest.mark.parametrize("height", [165.0, 180.0])
def test_a_booklet_map_too_tall_for_its_page_is_drawn_shorter_and_its_legend_stays_under_it(content, monkeypatch,
                                                                                            tmp_path, height):
    """A5 map boxes 23 and 38 mm too tall: the tall map's legend went overleaf (165 mm), or the map too (180 mm), and
    the page after the map held them alone. The map is drawn again to fit, its legend under it, the key overleaf."""
    from dungeonpress import preflight
    from tests.conftest import shared_reader
    monkeypatch.setitem(product.MAP_BOX, "a5", (122.0, height))
    made, _ = make(content, seed=TALL_MAP_SEED, layout="booklet")
    data = made[f"dungeon-{TALL_MAP_SEED}-a5.pdf"]
    pages = [" ".join(page.extract_text().split()) for page in reader(data).pages]
    map_page = next(n for n, text in enumerate(pages) if f"seed {TALL_MAP_SEED} · dungeonpress" in text)  # not the cover
    assert "entrance" in pages[map_page] and pages[map_page + 1].startswith("Room Key"), pages[map_page + 1][:80]
    path = tmp_path / f"dungeon-{TALL_MAP_SEED}-a5.pdf"
    path.write_bytes(data)
    assert [str(f) for f in preflight.check_file(path, reader=shared_reader())] == []


@pytest.mark.slow  # lays a pack out
def test_a_sketch_style_packs_outlines_on_its_cover_and_in_its_index_name_their_hatching_apart(content):
    # (each sketch-style pack warned "Anchor defined twice: 'hatch-…-outline'" once for each delve)
    ctx = build.context_for(content, seed=4242)
    made = product.build_dungeon(ctx, parse(product.DungeonOptions, {"count": 2, "rooms": 3, "map_style": "sketch"}))
    assert any(o.name == "pack-4242-sketch.pdf" for o in made)
    assert [w for w in ctx.warnings if "defined twice" in w] == []
