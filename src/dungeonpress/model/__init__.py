"""The model: frozen dataclasses for validated content (here) and, in its modules, for every generated thing."""

from __future__ import annotations

from dataclasses import dataclass, field

from dungeonpress.errors import ContentError, Source


# What a dungeon map can draw in a room, by name: a table row (or one of its choices) lists the
# marks its words state, so the key and the map are read from the same data.
MAP_MARKS = ("rubble", "cracks", "columns", "statues", "broken_statues", "alcoves", "water", "altar", "ritual", "forge", "library", "vault",
             "crates", "furniture", "barred", "locked")


@dataclass(frozen=True)
class Choice:
    """One concrete reading of a row that offers alternatives ("columns/statues"): its words and the marks they state."""

    text: str
    marks: tuple = ()


@dataclass(frozen=True)
class Row:
    """One row of a table: the results it covers (`low`..`high`) and its column values."""

    low: int
    high: int
    values: tuple  # (column key, value) pairs in column order
    see: str | None = None  # id of the table that resolves this row
    creature: int | None = None  # bestiary key this row names
    marks: tuple = ()  # map marks the row's words state (MAP_MARKS), when it offers no choices
    choices: tuple = ()  # Choice: the concrete readings a generator picks one of ("barred" or "locked")
    source: Source | None = field(default=None, compare=False)

    @property
    def label(self) -> str:
        """How the roll is printed: `7`, `1-3` (en dash in print is the template's job)."""
        return str(self.low) if self.low == self.high else f"{self.low}-{self.high}"

    def get(self, key: str):
        return dict(self.values)[key]

    @property
    def text(self) -> str:
        """All column values joined, for one-line uses (zines, exports)."""
        return " / ".join(str(v) for _, v in self.values)


@dataclass(frozen=True)
class Table:
    """A random (or reference) table: id, die, ordered columns and the rows covering the die."""

    id: str
    title: str
    die: str  # a dice.DICE_NAMES entry; "none" for a table that is read, not rolled
    columns: tuple  # (key, header) pairs
    rows: tuple
    source_pack: str
    origin: str  # core | dungeoneer | dungeonpress | paperogue | dunginoes | solo-turns, or a user pack's own credit
    group: str = ""
    note: str = ""
    source: Source | None = field(default=None, compare=False)

    @property
    def rolled(self) -> bool:
        return self.die != "none"

    def row_for(self, result: int) -> Row:
        for row in self.rows:
            if row.low <= result <= row.high:
                return row
        raise KeyError(f"table '{self.id}' has no row for {result}")


@dataclass(frozen=True)
class Creature:
    """A bestiary entry in the Loner creature format; non-living things have no goal/motive/nemesis."""

    key: int
    name: str
    tier: str
    living: bool
    concept: str
    skills: tuple
    frailty: str
    gear: tuple
    goal: str | None
    motive: str | None
    nemesis: str | None
    description: str = ""
    source: Source | None = field(default=None, compare=False)


@dataclass(frozen=True)
class MediaWork:
    title: str
    creator: str
    year: int
    note: str = ""


@dataclass(frozen=True)
class MediaGroup:
    type: str
    works: tuple


@dataclass(frozen=True)
class Chapter:
    """One Markdown chapter of the book, with where it was listed and where its text lives."""

    path: str  # relative to its pack, as written in book.yaml
    text: str
    source: Source  # the chapter file, line 1
    listed_at: Source | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Book:
    title: str
    subtitle: str
    chapters: tuple


@dataclass(frozen=True)
class Content:
    """Everything the products read: tables by id, the bestiary, media and the book."""

    tables: dict  # id -> Table, in load order
    creatures: tuple  # Creature, by key
    media: tuple  # MediaGroup
    book: Book | None
    bestiary_title: str = "Creatures & Foes"
    digest: str = ""  # sha256 of every content file read, for the colophon
    warnings: tuple = ()  # "path:line: why": content-looking files not read, invisible characters in text
    notes: tuple = ()  # "path:line: replaces built-in table 'x' (where)" for each table a user pack replaces
    delve_rules: Chapter | None = None  # delve-rules.md: the rules every pre-rolled dungeon prints, in sections

    def table(self, table_id: str) -> Table:
        return self.tables[table_id]

    def table_problems(self, needs, *, needer: str, purpose: str, rolled: bool = True) -> list:
        """ContentErrors for every table a product or generator needs that is absent, unrolled or short of columns.

        `needs` maps table id to the column keys read (or is a plain list of ids); `needer` starts the
        missing-table message ("the dungeon generator needs"), `purpose` ends the others ("to
        generate a dungeon"). Callers add their own checks and raise them all together.
        """
        needs = needs if isinstance(needs, dict) else {table_id: () for table_id in needs}
        problems = []
        for table_id, columns in needs.items():
            table = self.tables.get(table_id)
            if table is None:
                problems.append(ContentError(None, f"{needer} table '{table_id}', which no content pack defines "
                                                   f"(expected <pack>/tables/{table_id}.yaml)"))
                continue
            if rolled and not table.rolled:
                problems.append(ContentError(table.source, f"table '{table_id}' must have a die to roll "
                                                           f"{purpose} (got die: none)"))
            missing = [c for c in columns if c not in dict(table.columns)]
            if missing:
                problems.append(ContentError(table.source, f"table '{table_id}' needs the column(s) "
                                                           f"{', '.join(missing)} {purpose}"))
        return problems

    def creature(self, key: int) -> Creature:
        for creature in self.creatures:
            if creature.key == key:
                return creature
        raise KeyError(f"no creature {key} in the bestiary")
