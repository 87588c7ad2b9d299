"""The content as players meet it: full d66 tables, no repeats, complete creatures, true examples, spelling."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
D66 = [10 * a + b for a in range(1, 7) for b in range(1, 7)]
WRITTEN = ["stress_tags", "fatigue_tags", "traps", "adventure_gear", "environmental_hazards", "minor_traps",
           "small_creatures", "ambushes", "hidden_treasures", "neutral_presences", "puzzles", "hostile_monsters",
           "major_traps", "monster_lairs", "dungeon_bosses", "minor_treasures", "major_treasures", "dungeon_verbs",
           "dungeon_adjectives", "dungeon_nouns", "delver_goals", "delver_motives", "delver_nemeses",
           "name_adjectives", "name_places", "name_regions"]


def folded(text) -> str:
    return re.sub(r"\s+", " ", str(text)).strip().casefold()


@pytest.mark.parametrize("table_id", WRITTEN)
def test_the_tables_this_project_writes_exist(content, table_id):
    table = content.table(table_id)
    assert table.die == "d66" and table.origin == "dungeonpress"


def test_every_d66_table_has_36_distinct_rows(content):
    d66 = [t for t in content.tables.values() if t.die == "d66"]
    assert len(d66) >= 40
    for table in d66:
        assert [row.low for row in table.rows] == D66, table.id
        entries = [folded(" ".join(str(v) for _, v in row.values)) for row in table.rows]
        assert len(set(entries)) == 36, f"{table.id} repeats an entry"
        firsts = [folded(row.values[0][1]) for row in table.rows]
        if table.origin == "dungeonpress":
            assert len(set(firsts)) == 36, f"{table.id} repeats a first column"


def test_bestiary_has_36_complete_creatures(content):
    creatures = content.creatures
    assert [c.key for c in creatures] == D66
    assert len({folded(c.name) for c in creatures}) == 36
    tiers = {c.tier for c in creatures}
    assert {"vermin", "boss"} <= tiers
    for c in creatures:
        assert len(c.skills) == 2 and len(c.gear) == 2 and c.frailty and c.concept
        assert len(c.concept.split()) >= 2, c.concept  # adjective + noun
        if c.living:
            assert c.goal and c.motive and c.nemesis
        else:
            assert c.goal is None and c.motive is None and c.nemesis is None
    assert any(not c.living for c in creatures)


def test_encounter_rows_point_to_their_tables(content):
    for row in content.table("encounter_type").rows:
        assert row.see in content.tables, row
    bosses = content.table("dungeon_bosses")
    assert all(row.creature for row in bosses.rows)


def test_media_appendix(content):
    works = [w for g in content.media for w in g.works]
    assert 20 <= len(works) <= 35
    assert {g.type for g in content.media} >= {"Books", "Films", "Video games", "Tabletop games"}
    assert all(1800 < w.year <= 2026 and w.creator for w in works)


def _rows_by_text(content) -> dict:
    rows = {}
    for table in content.tables.values():
        if table.die in ("2d6", "d6", "d66"):
            for row in table.rows:
                for _, value in row.values:
                    rows.setdefault(folded(value).rstrip("."), []).append(row)
    return rows


def misquoted(text: str, rows_by_text: dict) -> tuple[int, list]:
    """(examples checked, problems) for every 'Some table entry (N)' in `text`."""
    checked, problems = 0, []
    for match in re.finditer(r"([A-Z][\w' ,/-]{2,60}?) \((\d{1,2})\)", text):
        words, number = folded(match.group(1)), int(match.group(2))
        tail = " ".join(words.split()[-2:])
        candidates = [rows for entry, rows in rows_by_text.items()
                      if entry and (words.endswith(entry) or (len(tail) > 6 and entry.startswith(tail)))]
        if not candidates:
            continue
        checked += 1
        numbers = {n for rows in candidates for row in rows for n in range(row.low, row.high + 1)}
        if number not in numbers:
            problems.append(f"'{match.group(0)}' but the table gives {sorted(numbers)}")
    return checked, problems


def test_examples_quote_the_numbers_their_tables_give(content):
    """'Grand hall with high ceilings (4)': the number in brackets must be that row's roll."""
    rows = _rows_by_text(content)
    total = 0
    for chapter in content.book.chapters:
        checked, problems = misquoted(chapter.text, rows)
        assert problems == [], chapter.path
        total += checked
    assert total >= 5


def test_the_seeds_own_mistake_would_be_caught(content):
    assert misquoted("*A Grand Hall (6) with Broken Statues (3)*", _rows_by_text(content)) == (
        2, ["'A Grand Hall (6)' but the table gives [4]"])


def test_no_emoji_in_print():
    emoji = re.compile("[\U0001F300-\U0001FAFF\u2600-\u27BF\uFE0F]")
    for path in list((ROOT / "content").rglob("*.yaml")) + list((ROOT / "content").rglob("*.md")) + \
            list((ROOT / "templates").rglob("*.j2")):
        assert not emoji.search(path.read_text()), path


@pytest.mark.slow
def test_spelling():
    codespell = shutil.which("codespell") or str(Path(sys.executable).parent / "codespell")
    result = subprocess.run([codespell, "content", "templates", "README.md"], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout


# The project spells British, as most of its prose always did; Paperogue keeps its own game's table names.
AMERICAN = re.compile(r"\b(smolder\w*|rumors?|armor\w*|favors?|molds?|mold-\w+|colors?|gray|center|jewelry|armory|parlors?|jeweled|recogniz\w*|spiraling|traveled|traveling)\b",
                      re.IGNORECASE)


def test_one_spelling_convention_outside_paperogue():
    places = [*(ROOT / "content").rglob("*.yaml"), *(ROOT / "content").rglob("*.md"),
              *(ROOT / "templates").glob("*.j2"), *(ROOT / "templates" / "partials").glob("*.j2")]
    found = [f"{path.relative_to(ROOT)}: {match.group(0)}" for path in places
             if "paperogue" not in path.as_posix()
             for match in AMERICAN.finditer(path.read_text(encoding="utf-8"))]
    assert found == []


# The encounters the rulebook's tier guidance names, and the table each one rolls on.
GUIDANCE_TABLES = {"small creatures": "small_creatures", "hostile monsters": "hostile_monsters",
                   "ambushes": "ambushes", "lairs": "monster_lairs", "the boss chamber": "dungeon_bosses"}
TIER_WORDS = {"vermin": "vermin", "minions": "minion", "brutes": "brute", "elites": "elite", "bosses": "boss"}


def tier_guidance(content) -> dict:
    """{table id: tiers allowed}, read from the sentence in 08-creatures.md that matches tiers to encounters."""
    (chapter,) = [c for c in content.book.chapters if c.path.endswith("08-creatures.md")]
    sentence = re.search(r"Match the tier to the encounter: ([^.]+)\.", chapter.text).group(1)
    allowed = {}
    for clause in sentence.split(", "):
        tiers, encounters = clause.split(" for ")
        for encounter in encounters.split(" and "):
            allowed[GUIDANCE_TABLES[encounter]] = {TIER_WORDS[t] for t in tiers.split(" and ")}
    return allowed


def test_the_tier_guidance_names_every_encounter_table(content):
    assert tier_guidance(content) == {
        "small_creatures": {"vermin"}, "hostile_monsters": {"minion", "brute"}, "ambushes": {"minion", "brute"},
        "monster_lairs": {"elite"}, "dungeon_bosses": {"boss"}}


def test_every_named_creature_has_the_tier_the_book_asks_for(content):
    """08-creatures.md: vermin for small creatures, minions and brutes for hostile monsters and ambushes,
    elites for lairs, bosses for the boss chamber (the playthrough found 48 of 104 rows breaking it)."""
    wrong, named = [], 0
    for table_id, tiers in tier_guidance(content).items():
        for row in content.table(table_id).rows:
            if row.creature is None:
                continue
            named += 1
            creature = content.creature(row.creature)
            if creature.tier not in tiers:
                wrong.append(f"{table_id} {row.label}: {creature.name} is {creature.tier}")
    assert wrong == []
    assert named >= 130  # most rows name their creature


def test_bosses_live_only_in_the_boss_chambers_table(content):
    tables = {t.id for t in content.tables.values() for r in t.rows
              if r.creature is not None and content.creature(r.creature).tier == "boss"}
    assert tables == {"dungeon_bosses"}


IDEA_STOPWORDS = set("with that this from your they them their have when what into onto over under each every then than there "
                     "where which while will just only also more less some like been were does here back once upon until "
                     "before after about through around across down".split())
# Ideas the three trap tables once shared: each may now live in one trap table only.
TRAP_IDEAS = ("sand", "acid", "sleep", "mirror", "lightning", "bell")


def idea_words(text: str) -> set:
    """The content words of a row, plural s stripped, so near-identical rows share almost all of them."""
    words = re.findall(r"[a-z]+", str(text).casefold())
    return {w[:-1] if w.endswith("s") and not w.endswith("ss") else w for w in words
            if len(w) >= 4 and w not in IDEA_STOPWORDS}


def test_no_near_duplicate_rows_across_tables(content):
    """No row the project wrote says nearly what another row, in any table, already says."""
    rows = [(f"{t.id} {r.low}", t.origin, idea_words(" ".join(str(v) for _, v in r.values)))
            for t in content.tables.values() for r in t.rows]
    close = []
    for i, (name_a, origin_a, a) in enumerate(rows):
        for name_b, origin_b, b in rows[i + 1:]:
            if "dungeonpress" not in (origin_a, origin_b) or not a or not b:
                continue
            shared = a & b
            if len(shared) >= 2 and len(shared) / len(a | b) >= 0.5:
                close.append(f"{name_a} ~ {name_b}: {sorted(shared)}")
    assert close == []


def test_each_trap_idea_lives_in_one_trap_table(content):
    homes = {idea: [t for t in ("minor_traps", "traps", "major_traps")
                    if any(re.search(rf"\b{idea}(?:s|ing|y)?\b", " ".join(str(v) for _, v in r.values), re.IGNORECASE)
                           for r in content.table(t).rows)]
             for idea in TRAP_IDEAS}
    assert {idea: tables for idea, tables in homes.items() if len(tables) > 1} == {}


def _stem(word: str) -> str:
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word


def names_its_creature(text: str, creature, *, possessive_ok: bool) -> bool:
    """True when the row names its creature by words of its name, as the one met, not as an owner.

    A mention is a run of name words ("Bone-Silk Weaver"); it is an owner's when its last word ends
    in 's ("the Bone-Silk Weaver's spiderlings" is about the spiderlings).
    """
    words = {_stem(w) for w in re.findall(r"[a-z]+", creature.name.casefold()) if w != "the"}
    run_owner = None  # None: not in a run; else whether the run's last word so far is possessive
    for match in re.finditer(r"([A-Za-z]+)('s)?([ -]?)", text):
        if _stem(match.group(1).casefold()) in words:
            run_owner = bool(match.group(2))
            if match.group(3) and not match.group(2):
                continue  # the run may go on
        if run_owner is not None and (possessive_ok or not run_owner):
            return True
        run_owner = None
    return run_owner is not None and (possessive_ok or not run_owner)


def test_a_row_that_names_a_creature_is_about_that_creature(content):
    """A foe card follows the row's creature key, so the row must be about that creature: hostile monster 46
    once sent "the Weaver's spiderlings" to the Weaver's card. In a lair or the boss chamber the creature
    may be the owner ("the Deep Mouth's gullet")."""
    assert not names_its_creature("The Bone-Silk Weaver's spiderlings, hundreds of them", content.creature(43),
                                  possessive_ok=False)
    wrong = []
    for table_id in ("small_creatures", "hostile_monsters", "ambushes", "monster_lairs", "dungeon_bosses"):
        for row in content.table(table_id).rows:
            if row.creature is not None:
                text = str(row.values[0][1])
                if not names_its_creature(text, content.creature(row.creature),
                                          possessive_ok=table_id in ("monster_lairs", "dungeon_bosses")):
                    wrong.append(f"{table_id} {row.label}: {content.creature(row.creature).name}: {text}")
    assert wrong == []


def test_the_media_appendix_credits_works_as_the_licence_credits_do(content):
    """A game the Loner credits name (Mythic by Tana Pigeon) has the same creator in the media appendix."""
    from dungeonpress.export.licences import LONER_CREDITS
    credited = dict(re.findall(r"([A-Z][\w ]+?) by ([A-Z][\w. ]+?)(?: \(|;|$)", LONER_CREDITS))
    assert credited["Mythic"] == "Tana Pigeon"
    works = [w for g in content.media for w in g.works]
    checked = [(w.title, w.creator, credited[game]) for w in works for game in credited if w.title.startswith(game)]
    assert checked and all(creator == author for _, creator, author in checked), checked


def test_a_named_band_is_called_the_same_wherever_it_appears(content):
    """Delver nemesis 11 and Captain Vell's entry name one company, in one form."""
    texts = [str(v) for t in content.tables.values() for r in t.rows for _, v in r.values]
    for c in content.creatures:
        texts += [c.nemesis or "", c.goal or "", c.description]
    before = [m.group(1) for text in texts for m in re.finditer(r"(\S+) Lantern Company", text)]
    assert before == ["Gilded"] * 3, before  # nemesis 11, the kobolds' nemesis, Vell's description
    vell = next(c for c in content.creatures if c.name.startswith("Captain Vell"))
    assert "Gilded Lantern Company" in vell.description
