"""The solo turn procedure: rolled delves and the blank turn log → printed rows, marks and a summary."""

from __future__ import annotations

from dungeonpress.generate import delve
from dungeonpress.model.delve import Delve, Find
from dungeonpress.views.words import plural


LOG_ROWS = 24  # turns on each page of the blank turn log


LOG_PAGES = 3  # card 2 + appendices 3 + log 3: an 8-page booklet that folds


ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")


def log_pages_view() -> list:
    """Rows of the blank turn log: which checks fall on each turn, already marked."""
    pages = []
    for page in range(LOG_PAGES):
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
        pages.append({"first": rows[0]["turn"], "last": rows[-1]["turn"], "rows": rows})
    return pages


def _find_view(find: Find) -> dict:
    return {"tag": f"{find.appendix}{find.roll}", "text": find.text, "details": list(find.details)}


def delve_view(rolled: Delve, seed: int) -> dict:
    """The delve as printed rows: rolls, what happens, marks for rest, light and being lost."""
    light = rolled.light
    rows = []
    for turn in rolled.turns:
        events, marks = [], []
        if turn.wandering:
            events.append({"title": "Wandering monster", "finds": [_find_view(turn.wandering)]})
        if turn.rest:
            marks.append("Rest turn: no encounter check" + (", and a wandering monster finds you" if turn.wandering else ""))
        if turn.encounter:
            events.append({"title": turn.encounter, "finds": [_find_view(f) for f in turn.finds]})
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
        rolls = []
        if turn.wandering_roll is not None:
            rolls.append(f"W {turn.wandering_roll}")
        if turn.encounter_roll is not None:
            rolls.append(f"E {turn.encounter_roll}")
        if turn.lost_roll is not None:
            rolls.append(f"L {turn.lost_roll}")
        rows.append({
            "turn": turn.number,
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
        "rows": rows,
        "summary": {
            "monsters": monsters,
            "treasure": treasure,
            "rests": sum(1 for t in rolled.turns if t.rest),
            "wandering_checks": sum(1 for t in rolled.turns if t.wandering_roll is not None),
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


def _ordinal(number: int) -> str:
    """'first'…'tenth', then 'no. 11', 'no. 12'…"""
    return ORDINALS[number - 1] if number <= len(ORDINALS) else f"no. {number}"
