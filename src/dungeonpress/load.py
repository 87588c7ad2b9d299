"""Read content files into raw data that remembers file and line (the only yaml import)."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml
from yaml.events import AliasEvent

from dungeonpress import sealed
from dungeonpress.errors import ContentError, Source, display_path

MAX_FILE_BYTES = 2_000_000  # a content file larger than this is a mistake, not a rulebook
MAX_PACK_FILES = 2_000  # files of one kind in one pack; more is a mistake (or a trap)
MAX_NUMBER_DIGITS = 18  # a longer plain number is refused (Python refuses > 4300 digits with a bare ValueError)
MAX_DEPTH = 40  # nesting deeper than this is refused before PyYAML can hit RecursionError
# Values (scalars, lists, mappings) in one file: a full table (200 rows of 12 columns) has about 5,000;
# composing is about 30 µs a value, so a 2 MB file of 60,000 rows took 11 s before its one error.
MAX_NODES = 50_000


class LocatedDict(dict):
    """A YAML mapping that knows where it and each of its keys were written."""

    source: Source
    key_sources: dict


class LocatedList(list):
    """A YAML sequence that knows where it and each of its items were written."""

    source: Source
    item_sources: list


def source_of(value, default: Source) -> Source:
    """The location of a loaded mapping or list, or `default` for a bare scalar."""
    return getattr(value, "source", default)


@dataclass
class RawPack:
    """One content folder as read from disk, before any checking."""

    name: str
    root: Path
    tables: list = field(default_factory=list)  # (Source, data) per tables/*.yaml
    bestiary: tuple | None = None  # (Source, data)
    media: tuple | None = None
    book: tuple | None = None
    texts: dict = field(default_factory=dict)  # path relative to the pack -> (Source, text)
    refused: set = field(default_factory=set)  # texts (relative paths) that exist but were refused, already reported
    read: dict = field(default_factory=dict)  # YAML file path -> its text, as read (for the content digest)
    ignored: list = field(default_factory=list)  # (Source, why) for each content-looking file not read


@dataclass
class RawContent:
    """Every pack in load order (built-in first, the user's last), and the errors met reading them."""

    packs: list
    errors: list
    first_user_pack: int | None = None  # packs from this index on came from --content and may replace tables
    ignored: list = field(default_factory=list)  # (Source, why) for files beside packs that are not read


# Plain (unquoted) scalars are read with a small YAML 1.2-like core schema, so `no`, `on`
# and `1:30` stay strings instead of becoming booleans and sexagesimal numbers.
_INT = re.compile(r"^[-+]?[0-9]+$")
_FLOAT = re.compile(r"^[-+]?[0-9]*\.[0-9]+$")


def _plain_scalar(text: str):
    if _INT.match(text):
        return int(text)
    if _FLOAT.match(text):
        return float(text)
    if text in ("true", "True", "TRUE"):
        return True
    if text in ("false", "False", "FALSE"):
        return False
    if text in ("", "~", "null", "Null", "NULL"):
        return None
    return text


class _Refused(yaml.composer.ComposerError):
    """What the guards below refuse: told in our words whichever parser found it."""


class _Guarded:
    """Refuses aliases (alias bombs), deep nesting and files of more values than any content needs, while composing."""

    _depth = 0  # how deep the node being composed is (each loader counts on its own instance from these)
    _nodes = 0  # values composed so far in this file

    def compose_node(self, parent, index):
        if self.check_event(AliasEvent):
            event = self.peek_event()
            raise _Refused(
                None, None, "aliases (*name) are not allowed in content files", event.start_mark
            )
        self._depth += 1
        self._nodes += 1
        try:
            if self._nodes > MAX_NODES:
                raise _Refused(
                    None, None, f"more than {MAX_NODES:,} values in one file (a table has at most 200 rows)",
                    self.peek_event().start_mark)
            if self._depth > MAX_DEPTH:
                raise _Refused(
                    None, None, f"nested too deeply (more than {MAX_DEPTH} levels)", self.peek_event().start_mark
                )
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


class _Loader(_Guarded, yaml.SafeLoader):
    """PyYAML's own reader, scanner and parser in Python: what a mistake's message comes from."""


_CParser = getattr(getattr(yaml, "_yaml", None), "CParser", None)  # libyaml, when PyYAML was built with it


class _FastLoader(_Guarded, yaml.composer.Composer, *((_CParser,) if _CParser else ()), yaml.constructor.SafeConstructor,
                  yaml.resolver.Resolver):
    """The same composing and guards over libyaml's parser: a content tree's 105 files parse in 0.07 s instead of
    0.34 s (every cold run reads them). Only events come from C; nodes, limits and tags are the Python ones above, and
    a mistake is told by PyYAML's own parser (parse_yaml), in the words it always used. libyaml follows YAML more
    closely in a few corners PyYAML's parser refused (a tab after a colon, a '?' inside a word of a {flow: mapping}):
    such a file now loads, as any other YAML reader would load it."""

    def __init__(self, stream):
        _CParser.__init__(self, stream)
        yaml.constructor.SafeConstructor.__init__(self)
        yaml.resolver.Resolver.__init__(self)
        yaml.composer.Composer.__init__(self)


def _compose(loader_type, text: str):
    loader = loader_type(text)
    try:
        return loader.get_single_node()
    finally:
        loader.dispose()


_COLLECTION_TAGS = ("tag:yaml.org,2002:map", "tag:yaml.org,2002:seq", "tag:yaml.org,2002:omap")


def _convert(node, path: str):
    """Turn a composed YAML node into located Python values; raises ContentError on bad input."""
    where = Source(path, node.start_mark.line + 1)
    if isinstance(node, (yaml.MappingNode, yaml.SequenceNode)) and node.tag not in _COLLECTION_TAGS:
        raise ContentError(where, f"unsupported YAML tag '{node.tag}'")
    if isinstance(node, yaml.MappingNode):
        out = LocatedDict()
        out.source = where
        out.key_sources = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                raise ContentError(Source(path, key_node.start_mark.line + 1), "a mapping key must be a plain value")
            key = _scalar(key_node)
            key_where = Source(path, key_node.start_mark.line + 1)
            if key in out:
                first = out.key_sources[key].line
                raise ContentError(key_where, f"duplicate key '{key}' (first at line {first})")
            out[key] = _convert(value_node, path)
            out.key_sources[key] = key_where
        return out
    if isinstance(node, yaml.SequenceNode):
        out = LocatedList()
        out.source = where
        out.item_sources = []
        for item in node.value:
            out.append(_convert(item, path))
            out.item_sources.append(Source(path, item.start_mark.line + 1))
        return out
    return _scalar(node)


def _scalar(node):
    if node.tag not in ("tag:yaml.org,2002:str", "tag:yaml.org,2002:int", "tag:yaml.org,2002:bool",
                        "tag:yaml.org,2002:float", "tag:yaml.org,2002:null", "tag:yaml.org,2002:timestamp",
                        "tag:yaml.org,2002:value", "tag:yaml.org,2002:merge"):
        raise ContentError(Source("", node.start_mark.line + 1), f"unsupported YAML tag '{node.tag}'")
    if node.style:  # quoted or block scalars are always text
        return node.value
    if (_INT.match(node.value) or _FLOAT.match(node.value)) and len(node.value.lstrip("+-")) > MAX_NUMBER_DIGITS:
        raise ContentError(Source("", node.start_mark.line + 1),
                           f"number with {len(node.value.lstrip('+-'))} digits (at most {MAX_NUMBER_DIGITS}; "
                           f"quote it if it is text)")
    return _plain_scalar(node.value)


def load_yaml(path: Path, root: Path | None = None) -> object:
    """Parse one YAML file inside `root` (default: its own folder) into located values; ContentError with `path:line`."""
    return parse_yaml(read_text(path, Path(path).parent if root is None else root), display_path(path))


def parse_yaml(text: str, shown: str) -> object:
    """Parse YAML text read from the file shown as `shown` into located values."""
    try:
        try:
            node = _compose(_FastLoader if _CParser else _Loader, text)
        except _Refused:
            raise
        except yaml.YAMLError:  # told as PyYAML's own parser tells it (libyaml words its problems differently)
            node = _compose(_Loader, text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else 1
        problem = exc.problem or exc.context or "invalid YAML"
        raise ContentError(Source(shown, line), f"YAML syntax error: {problem}") from None
    except yaml.YAMLError as exc:  # ReaderError: a character YAML cannot hold
        raise ContentError(Source(shown, 1), f"YAML error: {exc}") from None
    if node is None:
        return None
    try:
        return _convert(node, shown)
    except ContentError as exc:
        if exc.source and not exc.source.path:
            raise ContentError(Source(shown, exc.source.line), exc.message) from None
        raise


def read_text(path: Path, root: Path) -> str:
    """Read a content file inside pack `root` as UTF-8 (sealed: no links out, no FIFOs, at most the size limit)."""
    shown = display_path(path)
    try:
        data = sealed.read_bytes(path, [root], MAX_FILE_BYTES)
    except sealed.Refused as exc:
        raise ContentError(Source(shown, 1), f"refused to read: {exc}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise ContentError(Source(shown, line), f"byte 0x{data[exc.start]:02x} is not UTF-8 text (save the file as UTF-8)") from None
    if "\x00" in text:
        line = text[: text.index("\x00")].count("\n") + 1
        raise ContentError(Source(shown, line), "NUL character in a text file (expected plain text)")
    return text.lstrip("\ufeff")


def is_pack(folder: Path) -> bool:
    """A pack holds tables, a bestiary, media or a book; anything else is a folder of packs."""
    return any((folder / name).exists() for name in ("tables", "bestiary.yaml", "media.yaml", "book.yaml"))


def pack_folders(folder: Path) -> list[Path]:
    """`folder` itself when it is a pack, else its sub-folders that are packs, sorted by name."""
    if is_pack(folder):
        return [folder]
    return [p for p in sorted(folder.iterdir()) if p.is_dir() and is_pack(p)]


def load_content(folders: list[Path], parse=None) -> RawContent:
    """Read every pack below `folders`, in order; collect read errors instead of stopping.

    `parse(text, shown)` turns each YAML file's text into its located tree (default parse_yaml; a build's
    cache.trees.TreeCache gives the same trees back without composing a file it has parsed before).

    Each pack is sealed on its own: nothing is read whose real path lies outside the pack's own
    folder, whatever folder holds it (a chapter linked to a file beside the pack is refused, with
    the link and its target named).
    """
    packs, errors, ignored = [], [], []
    for folder in folders:
        folder = Path(folder)
        if not folder.is_dir():
            errors.append(ContentError(Source(display_path(folder), 1), "content folder does not exist (expected a folder of YAML files)"))
            continue
        for pack_dir in pack_folders(folder):
            problem = sealed.folder_problem(pack_dir, [folder])
            if problem:
                errors.append(ContentError(Source(display_path(pack_dir), 1), f"refused to read: {problem}"))
                continue
            packs.append(_load_pack(pack_dir, pack_dir, errors, parse or parse_yaml))
        if not is_pack(folder):
            ignored.extend(_outside_packs(folder))
    return RawContent(packs=packs, errors=errors, ignored=ignored)


def _pack_texts(root: Path, seal: Path, errors: list) -> list[Path]:
    """Every Markdown file below `root`, walking without following links out, at most MAX_PACK_FILES."""
    found = []
    for folder, dirs, files in os.walk(root, followlinks=False):
        dirs.sort()
        for name in list(dirs):  # a linked folder is entered only when it stays inside the seal
            link = Path(folder) / name
            if link.is_symlink():
                dirs.remove(name)
                problem = sealed.folder_problem(link, [seal])
                if problem:
                    errors.append(ContentError(Source(display_path(link), 1), f"refused to read: {problem}"))
        for name in sorted(files):
            if name.endswith(".md") and name != "README.md":
                found.append(Path(folder) / name)
        if len(found) > MAX_PACK_FILES:
            errors.append(ContentError(Source(display_path(root), 1),
                                       f"more than {MAX_PACK_FILES} Markdown files in one pack"))
            return []
    return sorted(found)


def _load_pack(root: Path, seal: Path, errors: list, parse=None) -> RawPack:
    parse = parse or parse_yaml
    pack = RawPack(name=root.name, root=root)

    def located(path: Path):
        try:
            text = read_text(path, seal)
            pack.read[path] = text
            return (Source(display_path(path), 1), parse(text, display_path(path)))
        except ContentError as exc:
            errors.append(exc)
            return None

    tables_dir = root / "tables"
    if tables_dir.exists() or tables_dir.is_symlink():
        problem = sealed.folder_problem(tables_dir, [seal])
        if problem:
            errors.append(ContentError(Source(display_path(tables_dir), 1), f"refused to read: {problem}"))
        else:
            paths = sorted(tables_dir.glob("*.yaml"))
            if len(paths) > MAX_PACK_FILES:
                errors.append(ContentError(Source(display_path(tables_dir), 1),
                                           f"{len(paths)} table files (at most {MAX_PACK_FILES})"))
                paths = []
            for path in paths:
                item = located(path)
                if item:
                    pack.tables.append((path, *item))
    for name in ("bestiary", "media", "book"):
        path = root / f"{name}.yaml"
        if path.exists() or path.is_symlink():
            item = located(path)
            if item:
                setattr(pack, name, item)
    for path in _pack_texts(root, seal, errors):
        try:
            pack.texts[path.relative_to(root).as_posix()] = (Source(display_path(path), 1), read_text(path, seal))
        except ContentError as exc:
            errors.append(exc)
            pack.refused.add(path.relative_to(root).as_posix())
    pack.ignored = _ignored_in_pack(root)
    return pack


# --- files the loader does not read, so the validator can say so instead of passing them over ---

_DATA_SUFFIXES = (".yaml", ".yml", ".json", ".toml", ".csv")  # files that look like content
_KINDS = ("bestiary.yaml", "media.yaml", "book.yaml")
# Read by the suite, not by products: the terms printed products may name and how each one's definition reads.
_CHECKED = ("terms.yaml",)


def _hidden(path: Path, root: Path) -> bool:
    return any(part.startswith(".") for part in path.relative_to(root).parts)


def _ignored_in_pack(root: Path) -> list:
    """(Source, why) for each content-looking file in a pack that loading passed over."""
    out = []
    for path in sorted(root.rglob("*")):
        if not path.is_file() or _hidden(path, root):
            continue
        relative = path.relative_to(root)
        where = Source(display_path(path), 1)
        in_tables = relative.parts[0] == "tables"
        if in_tables and len(relative.parts) == 2 and path.suffix == ".yaml":
            continue  # read as a table
        if len(relative.parts) == 1 and path.name in _KINDS + _CHECKED:
            continue  # read (terms.yaml by the play-as-printed check in tests/test_played_as_printed.py)
        if path.suffix == ".yml":
            out.append((where, "not read: content files end in .yaml, not .yml (rename it)"))
        elif in_tables and len(relative.parts) > 2:
            out.append((where, "not read: tables go directly in tables/, not in a sub-folder"))
        elif in_tables and path.name != "README.md":
            out.append((where, "not read: tables/ holds one table per .yaml file"))
        elif path.suffix == ".yaml" and len(relative.parts) == 1:
            out.append((where, f"not read: unknown kind of file (expected tables/<id>.yaml, {', '.join(_KINDS)})"))
        elif path.suffix == ".yaml":
            out.append((where, f"not read: tables go in {root.name}/tables/ ({', '.join(_KINDS)} directly in {root.name}/)"))
        elif path.suffix in _DATA_SUFFIXES:
            out.append((where, "not read: content is YAML (tables/<id>.yaml) and Markdown"))
    return out


def _outside_packs(folder: Path) -> list:
    """(Source, why) for what lies in a folder of packs but is in no pack."""
    out = []
    for path in sorted(folder.iterdir()) if folder.is_dir() else ():
        if path.name.startswith(".") or path.name == "README.md":
            continue
        where = Source(display_path(path), 1)
        if path.is_dir() and not is_pack(path):
            if any(p.suffix in _DATA_SUFFIXES for p in path.rglob("*")):
                out.append((where, "not read: not a pack (a pack has tables/, bestiary.yaml, media.yaml or book.yaml)"))
        elif path.is_file() and path.suffix in _DATA_SUFFIXES:
            out.append((where, f"not read: a table goes in <pack>/tables/{path.stem}.yaml"))
    return out
