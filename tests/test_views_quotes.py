"""Typographic quotes: straight quotes in cells and templates come out curly, markup untouched, none reach a PDF."""

from __future__ import annotations

import pytest

from dungeonpress.views.quotes import typographic, typographic_html


@pytest.mark.parametrize("text, expected", [
    ("Dungeoneer's Pack", "Dungeoneer’s Pack"),
    ('Ask: "Do I clear it in time?"', "Ask: “Do I clear it in time?”"),
    ("the 'dead' lamp", "the ‘dead’ lamp"),
    ("MV 120' (40')", "MV 120′ (40′)"),
    ('a 3" nail', "a 3″ nail"),
    ('("Yes, but…")', "(“Yes, but…”)"),
    ("no quotes at all", "no quotes at all"),
])
def test_quotes_turn_by_what_comes_before_them(text, expected):
    assert typographic(text) == expected


def test_html_text_turns_but_tags_attributes_and_styles_do_not():
    html = ("<style>svg text { font-family: 'Vollkorn'; }</style>"
            "<td data-label=\"Trap's trigger\" class='x'>You don&#39;t see it: &#34;Run!&#34;</td>"
            "<!-- a comment's quote --><p><em>No</em>'s and \"<strong>Yes</strong>\"</p>")
    assert typographic_html(html) == (
        "<style>svg text { font-family: 'Vollkorn'; }</style>"
        "<td data-label=\"Trap's trigger\" class='x'>You don’t see it: “Run!”</td>"
        "<!-- a comment's quote --><p><em>No</em>’s and “<strong>Yes</strong>”</p>")


def test_a_cell_that_starts_with_a_quote_opens_it():
    assert typographic_html('<td>"Who goes there?"</td><td>\'Tis</td>') == "<td>“Who goes there?”</td><td>‘Tis</td>"


@pytest.mark.slow
@pytest.mark.builds("standard/tables/0", "standard/delve/0")
def test_no_straight_quote_reaches_the_text_of_a_pdf():
    """The tables booklet (cells from YAML) and the delve kit (generated log, templates' words) read back curly
    (the run's shared `build all` jobs: the bytes the CLI writes, tests/test_reliability_faults.py R1)."""
    import pypdfium2 as pdfium

    from tests.conftest import standard_build
    pdfs = {**standard_build("tables")[0], **standard_build("delve")[0]}
    pdfs = {name: data for name, data in sorted(pdfs.items()) if name.endswith(".pdf")}
    assert "tables.pdf" in pdfs and any(name.startswith("delve-") for name in pdfs)
    straight = []
    for name, data in pdfs.items():
        document = pdfium.PdfDocument(data)
        try:
            for number, page in enumerate(document, start=1):
                text = page.get_textpage().get_text_range()
                straight += [f"{name}:p{number}: {text[max(0, i - 20):i + 20]!r}"
                             for i, char in enumerate(text) if char in "'\""]
        finally:
            document.close()
    assert straight == []


def test_ranges_and_rolls_are_kept_on_one_line_outside_drawings():
    html = "<p>On 1–3 roll 2d6+1 or d66; rooms 11-16, not A4 or x2</p><svg viewBox='0 0 9 9'><text>4–6</text></svg>"
    assert typographic_html(html) == (
        '<p>On <span class="nobr">1–3</span> roll <span class="nobr">2d6+1</span> or <span class="nobr">d66</span>; '
        'rooms <span class="nobr">11–16</span>, not A4 or x2</p>'
        "<svg viewBox='0 0 9 9'><text>4–6</text></svg>")


@pytest.mark.parametrize("html, expected", [
    ("<th>1-2</th><th>3 - 4</th>", '<th><span class="nobr">1–2</span></th><th><span class="nobr">3 – 4</span></th>'),
    ("<td>HD 1-1, 2-1</td>", '<td>HD <span class="nobr">1-1</span>, <span class="nobr">2-1</span></td>'),  # hit dice
    ("<td>1d6-1 and 2026-11-29</td>", '<td><span class="nobr">1d6-1</span> and 2026-11-29</td>'),
    ("<td>On No, and... you fall</td>", "<td>On No, and… you fall</td>"),
])
def test_a_range_typed_with_a_hyphen_gets_an_en_dash_and_three_stops_an_ellipsis(html, expected):
    assert typographic_html(html) == expected


@pytest.mark.slow
@pytest.mark.builds("standard/tables/0", "standard/delve/0")
def test_ranges_ellipses_citations_and_stat_labels_read_back_as_set():
    """Read as the tables booklet and the solo procedure print them: no range typed with a hyphen ("3-6"), no three
    full stops, no "(Bestiary / 62)" split at a line's end."""
    import re
    import subprocess
    import tempfile
    from pathlib import Path

    from tests.conftest import standard_build
    pdfs = {"tables.pdf": standard_build("tables")[0]["tables.pdf"],
            "solo-procedure.pdf": standard_build("delve")[0]["solo-procedure.pdf"]}
    found = []
    with tempfile.TemporaryDirectory() as folder:
        texts = {}
        for name, data in pdfs.items():
            (Path(folder) / name).write_bytes(data)
            texts[name] = subprocess.run(["pdftotext", str(Path(folder) / name), "-"], capture_output=True, text=True,
                                         check=True).stdout
    assert texts["tables.pdf"].count("(Bestiary") > 20
    assert "No, and…" in texts["tables.pdf"] and "2–12" in texts["solo-procedure.pdf"]
    for name, text in texts.items():
        found += [f"{name}: {m[0]!r}" for m in re.finditer(r"(?<![\w–-])(\d+)-(\d+)(?![\w–-])", text)
                  if int(m[1]) < int(m[2])]
        found += [f"{name}: {m[0]!r}" for m in re.finditer(r"\S*\.\.\.\S*", text)]
        found += [f"{name}: {m[0]!r}" for m in re.finditer(r"\(Bestiary\n", text)]
    assert found == []


@pytest.mark.slow
@pytest.mark.builds("standard/rulebook/0")
def test_a_word_is_split_with_three_letters_at_least_on_each_side():
    """base.css's hyphenate-limit-chars: "do-/ing." and "be-/low." left a fragment alone on a paragraph's last line.
    Every word the rulebook hyphenates at a line's end keeps three letters at least before and after the hyphen."""
    import re
    import subprocess
    import tempfile
    from pathlib import Path

    from tests.conftest import standard_build
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "rulebook.pdf"
        path.write_bytes(standard_build("rulebook")[0]["dungeoneer-rulebook.pdf"])
        lines = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True).stdout
    lines = lines.split("\n")
    splits = [(re.search(r"(\w*)\u2010$", line)[1], re.match(r"\w*", after)[0])
              for line, after in zip(lines, lines[1:]) if line.endswith("\u2010")]  # pdftotext's mark of a split
    assert len(splits) > 30
    assert [split for split in splits if min(len(split[0]), len(split[1])) < 3] == []


def test_an_appendix_keeps_its_letter():
    assert typographic_html("<td>treasure from Appendix D (Appendix A12); Appendices A–F</td>") == (
        '<td>treasure from <span class="nobr">Appendix D</span> (<span class="nobr">Appendix A12</span>); '
        '<span class="nobr">Appendices A–F</span></td>')


@pytest.mark.parametrize("html, expected", [
    ('<p>ask "Does it give?" (Advantage)</p>', '<p>ask <span class="nobr">“Does it give?”</span> (Advantage)</p>'),
    ("<td>Sheer drop of 30 ft</td>", '<td>Sheer drop of <span class="nobr">30 ft</span></td>'),
    ("<td>1 in 6 a turn</td>", '<td><span class="nobr">1 in 6</span> a turn</td>'),
    ('<p>Ask: "Do I clear it in time?" then</p>', "<p>Ask: “Do I clear it in time?” then</p>"),  # five words may wrap
    ('<td>"Who goes there?"</td>', "<td>“Who goes there?”</td>"),  # a cell of its own: nothing to split it from
])
def test_odds_measures_and_short_quoted_questions_stay_on_one_line(html, expected):
    assert typographic_html(html) == expected


@pytest.mark.builds("standard/character/0", "dyslexia-friendly/delve/0")
def test_a_quoted_question_and_a_measure_read_back_on_one_line(tmp_path):
    """The characters' rules page split ask "Does it / give?"; the dyslexia-friendly solo procedure set "Sheer drop
    of 30 / ft" in Appendix C. Read from `build all`'s characters (seed 1234) and dyslexia-friendly delve kit (seed
    1234), which the run makes once."""
    import re
    import subprocess

    from tests.conftest import SHARED
    (tmp_path / "characters-1234.pdf").write_bytes(SHARED.result("standard/character/0")[0]["characters-1234.pdf"])
    (tmp_path / "solo-procedure-dyslexia-friendly.pdf").write_bytes(
        SHARED.result("dyslexia-friendly/delve/0")[0]["solo-procedure.pdf"])

    def lines(name):
        return subprocess.run(["pdftotext", "-layout", str(tmp_path / name), "-"], capture_output=True, text=True,
                              check=True).stdout.splitlines()
    assert any("“Does it give?”" in line for line in lines("characters-1234.pdf"))
    procedure = lines("solo-procedure-dyslexia-friendly.pdf")
    assert not any(line.rstrip().endswith("Sheer drop of 30") for line in procedure)
    assert any(re.search(r"(^|\s)30 ft\s*$", line) for line in procedure)
