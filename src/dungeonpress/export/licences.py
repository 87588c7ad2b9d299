"""Who wrote each table and under what terms it may be shared, keyed by the table's `source:`.

This is the one place licence and credit facts live; every export format reads them from here.
The facts follow README.md "Credits and licences" and the credits page of the book.
"""

from __future__ import annotations

from dataclasses import dataclass

CC_BY_SA = "https://creativecommons.org/licenses/by-sa/4.0/"
LONER_URL = "https://loner.zeruhur.space/"
# The Loner credits name the games it builds on; CC BY-SA asks us to pass that attribution on.
LONER_CREDITS = ("Recluse Engine and the Tiny Solitary Soldier oracle by Graven Utterance (CC BY 4.0); "
                 "Freeform Universal by Nathan Russell (CC BY 4.0); 6Q System by Marcus Burggraf (CC BY 4.0); "
                 "Mythic by Tana Pigeon; Risus by S. John Ross")
LONER_AUTHORS = ("Roberto Bisceglie", "Graven Utterance", "Nathan Russell", "Marcus Burggraf", "Tana Pigeon",
                 "S. John Ross")


@dataclass(frozen=True)
class Terms:
    """The source a table comes from, its authors and the licence its exported data carries."""

    title: str  # the work the table comes from
    authors: tuple  # names, first the author of the work itself
    url: str | None  # where that work can be found, when known
    licence: str  # short licence name as a reader would say it
    licence_url: str | None  # None: the original states no licence text we can point to
    date: str  # YYYY-MM-DD of the source (only the year is known: the 1st of January of it)
    credit: str  # one sentence to print wherever the table goes

    def as_json(self) -> dict:
        return {"source": self.title, "authors": list(self.authors), "url": self.url, "licence": self.licence,
                "licence_url": self.licence_url, "credit": self.credit}


_LONER_EDITION = ("Made with dungeonpress, which states the rules in new words and adds tables written for it; "
                  "shared under CC BY-SA 4.0. " + "Loner builds on " + LONER_CREDITS + ".")

TERMS = {
    "core": Terms(
        title="Loner – Core Rules v2.3", authors=LONER_AUTHORS, url=LONER_URL, licence="CC BY-SA 4.0",
        licence_url=CC_BY_SA, date="2023-01-01",
        credit="From Loner by Roberto Bisceglie (CC BY-SA 4.0). " + _LONER_EDITION),
    "dungeoneer": Terms(
        title="Loner: Dungeoneer", authors=LONER_AUTHORS, url=LONER_URL, licence="CC BY-SA 4.0",
        licence_url=CC_BY_SA, date="2024-01-01",
        credit="From Loner: Dungeoneer by Roberto Bisceglie (CC BY-SA 4.0). " + _LONER_EDITION),
    "dungeonpress": Terms(
        title="Loner: Dungeoneer, dungeonpress edition", authors=("the dungeonpress project", *LONER_AUTHORS),
        url=LONER_URL, licence="CC BY-SA 4.0", licence_url=CC_BY_SA, date="2024-01-01",
        credit="Written by the dungeonpress project for its edition of Loner: Dungeoneer by Roberto Bisceglie; "
               "CC BY-SA 4.0. Loner builds on " + LONER_CREDITS + "."),
    "solo-turns": Terms(
        title="Solo turn procedure kit (based on the 2010 blog post Solo D&D Play)",
        authors=("the dungeonpress project",), url=None, licence="CC BY-SA 4.0",
        licence_url=CC_BY_SA, date="2010-08-15",
        credit="Based on the blog post Solo D&D Play (15 August 2010), which never published its tables; these "
               "appendices were written by the dungeonpress project for Basic/Expert D&D play, with the monsters, "
               "saving throws and treasure of those rules, and are shared under CC BY-SA 4.0."),
    "paperogue": Terms(
        title="Paperogue", authors=("the author of Paperogue (not named in the source)",), url=None,
        licence="no licence stated by the original; credited as based on Paperogue", licence_url=None,
        date="2024-01-01",
        credit="Based on Paperogue, a graph-paper roguelike inspired by Pocket Dungeon, Solo Dungeon Crawl and "
               "Rogue. Its item tables are transcribed as game data; the original states no licence."),
    "dunginoes": Terms(
        title="Dunginoes", authors=("Chris of Love and Loss Games",), url="https://loveandlossgames.com",
        licence="free for non-commercial use with credit to loveandlossgames.com", licence_url=None,
        date="2024-01-01",
        credit="Dunginoes by Love and Loss Games (loveandlossgames.com): free for non-commercial use with credit; "
               "not for sale."),
}


def terms_for(origin: str) -> Terms:
    """The terms of a table's `source:`: built-in packs use the keys above; a user pack credits itself."""
    if origin in TERMS:
        return TERMS[origin]
    # A user pack's `source:` is its own one-line credit: we pass it on and claim no licence for it.
    # The date is a fixed stand-in (formats that need one must not change bytes run to run).
    return Terms(title=origin, authors=(origin,), url=None, licence="as stated by its author", licence_url=None,
                 date="2026-01-01", credit=f"From {origin}.")
