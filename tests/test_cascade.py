"""dungeonpress.cascade: WeasyPrint's cascade without the merges and pseudo-element styles nothing reads, the same bytes."""

from contextlib import contextmanager

import pytest
import weasyprint.css

from dungeonpress import build, cascade, pdf, resources
from dungeonpress.products import dungeon
from dungeonpress.products.options import parse

TEMPLATES_DIR = resources.data_dir("templates")

# What the cascade is asked for in the products and more: styles shared between elements and not (style attributes),
# !important and layers, ::before and ::after with content and with the themes' rules for every element, markers of
# list items, footnote calls and markers, ::first-letter and ::first-line, target-counter in a contents line, a link,
# and an anchor set on a pseudo-element (computed at once, as WeasyPrint does, so its link still finds it).
EVERYTHING = """<!doctype html><html lang="en"><head><style>
@page { size: A6; margin: 12mm; @bottom-center { content: counter(page) } }
@layer base, top;
@layer base { p { color: #333; } }
@layer top { p.lead { color: #900; } }
body { font-family: serif; font-size: 9pt; }
body *::before, body *::after { font-style: normal !important; }
h2::before { content: "§ "; color: #a00; }
h2.marked::before { anchor: "two-mark"; }
.toc a::after { content: leader(". ") target-counter(attr(href), page); }
li::marker { color: #060; }
.note { float: footnote; }
p.lead::first-letter { font-size: 2em; }
p.lead::first-line { font-variant: small-caps; }
em { color: blue !important; }
</style></head><body>
<ul class="toc"><li><a href="#one">One</a></li><li><a href="#two">Two</a></li><li><a href="#far">Far</a></li></ul>
<h2 id="one">One</h2>
<p class="lead">A lead paragraph with <em>emphasis</em> and a note<span class="note">The note's own words.</span>.</p>
<p>Plain words, <em>more</em>, and <a href="#two">a link on</a>.</p>
<p style="color: #050">A paragraph with a style attribute of its own.</p>
<ol><li>first</li><li>second<ul><li>inner</li></ul></li></ol>
<h2 id="two" class="marked" data-name="two-mark">Two</h2>
{paragraphs}
<h2 id="far">Far</h2><p><a href="#two-mark">Back to the mark</a></p>
</body></html>""".replace("{paragraphs}", "".join(f"<p>Paragraph {n}, long enough to run on a little.</p>" for n in range(60)))


@contextmanager
def weasyprints_own_cascade():
    """WeasyPrint's StyleFor as it ships, for the length of the block."""
    style_for = weasyprint.css.StyleFor
    kept = style_for.__init__, style_for.__call__
    style_for.__init__, style_for.__call__ = style_for.weasyprints_own
    try:
        yield
    finally:
        style_for.__init__, style_for.__call__ = kept


def laid_out(html: str) -> bytes:
    return pdf.write_pdf(pdf.layout_html(html, base_url=TEMPLATES_DIR, roots=[TEMPLATES_DIR]))


def test_the_cascade_is_installed_once_for_the_weasyprint_it_follows():
    assert weasyprint.css.StyleFor.cascade_kept_lazy
    assert cascade.install(weasyprint.__version__, weasyprint.css) is False  # once, when dungeonpress.pdf is imported


def test_another_weasyprint_keeps_its_own_cascade(monkeypatch):
    monkeypatch.setattr(weasyprint.css.StyleFor, "cascade_kept_lazy", False)
    init = weasyprint.css.StyleFor.__init__
    assert cascade.install("71.0", weasyprint.css) is False and weasyprint.css.StyleFor.__init__ is init


def test_a_page_of_everything_the_cascade_does_is_weasyprints_own_bytes(monkeypatch):
    at_once = []
    computed = weasyprint.css.StyleFor.set_computed_styles

    def recording(self, element, parent, root=None, pseudo_type=None, **kwargs):
        at_once.append(pseudo_type)
        return computed(self, element, parent, root, pseudo_type, **kwargs)
    monkeypatch.setattr(weasyprint.css.StyleFor, "set_computed_styles", recording)
    ours = laid_out(EVERYTHING)
    assert at_once.count("before") == 1  # only h2.marked's ::before, whose rules set an anchor, was computed at once
    with weasyprints_own_cascade():
        own = laid_out(EVERYTHING)
    assert ours == own


def test_pseudo_element_styles_are_made_only_for_the_boxes_that_ask(monkeypatch):
    made, cascades = [], []
    original = cascade._made

    def counting(self, element, pseudo_type):
        if (element, pseudo_type) in self.pseudo_pending:
            made.append(pseudo_type)
        cascades.append(self)
        return original(self, element, pseudo_type)
    monkeypatch.setattr(cascade, "_made", counting)
    laid_out(EVERYTHING)
    assert {"marker", "before", "footnote-call", "footnote-marker", "first-letter", "first-line"} <= set(made)
    never = [kind for kind in (kind for style_for in set(cascades) for _, kind in style_for.pseudo_pending)]
    assert never.count("note-call") > 80 and "footnote-call" in never  # every element has the rule; one is a note
    assert len(made) < len(never)


@pytest.mark.slow  # lays a zine out twice
@pytest.mark.parametrize("theme", ["high-contrast", "dyslexia-friendly"])  # their rules give every element ::before
def test_a_zine_is_the_same_bytes_with_weasyprints_own_cascade(content, theme):
    def zine():
        ctx = build.context_for(content, seed=42, theme=theme)
        return {o.name: o.data for o in dungeon.build_dungeon(ctx, parse(dungeon.DungeonOptions, {"layout": "zine"}))}
    ours = zine()
    with weasyprints_own_cascade():
        own = zine()
    assert ours.keys() == own.keys() and all(ours[name] == own[name] for name in ours)
