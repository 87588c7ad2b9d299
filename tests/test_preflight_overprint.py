"""preflight.overprint: text printed over text is found, columns that hold their text and halos are not."""

from __future__ import annotations

from tests.test_preflight import PARA, findings, make_pdf

# The large-print rulebook's Quick Reference (issue 27): two columns side by side, the oracle table in
# the left one set without wrapping and wider than its column, so it printed over the right column's text.
QUICKREF = ("<div style='display: table; table-layout: fixed; width: 100%'>"
            "<div style='display: table-cell; width: 50%; vertical-align: top'>{left}</div>"
            "<div style='display: table-cell; width: 50%; vertical-align: top; padding-left: 2mm'><p style='font-size: 14pt; margin: 0'>{right}</p></div></div>")
ORACLE = ("<table style='width: auto; white-space: nowrap; font-size: 14pt'><tr><th></th><th>both 1–3</th>"
          "<th>mixed</th><th>both 4–6</th></tr><tr><th>Chance wins</th><td>Yes, but…</td><td>Yes</td>"
          "<td>Yes, and…</td></tr></table>")
STEPS = "Encounter check on entering a room, after a navigation roll, or when light dies in a dangerous room."


def test_a_table_wider_than_its_column_prints_over_the_next_column(tmp_path):
    path = make_pdf(tmp_path, QUICKREF.format(left=ORACLE, right=STEPS * 2))
    found = findings(path, "overprint")
    assert [(f.page, f.severity) for f in found] == [(1, "error")]
    assert "text printed over text" in found[0].message


def test_columns_that_hold_their_text_and_lines_set_solid_are_not_overprinting(tmp_path):
    narrow = ORACLE.replace("white-space: nowrap; font-size: 14pt", "font-size: 8pt")
    assert findings(make_pdf(tmp_path, QUICKREF.format(left=narrow, right=STEPS * 2)), "overprint") == []
    solid = f"<p style='line-height: 1; font-size: 12pt'>{PARA}</p><p style='font-style: italic'>ff fl AV Ty {PARA}</p>"
    assert findings(make_pdf(tmp_path, solid, name="solid.pdf"), "overprint") == []


def test_a_line_drawn_twice_in_one_place_is_not_overprinting(tmp_path):
    """A map label's white halo is the label drawn again under its ink."""
    halo = ("<div style='position: relative'><span style='position: absolute; top: 0; left: 0; color: #fff'>Shrine</span>"
            "<span style='position: absolute; top: 0; left: 0'>Shrine</span></div>")
    assert findings(make_pdf(tmp_path, halo), "overprint") == []


def test_turned_words_are_measured_along_their_own_line(tmp_path):
    """A zine's map turned on its side (its scale's "30 ft" set upward) is read by each glyph's own box: measured as if
    upright, its letters stood over each other ('3' over '0'). Turned text that does print over text is still found."""
    def turned(words: str) -> str:
        return ("<svg xmlns='http://www.w3.org/2000/svg' width='60mm' height='60mm' viewBox='0 0 60 60'>"
                f"<g transform='translate(0 60) rotate(-90)'>{words}</g></svg>")
    alone = turned("<text x='20' y='30' style='font-size: 4px'>30 ft and more</text>")
    assert findings(make_pdf(tmp_path, alone), "overprint") == []
    over = turned("<text x='20' y='30' style='font-size: 4px'>30 ft and more</text>"
                  "<text x='20' y='31' style='font-size: 4px'>other words</text>")
    assert [f.severity for f in findings(make_pdf(tmp_path, over, name="over.pdf"), "overprint")] == ["error"]


def _letter(x: float, y: float, size: float, order: int, text: str = "a") -> dict:
    return {"text": text, "x0": x, "x1": x + size * 0.5, "top": y - size, "bottom": y + size * 0.2, "size": size,
            "order": (0, order)}


def test_the_grid_finds_the_pairs_that_comparing_every_letter_with_every_other_finds():
    """Lines of letters, some set over others, some tall, wide or without width, across and off the page's edges."""
    import random
    from dungeonpress.preflight import overprint
    rng = random.Random("preflight/overprint")
    overlapping = 0
    for _ in range(30):
        letters = []
        for line in range(rng.randrange(3, 12)):
            x, y, size = rng.uniform(-20, 300), rng.uniform(-10, 420), rng.choice([6, 9, 10.5, 14, 30])
            for n in range(rng.randrange(1, 25)):
                letters.append(_letter(x + n * size * 0.5 + rng.uniform(-0.3, 0.3), y, size, len(letters), rng.choice("ab")))
        letters.append(dict(_letter(50, 50, 10, len(letters)), x1=50))  # no width: overlaps nothing
        rng.shuffle(letters)
        brute = [(a, b) for i, a in enumerate(letters) for b in letters[i + 1:] if overprint._overlap(a, b)]
        assert overprint.overprinted(letters, 300, 400) == brute
        overlapping += len(brute)
    assert overlapping > 100  # the sweep sets lines over lines, not only apart
