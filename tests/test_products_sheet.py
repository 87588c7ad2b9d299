"""Character sheet PDFs: form fields, page sizes, filled pre-rolls, JSON, determinism, no WeasyPrint warnings."""

from __future__ import annotations

import io
import json

import pytest
from pypdf import PdfReader, PdfWriter

from dungeonpress import build, cli
from dungeonpress.dice import sub_rng
from dungeonpress.generate.character import generate_character
from dungeonpress.generate.paperogue_character import generate_paperogue_character
from dungeonpress.products import character, sheet as sheets
from dungeonpress.views import sheet as sheet_views
from dungeonpress.views.quotes import typographic
from dungeonpress.products.options import flag_of, parse, specs
from tests.conftest import slow_fixture, standard_build

_OPTIONS = {"build_sheets": sheets.SheetOptions, "build_characters": character.CharacterOptions}

POINTS = {"a4": (595.28, 841.89), "letter": (612.0, 792.0), "a5": (419.53, 595.28)}


def _run(content, run, options, seed=None):
    """Run a product function; every output keyed by file name, and the warnings WeasyPrint logged."""
    ctx = build.context_for(content, seed=seed)
    outputs = run(ctx, parse(_OPTIONS[run.__name__], options))
    return {o.name: o.data for o in outputs}, list(ctx.warnings)


# The blank sheets are `build all`'s sheet job in the standard theme (every game, paper and form, each laid
# out on its own), made once per run and shared with the theme, preflight and accessibility tests.
@pytest.fixture(scope="module")
@slow_fixture
def blank_sheets():
    outputs, warnings = standard_build("sheet")
    assert warnings == []
    assert sorted(outputs) == sorted(sheets.sheet_file_name(game, paper, form) for game in sheets.GAMES
                                     for paper in sheets.PAPERS for form in ("fillable", "print"))
    return outputs


@pytest.fixture(scope="module")
@slow_fixture
def dungeoneer_fillable(blank_sheets):
    """The fillable Dungeoneer sheet on every paper."""
    return {paper: blank_sheets[f"sheet-dungeoneer-{paper}-fillable.pdf"] for paper in sheets.PAPERS}


@pytest.fixture(scope="module")
@slow_fixture
def dungeoneer_print(blank_sheets):
    return blank_sheets["sheet-dungeoneer-letter-print.pdf"]


@pytest.fixture(scope="module")
@slow_fixture
def paperogue_sheets(blank_sheets):
    """Paperogue A4 fillable and A5 for pencil."""
    return {name: blank_sheets[name] for name in ("sheet-paperogue-a4-fillable.pdf", "sheet-paperogue-a5.pdf")}


PREROLLED = 4  # `build all`'s character job: four Dungeoneer delvers, seed 1234


@pytest.fixture(scope="module")
@slow_fixture
def prerolled(content):
    """Pre-rolled characters, PDF and JSON: `build all`'s four Dungeoneer delvers (shared), two Paperogue rogues;
    one Paperogue rogue built twice, for determinism."""
    made, warnings = standard_build("character")
    assert warnings == [] and sorted(made) == ["characters-1234.json", "characters-1234.pdf"]
    made = dict(made)
    outputs, warnings = _run(content, character.build_characters, {"game": "paperogue", "count": 2}, seed=1234)
    assert warnings == []
    made.update(outputs)
    for run in ("first", "again"):
        made[run], _ = _run(content, character.build_characters, {"game": "paperogue", "count": 1}, seed=99)
    return made


def test_the_shared_character_job_is_four_dungeoneer_delvers():
    (job,) = next(c for c in build.commands() if c.name == "character").build_all
    assert (job.seed, job.options) == (1234, {"count": PREROLLED})


def _reader(data: bytes) -> PdfReader:
    return PdfReader(io.BytesIO(data))


def _text(data: bytes) -> str:
    """Extracted text with runs of whitespace made single (extraction doubles some spaces)."""
    return " ".join(" ".join(page.extract_text() for page in _reader(data).pages).split())


def _expected_dungeoneer_fields(paper: str) -> tuple[set, set]:
    """(text fields, checkboxes) the Dungeoneer sheet must have on `paper`."""
    layout = sheet_views.SPACE[paper]
    texts = {"name", "concept", "frailty_1", "goal", "motive", "nemesis", "light_source",
             "log_delver", "log_delve", "log_session"}
    texts |= {f"skill_{n}" for n in range(1, 3 + layout.skills_gained)}
    texts |= {f"frailty_{n}" for n in range(2, 2 + layout.frailties_gained)}
    texts |= {f"gear_{n}" for n in range(1, 9)}
    for prefix in ("stress", "fatigue", "condition"):
        texts |= {f"{prefix}_{n}" for n in range(1, layout.tag_lines + 1)}
    texts |= {"npcs", "locations", "events", "treasure"}  # long fields: one multi-line field each
    texts |= {f"log_{n}_{col}" for n in range(1, layout.log_rows + 1)
              for col in ("scene", "question", "answer", "twist")}
    boxes = {f"luck_{n}" for n in range(1, 7)} | {f"twist_{n}" for n in range(1, 4)}
    boxes |= {f"meal_{n}" for n in range(1, 4)}
    boxes |= {f"gear_{g}_durability_{k}" for g in range(1, 9) for k in range(1, sheet_views.DURABILITY_BOXES + 1)}
    boxes |= {f"light_{n}" for n in range(1, layout.light + 1)} | {f"ration_{n}" for n in range(1, layout.rations + 1)}
    return texts, boxes


@pytest.mark.slow
@pytest.mark.parametrize("paper", sheets.PAPERS)
def test_fillable_dungeoneer_has_every_field(dungeoneer_fillable, paper):
    fields = _reader(dungeoneer_fillable[paper]).get_fields()
    texts, boxes = _expected_dungeoneer_fields(paper)
    assert set(fields) == texts | boxes
    assert {name for name, f in fields.items() if f.get("/FT") == "/Tx"} == texts
    assert {name for name, f in fields.items() if f.get("/FT") == "/Btn"} == boxes
    assert fields["luck_3"]["/TU"] == "Luck 3"  # a readable name for screen readers and tooltips


@pytest.mark.parametrize("paper", sheets.PAPERS)
def test_page_sizes_and_counts(dungeoneer_fillable, paper):
    pages = _reader(dungeoneer_fillable[paper]).pages
    assert len(pages) == 2  # the sheet and its adventure log
    for page in pages:
        assert (float(page.mediabox.width), float(page.mediabox.height)) == pytest.approx(POINTS[paper], abs=0.5)


def test_field_names_are_unique(dungeoneer_fillable):
    reader = _reader(dungeoneer_fillable["a4"])
    widgets = [annot.get_object()["/T"] for page in reader.pages for annot in page.get("/Annots", [])]
    assert len(widgets) == len(set(widgets)) == len(reader.get_fields())


@pytest.mark.slow
def test_typing_into_the_fillable_form(dungeoneer_fillable):
    """Fill fields the way a PDF viewer would, save, and read the values back."""
    writer = PdfWriter(clone_from=_reader(dungeoneer_fillable["a4"]))
    values = {"name": "Kaela Greystone", "skill_1": "Rune Decipherer", "gear_2": "Oiled Lantern",
              "log_1_question": "Is the door locked?", "luck_3": "/on", "gear_2_durability_1": "/on"}
    for page in writer.pages:
        writer.update_page_form_field_values(page, values, auto_regenerate=False)
    out = io.BytesIO()
    writer.write(out)
    fields = PdfReader(io.BytesIO(out.getvalue())).get_fields()
    assert {name: fields[name].get("/V") for name in values} == values


@pytest.mark.slow
def test_print_version_has_no_fields_and_reads_like_a_sheet(dungeoneer_print):
    reader = _reader(dungeoneer_print)
    assert not reader.get_fields()
    assert len(reader.pages) == 2
    assert (float(reader.pages[0].mediabox.width), float(reader.pages[0].mediabox.height)) == \
        pytest.approx(POINTS["letter"], abs=0.5)
    text = _text(dungeoneer_print)
    for heading in ("Skills", "Frailty", "Drive", "Gear", "Backpack", "Luck", "Twist counter", "Stress", "Fatigue",
                    "Conditions", "Light", "Rations", "NPCs", "Locations", "Events", "Oracle", "Adventure log"):
        assert heading.lower() in text.lower(), heading
    # The oracle strip is computed from the rules, not typed: every answer and the harm it does.
    for answer in ("Yes, and…", "Yes, but…", "No, but…", "No, and…", "cause 3", "take 3"):
        assert answer in text


@pytest.mark.slow
def test_paperogue_sheets(paperogue_sheets):
    fillable = _reader(paperogue_sheets["sheet-paperogue-a4-fillable.pdf"])
    fields = fillable.get_fields()
    for name in ("start_hp_roll", "start_mp_roll", "start_str", "start_dex", "start_int", "start_hp", "start_mp",
                 "level_2_str", "total_hp", "hp_current", "mp_current", "gold", "weapon_1", "weapon_1_stat",
                 "armor_helmet", "jewel_neck", "ring_left_1", "item_1", "potion_1", "scroll_10", "spell_1",
                 "score_gold", "score_total"):
        assert fields[name]["/FT"] == "/Tx", name
    for name in ("swap_used", "level_1", "weapon_1_id", "armor_mail_worn", "item_1_id"):
        assert fields[name]["/FT"] == "/Btn", name
    assert len(fillable.pages) == 1
    pencil = _reader(paperogue_sheets["sheet-paperogue-a5.pdf"])
    # A5 at its type minimums takes two pages: the rogue in front, what is known, the score and notes behind.
    assert not pencil.get_fields() and len(pencil.pages) == 2
    page = pencil.pages[0]
    assert (float(page.mediabox.width), float(page.mediabox.height)) == pytest.approx(POINTS["a5"], abs=0.5)
    text = _text(paperogue_sheets["sheet-paperogue-a5.pdf"])
    for word in ("Stats", "Swap used", "Weapons", "Armor", "Jewelry", "Pack", "Spells", "Score", "Vinzit Coro Donia"):
        assert word.lower() in text.lower(), word


@pytest.mark.slow
def test_prerolled_dungeoneer_sheets_show_every_value(content, prerolled):
    pdf = prerolled["characters-1234.pdf"]
    assert len(_reader(pdf).pages) == 2 * PREROLLED + 1  # each character with its log, then the rules they play by
    text = _text(pdf)
    assert "How to play these delvers" in text and "Harm & Luck" in text
    for n in range(1, PREROLLED + 1):
        c = generate_character(content, sub_rng(1234, "character", "dungeoneer", str(n)))
        for value in (c.first_name.value, c.surname.value, c.nickname.value, c.concept.value, c.frailty.value,
                      c.goal.value, c.motive.value, c.nemesis.value, *(s.value for s in c.skills),
                      *(g.item.value for g in c.gear)):
            assert typographic(value) in text, value  # printed with typographic quotes (views.quotes)


def test_prerolled_json_records_every_roll(content, prerolled):
    doc = json.loads(prerolled["characters-1234.json"])
    assert (doc["game"], doc["seed"], doc["count"]) == ("dungeoneer", 1234, PREROLLED)
    first = doc["characters"][0]
    c = generate_character(content, sub_rng(1234, "character", "dungeoneer", "1"))
    assert first["name"] == c.name
    assert first["concept"] == {"table": "concepts", "result": c.concept.result, "value": c.concept.value,
                                "rerolled": []}
    assert [s["value"] for s in first["skills"]] == [s.value for s in c.skills]
    assert first["luck"] == 6
    paperogue = json.loads(prerolled["characters-paperogue-1234.json"])["characters"][1]
    p = generate_paperogue_character(content, sub_rng(1234, "character", "paperogue", "2"))
    assert paperogue["rolls"] == dict(p.rolls) and paperogue["scores"] == dict(p.scores)
    assert paperogue["hp"] == p.scores[0][1] + p.scores[2][1]
    assert paperogue["items"][0]["rolls"][0]["table"] == "paperogue_treasure_type"


@pytest.mark.slow
def test_prerolled_paperogue_sheet(content, prerolled):
    text = _text(prerolled["characters-paperogue-1234.pdf"])
    p = generate_paperogue_character(content, sub_rng(1234, "character", "paperogue", "1"))
    assert "Rolled " + ", ".join(f"{stat} {roll}" for stat, roll in p.rolls) in text
    assert "seed 1234" in text


@pytest.mark.slow
def test_same_seed_same_bytes(prerolled):
    assert prerolled["first"].keys() == {"characters-paperogue-99.pdf", "characters-paperogue-99.json"}
    assert prerolled["again"] == prerolled["first"]


def test_file_names():
    assert sheets.sheet_file_name("dungeoneer", "a4", "fillable") == "sheet-dungeoneer-a4-fillable.pdf"
    assert sheets.sheet_file_name("dungeoneer", "letter", "print") == "sheet-dungeoneer-letter-print.pdf"
    assert sheets.sheet_file_name("paperogue", "a5", "print") == "sheet-paperogue-a5.pdf"


@pytest.mark.slow
def test_cli_character_json(tmp_path):
    out, err = io.StringIO(), io.StringIO()
    status = cli.main(["character", "--seed", "7", "--count", "3", "--game", "paperogue", "--format", "json",
                       "--out", str(tmp_path), "--quiet"], stdout=out, stderr=err)
    assert status == 0, err.getvalue()
    doc = json.loads((tmp_path / "characters-paperogue-7.json").read_text())
    assert doc["count"] == 3 and [c["number"] for c in doc["characters"]] == [1, 2, 3]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["characters-paperogue-7.json"]


def test_cli_declares_the_options():
    by_name = {c.name: c for c in build.commands()}
    assert {"sheet", "character"} <= set(by_name)
    flags = {name: {flag_of(f) for f, _ in specs(by_name[name].options)} for name in ("sheet", "character")}
    assert flags["sheet"] == {"--game", "--paper", "--fillable", "--print"}
    assert {"--count", "--game", "--format"} <= flags["character"]
    assert by_name["character"].seeded


def test_cli_refuses_a_count_below_one(tmp_path):
    out, err = io.StringIO(), io.StringIO()
    status = cli.main(["character", "--seed", "7", "--count", "0", "--out", str(tmp_path), "--quiet"],
                      stdout=out, stderr=err)
    assert status == 2
    assert err.getvalue() == "dungeonpress character: error: --count must be a whole number from 1 to 100 (got 0)\n"
    assert not list(tmp_path.iterdir())


@pytest.mark.slow  # lays one sheet out
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_luck_keeps_its_six_boxes_on_one_row_in_the_dyslexia_friendly_theme(content, tmp_path, paper):
    # On A4, Atkinson's wider letters left Luck the room of five boxes beside the twist counter: the sixth stood alone
    # on a row below them. The big boxes (Luck's six and the twist counter's three) now share one row.
    from dungeonpress.preflight.reading import MM, open_pdf
    ctx = build.context_for(content, seed=1, theme="dyslexia-friendly")
    path = tmp_path / "sheet.pdf"
    path.write_bytes(sheets.render_sheet_pdf(ctx, "dungeoneer", paper, fillable=False))
    doc = open_pdf(path)
    try:
        big = [c for c in doc.pages[0].curves
               if 5 * MM < c["x1"] - c["x0"] < 9 * MM and abs(c["x1"] - c["x0"] - (c["bottom"] - c["top"])) < 1]
        tops = sorted(round(c["top"] / MM, 1) for c in big)
        assert len(big) == 9 and tops[-1] - tops[0] < 0.5, tops
    finally:
        doc.close()
