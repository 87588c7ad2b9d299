"""Chapters render without calling back: directives resolved to (template, view) first, keep-with-heading on tokens."""

from __future__ import annotations

import re

import pytest

from dungeonpress import render
from dungeonpress.errors import RenderError

CHAPTER = "# Title\n\n## Traps\n\nA short introduction.\n\n[[table traps]]\n\nAfter.\n\n[[bestiary]]\n"


@pytest.fixture
def templates(tmp_path):
    (tmp_path / "keep.html.j2").write_text('<div data-keep>{{ label }}</div>\n')
    (tmp_path / "loose.html.j2").write_text('<div>{{ label }} {{ version }}</div>\n')
    return tmp_path


def test_directives_are_listed_with_the_heading_above_them():
    assert render.chapter_directives(CHAPTER) == [("table", "traps", "Traps"), ("bestiary", None, "Traps")]


def test_blocks_replace_directives_and_a_keep_block_travels_with_its_heading(templates):
    html, headings = render.render_chapter(templates, CHAPTER, "c1",
                                           [("keep.html.j2", {"label": "traps"}), ("loose.html.j2", {"label": "b"})],
                                           version="9")
    assert html == ('<h1 id="c1-title">Title</h1>\n'
                    '<div class="keep"><h2 id="c1-traps">Traps</h2>\n<p>A short introduction.</p>\n'
                    '<div data-keep>traps</div>\n</div>\n'
                    '<p>After.</p>\n<div>b 9</div>\n\n')
    assert [(level, str(text), anchor) for level, text, anchor in headings] == [(1, "Title", "c1-title"),
                                                                                 (2, "Traps", "c1-traps")]


def test_a_long_introduction_does_not_travel(templates):
    chapter = "## Traps\n\n" + "Words. " * 200 + "\n\n[[table traps]]\n"
    html, _ = render.render_chapter(templates, chapter, "c1", [("keep.html.j2", {"label": "t"})])
    assert 'class="keep"' not in html


def test_a_short_worked_example_stays_whole_and_a_long_one_may_break(templates):
    steps = "".join(f"{n}. **Step {n}.** The delver does a thing.\n" for n in range(1, 7))
    chapter = f"## Exploring\n\nRules.\n\n### Example of Exploring\n\nSolis steps in.\n\n{steps}\n## Next\n\nMore.\n"
    html, _ = render.render_chapter(templates, chapter, "c1", [])
    assert html.count('<div class="keep example">') == 1
    inside = html.split('<div class="keep example">')[1].split("</div>")[0]
    assert "Example of Exploring" in inside and "Step 6." in inside and "Next" not in inside and "Rules." not in html.split("keep")[1]
    long_steps = "".join(f"{n}. **Step {n}.** {'The delver does a thing. ' * 20}\n" for n in range(1, 7))
    html, _ = render.render_chapter(templates, chapter.replace(steps, long_steps), "c1", [])
    assert "keep example" not in html
    html, _ = render.render_chapter(templates, chapter.replace("Example of Exploring", "Exploring further"), "c1", [])
    assert "keep example" not in html
    closing = chapter.replace("## Next\n\nMore.\n", "> [!aside] **On one hand.**\n>\n> 1. Roll.\n")
    html, _ = render.render_chapter(templates, closing, "c1", [])
    assert '<div class="keep example">' in html and "On one hand" not in html.split('<div class="keep example">')[1].split("</div>")[0]


def test_a_lead_in_of_three_lines_or_more_at_large_print_is_marked_and_may_part_from_its_table(templates):
    """Large print lets a lead-in this long end a page while its table opens the next (large-print.css: p.long-lead)."""
    lead = ("Each time you push into a new area, make one *Navigation check* to see how well you keep your bearings and "
            "your map, and let your tags give Advantage or Disadvantage.")
    chapter = f"## Navigation\n\n{lead}\n\n[[table navigation]]\n\nAfter.\n\n[[table other]]\n"
    blocks = [("keep.html.j2", {"label": "t"}), ("loose.html.j2", {"label": "u"})]
    html, _ = render.render_chapter(templates, chapter, "c1", blocks, version="9")
    assert '<div class="keep"><h2 id="c1-navigation">Navigation</h2>\n<p class="long-lead">Each time' in html
    assert "<p>After.</p>" in html  # a short lead-in, before the next block, is left as it is
    html, _ = render.render_chapter(templates, chapter.replace(lead, "Roll 1d6 for a complication."), "c1", blocks,
                                    version="9")
    assert "long-lead" not in html  # two lines or fewer under the heading: it stays with its table


@pytest.mark.parametrize("quote", ["> [!aside]\n> **On one hand.**\n>\n> 1. Roll.\n", "> [!aside] **On one hand.**\n>\n> 1. Roll.\n"])
def test_an_aside_is_a_blockquote_of_its_own_kind_and_an_example_stays_plain(templates, quote):
    """`> [!aside]` (on its own line or before the title) marks the quote an aside and is not printed."""
    html, _ = render.render_chapter(templates, f"## Play\n\n> Solis rolls a 5.\n\n{quote}", "c1", [])
    assert html.count("<blockquote>") == 1 and html.count('<blockquote class="aside">') == 1
    aside = html.split('<blockquote class="aside">')[1]
    assert aside.startswith("\n<p><strong>On one hand.</strong></p>") and "[!aside]" not in html
    assert "<li>Roll.</li>" in aside


def test_the_rulebooks_asides_are_marked_and_its_worked_examples_are_not(content, templates):
    """The summaries that end chapters and the designer's note are asides; no quote that tells play is."""
    asides, examples = [], []
    for chapter in content.book.chapters:
        prose = "\n".join(line for line in chapter.text.splitlines() if not render.DIRECTIVE_LINE.match(line.strip()))
        html, _ = render.render_chapter(templates, prose, "c", [])
        asides += re.findall(r'<blockquote class="aside">\n<p><strong>([^<]+)</strong>', html)
        examples += re.findall(r"<blockquote>\n<p>(.{0,40})", html)
    assert asides == ["Designer’s note.", "The game on one hand.", "The scene count on one hand.", "The generator on one hand.",
                      "A creature of your own."]
    assert len(examples) > 10 and not any("on one hand" in text for text in examples)


def test_a_missing_block_is_a_bug_not_a_silent_gap(templates):
    with pytest.raises(RenderError, match="2 directives but 1 blocks"):
        render.render_chapter(templates, CHAPTER, "c1", [("keep.html.j2", {"label": "t"})])


class _Rendered(Exception):
    """Raised once a product has rendered its first HTML: the test reads the HTML, not the PDF."""


@pytest.mark.slow  # renders every product's HTML
def test_no_product_html_carries_a_path_of_the_building_machine(content, monkeypatch):
    """The HTML every product renders (before layout) names no folder of this machine: repo, home, temp."""
    import os
    import tempfile
    from pathlib import Path

    from dungeonpress import build, products

    root = Path(__file__).resolve().parents[1]
    home = os.path.expanduser("~")
    forbidden = {str(root), str(root.resolve()), tempfile.gettempdir(), "file:"} | ({home} if len(home) > 1 else set())
    seen = {}
    real = render.render_template

    def capture(templates_dir, name, **context):
        html = real(templates_dir, name, **context)
        seen.setdefault(current, []).append((name, html))
        if "<html" in html:  # the whole document (chapters and blocks come before it)
            raise _Rendered
        return html

    monkeypatch.setattr(render, "render_template", capture)
    for command in products.commands():
        if command.parent == "export":
            continue
        current = command.name
        ctx = build.context_for(content, seed=7, out_dir=root / "build")
        with pytest.raises(_Rendered):
            command.run(ctx, command.options())
    assert {"rulebook", "tables", "dungeon", "sheet", "character", "paperogue", "delve", "foes", "oracle"} <= set(seen)
    for product, rendered in seen.items():
        assert "<html" in rendered[-1][1], product
        for template, html in rendered:
            assert [path for path in forbidden if path in html] == [], (product, template)
