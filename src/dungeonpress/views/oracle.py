"""The oracle: its rules in generate.oracle → the answer grid, notes and exact odds, ready to print."""

from __future__ import annotations

from dungeonpress.generate import oracle


def oracle_strip_view() -> dict:
    """The oracle grid computed from the rules in generate.oracle (never typed by hand), with Conflict harm."""
    cases = (("Both 4–6", 5, 4), ("One of each", 4, 2), ("Both 1–3", 3, 1))
    rows = []
    for label, high, low in cases:
        yes, _ = oracle.resolve(high, low)
        no, _ = oracle.resolve(low, high)
        rows.append({"dice": label, "yes": {"answer": yes, "harm": oracle.HARM[yes].lower()},
                     "no": {"answer": no, "harm": oracle.HARM[no].lower()}})
    double, _ = oracle.resolve(3, 3)
    notes = [
        {"term": "Equal dice:", "text": f"read {double} and add 1 to the twist counter (in a Conflict: "
                                        f"{oracle.HARM[double].lower()}, no twist)."},
        {"term": "Advantage:",
         "text": "add a Chance die. Disadvantage: add a Risk die. Keep the higher of that colour."},
        {"term": "Conflict:", "text": "cause n, the foe loses n Luck; take n, you lose n Luck."},
    ]
    return {"rows": rows, "notes": notes}


def oracle_odds_view() -> dict:
    """Exact oracle odds as printed rows: one row per answer, one column per way of rolling."""
    odds = {mode: oracle.oracle_odds(mode) for mode in oracle.MODES}
    rows = []
    for answer in oracle.ANSWERS:
        rows.append({"answer": answer, "cells": [oracle.percent(odds[m][answer]) for m in oracle.MODES]})
    rows.append({"answer": "Double (Yes, but… and +1 twist)",
                 "cells": [oracle.percent(odds[m][oracle.DOUBLE]) for m in oracle.MODES]})
    yes = [sum((odds[m][a] for a in (oracle.YES_AND, oracle.YES, oracle.YES_BUT, oracle.DOUBLE))) for m in oracle.MODES]
    summary = {"yes": [oracle.percent(v) for v in yes],
               "twist_every": int(oracle.TWIST_AT / odds["plain"][oracle.DOUBLE])}
    return {"modes": ["Plain", "Advantage", "Disadvantage"], "rows": rows, "summary": summary}


def harm_odds_view() -> dict:
    odds = {mode: oracle.harm_odds(mode) for mode in oracle.MODES}
    order = ["Cause 3", "Cause 2", "Cause 1", "Take 1", "Take 2", "Take 3"]
    answer_for = {v: k for k, v in oracle.HARM.items()}
    rows = [{"answer": f"{answer_for[h]} ({h})", "cells": [oracle.percent(odds[m][h]) for m in oracle.MODES]}
            for h in order]
    expected = [oracle.expected_harm(m) for m in oracle.MODES]
    return {"modes": ["Plain", "Advantage", "Disadvantage"], "rows": rows,
            "dealt": [f"{float(e[0]):.2f}" for e in expected], "taken": [f"{float(e[1]):.2f}" for e in expected]}


FIGHT_LUCK = ((6, "no Stress"), (5, "1 Stress tag"), (4, "2 Stress tags"), (3, "3 Stress tags"))


def fight_odds_view() -> dict:
    """The chance of winning a Harm & Luck conflict against a foe at Luck 6, by the delver's starting Luck, one column
    per way of rolling; and the exchanges a fight from Luck 6 each lasts on average."""
    rows = [{"answer": f"Luck {luck} ({stress})",
             "cells": [oracle.percent(oracle.fight_odds(mode, luck)[0]) for mode in oracle.MODES]}
            for luck, stress in FIGHT_LUCK]
    lasts = [f"{float(oracle.fight_odds(mode, 6)[1]):.1f}" for mode in oracle.MODES]
    return {"modes": ["Plain", "Advantage", "Disadvantage"], "rows": rows, "lasts": lasts}
