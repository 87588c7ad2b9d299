"""Paperogue: the levels drawn on the grid, and the kit's PDFs and JSON."""

from __future__ import annotations

import dataclasses
import io
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pypdfium2
import pypdfium2.raw as pdfium_raw
import pytest
from pypdf import PdfReader

from dungeonpress import build
from dungeonpress.dice import sub_rng
from dungeonpress.draw import paperogue_grid as grid
from dungeonpress.errors import ContentErrors
from dungeonpress.generate import paperogue as gen
from dungeonpress.products import paperogue as product
from tests.conftest import SHARED
from tests.conftest import slow_fixture

ROOT = Path(__file__).resolve().parents[1]
SVG = "{http://www.w3.org/2000/svg}"
MM = 72 / 25.4  # PDF points per millimetre


# --- the level drawn on the grid -----------------------------------------------------------------

@pytest.fixture(scope="module")
@slow_fixture
def drawn(content):
    dungeon = gen.generate_paperogue(content, sub_rng(1234, "paperogue"))
    level = dungeon.levels[0]
    cols, rows = 38, 42
    return level, cols, rows, ET.fromstring(grid.sheet_svg(cols, rows, 5.0, "square", level))


def test_svg_is_sized_in_whole_millimetre_cells(drawn):
    level, cols, rows, svg = drawn
    assert svg.get("width") == f"{grid._n(cols * 5 + 2 * grid.PAD)}mm"
    assert svg.get("viewBox").split() == [grid._n(-grid.PAD), grid._n(-grid.PAD),
                                          grid._n(cols * 5 + 2 * grid.PAD), grid._n(rows * 5 + 2 * grid.PAD)]
    xs = sorted(float(line.get("x1")) for line in svg.iter(f"{SVG}line") if line.get("x1") == line.get("x2")
                and line.get("y1") == "0")
    assert xs == [i * 5.0 for i in range(cols + 1)]


def test_rooms_are_two_by_two_quadrants_with_their_marks(drawn):
    level, cols, rows, svg = drawn
    origin = grid.level_origin(level, cols, rows)
    groups = {int(g.get("data-room")): g for g in svg.iter(f"{SVG}g") if g.get("data-room")}
    assert sorted(groups) == [r.number for r in level.rooms]
    for room in level.rooms:
        g = groups[room.number]
        rect = g.find(f"{SVG}rect")
        cx, cy = grid.room_cell(room, origin)
        assert (float(rect.get("x")), float(rect.get("y"))) == (cx * 5.0, cy * 5.0)
        assert float(rect.get("width")) == float(rect.get("height")) == 10.0
        texts = {t.get("class"): (t.text, float(t.get("x")), float(t.get("y"))) for t in g.iter(f"{SVG}text")}
        if room.monster:
            text, x, y = texts["monster"]
            assert text == room.monster and x < cx * 5 + 5 and y < cy * 5 + 5  # top left
        text, x, y = texts["treasure"]
        assert text == room.treasure.initial and x > cx * 5 + 5 and y > cy * 5 + 5  # bottom right
        if room.treasure.mark:
            text, x, y = texts["subtype"]
            assert text == room.treasure.mark and x < cx * 5 + 5 and y > cy * 5 + 5  # bottom left
        text, x, _ = texts["number"]
        assert text == str(room.number) and x > cx * 5 + 5  # top right (beside the stairs in stairs rooms)
        stairs = {p.get("class") for p in g.iter(f"{SVG}path") if p.get("class", "").startswith("stairs-")}
        assert stairs == {f"stairs-{kind}" for kind in room.stairs}


def test_corridors_join_the_middles_of_facing_walls(drawn):
    level, cols, rows, svg = drawn
    origin = grid.level_origin(level, cols, rows)
    lines = [((float(l.get("x1")), float(l.get("y1"))), (float(l.get("x2")), float(l.get("y2"))))
             for l in svg.iter(f"{SVG}line") if l.get("class") == "corridor"]
    pairs = {tuple(sorted((room.number, door.leads_to))) for room in level.rooms for door in room.exits if door.leads_to}
    assert len(lines) == len(pairs)
    middles = {}
    for room in level.rooms:
        cx, cy = grid.room_cell(room, origin)
        for direction, (dx, dy) in gen.STEP.items():
            middles[((cx + 1 + dx) * 5.0, (cy + 1 + dy) * 5.0)] = (room.number, direction)
    for start, end in lines:
        (a, wall_a), (b, wall_b) = middles[start], middles[end]
        assert level.room(a).exit(wall_a).leads_to == b and wall_b == gen.OPPOSITE[wall_a]
        assert start[0] == end[0] or start[1] == end[1]  # straight, along one grid line
    dead = sum(1 for room in level.rooms for door in room.exits if door.leads_to is None)
    assert sum(1 for l in svg.iter(f"{SVG}line") if l.get("class") == "dead-end") == 2 * dead
    assert sum(1 for r in svg.iter(f"{SVG}rect") if r.get("class") == "lock") == \
        len(level.locks)


# --- the kit's outputs ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
@slow_fixture
def kit(content):
    """The kit as `build all` makes it in the standard theme (shared with the theme tests when they run)."""
    def here():
        ctx = build.context_for(content, seed=1234)
        outputs = {o.name: o.data for o in product.build_levels(ctx, product.PaperogueOptions())}
        return outputs, ctx.warnings
    return SHARED.result("standard/paperogue/0", here)


@pytest.mark.slow
def test_kit_outputs_and_no_weasyprint_warnings(kit):
    outputs, warnings = kit
    assert sorted(outputs) == ["paperogue-1234.json", "paperogue-1234.pdf", "paperogue-reference.pdf"]
    assert warnings == []


@pytest.mark.slow
def test_level_pdf_has_one_level_per_page_with_seed_and_number(kit):
    reader = PdfReader(_file(kit[0]["paperogue-1234.pdf"]))
    assert len(reader.pages) == 4  # three levels and the notes page
    for number, page in enumerate(reader.pages[:3], start=1):
        text = page.extract_text()
        assert f"Level {number}" in text and "seed 1234" in text.lower()
        assert (round(float(page.mediabox.width)), round(float(page.mediabox.height))) == (595, 842)
    notes = reader.pages[3].extract_text()
    assert "dungeonpress paperogue --seed 1234" in notes and "Room monster" in notes


def test_level_pdf_grid_cells_are_exactly_five_millimetres(kit):
    xs, ys = _grid_lines(kit[0]["paperogue-1234.pdf"], 0)
    cols, rows = grid.fit_grid("a4", "5mm", grid.LEVEL_RESERVED_MM)
    assert (len(xs), len(ys)) == (cols + 1, rows + 1)
    assert all(abs(step - 5 * MM) < 0.01 for step in _steps(xs) | _steps(ys))


def test_json_matches_the_generator(kit, content):
    data = json.loads(kit[0]["paperogue-1234.json"])
    dungeon = gen.generate_paperogue(content, sub_rng(1234, "paperogue"))
    assert data["seed"] == 1234 and data["rooms_die"] == "d20"
    assert data["levels"] == json.loads(json.dumps(dataclasses.asdict(dungeon)["levels"]))
    assert [r["topic"] for r in data["readings"]] == [t for t, _ in gen.READINGS]


def test_reference_card_is_four_a5_pages_with_tables_and_rules(kit):
    """Four pages fold from one sheet; at the A5 type minimums the rules, spells and tables need them."""
    reader = PdfReader(_file(kit[0]["paperogue-reference.pdf"]))
    assert len(reader.pages) == 4
    assert (round(float(reader.pages[0].mediabox.width)), round(float(reader.pages[0].mediabox.height))) == (420, 595)
    text = " ".join(page.extract_text() for page in reader.pages)
    for needle in ("Combat", "Backtracking", "Resting", "Descending", "Score", "Fireball", "Magic missile",
                   "Drain", "Table 1", "T2 Gold", "T7 Magic Books", "T10 Jewelry Effects", "T12 Scroll Effects",
                   "Vinzit Coro Donia", "Wristwatch", "Breastplate"):
        assert needle in text, needle


@pytest.mark.slow
def test_same_seed_same_bytes(kit, content):
    ctx = build.context_for(content, seed=1234)
    again = {o.name: o.data for o in product.build_levels(ctx, product.PaperogueOptions(format="pdf"))}
    assert again["paperogue-1234.pdf"] == kit[0]["paperogue-1234.pdf"]
    assert again["paperogue-reference.pdf"] == kit[0]["paperogue-reference.pdf"]


@pytest.mark.slow
def test_json_is_the_same_whatever_the_hash_seed(tmp_path):
    script = ("import sys; from dungeonpress import build; from dungeonpress.products import paperogue as p; "
              "ctx = build.context_for(build.load_content(), seed=99); "
              "sys.stdout.buffer.write(p.build_levels(ctx, p.PaperogueOptions(format='json', levels=4, rooms_die='d12'))[0].data)")
    runs = [subprocess.run([sys.executable, "-c", script], capture_output=True, check=True, cwd=ROOT,
                           env={**os.environ, "PYTHONHASHSEED": hash_seed}).stdout for hash_seed in ("1", "2")]
    assert runs[0] == runs[1] and json.loads(runs[0])["levels"][3]["hit_dice"] == "4d10"


def test_letter_levels_and_json_only(content):
    ctx = build.context_for(content, seed=5)
    names = [o.name for o in product.build_levels(ctx, product.PaperogueOptions(format="json", levels=1))]
    assert names == ["paperogue-5.json"]
    assert grid.fit_grid("letter", "5mm", grid.LEVEL_RESERVED_MM)[1] >= 36  # a full 9-place map fits


# --- helpers -------------------------------------------------------------------------------------

def _file(data: bytes) -> io.BytesIO:
    return io.BytesIO(data)


def _grid_lines(data: bytes, page_index: int):
    """x of the vertical grid lines and y of the horizontal ones, from the page's path objects (in pt)."""
    pdf = pypdfium2.PdfDocument(data)
    page = pdf[page_index]
    xs, ys = set(), set()
    for obj in page.get_objects(max_depth=20):
        if obj.type != pdfium_raw.FPDF_PAGEOBJ_PATH:
            continue
        left, bottom, right, top = obj.get_bounds()
        if right - left < 1.2 and top - bottom > 300:  # longer than any box border: a grid line
            xs.add(round((left + right) / 2, 3))
        elif top - bottom < 1.2 and right - left > 300:
            ys.add(round((top + bottom) / 2, 3))
    pdf.close()
    return sorted(xs), sorted(ys)


def _steps(values) -> set:
    return {round(b - a, 3) for a, b in zip(values, values[1:])}


def test_a_user_table_missing_a_column_is_a_content_error(content):
    monsters = content.table(gen.MONSTER_TABLE)
    broken = dataclasses.replace(monsters, columns=(("initial", "Mark"),),
                                 rows=tuple(dataclasses.replace(r, values=r.values[:1]) for r in monsters.rows))
    tables = dict(content.tables, **{gen.MONSTER_TABLE: broken})
    with pytest.raises(ContentErrors, match="needs the column\\(s\\) monster"):
        gen.generate_paperogue(dataclasses.replace(content, tables=tables), sub_rng(1, "x"))


GOLDEN_1234 = """\
1 17 7 C3 S5 P6 V9 PWD VAG CMB PK CG100 SS2 -MM CPW CPU -S1 CAG VPU SK SS10 PAH SJB VAM
2 12 8 S3 T11 L15 D16 SJM TWT SK DJM LMV SAO DAH TS10 SPG DS8 TJN LK
3 14 2 J8 M10 P14 D19 PK DJM DJN MS9 JWD JMB PG5 JJN JJW MJW -PE -AO -JR -AT"""


def test_seed_1234_is_pinned(content):
    """The dungeon `make` prints: rooms, stairs, monster list and each room's marks. A change here changes
    every printed seed, so it must be deliberate (update this text in the same change)."""
    dungeon = gen.generate_paperogue(content, sub_rng(1234, "paperogue"))
    lines = [f"{lv.number} {lv.room_count} {lv.stairs_room} "
             + " ".join(f"{m.initial}{m.roll}" for m in lv.monsters) + " "
             + " ".join(f"{r.monster or '-'}{r.treasure.initial}{r.treasure.mark}" for r in lv.rooms)
             for lv in dungeon.levels]
    assert "\n".join(lines) == GOLDEN_1234


# ---------------------------------------------------------------- the card's second page (issue 27: it was 41% full)

@pytest.mark.slow  # lays the card out
def test_the_spells_page_holds_the_level_steps_and_every_monster(tmp_path):
    from dungeonpress.cli import main
    assert main(["paperogue", "--seed", "1", "--format", "pdf", "--out", str(tmp_path), "--quiet"],
                io.StringIO(), io.StringIO()) == 0
    pages = PdfReader(tmp_path / "paperogue-reference.pdf").pages
    assert len(pages) == 4
    second = " ".join(pages[1].extract_text().split())
    assert "Making a level" in second
    for step in ("Rooms.", "Stairs.", "Exits.", "Monsters.", "Treasure."):
        assert step in second
    for monster in ("Giant rat", "Centipede", "Hobgoblin", "Vampire", "Dragon"):
        assert monster in second
    assert "Based on Paperogue" in second  # the credit still closes the page


@pytest.mark.slow
@pytest.mark.parametrize("theme", ["standard", "large-print", "dyslexia-friendly"])
def test_the_reference_cards_identify_page_runs_to_its_foot(content, tmp_path, theme):
    """Its four tables alone on the last page left the foot a quarter white (they ended at 74% of the page): set
    larger and roomier, they reach past 85%, and the card keeps its four pages."""
    from dungeonpress.preflight.reading import open_pdf
    ctx = build.context_for(content, seed=1234, theme=theme)
    outputs = {o.name: o.data for o in product.build_levels(ctx, product.PaperogueOptions())}
    path = tmp_path / "reference.pdf"
    path.write_bytes(outputs["paperogue-reference.pdf"])
    doc = open_pdf(path)
    try:
        assert len(doc.pages) == 4
        page = doc.pages[-1]
        body = [box[3] for box in page.ink if box[4] == "text" and box[3] < page.height * 0.95]  # not the folio
        assert 0.85 <= max(body) / page.height < 0.95
    finally:
        doc.close()
