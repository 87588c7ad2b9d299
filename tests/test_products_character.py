"""Pre-rolled delvers: the rules page after the sheets carries the oracle's exact odds where it has the room."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from pypdf import PdfReader

from dungeonpress import build
from dungeonpress.generate import oracle
from dungeonpress.products import character
from dungeonpress.products.options import parse


def rules_page(content, theme="standard", **given) -> tuple[int, str]:
    """(pages, the last page's text made single-spaced) of one pre-rolled delver in `theme`."""
    ctx = build.context_for(content, seed=1234, theme=theme)
    (pdf,) = [o.data for o in character.build_characters(ctx, parse(character.CharacterOptions, {"count": 1, **given}))
              if o.name.endswith(".pdf")]
    pages = PdfReader(io.BytesIO(pdf)).pages
    assert ctx.warnings == []
    return len(pages), " ".join(pages[-1].extract_text().split())


@pytest.mark.slow  # lays sheets out
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_rules_page_ends_with_the_oracles_exact_odds(content, paper):
    count, text = rules_page(content, paper=paper)
    assert count == 3  # the sheet, its log, the rules with the odds on one page
    assert "How to play these delvers" in text and "The Oracle’s Odds" in text
    assert text.index("Doors, Puzzles and the End") < text.index("The Oracle’s Odds")
    plain_yes = oracle.percent(oracle.oracle_odds("plain")[oracle.YES])
    assert f"Yes {plain_yes}" in text and "Any Yes" in text


@pytest.mark.slow  # lays sheets out
@pytest.mark.parametrize("theme,given", [("standard", {"paper": "a5"}), ("dyslexia-friendly", {})])
def test_no_odds_where_the_rules_fill_the_page_alone(content, theme, given):
    """A5's one column and the dyslexia theme's wider type leave no room: the rules keep to their one page."""
    count, text = rules_page(content, theme, **given)
    assert "How to play these delvers" in text and "Odds" not in text
    assert count == 3


@pytest.mark.slow  # lays sheets out
@pytest.mark.parametrize("theme", ["standard", "dyslexia-friendly"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_rules_columns_run_down_to_the_pages_foot(content, tmp_path, theme, paper):
    """The rules page's foot was 15-25% white (standard A4 right column ending at 75% of the page, dyslexia-friendly
    A4 left column at 64%): rules run on into the next column and the type takes the room. Each column's last
    line now lies below 78% of the page's height, and the rules keep to one page."""
    from dungeonpress.preflight.reading import open_pdf
    ctx = build.context_for(content, seed=1234, theme=theme)
    (pdf,) = [o.data for o in character.build_characters(ctx, parse(character.CharacterOptions, {"paper": paper}))
              if o.name.endswith(".pdf")]
    path = tmp_path / "characters.pdf"
    path.write_bytes(pdf)
    doc = open_pdf(path)
    try:
        assert len(doc.pages) == 3
        page = doc.pages[-1]
        text = [box for box in page.ink if box[4] == "text"]
        half = page.width / 2
        columns = ([b[3] for b in text if b[2] <= half], [b[3] for b in text if b[0] >= half])
        assert all(max(column) / page.height >= 0.78 for column in columns), \
            [round(max(column) / page.height, 2) for column in columns]
    finally:
        doc.close()


@pytest.mark.slow  # lays four A5 delvers out for two seeds
@pytest.mark.parametrize("seed,theme", [(2, "standard"), (1234, "dyslexia-friendly")])
def test_a_long_pre_rolled_value_on_an_a5_sheet_is_printed_whole(content, tmp_path, seed, theme):
    """A5's Drive lines hold about 34 characters: longer rolled goals and nemeses were cut off at the line's end
    (their hidden words then lay under the roll's number: the preflight's overprint). They take two lines now."""
    from dungeonpress import preflight
    from tests.conftest import shared_reader
    ctx = build.context_for(content, seed=seed, theme=theme)
    outputs = {o.name: o.data for o in character.build_characters(ctx, parse(character.CharacterOptions,
                                                                                {"count": 4, "paper": "a5"}))}
    (name,) = [n for n in outputs if n.endswith(".pdf")]
    path = tmp_path / name
    path.write_bytes(outputs[name])
    assert [f for f in preflight.check_file(path, reader=shared_reader()) if f.check == "overprint"] == []
    text = " ".join(" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(outputs[name])).pages)
    rolled = json.loads(outputs[name.replace(".pdf", ".json")])["characters"]
    long = [c[key]["value"] for c in rolled for key in ("goal", "motive", "nemesis") if len(c[key]["value"]) > 34]
    assert long  # these seeds roll Drives longer than an A5 line holds
    for value in long:
        assert value in text, value


def _longest_rolls(pack: Path, tables: tuple, distinct: int = 1) -> None:
    """A content pack whose `tables` give only their `distinct` longest values, in turn."""
    import yaml
    for table in tables:
        data = yaml.safe_load((build.CONTENT_DIR / "dungeoneer" / "tables" / f"{table}.yaml").read_text(encoding="utf-8"))
        longest = sorted(set(map(str, data["rows"].values())), key=lambda value: (len(value), value))[-distinct:]
        data["rows"] = {roll: longest[n % distinct] for n, roll in enumerate(data["rows"])}
        data["source"] = "a test of the longest rolls"
        path = pack / "tables" / f"{table}.yaml"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")


@pytest.mark.slow  # lays one delver out on A4
def test_the_longest_name_and_concept_the_tables_give_fit_the_a4_masthead(tmp_path):
    """A pack whose name and concept tables give only their longest values (a 32-letter name, a 19-letter concept):
    the masthead ran past the A4 page's right edge in every theme ("text that cannot fit"), hit by one delver in six
    of a sweep in the dyslexia-friendly theme."""
    from tests.conftest import run_cli
    _longest_rolls(tmp_path / "longest", ("female_names", "male_names", "nicknames", "surnames", "concepts"))
    status, _, err = run_cli("character", "--content", tmp_path / "longest", "--seed", "1", "--count", "1",
                             "--theme", "dyslexia-friendly", "--out", tmp_path / "out", "--quiet")
    assert status == 0, err
    (pdf,) = (tmp_path / "out").glob("*.pdf")
    (rolled,) = json.loads(next((tmp_path / "out").glob("*.json")).read_text(encoding="utf-8"))["characters"]
    page = " ".join(PdfReader(pdf).pages[0].extract_text().split())
    assert len(rolled["name"]) >= 32 and rolled["name"] in page and "Arcane Cartographer" in page


@pytest.mark.slow  # lays two rogues out
@pytest.mark.parametrize("theme", ["standard", "dyslexia-friendly"])
@pytest.mark.parametrize("paper", ["a4", "letter", "a5"])
def test_pre_rolled_paperogue_rogues_print_no_text_over_text(content, tmp_path, theme, paper):
    """Read back by the preflight, nothing of a pre-rolled rogue lies under other text. Every A4 and Letter rogue ran
    its score's last row under the rules at the page's foot (the line of how its stats were rolled took the room);
    a long item, jewel or weapon had its name cut away under its grey rolls (seeds 207, 213, 768050964 on A5)."""
    from dungeonpress import preflight
    from tests.conftest import shared_reader
    found = []
    # each paper's seeds: the score under the rules (768050964 on A4 and Letter, 214 in Atkinson on Letter), a pack
    # line's name under its rolls (207 on A4), a jewel's (213, A5 in Atkinson) and a weapon's (768050964, A5)
    for seed in {"a4": (207, 768050964), "letter": (214, 768050964), "a5": (213, 768050964)}[paper]:
        ctx = build.context_for(content, seed=seed, theme=theme)
        opts = parse(character.CharacterOptions, {"count": 1, "game": "paperogue", "paper": paper})
        (out,) = [o for o in character.build_characters(ctx, opts) if o.name.endswith(".pdf")]
        path = tmp_path / f"{seed}-{out.name}"
        path.write_bytes(out.data)
        found += [f"{seed}: {f.message}" for f in preflight.check_file(path, reader=shared_reader())
                  if f.check == "overprint"]
    assert found == []


@pytest.mark.slow  # lays two delvers out on A4 and Letter
@pytest.mark.parametrize("theme", ["standard", "dyslexia-friendly"])
def test_the_longest_drives_take_two_lines_on_a4_and_letter(content, tmp_path, theme):
    """The longest goals, motives and nemeses the tables give, with their rolls: on A4 and Letter they ran under their
    roll's number, cut off ("The Velvet Shovels, a gang who loot every tomb a step ahead of them", 67 letters, in every
    theme). Longer than a line holds with its roll, a value takes two lines (views.sheet.LONGER_VALUE)."""
    from dungeonpress import preflight
    from tests.conftest import run_cli, shared_reader
    _longest_rolls(tmp_path / "longest", ("delver_goals", "delver_motives", "delver_nemeses"), distinct=2)
    for paper in ("a4", "letter"):
        out = tmp_path / paper
        status, _, err = run_cli("character", "--content", tmp_path / "longest", "--seed", "1", "--count", "2",
                                 "--paper", paper, "--theme", theme, "--out", out, "--quiet")
        assert status == 0, err
        (pdf,) = out.glob("*.pdf")
        assert [f.message for f in preflight.check_file(pdf, reader=shared_reader()) if f.check == "overprint"] == []
        text = " ".join(" ".join(page.extract_text().split()) for page in PdfReader(pdf).pages)
        for drive in ("Chart a way to the surface, having been born below",
                      "The Velvet Shovels, a gang who loot every tomb a step ahead of them"):
            assert drive in text, (paper, drive)
