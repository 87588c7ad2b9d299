"""Notes pages: how many, their heading and ruled lines → the spare pages a booklet is padded with (and a pack's record)."""

from __future__ import annotations

SPARE_ID = "notes-"  # the id prefix paginate.pages.pad_to_multiple and keep_pages look for


def notes_view(count: int, *, heading: str = "Notes", lines: int = 21, cls: str = "notes", tag: str = "h1") -> list:
    """`count` notes pages, each with `lines` ruled lines; ids `notes-1`… so spare ones can be dropped after layout."""
    return [notes_page(f"{SPARE_ID}{n}", heading=heading, lines=lines, cls=cls, tag=tag) for n in range(1, count + 1)]


def notes_page(page_id: str, *, heading: str = "Notes", lines: int = 21, cls: str = "notes", tag: str = "h1") -> dict:
    """One notes page for the notes macro: its id, class, heading and one item per ruled line."""
    return {"id": page_id, "cls": cls, "tag": tag, "heading": heading, "lines": list(range(lines)), "record": [],
            "rooms": []}


def record_page(page_id: str, delves: list, *, heading: str = "Delves Played", cls: str = "notes record",
                tag: str = "h1") -> dict:
    """A pack's record of its delves, in a notes page's place: a row to fill in for each delve (`delves`: each
    {"pick": its die face, "title": its name}), for what the delver took out of it and how it ended."""
    return notes_page(page_id, heading=heading, lines=0, cls=cls, tag=tag) | {
        "record": [{"pick": delve["pick"], "title": delve["title"]} for delve in delves]}


def room_log_page(page_id: str, rooms: list, *, heading: str = "Room Log", cls: str = "notes room-log",
                  tag: str = "h1") -> dict:
    """A delve's log in a notes page's place: a row for each room (`rooms`: their numbers), with boxes for entered
    and cleared and room to write what was found there; nothing of what the key says, so it spoils nothing."""
    return notes_page(page_id, heading=heading, lines=0, cls=cls, tag=tag) | {"rooms": list(rooms)}


GRID_SQUARE_MM = 5.0
GRID_SQUARES = (23, 28)  # across, down: 115 x 140 mm, inside an A5 or half-letter page's text block in every theme


def grid_page(page_id: str, *, heading: str = "Your Map", cls: str = "notes grid-page", tag: str = "h1",
              squares: tuple = GRID_SQUARES) -> dict:
    """A page of 5 mm squares in a notes page's place, to map the delve as it is explored (or the level the stairs
    lead down to): `grid` gives the square's size and the lines' positions, in mm, for an inline SVG; `squares` how
    many across and down."""
    across, down = squares
    width, height = across * GRID_SQUARE_MM, down * GRID_SQUARE_MM
    return notes_page(page_id, heading=heading, lines=0, cls=cls, tag=tag) | {"grid": {
        "width": width, "height": height,
        "xs": [n * GRID_SQUARE_MM for n in range(across + 1)], "ys": [n * GRID_SQUARE_MM for n in range(down + 1)]}}


def own_table_page(page_id: str, dice: tuple, *, heading: str = "Your Own Tables", cls: str = "notes own-tables",
                   tag: str = "h1") -> dict:
    """A page of empty tables in a notes page's place, one for each die of `dice` ("d6", "2d6" or "d66"), to write a
    table of one's own: its name on a line, an entry beside each roll. A d66 table is set two rolls to a row (11 beside
    41, … 36 beside 66), so its 36 rolls take 18 rows."""
    return notes_page(page_id, heading=heading, lines=0, cls=cls, tag=tag) | {"own_tables": [own_table(die) for die in dice]}


OWN_TABLE_ROWS = {"d6": 6, "2d6": 11, "d66": 18}  # the rows an empty table of each die takes (a d66 one two rolls a row)


def own_table(die: str) -> dict:
    """An empty table of one's own for the own_table macro: its die ("d6", "2d6" or "d66") and its rows of rolls."""
    if die == "d66":
        rolls = [f"{tens}{units}" for tens in range(1, 7) for units in range(1, 7)]
        rows = [[first, second] for first, second in zip(rolls[:18], rolls[18:])]
    elif die in ("d6", "2d6"):
        rows = [[str(n)] for n in (range(1, 7) if die == "d6" else range(2, 13))]
    else:
        raise ValueError(f"an own table's die must be d6, 2d6 or d66 (got {die!r})")
    return {"die": die, "rows": rows, "two_up": die == "d66"}


def foe_log_page(page_id: str, rows: int, *, luck: int = 6, heading: str = "Foes Fought",
                 cls: str = "notes foe-log-page", tag: str = "h1") -> dict:
    """A log of the foes fought in a notes page's place: `rows` rows to write a foe in, each with `luck` boxes to cross
    off (`foes`, as a booklet's How to Play also prints it where it has room)."""
    return notes_page(page_id, heading=heading, lines=0, cls=cls, tag=tag) | {"foes": foe_log(rows, luck=luck)}


def foe_log(rows: int, *, luck: int = 6) -> dict:
    """The foes' log's rows and each row's Luck boxes (one item each), and the Luck a foe starts at, for the foe_log
    macro."""
    return {"rows": list(range(rows)), "luck": list(range(luck)), "start": luck}


THREADS = ("People met", "Places found", "Questions still open")


def threads_page(page_id: str, *, lines: int = 6, heading: str = "Threads", sections: tuple = THREADS,
                 cls: str = "notes threads", tag: str = "h1") -> dict:
    """A notes page whose lines are shared out under labels (`sections`, `lines` each): the people, places and open
    questions a delve leaves behind, rather than one page of bare lines."""
    return notes_page(page_id, heading=heading, lines=0, cls=cls, tag=tag) | {
        "sections": [{"label": label, "lines": list(range(lines))} for label in sections]}
