"""model.plain: the checked content model as JSON text and back, naming nothing but the model's own classes."""

from __future__ import annotations

from pathlib import Path

import pytest

from dungeonpress.errors import Source
from dungeonpress.model import Content, plain


def sources(content: Content) -> list:
    """Every location the model keeps (they are left out of its == comparison)."""
    return [(t.source, [r.source for r in t.rows]) for t in content.tables.values()] + \
        [(c.source, c.listed_at) for c in (content.book.chapters if content.book else ())]


def test_built_in_content_round_trips_through_the_plain_format(content):
    back = plain.decode(plain.encode(content))
    assert back == content and type(back) is Content
    assert sources(back) == sources(content) and all(isinstance(s, Source) for s, _ in sources(back)[:3])
    assert back.digest == content.digest and back.warnings == content.warnings


def test_decoding_names_only_the_models_classes():
    assert plain.decode(plain.encode(Source("a.yaml", 3))) == Source("a.yaml", 3)
    for planted in (b'{"c":"ContentErrors","f":[[]]}', b'{"c":"__import__","f":["os"]}', b'{"d":[[["x"],1]]}',
                    b'{"t":[1], "x":2}', b"[" * 100_000):
        with pytest.raises(plain.NotPlain):
            plain.decode(planted)
    with pytest.raises(plain.NotPlain):
        plain.encode({"a": Path("x")})
