"""Turn raw located data into model objects, collecting every ContentError."""

from __future__ import annotations

import difflib
import hashlib
import re

from dungeonpress.dice import DICE_NAMES, DiceSpec
from dungeonpress.errors import ContentError, ContentErrors, Source
from dungeonpress.load import RawContent, source_of
from dungeonpress.model import MAP_MARKS, Book, Chapter, Choice, Content, Creature, MediaGroup, MediaWork, Row, Table

ORIGINS = ("core", "dungeoneer", "dungeonpress", "paperogue", "dunginoes", "solo-turns")
MAX_CREDIT = 80  # a user pack's own `source` credit, printed as a section heading of the tables booklet
TIERS = ("vermin", "minion", "brute", "elite", "boss")
TABLE_FIELDS = {"id", "title", "die", "source", "group", "note", "columns", "rows"}
ROW_EXTRAS = ("see", "creature", "marks", "choices")
CREATURE_FIELDS = {"name", "tier", "living", "concept", "skills", "frailty", "gear", "goal", "motive",
                   "nemesis", "description"}
LIVING_ONLY = ("goal", "motive", "nemesis")
DIRECTIVE = re.compile(r"^\[\[\s*(\w+)(?:\s+([\w-]+))?\s*\]\]\s*$")
ODDS_KINDS = ("oracle", "harm", "fight")
DELVE_RULES = "delve-rules.md"  # a pack's rules for its pre-rolled dungeons (Markdown: `##` sections, `[[table ID]]`)
_ID = re.compile(r"[a-z0-9_]+")  # whole id (fullmatch): `$` would let a trailing line feed through
# An id names files in every export (`<id>.json`, `<id>.csv`, their temp files `.<id>.json.dp-PID-XXXXXXXX.part`)
# and Datasworn keys that spell digits out: 64 keeps every one of them well inside a 255-byte file name.
MAX_ID = 64
# Characters that change how text reads without being seen: bidirectional overrides and isolates
# (U+202E turns "txt.exe" into "exe.txt"), zero-width spaces and joiners, word joiner, BOM, and
# Unicode tag characters (invisible text). A pack is warned; `--strict` fails it.
HIDDEN = re.compile("[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\U000e0000-\U000e007f]")
_RANGE = re.compile(r"^\s*(\d+)\s*-\s*(\d+)\s*$")

# Limits on sizes and counts (documented in content/README.md): far above anything a printed
# game needs, low enough that a hostile or careless pack fails in milliseconds with file:line.
MAX_ROWS = 200  # rows in one table (a d100 table has at most 100)
MAX_COLUMNS = 12  # columns in one table
MAX_CELL = 1_000  # characters in one table cell, title, note or creature field
MAX_CHAPTER = 200_000  # characters in one Markdown chapter
MAX_CHAPTERS = 100  # chapters in book.yaml
MAX_WORKS = 500  # media works in the appendix


class _Errors(list):
    """The errors found so far; `add` keeps going so every problem is reported in one run."""

    def add(self, source: Source, message: str) -> None:
        self.append(ContentError(source, message))


def validate_content(raw: RawContent) -> Content:
    """Check every pack and build the Content; raise ContentErrors listing all problems."""
    errors = _Errors(raw.errors)
    tables, creatures, media, book, bestiary_title = {}, (), (), None, "Creatures & Foes"
    delve_rules = None
    first_user_pack = raw.first_user_pack

    warnings = [f"{where}: {why}" for where, why in raw.ignored]
    notes = []
    for index, pack in enumerate(raw.packs):
        user = first_user_pack is not None and index >= first_user_pack
        warnings.extend(f"{where}: {why}" for where, why in pack.ignored)
        for path, where, data in pack.tables:
            table = _validate_table(data, where, path.stem, pack.name, errors, user=user)
            if table is None:
                continue
            earlier = tables.get(table.id)
            if earlier is not None and not user:
                errors.add(table.source, f"duplicate table id '{table.id}' (first defined at {earlier.source})")
                continue
            if earlier is not None:
                notes.append(f"{table.source}: replaces built-in table '{table.id}' ({earlier.source})")
            tables[table.id] = table  # a user pack replaces a built-in table by id
        if pack.bestiary:
            merge = user and bool(creatures)  # a user pack's creatures replace built-in ones by d66 key
            found, bestiary_title = _validate_bestiary(*pack.bestiary, errors, partial=merge)
            if merge:
                by_key = {c.key: c for c in creatures}
                for creature in found:
                    notes.append(f"{creature.source}: replaces creature {creature.key} '{by_key[creature.key].name}'")
                    by_key[creature.key] = creature
                creatures = tuple(sorted(by_key.values(), key=lambda c: c.key))
            else:
                creatures = found
        if pack.media:
            media = _validate_media(*pack.media, errors)
        if pack.book:
            if user and book:
                notes.append(f"{pack.book[0]}: replaces the built-in book ({book.chapters[0].listed_at.path if book.chapters else 'book.yaml'})")
            book = _validate_book(*pack.book, pack.texts, errors, refused=pack.refused)
        if DELVE_RULES in pack.texts:  # a later pack's rules replace an earlier one's
            where, text = pack.texts[DELVE_RULES]
            delve_rules = Chapter(path=DELVE_RULES, text=text, source=where, listed_at=where)

    keys = {c.key for c in creatures}
    for table in tables.values():
        for row in table.rows:
            if row.see is not None and row.see not in tables:
                errors.add(row.source, f"row {row.label} of table '{table.id}' points to table '{row.see}' "
                                       f"which does not exist{_did_you_mean(row.see, tables)}")
            if row.creature is not None and row.creature not in keys:
                errors.add(row.source, f"row {row.label} of table '{table.id}' names creature {row.creature} "
                                       f"which is not in the bestiary (expected a d66 key 11-66 that exists)")
    if book:
        _check_directives(book, tables, bool(creatures), bool(media), errors)
    if delve_rules:
        _check_directives(Book("", "", (delve_rules,)), tables, False, False, errors, kinds=("table",))

    if errors:
        raise ContentErrors(list(errors))
    warnings.extend(_hidden_character_warnings(tables, creatures, book))
    return Content(tables=tables, creatures=creatures, media=media, book=book,
                   bestiary_title=bestiary_title, digest=_digest(raw), warnings=tuple(warnings), notes=tuple(notes),
                   delve_rules=delve_rules)


def _hidden_character_warnings(tables: dict, creatures, book) -> list:
    """`path:line: …` for each text that holds a character which hides or reorders what is read."""
    found = []

    def check(where, what, text):
        match = HIDDEN.search(text) if isinstance(text, str) else None
        if match:
            found.append(f"{where}: {what} holds the invisible character U+{ord(match.group()):04X} "
                         f"(it can hide or reorder text; remove it)")

    for table in tables.values():
        for field_name in ("id", "title", "note", "group", "origin"):
            check(table.source, f"table '{table.id}' {field_name}", getattr(table, field_name))
        for title in (title for _, title in table.columns):
            check(table.source, f"table '{table.id}' column title", title)
        for row in table.rows:
            for key, value in row.values:
                check(row.source, f"row {row.label} of table '{table.id}' ({key})", value)
    for creature in creatures:
        for field_name in ("name", "concept", "frailty", "goal", "motive", "nemesis", "description"):
            check(creature.source, f"creature {creature.key} {field_name}", getattr(creature, field_name))
        for value in (*creature.skills, *creature.gear):
            check(creature.source, f"creature {creature.key}", value)
    for chapter in (book.chapters if book else ()):
        for number, line in enumerate(chapter.text.splitlines(), start=1):
            check(Source(chapter.source.path, number), f"chapter {chapter.path}", line)
    return found


def _digest(raw: RawContent) -> str:
    sha = hashlib.sha256()
    for pack in raw.packs:
        for path, _, _ in pack.tables:
            sha.update(pack.read.get(path, "").encode())  # never re-read: the loader's sealed read is the only one
        for item in (pack.bestiary, pack.media, pack.book):
            if item:
                sha.update(repr(item[1]).encode())
        for name in sorted(pack.texts):
            sha.update(pack.texts[name][1].encode())
    return sha.hexdigest()


def _did_you_mean(name: str, choices) -> str:
    close = difflib.get_close_matches(str(name), sorted(choices), n=1)
    return f" (did you mean '{close[0]}'?)" if close else ""


def _where(data, key, default: Source) -> Source:
    sources = getattr(data, "key_sources", None) or {}
    return sources.get(key, source_of(data, default))


def _require_mapping(data, where: Source, what: str, errors: _Errors) -> bool:
    if not isinstance(data, dict):
        errors.add(source_of(data, where), f"{what} must be a mapping of fields (got {_kind(data)})")
        return False
    return True


def _kind(value) -> str:
    if value is None:
        return "nothing"
    for typ, name in ((bool, "true/false"), (dict, "a mapping"), (list, "a list"), (str, "text"),
                      (int, "a number"), (float, "a number")):
        if isinstance(value, typ):
            return name
    return type(value).__name__


def _text(data, key, where, errors, what, *, required=True):
    value = data.get(key)
    if value is None:
        if required:
            errors.add(source_of(data, where), f"{what} has no '{key}' (expected text)")
        return None
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        errors.add(_where(data, key, where), f"{what}: '{key}' must be text (got {_kind(value)})")
        return None
    if len(str(value)) > MAX_CELL:
        errors.add(_where(data, key, where), f"{what}: '{key}' is {len(str(value))} characters long "
                                             f"(at most {MAX_CELL})")
        return None
    return str(value)


def _unknown_fields(data, allowed, where, what, errors):
    for key in data:
        if key not in allowed:
            errors.add(_where(data, key, where), f"{what} has unknown field '{key}' "
                                                 f"(expected one of {', '.join(sorted(allowed))})")


# --- tables ----------------------------------------------------------------------------------

def _validate_table(data, where: Source, stem: str, pack: str, errors: _Errors, *, user: bool = False) -> Table | None:
    if not _require_mapping(data, where, f"table file {where.path}", errors):
        return None
    table_id = data.get("id")
    if not isinstance(table_id, str) or not _ID.fullmatch(table_id) or len(table_id) > MAX_ID:
        shown = repr(table_id) if not isinstance(table_id, str) or len(table_id) <= MAX_ID \
            else f"{table_id[:20]!r}… of {len(table_id)} characters"
        errors.add(_where(data, "id", where), f"table 'id' must be lowercase letters, digits and _, at most "
                                              f"{MAX_ID} characters (got {shown})")
        return None
    what = f"table '{table_id}'"
    if table_id != stem:
        errors.add(_where(data, "id", where), f"{what} is in a file named '{stem}.yaml' (the file must be '{table_id}.yaml')")
    _unknown_fields(data, TABLE_FIELDS, where, what, errors)
    title = _text(data, "title", where, errors, what)
    die = data.get("die")
    if die not in DICE_NAMES:
        errors.add(_where(data, "die", where), f"unknown dice '{die}' (expected one of {', '.join(DICE_NAMES)})")
        return None
    origin = data.get("source")
    if user:  # a third-party pack credits itself: any short line of text
        if not isinstance(origin, str) or not origin.strip() or len(origin) > MAX_CREDIT or "\n" in origin:
            errors.add(_where(data, "source", where), f"{what} needs 'source': who made it, one line of at most "
                                                      f"{MAX_CREDIT} characters (got {origin!r})")
        elif origin.strip().lower() in ORIGINS:  # the built-in names carry Loner's credits and licence
            errors.add(_where(data, "source", where), f"{what} has source {origin!r}, the name of a built-in source "
                                                      f"(a pack credits itself: write who made the table)")
    elif origin not in ORIGINS:
        errors.add(_where(data, "source", where), f"{what} has source {origin!r} (expected one of {', '.join(ORIGINS)})")
    group = _text(data, "group", where, errors, what, required=False) or ""
    note = _text(data, "note", where, errors, what, required=False) or ""
    columns = _validate_columns(data, where, what, errors)
    if columns is None:
        return None
    rows = _validate_rows(data, where, table_id, die, columns, errors)
    if rows is None or title is None:
        return None
    return Table(id=table_id, title=title, die=die, columns=columns, rows=rows, source_pack=pack,
                 origin=origin or "", group=group, note=note, source=source_of(data, where))


def _validate_columns(data, where, what, errors):
    columns = data.get("columns")
    if not isinstance(columns, dict) or not columns:
        errors.add(_where(data, "columns", where), f"{what} needs 'columns': a mapping of column key to header")
        return None
    if len(columns) > MAX_COLUMNS:
        errors.add(_where(data, "columns", where), f"{what} has {len(columns)} columns (at most {MAX_COLUMNS})")
        return None
    out = []
    for key, header in columns.items():
        if not isinstance(key, str) or not _ID.fullmatch(key) or key in ROW_EXTRAS:
            errors.add(_where(columns, key, where), f"{what}: column key {key!r} must be lowercase letters, digits "
                                                     f"and _, and not {', '.join(repr(e) for e in ROW_EXTRAS)}")
            return None
        out.append((key, str(header)))
    return tuple(out)


def _parse_key(key, spec: DiceSpec):
    """A row key as (low, high), or an error message."""
    if isinstance(key, int) and not isinstance(key, bool):
        return (key, key), None
    match = _RANGE.match(str(key))
    if not match:
        return None, f"row key {key!r} is not a result or a range like 1-3"
    if not spec.allows_ranges:
        return None, f"row key '{key}': a {spec.name} table cannot use ranges (give each result its own row)"
    low, high = int(match.group(1)), int(match.group(2))
    if low > high:
        return None, f"row key '{key}' runs backwards (write {high}-{low})"
    return (low, high), None


def _validate_rows(data, where, table_id, die, columns, errors):
    what = f"table '{table_id}'"
    rows_data = data.get("rows")
    column_keys = [k for k, _ in columns]
    if isinstance(rows_data, (list, dict)) and len(rows_data) > MAX_ROWS:
        errors.add(_where(data, "rows", where), f"{what} has {len(rows_data)} rows (at most {MAX_ROWS})")
        return None
    if die == "none":
        if not isinstance(rows_data, list) or not rows_data:
            errors.add(_where(data, "rows", where), f"{what} is a reference table (die: none): 'rows' must be a list")
            return None
        rows = []
        for index, (item, item_where) in enumerate(zip(rows_data, rows_data.item_sources), start=1):
            row = _validate_row(item, item_where, str(index), what, column_keys, errors)
            if row:
                rows.append(Row(low=index, high=index, values=row[0], see=row[1], creature=row[2], marks=row[3],
                                choices=row[4], source=item_where))
        return tuple(rows)

    if not isinstance(rows_data, dict) or not rows_data:
        errors.add(_where(data, "rows", where), f"{what} needs 'rows': a mapping of result to row")
        return None
    spec = DiceSpec(die)
    allowed = set(spec.results)
    covered: dict[int, Source] = {}
    rows = []
    for key, item in rows_data.items():
        key_where = _where(rows_data, key, where)
        span, problem = _parse_key(key, spec)
        if problem:
            errors.add(key_where, f"{what}: {problem}")
            continue
        # Bounds first: a range like 1-99999999999 is refused before any list is built.
        if span[0] < min(allowed) or span[1] > max(allowed) or any(r not in allowed for r in range(span[0], span[1] + 1)):
            errors.add(key_where, f"{what}: row {key} is outside what a {die} can roll ({_needs(spec)})")
            continue
        for result in range(span[0], span[1] + 1):
            if result in covered:
                errors.add(key_where, f"{what} covers {result} twice (also at line {covered[result].line})")
            covered.setdefault(result, key_where)
        row = _validate_row(item, key_where, str(key), what, column_keys, errors)
        if row:
            rows.append(Row(low=span[0], high=span[1], values=row[0], see=row[1], creature=row[2], marks=row[3],
                            choices=row[4], source=key_where))
    missing = [r for r in spec.results if r not in covered]
    if missing:
        shown = ", ".join(str(m) for m in missing[:6]) + (", …" if len(missing) > 6 else "")
        errors.add(source_of(rows_data, where), f"{what} has no row for {shown} (a {die} table needs {_needs(spec)})")
    rows.sort(key=lambda r: r.low)
    return tuple(rows)


def _needs(spec: DiceSpec) -> str:
    if spec.name == "d66":
        return "the 36 results 11-66"
    results = spec.results
    return f"{results[0]}-{results[-1]}"


def _validate_row(item, where, label, what, column_keys, errors):
    """A row as (values, see, creature, marks, choices), or None after recording what is wrong."""
    if isinstance(item, (str, int)) and not isinstance(item, bool):
        if len(column_keys) != 1:
            errors.add(where, f"row {label} of {what} is plain text but the table has {len(column_keys)} columns "
                              f"(write a mapping with {', '.join(column_keys)})")
            return None
        if len(str(item)) > MAX_CELL:
            errors.add(where, f"row {label} of {what} is {len(str(item))} characters long (at most {MAX_CELL})")
            return None
        return ((column_keys[0], item),), None, None, (), ()
    if not isinstance(item, dict):
        errors.add(where, f"row {label} of {what} must be text or a mapping (got {_kind(item)})")
        return None
    ok = True
    for key in item:
        if key not in column_keys and key not in ROW_EXTRAS:
            errors.add(_where(item, key, where), f"row {label} of {what} has unknown column '{key}' "
                                                 f"(columns: {', '.join(column_keys)})")
            ok = False
    values = []
    for key in column_keys:
        value = item.get(key)
        if value is None or isinstance(value, bool) or not isinstance(value, (str, int)) or str(value).strip() == "":
            errors.add(source_of(item, where), f"row {label} of {what} has no '{key}' (columns: {', '.join(column_keys)})")
            ok = False
            continue
        if len(str(value)) > MAX_CELL:
            errors.add(_where(item, key, where), f"row {label} of {what}: '{key}' is {len(str(value))} characters long "
                                                 f"(at most {MAX_CELL})")
            ok = False
            continue
        values.append((key, value))
    see = item.get("see")
    if see is not None and not isinstance(see, str):
        errors.add(_where(item, "see", where), f"row {label} of {what}: 'see' must be a table id (got {see!r})")
        ok = False
    creature = item.get("creature")
    if creature is not None and (isinstance(creature, bool) or not isinstance(creature, int)):
        errors.add(_where(item, "creature", where), f"row {label} of {what}: 'creature' must be a bestiary key like 34 "
                                                    f"(got {creature!r})")
        ok = False
    marks = _validate_marks(item.get("marks", []), _where(item, "marks", where), f"row {label} of {what}", errors)
    choices = _validate_choices(item.get("choices", []), _where(item, "choices", where), label, what, errors)
    if marks is None or choices is None:
        ok = False
    elif marks and choices:
        errors.add(_where(item, "marks", where), f"row {label} of {what} has both 'marks' and 'choices' "
                                                 f"(give each choice its own marks)")
        ok = False
    return (tuple(values), see, creature, marks, choices) if ok else None


def _validate_marks(marks, where, what, errors):
    """A row's or choice's map marks as a tuple of MAP_MARKS names, or None after recording what is wrong."""
    if not isinstance(marks, list) or any(not isinstance(m, str) or m not in MAP_MARKS for m in marks):
        errors.add(where, f"{what}: 'marks' must be a list of map marks from {', '.join(MAP_MARKS)} (got {marks!r})")
        return None
    if len(set(marks)) != len(marks):
        errors.add(where, f"{what}: 'marks' names a mark twice (got {marks!r})")
        return None
    return tuple(marks)


def _validate_choices(choices, where, label, what, errors):
    """A row's concrete readings as Choices (each a text and its marks), or None after recording what is wrong."""
    if not isinstance(choices, list) or len(choices) == 1:
        errors.add(where, f"row {label} of {what}: 'choices' must be a list of two or more readings "
                          f"(got {choices!r})")
        return None
    out = []
    for n, choice in enumerate(choices, start=1):
        at = source_of(choice, where)
        if not isinstance(choice, dict) or set(choice) - {"text", "marks"}:
            errors.add(at, f"row {label} of {what}: choice {n} must be a mapping of 'text' and 'marks' (got {choice!r})")
            return None
        text = choice.get("text")
        if not isinstance(text, str) or not text.strip() or len(text) > MAX_CELL:
            errors.add(at, f"row {label} of {what}: choice {n} needs a 'text' of 1 to {MAX_CELL} characters")
            return None
        marks = _validate_marks(choice.get("marks", []), _where(choice, "marks", at), f"row {label} of {what}: choice {n}",
                                errors)
        if marks is None:
            return None
        out.append(Choice(text.strip(), marks))
    return tuple(out)


# --- bestiary, media, book -------------------------------------------------------------------

def _validate_bestiary(where, data, errors, *, partial: bool = False):
    if not _require_mapping(data, where, "the bestiary", errors):
        return (), "Creatures & Foes"
    _unknown_fields(data, {"id", "title", "die", "creatures"}, where, "the bestiary", errors)
    title = str(data.get("title") or "Creatures & Foes")
    creatures_data = data.get("creatures")
    if not isinstance(creatures_data, dict):
        errors.add(source_of(data, where), "the bestiary needs 'creatures': a mapping of d66 key to creature")
        return (), title
    spec = DiceSpec("d66")
    out = []
    for key, item in creatures_data.items():
        key_where = _where(creatures_data, key, where)
        if key not in spec.results:
            errors.add(key_where, f"creature key {key!r} is not a d66 result (expected 11-16, 21-26, …, 61-66)")
            continue
        creature = _validate_creature(key, item, key_where, errors)
        if creature:
            out.append(creature)
    missing = [k for k in spec.results if k not in creatures_data]
    if missing and not partial:
        errors.add(source_of(creatures_data, where), f"the bestiary has no creature for {', '.join(map(str, missing[:6]))}"
                                                     f"{', …' if len(missing) > 6 else ''} (a d66 bestiary needs all 36)")
    names = {}
    for creature in out:
        if creature.name.lower() in names:
            errors.add(creature.source, f"creature name '{creature.name}' is used twice (also {names[creature.name.lower()]})")
        names.setdefault(creature.name.lower(), creature.key)
    return tuple(sorted(out, key=lambda c: c.key)), title


def _validate_creature(key, item, where, errors):
    what = f"creature {key}"
    if not _require_mapping(item, where, what, errors):
        return None
    _unknown_fields(item, CREATURE_FIELDS, where, what, errors)
    fields = {name: _text(item, name, where, errors, what) for name in ("name", "tier", "concept", "frailty")}
    ok = all(fields.values())
    if fields["tier"] and fields["tier"] not in TIERS:
        errors.add(_where(item, "tier", where), f"{what} has tier '{fields['tier']}' (expected one of {', '.join(TIERS)})")
        ok = False
    living = item.get("living")
    if not isinstance(living, bool):
        errors.add(_where(item, "living", where), f"{what} needs 'living: true' or 'living: false' (got {living!r})")
        return None
    pairs = {}
    for name in ("skills", "gear"):
        value = item.get(name)
        if not isinstance(value, list) or len(value) != 2 or not all(isinstance(v, str) and v.strip() for v in value):
            errors.add(_where(item, name, where), f"{what} needs exactly two {name} (got {value!r})")
            ok = False
        else:
            pairs[name] = tuple(value)
    extra = {}
    for name in LIVING_ONLY:
        if living:
            extra[name] = _text(item, name, where, errors, f"{what} (living)")
            ok = ok and extra[name] is not None
        elif name in item:
            errors.add(_where(item, name, where), f"{what} is not living, so it has no {name} "
                                                  f"(remove it, or set living: true)")
            ok = False
        else:
            extra[name] = None
    if not ok:
        return None
    return Creature(key=key, name=fields["name"], tier=fields["tier"], living=living, concept=fields["concept"],
                    skills=pairs["skills"], frailty=fields["frailty"], gear=pairs["gear"],
                    description=str(item.get("description") or ""), source=where, **extra)


def _validate_media(where, data, errors):
    if not _require_mapping(data, where, "the media appendix", errors):
        return ()
    _unknown_fields(data, {"title", "groups"}, where, "the media appendix", errors)
    groups = []
    for group, group_where in zip(data.get("groups") or [], getattr(data.get("groups"), "item_sources", [])):
        if not _require_mapping(group, group_where, "a media group", errors):
            continue
        if len(group.get("works") or []) > MAX_WORKS:
            errors.add(group_where, f"a media group lists {len(group.get('works'))} works (at most {MAX_WORKS})")
            continue
        works = []
        for work, work_where in zip(group.get("works") or [], getattr(group.get("works"), "item_sources", [])):
            if not _require_mapping(work, work_where, "a media work", errors):
                continue
            _unknown_fields(work, {"title", "creator", "year", "note"}, work_where, "a media work", errors)
            year = work.get("year")
            if not isinstance(year, int) or isinstance(year, bool):
                errors.add(_where(work, "year", work_where), f"media work {work.get('title')!r} needs a year like 1937 (got {year!r})")
                continue
            title = _text(work, "title", work_where, errors, "a media work")
            creator = _text(work, "creator", work_where, errors, f"media work {work.get('title')!r}")
            if title and creator:
                works.append(MediaWork(title=title, creator=creator, year=year, note=str(work.get("note") or "")))
        groups.append(MediaGroup(type=str(group.get("type") or ""), works=tuple(works)))
    return tuple(groups)


def _validate_book(where, data, texts, errors, refused=frozenset()):
    if not _require_mapping(data, where, "book.yaml", errors):
        return None
    _unknown_fields(data, {"title", "subtitle", "chapters"}, where, "book.yaml", errors)
    title = _text(data, "title", where, errors, "book.yaml") or ""
    subtitle = _text(data, "subtitle", where, errors, "book.yaml", required=False) or ""
    listed = data.get("chapters")
    if not isinstance(listed, list) or not listed:
        errors.add(_where(data, "chapters", where), "book.yaml needs 'chapters': a list of Markdown files")
        return None
    if len(listed) > MAX_CHAPTERS:
        errors.add(_where(data, "chapters", where), f"book.yaml lists {len(listed)} chapters (at most {MAX_CHAPTERS})")
        return None
    chapters = []
    for name, item_where in zip(listed, listed.item_sources):
        if name in refused:
            continue  # the refusal, naming the link and its target, is the error
        if name not in texts:
            errors.add(item_where, f"chapter file '{name}' does not exist{_did_you_mean(name, texts)}")
            continue
        text_where, text = texts[name]
        if len(text) > MAX_CHAPTER:
            errors.add(text_where, f"chapter '{name}' is {len(text)} characters long (at most {MAX_CHAPTER})")
            continue
        chapters.append(Chapter(path=name, text=text, source=text_where, listed_at=item_where))
    return Book(title=title, subtitle=subtitle, chapters=tuple(chapters))


def _check_directives(book: Book, tables: dict, has_bestiary: bool, has_media: bool, errors: _Errors,
                      kinds: tuple = ("table", "bestiary", "media", "odds")) -> None:
    for chapter in book.chapters:
        for number, line in enumerate(chapter.text.splitlines(), start=1):
            if not line.lstrip().startswith("[["):
                continue
            where = Source(chapter.source.path, number)
            match = DIRECTIVE.match(line.strip())
            if not match:
                errors.add(where, f"cannot read directive {line.strip()!r} (expected [[table ID]], [[bestiary]], "
                                  f"[[media]] or [[odds oracle|harm]])")
                continue
            name, arg = match.groups()
            if name in ("table", "bestiary", "media", "odds") and name not in kinds:
                errors.add(where, f"'{chapter.path}' may not hold [[{name}]] (expected {' or '.join(f'[[{k} ...]]' for k in kinds)})")
            elif name == "table":
                if arg not in tables:
                    errors.add(where, f"chapter '{chapter.path}' refers to table '{arg}' which does not exist"
                                      f"{_did_you_mean(arg, tables)}")
            elif name == "odds":
                if arg not in ODDS_KINDS:
                    errors.add(where, f"unknown odds '{arg}' (expected one of {', '.join(ODDS_KINDS)})")
            elif name not in ("bestiary", "media"):
                errors.add(where, f"unknown directive '{name}' (expected table, bestiary, media or odds)")
