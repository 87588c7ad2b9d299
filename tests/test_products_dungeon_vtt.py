"""`dungeonpress dungeon --vtt`: the Universal VTT file and the player's map, as a user gets them."""

from __future__ import annotations

import base64
import io
import json
import random

import pytest
from PIL import Image
from pypdf import PdfReader

from dungeonpress.dice import sub_rng
from dungeonpress.draw.dungeon_map import draw_dungeon_map
from dungeonpress.generate.dungeon import generate_dungeon
from tests.conftest import run_cli as run

SEED = 1234


@pytest.fixture(scope="module")
def vtt_build(tmp_path_factory):
    out = tmp_path_factory.mktemp("vtt")
    code, _, err = run("dungeon", "--seed", SEED, "--vtt", "--out", out, "--quiet")
    assert code == 0, err
    return out


@pytest.mark.slow
def test_dd2vtt_holds_the_map_at_the_stated_grid_with_every_door(vtt_build, content):
    doc = json.loads((vtt_build / f"dungeon-{SEED}.dd2vtt").read_text())
    plan = generate_dungeon(content, sub_rng(SEED, "dungeon"), rooms=8).plan
    ppg = doc["resolution"]["pixels_per_grid"]
    assert doc["format"] == 0.3 and ppg == 100
    assert doc["resolution"]["map_size"] == {"x": plan.width, "y": plan.height}
    image = Image.open(io.BytesIO(base64.b64decode(doc["image"])))
    assert image.format == "PNG" and image.size == (plan.width * ppg, plan.height * ppg)
    assert len(doc["portals"]) == sum(len(room.doors) for room in plan.rooms)
    # a door the key states (barred, locked) is a closed portal; an opening or a hole broken through is open
    assert all(p["closed"] == (p["dungeonpress"]["kind"] in ("barred", "locked")) for p in doc["portals"])
    assert len(doc["line_of_sight"]) > len(plan.rooms)
    # each door's leaf is drawn (dark outline) right where its portal is: the drawing and the walls line up
    grey = image.convert("L")
    for portal in (p for p in doc["portals"] if p["closed"]):
        x, y = int(portal["position"]["x"] * ppg), int(portal["position"]["y"] * ppg)
        near = grey.crop((x - 20, y - 20, x + 20, y + 20))
        assert near.getextrema()[0] < 80, portal
    # and well away from any door, a room's middle is light floor
    room = plan.rooms[1]
    assert grey.getpixel((int((room.x + 0.5) * ppg), int((room.y + 0.5) * ppg))) > 200


@pytest.mark.slow
def test_players_map_pdf_and_png_show_no_room_numbers(vtt_build, content):
    pdf = vtt_build / f"dungeon-{SEED}-players-map-a4.pdf"
    reader = PdfReader(pdf)
    assert len(reader.pages) == 1
    text = reader.pages[0].extract_text()
    assert "player’s map" in text and "Seed 1234" in text
    png = Image.open(vtt_build / f"dungeon-{SEED}-players-map.png")
    plan = generate_dungeon(content, sub_rng(SEED, "dungeon"), rooms=8).plan
    assert png.size == (plan.width * 100, plan.height * 100)


@pytest.mark.slow
def test_the_same_seed_gives_the_same_files(vtt_build, tmp_path):
    code, _, err = run("dungeon", "--seed", SEED, "--vtt", "--out", tmp_path, "--quiet")
    assert code == 0, err
    for name in (f"dungeon-{SEED}.dd2vtt", f"dungeon-{SEED}-players-map.png", f"dungeon-{SEED}-players-map-a4.pdf"):
        assert (tmp_path / name).read_bytes() == (vtt_build / name).read_bytes(), name


@pytest.mark.parametrize("seed", range(1, 21))
def test_players_drawing_leaves_out_numbers_and_room_contents_but_keeps_walls(content, seed):
    dungeon = generate_dungeon(content, sub_rng(seed, "dungeon"), rooms=8)
    keyed, players = (draw_dungeon_map(dungeon, width_mm=120, height_mm=140, rng=random.Random(f"{seed}/map"),
                                       players=flag) for flag in (False, True))
    assert players.items == () and players.legend == ()
    assert 'class="num"' in keyed.svg and 'class="num"' not in players.svg
    assert 'class="stairs"' in keyed.svg and 'class="stairs"' not in players.svg
    assert players.floors == keyed.floors and players.doors == keyed.doors  # same walls, passages and doors


def test_vtt_with_a_pack_is_a_usage_error():
    code, _, err = run("dungeon", "--vtt", "--count", "3")
    assert code == 2
    assert err == ("dungeonpress dungeon: error: --vtt exports one dungeon's map: leave out --count and --layout pack "
                   "(or use --batch)\n")
