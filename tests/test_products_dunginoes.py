"""Dunginoes: the fight rule, the game engine, both map procedures, the SVG and the PDFs."""

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


# --- the fight rule ---------------------------------------------------------------------------

@pytest.mark.parametrize("tile, wins", [
    ((1, 1), {1}),  # a double-one falls only to a 1
    ((3, 5), {3, 4, 5}),
    ((5, 3), {3, 4, 5}),  # either way round
    ((1, 6), {1, 2, 3, 4, 5, 6}),  # always
    ((0, 6), {1, 2, 3, 4, 5, 6}),  # a blank counts as 1
    ((0, 0), {1}),
    ((0, 2), {1, 2}),
    ((6, 6), {6}),
])
def test_fight_wins_between_the_ends(tile, wins):
    assert {roll for roll in range(1, 7) if g.fight_wins(tile, roll)} == wins
    assert g.win_chance(tile) * 6 == len(wins)


def test_the_set_is_a_double_six_set():
    assert len(g.DOUBLE_SIX_SET) == len(set(g.DOUBLE_SIX_SET)) == 28
    assert sum(g.is_double(t) for t in g.DOUBLE_SIX_SET) == 7
    assert g.pips((0, 6)) == 6  # a blank scores nothing; it only fights as a 1


def test_ends_after_a_double_opens_three():
    assert sorted(g.ends_after([4, 2], (4, 4), 4)) == [2, 4, 4, 4]
    assert sorted(g.ends_after([4, 2], (2, 5), 2)) == [4, 5]


# --- the game ---------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_games_end_with_sane_scores(players):
    rng = random.Random(f"games-{players}")
    for _ in range(150):
        result = g.play_game(rng, players)
        assert len(result.scores) == players
        for score, stunned in zip(result.scores, result.stunned):
            assert 0 <= score <= 23  # at most two dominoes, 6-6 and 5-6
            assert not (stunned and score)
        assert 1 <= result.rooms <= 28
        assert result.escaped == tuple(not s and x > 14 for x, s in zip(result.scores, result.stunned))


def test_simulation_is_seeded():
    first = g.simulate.__wrapped__("test", 200, 50)
    again = g.simulate.__wrapped__("test", 200, 50)
    assert first == again
    assert 0 <= first.solo_escape <= 1
    assert [p for p, _ in first.average_score] == [1, 2, 3, 4]


# --- maps -------------------------------------------------------------------------------------

def _check_tree(dungeon: g.DominoMap):
    """No overlaps; rooms touch only their parent or children; parents come first (no loops)."""
    owner = {}
    for tile in dungeon.tiles:
        for cell in tile.cells():
            assert cell not in owner, f"room {tile.room} overlaps room {owner.get(cell)}"
            owner[cell] = tile.room
    parent = {t.room: t.parent for t in dungeon.tiles}
    for tile in dungeon.tiles:
        assert tile.parent < tile.room
        assert (tile.parent == 0) == (tile.room == 1)
        for x, y in tile.cells():
            for cell in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                other = owner.get(cell)
                if other and other != tile.room:
                    assert parent[other] == tile.room or parent[tile.room] == other, \
                        f"rooms {tile.room} and {other} touch but are not joined"


def _ends_of(dungeon: g.DominoMap, room: int) -> int:
    return (sum(1 for e in dungeon.open_ends if e.room == room)
            + sum(1 for t in dungeon.tiles if t.via and t.via.room == room)
            + sum(1 for e in dungeon.blocked if e.room == room))


@pytest.fixture(scope="module")
def before_maps():
    return [g.generate_map(random.Random(seed), 16, "before") for seed in SEEDS]


@pytest.fixture(scope="module")
def fly_maps():
    return [g.generate_map(random.Random(seed), 16, "fly") for seed in SEEDS]


def test_before_maps_follow_the_procedure(before_maps):
    reached = 0
    for dungeon in before_maps:
        _check_tree(dungeon)
        tiles = {t.room: t for t in dungeon.tiles}
        used = [t.via for t in dungeon.tiles if t.via]
        assert len(used) == len(set(used)), "a free end took two dominoes"
        dominoes = [tuple(sorted(t.domino)) for t in dungeon.tiles]
        assert len(dominoes) == len(set(dominoes)) and set(dominoes) <= set(g.DOUBLE_SIX_SET)
        for tile in dungeon.tiles:
            near, far = tile.domino
            if tile.via:
                assert tile.via.value == near, "numbers must match"
                assert any(e == tile.via for e in _all_ends(dungeon, tiles[tile.parent]))
            expected = 3 if g.is_double(tile.domino) else (2 if tile.room == 1 else 1)
            assert _ends_of(dungeon, tile.room) == expected
            assert tile.crosswise == g.is_double(tile.domino)
        reached += len(dungeon.tiles) == 16
    assert reached > len(before_maps) * 0.7


def _all_ends(dungeon, tile):
    return [e for e in dungeon.open_ends if e.room == tile.room] + \
           [t.via for t in dungeon.tiles if t.via and t.via.room == tile.room]


def test_before_maps_mark_a_special_room_when_stuck():
    specials = [t.special for seed in SEEDS for t in g.generate_map(random.Random(seed), 20, "before").tiles]
    assert any(specials) and all(isinstance(s, str) for s in specials)


def test_fly_maps_follow_the_procedure(fly_maps):
    for dungeon in fly_maps:
        _check_tree(dungeon)
        assert len(dungeon.tiles) == 16
        assert dungeon.tiles[-1].final and dungeon.tiles[-1].domino in ((6, 6),)
        assert sum(t.final for t in dungeon.tiles) == 1
        for tile in dungeon.tiles:
            assert 1 <= tile.blocked_roll <= 8
            assert _ends_of(dungeon, tile.room) == 5  # every room has five possible exits
            assert (tile.risk, tile.reward) == tile.domino
            assert not (tile.locked and tile.secret)


def test_same_seed_same_map():
    for mode in g.MODES:
        assert g.generate_map(random.Random(9), 12, mode) == g.generate_map(random.Random(9), 12, mode)


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
