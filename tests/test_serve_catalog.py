"""serve.catalog: the products' commands → every seeded command and its options, as the command line has them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from dungeonpress.products import index
from dungeonpress.serve.catalog import LEFT_OUT, seeded_products


def test_every_seeded_command_is_offered_in_help_order():
    catalog = seeded_products()
    typed = [name for _module, name, _help in index()]
    assert list(catalog) == [name for name in typed if name in catalog]
    assert set(catalog) == {"dungeon", "character", "paperogue", "dunginoes", "delve", "foes"}


def test_options_keep_their_flags_ranges_and_choices_but_not_batch_or_format():
    dungeon = seeded_products()["dungeon"]
    rooms = dungeon.choice("rooms")
    assert (rooms.flag, rooms.low, rooms.high, rooms.choices, rooms.switch) == ("--rooms", 3, 30, None, False)
    assert dungeon.choice("paper").choices == ("a4", "letter")
    assert dungeon.choice("show_rolls").switch and dungeon.choice("show_rolls").flag == "--show-rolls"
    assert all(dungeon.choice(name) is None for name in LEFT_OUT)
    assert seeded_products()["delve"].choice("no_map").flag == "--no-map"


def test_reading_the_catalog_loads_no_weasyprint():
    code = ("import sys; from dungeonpress.serve.catalog import seeded_products; seeded_products(); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'weasyprint' or m == 'dungeonpress.pdf'))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parents[1])
    assert run.stdout.strip() == "[]"
