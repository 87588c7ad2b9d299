"""views.fonts: each theme's font families as the credits print them, and the credits read back naming every
family a PDF embeds."""

from __future__ import annotations

import io
import re

import pikepdf
import pypdf
import pytest

from dungeonpress import build
from dungeonpress.products import dungeon as product
from dungeonpress.products.common import THEMES
from dungeonpress.products.options import parse
from dungeonpress.views.fonts import MAKERS, fonts_view, theme_families
from tests.conftest import SHARED


def test_only_the_dyslexia_friendly_theme_changes_the_letters():
    assert fonts_view("dyslexia-friendly")["listed"] == "Atkinson Hyperlegible, Vollkorn"
    for theme in set(THEMES) - {"dyslexia-friendly"}:
        assert fonts_view(theme)["listed"] == "Vollkorn, Cinzel", theme


def test_the_credits_page_names_each_familys_makers():
    view = fonts_view("dyslexia-friendly")
    assert view["phrase"] == "Atkinson Hyperlegible and Vollkorn"
    assert view["makers"].startswith("Atkinson Hyperlegible by the Braille Institute of America; Vollkorn by ")
    assert (view["all"], fonts_view("standard")["all"]) == ("Both", "Both")
    assert all(family in MAKERS for theme in THEMES for family in theme_families(theme))


def embedded_families(data: bytes) -> set:
    """The shipped families a PDF embeds, by their printed names (an alias such as Theme Marks under its family)."""
    names = set()
    with pikepdf.open(io.BytesIO(data)) as pdf:
        for obj in pdf.objects:
            if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == "/Font" and "/BaseFont" in obj:
                names.add(str(obj.BaseFont).split("+")[-1])
    families = set()
    for name in names:
        if "Atkinson" in name or "Theme-Marks" in name:
            families.add("Atkinson Hyperlegible")
        elif "Vollkorn" in name or "Paperogue-Marks" in name:
            families.add("Vollkorn")
        elif "Cinzel" in name:
            families.add("Cinzel")
        else:
            families.add(name)
    return families


def back_page_text(data: bytes) -> str:
    page = pypdf.PdfReader(io.BytesIO(data)).pages[-1]
    return re.sub(r"\s+", " ", page.extract_text())


# Seed 1234 fills the dyslexia-friendly Letter back page to its last line, and 2024 and 8888 have wide figures in
# the seed box; the long seeds print their seed box
# without its label; 5 and 42 roll long keys.
@pytest.mark.slow
@pytest.mark.parametrize("seed", [pytest.param(1234, marks=pytest.mark.builds("dyslexia-friendly/dungeon/1")),
                                  2024, 8888, 5, 42, 123456789, 4000000007])
def test_the_dyslexia_friendly_letter_zine_credits_name_its_fonts_and_keep_eight_pages(content, seed):
    if seed == 1234:  # `build all`'s own Letter zine in that theme, made once a run
        outputs = SHARED.result("dyslexia-friendly/dungeon/1")[0]
    else:
        ctx = build.context_for(content, seed=seed)
        ctx.theme = "dyslexia-friendly"
        outputs = {o.name: o.data for o in product.build_dungeon(ctx, parse(product.DungeonOptions, {"paper": "letter"}))}
    reading = next(data for name, data in outputs.items() if "zine-reading" in name)
    assert len(pypdf.PdfReader(io.BytesIO(reading)).pages) == 8
    credits = back_page_text(reading)
    assert "OFL fonts: Atkinson Hyperlegible, Vollkorn." in credits, credits
    assert embedded_families(reading) == {"Atkinson Hyperlegible", "Vollkorn"}  # the map's words in the theme's letters


@pytest.mark.builds("dyslexia-friendly/dungeon/2")  # `build all`'s booklet of seed 1234 in that theme
def test_the_dyslexia_friendly_booklet_credits_name_every_family_it_embeds():
    outputs = SHARED.result("dyslexia-friendly/dungeon/2")[0]
    booklet = next(data for name, data in sorted(outputs.items()) if name.endswith("-a5.pdf"))
    text = " ".join(re.sub(r"\s+", " ", page.extract_text()) for page in pypdf.PdfReader(io.BytesIO(booklet)).pages)
    named = re.search(r"Fonts: ([^(]*) \(SIL OFL\)", text)
    assert named and named.group(1) == "Atkinson Hyperlegible, Vollkorn", named
    assert embedded_families(booklet) == set(named.group(1).split(", "))  # every family credited is printed, and back
