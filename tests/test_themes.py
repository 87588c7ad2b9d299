"""Themes: every product builds in every theme, and each theme's promise is read back from the PDFs."""

from __future__ import annotations

import io
import re
import tempfile
from collections import Counter
from pathlib import Path

import pikepdf
import pytest

from dungeonpress import build
from dungeonpress.products import options
from dungeonpress.products.common import THEMES
from tests.conftest import SHARED, shared_reader, theme_jobs

THEMES_DIR = Path(build.TEMPLATES_DIR) / "css" / "themes"
BOOKS = ("dungeoneer-rulebook.pdf", "tables.pdf")  # the books large print re-flows
# outputs of the books large print re-flows; a delve log runs on like one (its rows carry monster stat lines),
# so a re-set log takes the pages it needs, padded with notes pages to fold in fours
REFLOWED = ("dungeoneer-rulebook", "tables", "pack-", "delve-")
RESET = ("large-print", "dyslexia-friendly")  # themes that change the letters, so books take their own pages
SAMPLE_PAGES = 10  # pages of each PDF read back char by char


def luminance(rgb) -> float:
    """WCAG relative luminance of an (r, g, b) colour with components 0..1."""
    def channel(c):
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def hex_rgb(text: str):
    text = text.lstrip("#")
    if len(text) == 3:
        text = "".join(c * 2 for c in text)
    return tuple(int(text[i:i + 2], 16) / 255 for i in (0, 2, 4))


def pdf_rgb(colour):
    """A fill colour as the preflight reader gives it (grey, RGB or CMYK tuple, or None for black) as RGB."""
    if colour is None:
        return (0.0, 0.0, 0.0)
    colour = tuple(colour) if isinstance(colour, (list, tuple)) else (colour,)
    if len(colour) == 1:
        return colour * 3
    if len(colour) == 4:
        c, m, y, k = colour
        return tuple((1 - v) * (1 - k) for v in (c, m, y))
    return tuple(colour[:3])


def test_every_theme_has_its_stylesheet():
    assert THEMES[0] == "standard"
    for theme in THEMES:
        assert (THEMES_DIR / f"{theme}.css").is_file(), theme
        assert (THEMES_DIR / "drawings" / f"{theme}.css").is_file(), theme  # its layer over the drawings' palettes


# The drawings' palettes, copied into each SVG's style element, and the themes' layers laid after them.
PALETTES = ("map.css", "dominoes.css", "paperogue-grid.css", "emblem.css")
DRAWING_ROOTS = (".dungeon-map", ".map-sketch", ".domino-map", ".paperogue-drawing", ".legend-room", ".emblem")


def css_rules(text: str) -> list:
    """(selector, {property: value}) of every rule of a flat stylesheet, comments left out."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return [(selector.strip(), dict((k.strip(), v.strip()) for k, v in (d.split(":", 1) for d in body.split(";")
                                                                          if d.strip())))
            for selector, body in re.findall(r"([^{}]+)\{([^}]*)\}", text)]


def neutral(colour: str) -> bool:
    r, g, b = hex_rgb(colour)
    return r == g == b


def test_drawing_stylesheets_fit_inside_an_svg():
    """No angle brackets (the text sits in an inline SVG), one selector per rule (WeasyPrint's SVG styles take
    no lists), and every rule scoped to a drawing's root class."""
    css_dir = THEMES_DIR.parent
    sheets = [css_dir / name for name in PALETTES] + sorted((THEMES_DIR / "drawings").glob("*.css"))
    for sheet in sheets:
        text = sheet.read_text()
        assert "<" not in text and ">" not in text, sheet.name
        for selector, _ in css_rules(text):
            assert "," not in selector and selector.startswith(DRAWING_ROOTS), (sheet.name, selector)


def test_high_contrast_drawings_keep_no_hue():
    """Every fill or stroke of a drawing's palette (dungeon map, Dunginoes, Paperogue) in a colour is laid over
    in black, white or grey."""
    layer = dict(css_rules((THEMES_DIR / "drawings" / "high-contrast.css").read_text()))
    assert all(neutral(value) for rule in layer.values() for prop, value in rule.items()
               if prop in ("fill", "stroke") and value != "none")
    for name in PALETTES:
        for selector, rule in css_rules((THEMES_DIR.parent / name).read_text()):
            for prop in ("fill", "stroke"):
                if rule.get(prop, "none").startswith("#") and not neutral(rule[prop]):
                    assert prop in layer.get(selector, {}), (name, selector, prop, rule[prop])


def test_ink_saver_drawings_lose_their_tints_and_filled_numbers():
    layer = dict(css_rules((THEMES_DIR / "drawings" / "ink-saver.css").read_text()))
    assert layer[".domino-map .paper"]["fill"] == "#ffffff"
    assert layer[".domino-map .badge"]["fill"] == "#ffffff"  # an outlined disc, its number in the accent
    assert layer[".dungeon-map .rock"]["stroke"] == "none"  # the map's grey band round the rooms


MAP_SEED = 1234


def zine_map_svgs(content, theme: str, style: str) -> list:
    """The zine's map and its legend icons as the zine's HTML carries them, in one theme and map style."""
    from dungeonpress.products import dungeon as product
    ctx = build.context_for(content, seed=MAP_SEED, theme=theme)
    html = product.zine_html(ctx, product.roll_dungeon(ctx, MAP_SEED, 8), MAP_SEED, 8, "a4", map_style=style)
    svgs = re.findall(r'<svg[^>]*class="[^"]*dungeon-map[^"]*"[^>]*>.*?</svg>', html, flags=re.S)
    assert len(svgs) > 5, theme  # the map and its legend's icons
    return svgs


def drawn_colours(svg: str) -> list:
    """(element classes, {fill, stroke: colour}) of every classed element of one SVG, as its own style element
    cascades onto it: rules of the form `.ROOT .CLASS[.CLASS]`, the more classes the stronger, then the later."""
    root = set(re.search(r'<svg[^>]*class="([^"]*)"', svg).group(1).split())
    rules = css_rules(re.search(r"<style>(.*?)</style>", svg, flags=re.S).group(1))
    drawn = []
    for classes in re.findall(r'<(?!svg)\w+ [^>]*class="([^"]*)"', svg):
        classes = set(classes.split())
        matched = []
        for order, (selector, rule) in enumerate(rules):
            scope, target = selector.split()
            if scope.lstrip(".") in root and set(target.lstrip(".").split(".")) <= classes:
                matched.append((target.count("."), order, rule))
        colours = {}
        for _, _, rule in sorted(matched, key=lambda m: m[:2]):
            colours.update({prop: rule[prop] for prop in ("fill", "stroke") if prop in rule})
        drawn.append((classes, colours))
    return drawn


@pytest.mark.parametrize("theme", ["ink-saver", "high-contrast"])
@pytest.mark.parametrize("style", ["clean", "sketch"])
def test_the_zine_map_carries_the_themes_drawing_layer(content, theme, style):
    layer = (THEMES_DIR / "drawings" / f"{theme}.css").read_text()
    for svg in zine_map_svgs(content, theme, style):
        assert layer in svg


def test_a_high_contrast_zine_map_is_drawn_without_hue(content):
    """Every line and fill of the map and its legend in black, white or grey; its letters 7:1 on white paper.
    The standard map, drawn with hues, shows the check can fail."""
    def hues(theme, style):
        return {(tuple(sorted(classes)), value) for svg in zine_map_svgs(content, theme, style)
                for classes, colours in drawn_colours(svg) for value in colours.values()
                if value.startswith("#") and not neutral(value)}
    assert hues("standard", "clean")
    for style in ("clean", "sketch"):
        assert hues("high-contrast", style) == set(), style
        for svg in zine_map_svgs(content, "high-contrast", style):
            for classes, colours in drawn_colours(svg):
                if classes & {"num", "scale-text", "north-text"}:
                    assert contrast(hex_rgb(colours["fill"]), (1, 1, 1)) >= 7, classes


def test_an_ink_saver_zine_map_drops_the_rock_band_and_the_tints(content):
    """No grey band of rock, and no filled shape in a tint: white, or a dark ink for the small marks that carry
    meaning (a barred door, columns, rubble). The standard map, which has both, shows the check can fail."""
    def heavy(theme, style):
        found = set()
        for svg in zine_map_svgs(content, theme, style):
            for classes, colours in drawn_colours(svg):
                if "rock" in classes and colours.get("stroke", "none") != "none":
                    found.add(("rock band", colours["stroke"]))
                fill = colours.get("fill", "none")
                if fill.startswith("#") and fill.lower() != "#ffffff" and luminance(hex_rgb(fill)) > 0.1:
                    found.add((" ".join(sorted(classes)), fill))
        return found
    assert ("rock band", "#d9d4cc") in heavy("standard", "clean") and len(heavy("standard", "clean")) > 2
    for style in ("clean", "sketch"):
        assert heavy("ink-saver", style) == set(), style


def test_contrast_formula_on_known_pairs():
    assert contrast((0, 0, 0), (1, 1, 1)) == pytest.approx(21)
    assert contrast(hex_rgb("#767676"), hex_rgb("#fff")) == pytest.approx(4.54, abs=0.01)


def test_high_contrast_colour_pairs_meet_seven_to_one():
    """Every text colour the theme sets, against the background it sets with it (white paper if none)."""
    css = (THEMES_DIR / "high-contrast.css").read_text()
    rules = re.findall(r"([^{}]+)\{([^{}]*)\}", css)
    pairs = 0
    for _, body in rules:
        text = re.search(r"(?<![-\w])color:\s*(#[0-9a-fA-F]{3,6})", body)
        back = re.search(r"background(?:-color)?:\s*(#[0-9a-fA-F]{3,6})", body)
        if text:
            pairs += 1
            ratio = contrast(hex_rgb(text.group(1)), hex_rgb(back.group(1) if back else "#fff"))
            assert ratio >= 7, f"{body.strip()}: {ratio:.2f}:1"
    for name in ("ink", "accent"):  # the custom properties every product's text is drawn in
        value = re.search(rf"--{name}:\s*(#[0-9a-fA-F]{{3,6}})", css).group(1)
        assert contrast(hex_rgb(value), (1, 1, 1)) >= 7
    assert pairs >= 3


def test_a_high_contrast_pick_badge_keeps_a_range_set_inside_it_white(tmp_path):
    # A pack of three picks its delves with a d6 by twos: "1–2" is set in a span that keeps the range whole, and the
    # theme's black-for-every-element rule made it black on the black badge (contrast 1:1 in every such pack).
    from dungeonpress import pdf
    from dungeonpress.preflight.reading import open_pdf
    css = "".join((build.TEMPLATES_DIR / "css" / name).read_text() for name in ("zine.css", "themes/high-contrast.css"))
    html = (f'<html lang="en"><head><title>t</title><style>{css}</style></head><body class="dbook">'
            '<h1><span class="delve-no"><span class="nobr">1–2</span></span> The Sunken Mines</h1></body></html>')
    (tmp_path / "badge.pdf").write_bytes(pdf.write_pdf(pdf.layout_html(html, base_url=tmp_path, roots=(tmp_path,))))
    doc = open_pdf(tmp_path / "badge.pdf")
    try:
        badge = [c for c in doc.pages[0].chars if c["text"] in "1–2"][:3]
        assert "".join(c["text"] for c in badge) == "1–2"
        assert all(pdf_rgb(c["non_stroking_color"]) == (1, 1, 1) for c in badge), [c["non_stroking_color"] for c in badge]
    finally:
        doc.close()


def build_job(theme: str, name: str, index: int, content=None) -> tuple:
    """One `build all` job of one command in one theme: ({output name: bytes}, WeasyPrint's warnings)."""
    content = content if content is not None else _project_content()
    command = next(c for c in build.commands() if c.name == name and c.parent != "export")
    job = command.build_all[index]
    ctx = build.context_for(content, seed=(job.seed if job.seed is not None else 1) if command.seeded else None, theme=theme)
    outputs = command.run(ctx, options.parse(command.options, job.options))
    return {output.name: output.data for output in outputs}, list(ctx.warnings)


_CONTENT: list = []


def _project_content():
    if not _CONTENT:  # a build worker loads the content once for all its jobs
        _CONTENT.append(build.load_content())
    return _CONTENT[0]


def build_everything(content, theme: str) -> dict:
    """Every PDF `build all` makes, in one theme: {name: bytes}; WeasyPrint warnings fail the build."""
    made = {}
    for name, index in theme_jobs():
        outputs, warnings = build_job(theme, name, index, content)
        assert warnings == [], (theme, name, warnings[:3])
        made.update(outputs)
    return {name: data for name, data in made.items() if name.endswith(".pdf")}


_BUILT: dict = {}


def built_in(content, theme: str) -> dict:
    """Every PDF in one theme, each job made once per session (by the build worker, or here if it has not begun it)."""
    if theme not in _BUILT:
        made = {}
        for name, index in theme_jobs():
            outputs, warnings = SHARED.result(f"{theme}/{name}/{index}",
                                              lambda name=name, index=index: build_job(theme, name, index, content))
            assert warnings == [], (theme, name, warnings[:3])
            made.update(outputs)
        _BUILT[theme] = {name: data for name, data in made.items() if name.endswith(".pdf")}
    return _BUILT[theme]


def chars(data: bytes, pages=SAMPLE_PAGES):
    """(page, its characters) for the first pages of a PDF, read back by the print preflight's reader."""
    from dungeonpress.preflight.reading import open_pdf
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "read.pdf"
        path.write_bytes(data)
        doc = open_pdf(path)
        try:
            for page in doc.pages[:pages]:
                yield page, page.all_chars
        finally:
            doc.close()


@pytest.mark.slow
@pytest.mark.builds("theme:standard", "theme:{theme}")
@pytest.mark.parametrize("theme", THEMES)
def test_every_product_builds_in_every_theme(content, theme):
    made = built_in(content, theme)
    standard = built_in(content, "standard")
    assert set(made) == set(standard)
    for name, data in made.items():
        pages = page_count(data)
        if name in BOOKS:
            assert pages % 4 == 0, (name, pages)
            if theme == "large-print":  # re-flowed: more pages than the standard book
                assert pages > page_count(standard[name]), name
        elif theme in RESET and (name.startswith(REFLOWED) or "booklet" in name or name.endswith("-a5.pdf")):
            continue  # a re-set book's own booklets and the dungeon booklet take the pages they need
        else:  # fixed formats (zine, sheets, cards, paper) keep their page count in every theme
            assert pages == page_count(standard[name]), (theme, name)


def page_count(data: bytes) -> int:
    """A PDF's number of pages (pikepdf reads the page tree alone: pypdf took 3.7 s for the 43 PDFs of one theme,
    pikepdf 0.26 s)."""
    with pikepdf.open(io.BytesIO(data)) as document:
        return len(document.pages)


@pytest.mark.slow
@pytest.mark.builds("theme:{theme}")
@pytest.mark.parametrize("theme", [t for t in THEMES if t != "standard"])  # standard: tests/test_preflight.py
def test_every_product_passes_the_print_preflight_in_every_theme(content, theme, tmp_path):
    from dungeonpress import preflight
    errors = []
    for name, data in sorted(built_in(content, theme).items()):
        if name.endswith(".pdf"):
            (tmp_path / name).write_bytes(data)
            errors += [str(f) for f in preflight.check_file(tmp_path / name, reader=shared_reader())
                       if f.severity == preflight.ERROR]
    assert errors == []


@pytest.mark.slow
@pytest.mark.builds("theme:large-print")
def test_large_print_sets_the_books_at_fourteen_points(content):
    made = built_in(content, "large-print")
    for name in BOOKS:
        sizes = Counter()
        for _, page_chars in chars(made[name], pages=30):
            sizes.update(round(c["size"], 1) for c in page_chars if c["text"].strip())
        total = sum(sizes.values())
        large = sum(n for size, n in sizes.items() if size >= 13.9)
        assert large / total >= 0.95, (name, sizes.most_common(6))


@pytest.mark.slow
@pytest.mark.builds("theme:dyslexia-friendly")
def test_dyslexia_friendly_sets_every_product_in_atkinson_hyperlegible(content):
    for name, data in built_in(content, "dyslexia-friendly").items():
        fonts = Counter()
        for _, page_chars in chars(data, pages=4):
            # "Theme Marks" is the theme's name for Atkinson in drawings (draw/paperogue_grid.py)
            fonts.update(("Atkinson" in c["fontname"] or "Theme-Marks" in c["fontname"])
                         for c in page_chars if c["text"].strip())
        assert fonts[True] / max(1, sum(fonts.values())) >= 0.97, (name, fonts)


@pytest.mark.slow
@pytest.mark.builds("theme:high-contrast")
def test_high_contrast_text_is_seven_to_one_against_what_lies_under_it(content):
    """Every letter of every product, against its nearest background as the print preflight reads it (a frame
    drawn as two nested fills is a border, not a background)."""
    from dungeonpress.preflight.text import low_contrast
    worst = []
    for name, data in built_in(content, "high-contrast").items():
        for page, _ in chars(data, pages=6):
            worst.extend((name, page.number, c["text"], round(ratio, 2)) for c, ratio in low_contrast(page, 7.0))
    assert worst == []


def page_holding(data: bytes, words: str) -> int:
    """The index of the first page whose text holds `words`."""
    import pypdfium2
    pdf = pypdfium2.PdfDocument(data)
    return next(i for i in range(len(pdf)) if words in pdf[i].get_textpage().get_text_range())


def ink(data: bytes, page: int, box: tuple = (0, 0, 1, 1)) -> float:
    """Mean darkness (0 white .. 1 black) of one page rasterised at 30 dpi, or of a box of it (fractions of
    its width and height: left, top, right, bottom)."""
    import pypdfium2
    pdf = pypdfium2.PdfDocument(data)
    image = pdf[page].render(scale=30 / 72, grayscale=True).to_pil()
    width, height = image.size
    image = image.crop((round(box[0] * width), round(box[1] * height), round(box[2] * width), round(box[3] * height)))
    histogram = image.histogram()
    return 1 - sum(level * n for level, n in enumerate(histogram)) / (255 * sum(histogram))


@pytest.mark.slow
@pytest.mark.builds("theme:ink-saver", "theme:standard")
def test_ink_saver_uses_less_ink_than_standard(content):
    saver, standard = built_in(content, "ink-saver"), built_in(content, "standard")
    # The covers, and a rulebook page of tinted creature cards (the first bestiary page): found by its words,
    # since the chapters' page numbers move as the book changes. (The twist counter's page served until its
    # designer's note became an aside, ruled rather than tinted.)
    tinted_page = page_holding(standard["dungeoneer-rulebook.pdf"], "Larder Rat Swarm")
    for name, page in (("dungeoneer-rulebook.pdf", 0), ("tables.pdf", 0), ("dungeoneer-rulebook.pdf", tinted_page)):
        assert ink(saver[name], page) < ink(standard[name], page) * 0.9, (name, page)
    # The zine's map panel (the top right quarter of the sheet, upside down): its grey band of rock and tinted
    # fills go, its walls stay; at seed 1234 that is about 8 % less ink (it was the same before the map took
    # the theme's layer).
    map_panel = (0.75, 0, 1, 0.5)
    name = "dungeon-1234-zine-a4.pdf"
    assert ink(saver[name], 0, map_panel) < ink(standard[name], 0, map_panel) * 0.95
