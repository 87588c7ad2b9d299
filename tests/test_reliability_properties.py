"""Property tests over generated hostile packs: loading fails only with ContentErrors, and the
HTML made from pack prose never names a file outside the pack, the network or javascript:."""

from __future__ import annotations

import json
import re
import tempfile
import urllib.parse
import urllib.request
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dungeonpress import render
from dungeonpress.errors import ContentErrors, RenderError
from tests.conftest import validate_folder

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# --- loading ----------------------------------------------------------------------------------

scalars = st.one_of(
    st.text(max_size=30), st.integers(), st.floats(allow_nan=False), st.booleans(), st.none(),
    st.sampled_from(["1-99999999999", "9" * 5000, "6-1", "d6", "NO", "1:30", "&a", "*a", "!!python/name:os.system",
                     "[[table x]]", "<script>", "{{ 7*7 }}"]),
)
values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=5),
                                                       st.dictionaries(st.text(max_size=8), inner, max_size=5)),
                      max_leaves=25)
table_like = st.fixed_dictionaries(
    {"id": st.sampled_from(["t", "T", "bad id", 3]), "die": st.sampled_from(["d6", "d66", "2d6", "none", "d7", 6])},
    optional={"title": values, "source": st.sampled_from(["core", "x"]), "columns": values, "rows": values,
              "note": values, "extra": values},
)


def _yaml(data) -> str:
    return json.dumps(data)  # JSON is YAML: generated tables need no YAML library in the tests


files = st.one_of(
    table_like.map(_yaml),
    st.text(max_size=200),
    st.binary(max_size=200),
    st.sampled_from(["a: &x [1]\nb: *x\n", "a: " + "[" * 200, "x: !!python/object/apply:os.system [ls]\n",
                     "id: t\nid: t\n", "\ufeffid: t\n", "key: \x00\n"]),
)


@SETTINGS
@given(tables=st.lists(files, min_size=1, max_size=4), bestiary=st.one_of(st.none(), values.map(_yaml)),
       book=st.one_of(st.none(), values.map(_yaml)))
def test_loading_any_pack_raises_only_content_errors(tables, bestiary, book):
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder) / "pack"
        (root / "tables").mkdir(parents=True)
        for number, text in enumerate(tables):
            path = root / "tables" / f"t{number}.yaml"
            path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass"))
        if bestiary is not None:
            (root / "bestiary.yaml").write_text(bestiary)
        if book is not None:
            (root / "book.yaml").write_text(book)
        try:
            validate_folder(root)
        except ContentErrors as exc:
            assert exc.errors and all(str(e) for e in exc.errors)


# --- rendering --------------------------------------------------------------------------------

targets = st.sampled_from([
    "notes.md", "map.svg", "../../etc/passwd", "/etc/hostname", "file:///etc/hostname", "FILE:///etc/x",
    "http://127.0.0.1:9/x", "https://example.com/", "HTTP://example.com", "javascript:alert(1)", "JaVaScRiPt:x",
    "jav&#x09;ascript:x", "mailto:a@example.com", "#top", "data:image/png;base64,iVBOR", "%2e%2e/%2e%2e/etc/passwd",
    "//evil.example/x", "vbscript:x", "  javascript:x", "\\\\server\\share",
])
fragments = st.one_of(
    st.builds("[{}]({})".format, st.text(alphabet="abc ", max_size=5), targets),
    st.builds("![{}]({})".format, st.text(alphabet="abc ", max_size=5), targets),
    st.builds("<{}>".format, targets),
    st.builds('<img src="{}">'.format, targets),
    st.builds('<a href="{}">x</a>'.format, targets),
    st.builds('<link rel="attachment" href="{}">'.format, targets),
    st.builds("[r]: {}\n\n[x][r]".format, targets),
    st.text(max_size=20),
    st.just("\n\n"),
)
ATTRIBUTE = re.compile(r'\b(src|href)="([^"]*)"')


def _check_html(html: str, root: Path | None) -> None:
    for name, value in ATTRIBUTE.findall(html):
        url = value.replace("&amp;", "&")
        if name == "href":
            assert url.lower().startswith(("#", "http://", "https://", "mailto:")), url
            continue
        scheme = url.split(":", 1)[0].lower() if re.match(r"^[a-zA-Z][\w+.-]*:", url) else ""
        assert scheme in ("", "file", "data"), url
        if scheme == "file":
            assert root is not None, url  # only chapters (with a pack) may name files
            path = Path(urllib.request.url2pathname(urllib.parse.urlsplit(url).path)).resolve()
            assert path.is_relative_to(root.resolve()), url
        if root is not None:
            assert scheme in ("file", "data"), url  # a chapter's relative images were resolved
    assert "<script" not in html and "<link" not in html and "<style" not in html


@SETTINGS
@given(parts=st.lists(fragments, max_size=8))
def test_rendered_html_never_names_an_outside_file_the_network_or_javascript(parts):
    text = " ".join(parts)
    _check_html(str(render.markdown_html(text)), None)
    _check_html(str(render.markdown_inline(text)), None)
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder) / "pack"
        (root / "rules").mkdir(parents=True)
        try:
            (root / "empty.html.j2").write_text("")  # every directive shows nothing here
            chapter = "# T\n\n" + text
            blocks = [("empty.html.j2", {})] * len(render.chapter_directives(chapter))
            html, _ = render.render_chapter(root, chapter, "c1", blocks, base=root / "rules",
                                            roots=[root], where="pack/rules/a.md")
        except RenderError as exc:
            assert str(exc).startswith("pack/rules/a.md: image ") and str(exc).endswith("(refused)")
            return
        _check_html(str(html), root)
