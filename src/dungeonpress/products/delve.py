"""The solo turn-procedure kit: content and a seed → procedure card and turn-log PDF, and a pre-rolled delve log."""

from __future__ import annotations

from dungeonpress.dice import sub_rng
from dungeonpress.errors import RenderError
from dungeonpress.generate import delve
from dungeonpress.products import views
from dungeonpress.products.common import BuildContext, Command, Option, Output, pdf_from_template

TURNS = (1, 200)
DEFAULT_TURNS = 36
LOG_ROWS = 24  # turns on each page of the blank turn log
LOG_PAGES = 2
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")


def build_delve(ctx: BuildContext, options: dict) -> list[Output]:
    """The procedure card with appendices and blank turn log, and one pre-rolled delve log."""
    # 1. Check the options and that the content has every table the procedure rolls on.
    turns = DEFAULT_TURNS if options.get("turns") is None else options["turns"]
    if not TURNS[0] <= turns <= TURNS[1]:
        raise RenderError(f"delve: --turns must be {TURNS[0]}-{TURNS[1]} (got {turns})")
    light = options.get("light") or "torch"
    mapping = not options.get("no_map")
    missing = [t for t in delve.TABLES if t not in ctx.content.tables]
    if missing:
        raise RenderError(f"delve: the content has no table {', '.join(repr(m) for m in missing)} "
                          f"(expected content/solo-turns/tables/<id>.yaml)")
    seed = ctx.seed if ctx.seed is not None else 0

    # 2. The card, the appendix tables and the blank turn log.
    ctx.tick(0, 2, "solo procedure card")
    tables = {name: views.table_view(ctx.content.table(name), ctx.content) for name in delve.TABLES}
    card = pdf_from_template(ctx, "delve_procedure.html.j2", tables=tables,
                             appendices=[tables[delve.APPENDICES[letter]] for letter in sorted(delve.APPENDICES)],
                             log_pages=log_pages_view())

    # 3. The pre-rolled delve, from its own stream of the seed.
    ctx.tick(1, 2, "rolling the delve")
    rolled = delve.generate_delve(sub_rng(seed, "delve"), ctx.content, turns=turns, light=light, mapping=mapping)
    log = pdf_from_template(ctx, "delve_log.html.j2", delve=delve_view(rolled, seed))
    ctx.tick(2, 2, "delve done")
    return [Output("solo-procedure.pdf", card), Output(f"delve-{seed}.pdf", log)]


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


def _find_view(find: delve.Find) -> dict:
    return {"tag": f"{find.appendix}{find.roll}", "text": find.text, "details": list(find.details)}


def delve_view(rolled: delve.Delve, seed: int) -> dict:
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
        "exit_monsters": sum(1 for c in rolled.exit_checks if c.monster),
        "still_lost": [str(r) for r in rolled.still_lost_rolls],
        "command": f"dungeonpress delve --seed {seed} --turns {turns} --light {light}"
                   + ("" if rolled.mapping else " --no-map"),
    }


def _ordinal(number: int) -> str:
    """'first'…'tenth', then 'no. 11', 'no. 12'…"""
    return ORDINALS[number - 1] if number <= len(ORDINALS) else f"no. {number}"


COMMANDS = (
    Command(
        name="delve",
        help="the solo turn-procedure kit: procedure card, turn log, appendices A-F, and a pre-rolled delve log",
        run=build_delve,
        seeded=True,
        options=(
            Option(("--turns",), f"turns to pre-roll, {TURNS[0]}-{TURNS[1]} (default {DEFAULT_TURNS})", type=int,
                   default=DEFAULT_TURNS, min=TURNS[0], max=TURNS[1]),
            Option(("--light",), "the light source carried (default torch)", choices=delve.LIGHTS, default="torch"),
            Option(("--no-map",), "the delver does not map: wandering checks every fourth turn, 1 in 10 a turn "
                                  "to get lost", flag=True),
        ),
        example="dungeonpress delve --seed 1234 --turns 24 --light lantern --no-map",
    ),
)
