"""The README tells the truth: the two commands, and every CLI command with an example."""

from __future__ import annotations

from pathlib import Path

import pytest

from dungeonpress import build
from dungeonpress.products.options import flag_of, specs
from dungeonpress.cli import full_name

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()


def test_the_two_commands():
    assert "make        #" in README and "make test   #" in README


def test_every_command_is_documented_with_an_example():
    for command in build.commands():
        name = full_name(command)
        assert f"`dungeonpress {name}" in README, name
        examples = README.split("Examples:")[1].split("```")[1]
        assert any(line.split("dungeonpress ", 1)[-1].startswith(name) for line in examples.splitlines()), name
        for field, _ in specs(command.options):
            assert flag_of(field) in README, f"{name} {flag_of(field)}"


def test_ci_runs_the_readme_test_command():
    ci = (Path(__file__).resolve().parents[1] / ".ci" / "run").read_text()
    assert "make test" in ci


# A README picture is stale when more than this share of its pixels differ by more than a quarter of
# the grey scale from the same pages rendered from today's build (a subsetter's or a renderer's noise
# stays far below it; a moved heading, a new room or another map is well above).
STALE_PIXELS = 0.01


@pytest.mark.slow
@pytest.mark.builds("theme:standard")
def test_readme_pictures_are_made_from_the_current_build(content, tmp_path):
    from PIL import Image, ImageChops
    from scripts.readme_images import PICTURES, picture
    from tests.test_themes import built_in
    for name, data in built_in(content, "standard").items():
        (tmp_path / name).write_bytes(data)
    stale = []
    for name in PICTURES:
        stored = Image.open(ROOT / "docs" / "images" / f"{name}.png")
        fresh = picture(tmp_path, name)
        colours = len(stored.getcolors(1 << 16) or []) or 64
        fresh = fresh.quantize(colours, dither=Image.Dither.NONE).convert("L")
        if fresh.size != stored.size:
            stale.append(f"{name}: {stored.size} now {fresh.size}")
            continue
        differing = sum(ImageChops.difference(fresh, stored.convert("L")).histogram()[64:])
        if differing > STALE_PIXELS * fresh.width * fresh.height:
            stale.append(f"{name}: {differing / (fresh.width * fresh.height):.1%} of its pixels")
    assert not stale, f"remake with `.venv/bin/python scripts/readme_images.py`: {stale}"



def test_serve_picture_is_made_by_its_script():
    """scripts/serve_image.py shoots the page in Chromium from a folder named build/: no path of the machine
    that made it (the last picture showed a temporary build folder); it marks the PNG as its own."""
    from PIL import Image
    assert Image.open(ROOT / "docs" / "images" / "serve.png").info.get("Source") == "scripts/serve_image.py"
