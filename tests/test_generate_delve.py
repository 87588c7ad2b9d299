"""generate.delve: a seeded Random and the solo-turn tables → a pre-rolled delve that follows the post's schedule."""

from __future__ import annotations

import random
import re

import pytest

from dungeonpress import build
from dungeonpress.errors import ContentErrors
from dungeonpress.generate import delve
from dungeonpress.model import Row
from dungeonpress.model.delve import BACKTRACK, EXPLORE, REST, WANDERING, WORK
from tests.conftest import slow_fixture

SEEDS = range(1000)


@pytest.fixture(scope="module")
@slow_fixture
def delves(content):
    """A thousand delves: every light, with and without a map, long enough to rest, backtrack and go down."""
    return [delve.generate_delve(random.Random(seed), content, turns=48, light=delve.LIGHTS[seed % 3],
                                 mapping=seed % 2 == 0) for seed in SEEDS]


def test_one_turn_a_row_and_one_thing_takes_each_turn(delves):
    for rolled in delves:
        assert [t.number for t in rolled.turns] == list(range(1, 49))
        for turn in rolled.turns:
            assert turn.activity == (WANDERING if turn.wandering else REST if turn.rest else turn.activity)
            assert (turn.encounter_roll is not None) == (turn.activity == EXPLORE)
            assert (turn.search_roll is not None) == (turn.activity == BACKTRACK)
            assert (turn.work is not None) == (turn.activity == WORK)
            if turn.activity != EXPLORE:
                assert not turn.finds and not turn.encounter and turn.passage is None and turn.stairs_to is None


@pytest.mark.slow
def test_wandering_checks_only_on_even_turns(delves):
    for rolled in delves:
        every = 2 if rolled.mapping else 4  # half as often when not mapping
        for turn in rolled.turns:
            # a rest turn keeps its wandering check even when not mapping (turns 6, 18, 30…)
            assert (turn.wandering_roll is not None) == (turn.number % every == 0 or turn.number % 6 == 0)
            assert turn.number % 2 == 0 or turn.wandering_roll is None
            assert (turn.wandering is not None) == (turn.wandering_roll == 1)


def test_rest_every_sixth_turn_without_encounter_check(delves):
    for rolled in delves:
        for turn in rolled.turns:
            assert turn.rest == (turn.number % 6 == 0)
            if turn.rest or turn.wandering:  # a wanderer takes the whole turn
                assert turn.encounter_roll is None and not turn.finds and turn.search_roll is None
            if turn.activity == EXPLORE:
                assert 1 <= turn.encounter_roll <= 20 and turn.encounter


def test_backtracking_follows_an_obstacle_that_beats_you_until_a_new_area_is_found(delves):
    """No encounter check while backtracking: a d6 a turn, a new area on 1-2, then exploring again."""
    backtracked = found = 0
    for rolled in delves:
        backtracking, owed = False, 0
        for turn in rolled.turns:
            if turn.activity in (WANDERING, REST):
                continue  # takes the whole turn: no search for a new area, no work done
            if owed:
                assert turn.activity == WORK and turn.work[1] - turn.work[0] == owed - 1
                owed -= 1
            elif backtracking:
                assert turn.activity == BACKTRACK and 1 <= turn.search_roll <= 6
                backtracked += 1
                backtracking = turn.search_roll > 2
                assert turn.found_area == (not backtracking)
                found += turn.found_area
            else:
                assert turn.activity == EXPLORE
                passage = turn.passage
                if passage is not None:
                    assert passage.blocking == (turn.encounter == "Obstacle")
                    backtracking = passage.blocking and not passage.passed
                    owed = passage.turns if passage.passed else 0
    assert backtracked > 1000 and 0.25 < found / backtracked < 0.42  # 2 in 6


def test_an_obstacle_is_tried_by_its_chance(delves, content):
    table = content.table(delve.APPENDICES["C"])
    tried = [t for r in delves for t in r.turns if t.passage is not None]
    assert tried
    for turn in tried:
        find = next(f for f in turn.finds if f.appendix == "C")
        row = table.row_for(find.roll)
        passes, passage = str(row.get("passes")), turn.passage
        assert passage.chance == passes and passage.turns == row.get("turns")
        if passes in ("always", "never"):
            assert passage.roll is None and passage.passed == (passes == "always")
        else:
            needed, sides = (int(x) for x in passes.split(" in "))
            assert 1 <= passage.roll <= sides and passage.passed == (passage.roll <= needed)


def test_levels_change_only_by_stairs_and_up_from_level_one_leads_out(delves, content):
    stairs = content.table(delve.APPENDICES["E"])
    outs = downs = 0
    for rolled in delves:
        level = 1
        for turn in rolled.turns:
            assert turn.level == level >= 1
            if turn.stairs_to is None:
                continue
            leads = str(stairs.row_for(next(f for f in turn.finds if f.appendix == "E").roll).get("leads")).lower()
            steps = {"one": 1, "two": 2}[leads.split()[1]]
            if leads.startswith("up"):
                assert turn.stairs_to == max(level - steps, 0)
            else:
                assert turn.stairs_to == level + steps
                downs += 1
            if turn.stairs_to == delve.OUT:  # the way out of the dungeon: noted, not taken
                assert level == 1
                outs += 1
            else:
                level = turn.stairs_to
    assert outs > 50 and downs > 500


def test_monsters_and_treasure_come_from_the_column_of_their_level(delves, content):
    monsters, treasure = content.table(delve.APPENDICES["A"]), content.table(delve.APPENDICES["D"])
    seen = set()
    for rolled in delves:
        for turn in rolled.turns:
            for find in turn.finds + ((turn.wandering,) if turn.wandering else ()):
                if find.appendix == "A":
                    column = delve.level_column(monsters, turn.level)
                    name = str(monsters.row_for(find.roll).get(column))
                    assert find.text == name or find.text.startswith(name + " (")
                    assert find.details[0] == delve.stat_line(delve.monster_stats(content, name))
                    seen.add(column)
                if find.appendix == "D":
                    kind = str(treasure.row_for(find.roll).get("treasure")).lower()
                    assert kind.split()[0] in find.text.lower()
    assert seen == {"level_1", "level_2", "level_3", "level_4"}


@pytest.mark.parametrize("level, column", [(1, "level_1"), (2, "level_2"), (3, "level_3"), (4, "level_4"),
                                           (9, "level_4")])
def test_level_column_reads_the_deepest_column_not_below_the_level(content, level, column):
    assert delve.level_column(content.table(delve.APPENDICES["A"]), level) == column
    assert delve.level_column(content.table(delve.APPENDICES["D"]), level) == \
        {1: "level_1", 2: "level_2", 3: "level_2"}.get(level, "level_4")


def test_light_burns_down(delves):
    for rolled in delves:
        for turn in rolled.turns:
            assert turn.light_out == (turn.number % rolled.light_turns == 0)
            assert 0 <= turn.light_left < rolled.light_turns


def test_lost_only_without_a_map_and_leaving_costs_half_the_turns(delves):
    for rolled in delves:
        lost = False
        for turn in rolled.turns:
            if rolled.mapping:
                assert turn.lost_roll is None and not turn.lost
            assert (turn.leave_checks is None) == lost  # no leaving while lost
            if not lost:
                assert turn.leave_checks == (turn.number - 1) // 2
            assert turn.got_lost == (not lost and turn.lost)
            assert turn.found_way == (lost and not turn.lost)
            lost = turn.lost
        assert len(rolled.exit_checks) == len(rolled.turns) // 2
        assert bool(rolled.still_lost_rolls) == lost
        assert all((c.monster is not None) == (c.roll == 1) for c in rolled.exit_checks)
    assert any(t.got_lost for r in delves for t in r.turns)


def test_wandering_monsters_usually_carry_no_treasure(delves, content):
    """Only on a 1 on a d6, and only kinds that ever carry any; met on the encounter check, by their own chance."""
    wanderers = [t.wandering for r in delves for t in r.turns if t.wandering]
    wanderers += [c.monster for r in delves for c in r.exit_checks if c.monster]
    met = [f for r in delves for t in r.turns for f in t.finds if f.appendix == "A"]

    def carries(find):
        return any(line.startswith("Carries ") for line in find.details)

    def kind(find):
        return delve.monster_stats(content, find.text.split(" (")[0])

    for find in wanderers + met:
        if str(kind(find).get("carries")) == "never":
            assert not carries(find)
    share = sum(map(carries, wanderers)) / len(wanderers)
    assert 0 < share < 1 / 6  # usually none: a 1 in 6, and never for kinds that carry nothing
    assert sum(map(carries, met)) / len(met) > share


@pytest.mark.parametrize("spec, low, high", [("3d6 × 10", 30, 180), ("2d4", 2, 8), ("1d6+1", 2, 7), ("1", 1, 1), (4, 4, 4)])
def test_amounts(spec, low, high):
    rng = random.Random(1)
    for _ in range(50):
        assert low <= delve.roll_amount(rng, spec) <= high
    assert delve.roll_amount(rng, "—") == "—"


def test_same_seed_same_delve(content):
    first = delve.generate_delve(random.Random(5), content, turns=20, mapping=False)
    assert first == delve.generate_delve(random.Random(5), content, turns=20, mapping=False)
    assert first != delve.generate_delve(random.Random(6), content, turns=20, mapping=False)


@pytest.mark.parametrize("turn, mapping, due", [
    (1, True, False), (2, True, True), (3, True, False), (4, True, True),
    (2, False, False), (4, False, True), (6, False, True), (10, False, False), (12, False, True), (18, False, True),
])
def test_wandering_due_every_second_turn_or_fourth_without_a_map_and_on_rests(turn, mapping, due):
    assert delve.wandering_due(turn, mapping) is due


def test_rest_due_every_sixth_turn():
    assert [t for t in range(1, 25) if delve.rest_due(t)] == [6, 12, 18, 24]


def test_light_duration_reads_the_light_table(content):
    table = content.table(delve.LIGHT_TABLE)
    for light in delve.LIGHTS:
        row = next(r for r in table.rows if str(r.get("light")).lower() == light)
        assert delve.light_duration(content, light) == int(row.get("turns")) > 0
    with pytest.raises(KeyError, match="no row for light 'glowworm'"):
        delve.light_duration(content, "glowworm")


@pytest.mark.parametrize("appendix, letters", [("A, D", ["A", "D"]), ("B", ["B"]), ("—", []), ("C,F", ["C", "F"]),
                                               ("A, Z", ["A"])])
def test_appendix_letters_keeps_the_appendices_a_row_names(appendix, letters):
    row = Row(low=1, high=1, values=(("result", "x"), ("appendix", appendix)))
    assert delve.appendix_letters(row) == letters


def test_roll_amount_multiplies_and_adds_as_written():
    rng = random.Random(3)
    tens = {delve.roll_amount(rng, "1d6 x 10") for _ in range(200)}
    assert tens == {10, 20, 30, 40, 50, 60}
    assert {delve.roll_amount(rng, "d4") for _ in range(200)} == {1, 2, 3, 4}
    assert delve.roll_amount(rng, "12") == 12 and delve.roll_amount(rng, "many") == "many"


def test_a_short_delve_by_candle_burns_several_candles(content):
    lasts = delve.light_duration(content, "candle")
    rolled = delve.generate_delve(random.Random(1), content, turns=lasts * 3, light="candle")
    assert rolled.light_turns == lasts and rolled.lights_used == 3
    assert [t.number for t in rolled.turns if t.light_out] == [lasts, 2 * lasts, 3 * lasts]


# --- the appendices' data: every monster a whole B/X stat line, every pointer a table of the kit ----------

_DICE = re.compile(r"^(\d*d\d+([+-]\d+)?( × \d+)?|\d+)$")
_SAVE = re.compile(r"^(NM|[FCMTDEH]\d+)$")  # normal man, or a class and level (fighter, cleric, magic-user, thief…)
_HD = re.compile(r"^(½|\d+)([+-]\d+)?\**$")


def test_every_monster_has_a_complete_stat_line(content):
    stats = content.table(delve.STATS_TABLE)
    assert len(stats.rows) >= 40
    for row in stats.rows:
        v = dict(row.values)
        name = v["monster"]
        assert isinstance(v["ac"], int) and -3 <= v["ac"] <= 9, name
        assert _HD.match(str(v["hd"])), name
        assert re.match(r"^\d+' \(\d+'\)", str(v["mv"])), name  # a turn's move, then a round's
        # every attack with its damage (dice or effect) in brackets
        assert re.fullmatch(r"[^()]+ \([^()]+\)(,? (and |or )?[^()]+ \([^()]+\))*", str(v["attacks"])), name
        assert _SAVE.match(str(v["save"])), name
        assert isinstance(v["morale"], int) and 2 <= v["morale"] <= 12, name
        assert str(v["treasure"]).strip(), name
        assert isinstance(v["xp"], int) and v["xp"] > 0, name
        assert _DICE.match(str(v["appearing"])), name
        assert v["carries"] == "never" or re.fullmatch(r"[1-6] in 6", str(v["carries"])), name
    named = {str(v).lower() for row in content.table(delve.APPENDICES["A"]).rows for _, v in row.values}
    assert named == {str(row.get("monster")).lower() for row in stats.rows}  # every line is on a level table
    delve.check_content(content)


def test_every_table_the_appendices_point_to_is_printed_with_them(content):
    printed = {t for tables in delve.APPENDIX_TABLES.values() for t in tables}
    for table_id in printed | {delve.ENCOUNTER_TABLE}:
        table = content.table(table_id)
        assert table.source and table.origin == "solo-turns"
        for row in table.rows:
            assert row.see is None or row.see in printed, (table_id, row.label)
            assert row.creature is None
        words = " ".join([table.note or ""] + [str(v) for row in table.rows for _, v in row.values])
        assert set(re.findall(r"Appendix ([A-Z])", words)) <= set(delve.APPENDICES)


@pytest.mark.slow
def test_a_broken_stat_line_stair_and_obstacle_are_all_named_at_once(make_pack, content):
    stats = """\
        id: solo_monster_stats
        title: Stats
        die: none
        source: mine
        columns: {monster: Monster, appearing: "No.", ac: AC, hd: HD, mv: MV, attacks: Att, save: Save, morale: ML,
                  treasure: TT, xp: XP, carries: Carries}
        rows:
          - {monster: Giant rat, appearing: 3d6, ac: 7, hd: "½", mv: "120' (40')", attacks: 1 bite (1d3), save: NM,
             morale: 8, treasure: C, xp: 5, carries: sometimes}
          - {monster: Kobold, appearing: 4d4, ac: 7, hd: "½", mv: "120' (40')", attacks: "—", save: NM,
             morale: 6, treasure: J, xp: 5, carries: never}
        """
    stairs = """\
        id: solo_stairs
        title: Stairs
        die: d6
        source: mine
        columns: {stairs: Stairs, leads: Leads}
        rows:
          "1-5": {stairs: Stone stair, leads: Down one level}
          6: {stairs: Rope, leads: Sideways}
        """
    pack = make_pack({"tables/solo_monster_stats.yaml": stats, "tables/solo_stairs.yaml": stairs})
    with pytest.raises(ContentErrors) as caught:
        delve.check_content(build.load_content([pack]))
    lines = [str(e) for e in caught.value.errors]
    assert "pack/tables/solo_monster_stats.yaml:8: monster 'Giant rat' carries treasure 'sometimes' (expected " \
           "'never' or a chance such as '2 in 6')" in lines
    assert "pack/tables/solo_monster_stats.yaml:10: monster 'Kobold' of table 'solo_monster_stats' needs a whole " \
           "stat line (missing attacks)" in lines
    assert "pack/tables/solo_stairs.yaml:8: stairs 'Rope' lead 'Sideways' (expected 'Up one level', 'Down two " \
           "levels' or the like)" in lines
    assert any(line.endswith("monster 'Goblin' of table 'solo_monsters' has no line in table 'solo_monster_stats' "
                             "(expected a row with monster: Goblin)") for line in lines)


def test_every_trap_gives_its_save_or_check_and_damage_and_every_obstacle_its_way_past(delves):
    traps = [f for r in delves for t in r.turns for f in t.finds if f.appendix == "B"]
    obstacles = [f for r in delves for t in r.turns for f in t.finds if f.appendix == "C"]
    assert len(traps) > 4000 and len(obstacles) > 4000
    for find in traps:
        save, effect = find.details
        assert re.match(r"Save or check: (save vs\. (poison|paralysis|dragon breath|death ray|spells)|Dex check|"
                        r"none: .*attacks as a \d HD monster)", save), save
        assert re.match(r"On a failure: .*(\d+d\d+|Asleep|Held)", effect), effect
    for find in obstacles:
        assert len(find.details) == 1 and find.details[0].startswith("Way past: ")
