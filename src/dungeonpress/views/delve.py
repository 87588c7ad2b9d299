"""The solo turn procedure: rolled delves and the blank turn log → printed rows, marks and a summary."""

from __future__ import annotations

from dungeonpress.generate import delve
from dungeonpress.model import Content
from dungeonpress.model.delve import BACKTRACK, WORK, Delve, Find, Passage
from dungeonpress.views.notes import SPARE_ID
from dungeonpress.views.words import plural


LOG_ROWS = 24  # turns on each page of the blank turn log


LOG_PAGES = 2  # turn-log pages every booklet has (48 turns)
LOG_SPARES = 3  # more turn-log pages laid out as spares: the booklet keeps as many as it needs to fold in fours


ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")


def log_pages_view() -> list:
    """Rows of the blank turn log: which checks fall on each turn, already marked.

    The pages after the first LOG_PAGES carry a spare-page id, so pdf.pad_to_multiple drops the last
    of them that the booklet does not need (card 2 + appendices 6 + log 4 = 12 in the standard look).
    """
    pages = []
    for page in range(LOG_PAGES + LOG_SPARES):
        rows = []
        for number in range(page * LOG_ROWS + 1, (page + 1) * LOG_ROWS + 1):
            rows.append({
                "turn": number,
                "wander_map": delve.wandering_due(number, True),
                "wander_nomap": delve.wandering_due(number, False),
                "rest": delve.rest_due(number),
                "candle_out": number % 3 == 0,
                "torch_out": number % 6 == 0,
                "lantern_out": number % 24 == 0,
                "leave": (number - 1) // 2,
            })
        page_id = f"turn-log-{page + 1}" if page < LOG_PAGES else f"{SPARE_ID}turn-log-{page + 1}"
        pages.append({"id": page_id, "first": rows[0]["turn"], "last": rows[-1]["turn"], "rows": rows})
    return pages


def monster_lines_view(content: Content, table: dict) -> dict:
    """The statistics table as B/X stat lines: a name, then No., AC, HD, MV, Att, Save, ML, TT, XP and Carries."""
    lines = []
    for row in content.table(delve.STATS_TABLE).rows:
        values = dict(row.values)
        fields = [("No.", values["appearing"])] + [(label, values[key]) for key, label in delve.STAT_LINE]
        fields.append(("Carries", values["carries"]))
        lines.append({"name": str(values["monster"]),
                      "fields": [{"label": label, "value": str(value)} for label, value in fields],
                      "notes": str(values.get("notes") or "").rstrip(".")})
    return {**table, "monster_lines": lines}


def appendices_view(content: Content, table_view) -> list:
    """Appendices A–F in order, each with every table it names; `table_view` prints an ordinary table."""
    out = []
    for letter, ids in delve.APPENDIX_TABLES.items():
        tables = []
        for table_id in ids:
            view = table_view(content.table(table_id))
            tables.append(monster_lines_view(content, view) if table_id == delve.STATS_TABLE else view)
        out.append({"letter": letter, "tables": tables})
    return out


def _find_view(find: Find) -> dict:
    return {"tag": f"{find.appendix}{find.roll}", "text": find.text, "details": list(find.details)}


def delve_view(rolled: Delve, seed: int) -> dict:
    """The delve as printed rows: rolls, what happens, marks for rest, work, backtracking, stairs, light and being lost."""
    light = rolled.light
    rows = []
    for turn in rolled.turns:
        events, marks = [], []
        if turn.wandering:
            events.append({"title": "Wandering monster", "finds": [_find_view(turn.wandering)]})
        if turn.rest:
            marks.append("Rest turn: no encounter check" + (", and a wandering monster finds you" if turn.wandering else ""))
        if turn.activity == WORK:
            done, of, obstacle = turn.work
            marks.append(f"Getting past the {_lower_first(obstacle)}: turn {done} of {of}, no encounter check")
        if turn.activity == BACKTRACK:
            marks.append("Backtracking: no encounter check; " + ("a new area to explore (1-2 on the d6)"
                                                                    if turn.found_area else "no new area yet"))
        if turn.encounter:
            events.append({"title": turn.encounter, "finds": [_find_view(f) for f in turn.finds]})
        if turn.passage:
            marks.append(_passage_mark(turn.passage))
        if turn.stairs_to is not None:
            marks.append(_stairs_mark(turn.level, turn.stairs_to))
        if turn.got_lost:
            marks.append("You are lost")
        elif turn.found_way:
            marks.append("You find a familiar passage: no longer lost")
        elif turn.lost:
            marks.append("Still lost")
        if turn.light_out:
            which = _ordinal(turn.light_number)
            marks.append(f"Your {which} {light} goes out: light another or go blind" if " " not in which
                         else f"Your {light} ({which}) goes out: light another or go blind")
        rolls = [f"{tag} {roll}" for tag, roll in (("W", turn.wandering_roll), ("E", turn.encounter_roll),
                                                   ("O", turn.passage.roll if turn.passage else None),
                                                   ("S", turn.search_roll), ("L", turn.lost_roll))
                 if roll is not None]
        rows.append({
            "turn": turn.number,
            "level": str(turn.level),
            "rolls": rolls,
            "events": events,
            "marks": marks,
            "rest": turn.rest,
            "light": f"{turn.light_left}",
            "light_out": turn.light_out,
            "leave": "lost" if turn.leave_checks is None else str(turn.leave_checks),
        })
    monsters = sum(1 for t in rolled.turns for f in ((t.wandering,) if t.wandering else ()) + t.finds if f.appendix == "A")
    treasure = sum(1 for t in rolled.turns for f in t.finds if f.appendix == "D") + \
        sum(1 for t in rolled.turns for f in t.finds if f.appendix == "A" and any(x.startswith("Carries") for x in f.details))
    exits = [{"check": n, "roll": c.roll, "monster": _find_view(c.monster) if c.monster else None}
             for n, c in enumerate(rolled.exit_checks, start=1)]
    turns = len(rolled.turns)
    return {
        "seed": seed,
        "turns": turns,
        "light": light,
        "light_turns": rolled.light_turns,
        "lights_used": rolled.lights_used,
        "lights_word": plural(rolled.lights_used, light, light + "es" if light == "torch" else ""),
        "mapping": rolled.mapping,
        "deepest": rolled.deepest,
        "rows": rows,
        "summary": {
            "monsters": monsters,
            "treasure": treasure,
            "wandering_checks": sum(1 for t in rolled.turns if t.wandering_roll is not None),
            "rests": sum(1 for t in rolled.turns if t.rest),
            "backtracking": sum(1 for t in rolled.turns if t.activity == BACKTRACK),
            "lost_turns": sum(1 for t in rolled.turns if t.lost or t.found_way),
        },
        "exits": exits,
        "exit_count": len(exits),
        "exit_monsters": sum(1 for c in rolled.exit_checks if c.monster),
        "still_lost": [str(r) for r in rolled.still_lost_rolls],
        "still_lost_count": len(rolled.still_lost_rolls),
        "still_lost_word": plural(len(rolled.still_lost_rolls), "turn"),
        "command": f"dungeonpress delve --seed {seed} --turns {turns} --light {light}"
                   + ("" if rolled.mapping else " --no-map"),
    }


def _passage_mark(passage: Passage) -> str:
    """What the log's one try at an obstacle came to, and what follows from it."""
    if passage.roll is None:
        how = "A way past" if passage.passed else "No way past for this delver"
    else:
        how = f"Tried at {passage.chance}, rolled {passage.roll}: " + ("it gives" if passage.passed else "it holds")
    if passage.passed:
        then = f"{passage.turns} more {plural(passage.turns, 'turn')} of work" if passage.turns else "through at once"
        return f"{how}: {then}" + ("" if passage.blocking else ", then the treasure is yours")
    return f"{how}: " + ("backtrack from the next turn" if passage.blocking else "leave the treasure and explore on")


def _stairs_mark(level: int, to: int) -> str:
    if to == delve.OUT:
        return ("From level 1 these lead out of the dungeon: take them to end the delve here with no walk out. "
                "The log explores on")
    return f"The log takes them: level {to} from the next turn"


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


def _ordinal(number: int) -> str:
    """'first'…'tenth', then 'no. 11', 'no. 12'…"""
    return ORDINALS[number - 1] if number <= len(ORDINALS) else f"no. {number}"
