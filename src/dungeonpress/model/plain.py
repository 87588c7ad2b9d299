"""Validated content (model dataclasses) ↔ plain JSON text: only the model's own classes ever come back.

The content cache keeps a checked model on disk between runs. Pickle would run whatever a planted
file names; this format is data only: JSON, in which a dataclass is written as the name of one of
the classes below and its field values, so reading a file can build nothing else.
"""

from __future__ import annotations

import dataclasses
import json

import dungeonpress.model as model
from dungeonpress.errors import Source

# The classes a file may name: every dataclass the model package itself defines (a class added there
# later is covered without a change here), and Source, which says where each value was written.
CLASSES = {cls.__name__: cls for cls in [*vars(model).values(), Source]
           if isinstance(cls, type) and dataclasses.is_dataclass(cls)
           and cls.__module__ in (model.__name__, Source.__module__)}
_FIELDS = {name: tuple(f.name for f in dataclasses.fields(cls) if f.init) for name, cls in CLASSES.items()}


class NotPlain(ValueError):
    """A value this format cannot hold (a type outside the model), or text that is not one of its files."""


def encode(value) -> bytes:
    """`value` (a Content, say) as UTF-8 JSON text; NotPlain when it holds anything but the model's classes."""
    return json.dumps(_plain(value), ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode()


def decode(data: bytes):
    """The value `encode` wrote; NotPlain for anything else (bad JSON, an unknown class, fields that do not fit)."""
    try:
        return json.loads(data, object_hook=_rebuilt)
    except NotPlain:
        raise
    except (ValueError, TypeError, RecursionError) as exc:  # ValueError covers JSON and UTF-8 decoding
        raise NotPlain(f"not a content cache file ({type(exc).__name__})") from None


def _plain(value):
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, tuple):
        return {"t": [_plain(v) for v in value]}
    if isinstance(value, list):
        return {"l": [_plain(v) for v in value]}
    if isinstance(value, dict):
        return {"d": [[_plain(k), _plain(v)] for k, v in value.items()]}
    name = type(value).__name__
    if CLASSES.get(name) is type(value):
        return {"c": name, "f": [_plain(getattr(value, field)) for field in _FIELDS[name]]}
    raise NotPlain(f"cannot keep a {type(value).__name__} in the content cache")


def _rebuilt(obj: dict):
    """One JSON object back as what `_plain` made it from (json.loads calls this innermost first)."""
    if len(obj) == 1:
        (kind, items), = obj.items()
        if kind == "t" and isinstance(items, list):
            return tuple(items)
        if kind == "l" and isinstance(items, list):
            return items
        if kind == "d" and isinstance(items, list) and all(isinstance(p, list) and len(p) == 2 for p in items):
            return {_key(k): v for k, v in items}
    elif obj.keys() == {"c", "f"}:
        name, values = obj["c"], obj["f"]
        if isinstance(name, str) and name in CLASSES and isinstance(values, list) and len(values) == len(_FIELDS[name]):
            return CLASSES[name](**dict(zip(_FIELDS[name], values)))
    raise NotPlain("not a content cache file (an object it does not write)")


def _key(key):
    if key is None or isinstance(key, (bool, int, float, str, tuple)):
        return key
    raise NotPlain("not a content cache file (a key that cannot be hashed)")
