"""Rendering touches only our own files: the fetcher, markdown and template autoescaping."""

from __future__ import annotations

import os

import pytest

from dungeonpress import pdf, render
from dungeonpress.build import TEMPLATES_DIR
from dungeonpress.errors import RenderError


@pytest.fixture
def pack(tmp_path):
    root = tmp_path / "pack"
    root.mkdir()
    (root / "ok.css").write_text("p { color: red }")
    (tmp_path / "secret.txt").write_text("secret")
    (root / "link.css").symlink_to(tmp_path / "secret.txt")
    (root / "folder").mkdir()
    os.mkfifo(root / "fifo")
    return root


def test_fetcher_serves_only_regular_files_inside_the_pack(pack, tmp_path):
    fetcher = pdf.SealedFetcher([pack])
    allowed = [(pack / "ok.css").as_uri(), "data:text/plain,hi"]
    refused = [
        "http://127.0.0.1:9/x.png", "https://example.com/a.css", "ftp://x/y",
        "file:///etc/hostname", (tmp_path / "secret.txt").as_uri(), pack.as_uri() + "/../secret.txt",
        pack.as_uri() + "/%2e%2e/secret.txt", (pack / "link.css").as_uri(), (pack / "folder").as_uri(),
        (pack / "fifo").as_uri(), "file:///dev/zero", "file://evil.example/etc/passwd",
        "FILE:///etc/hostname",
    ]
    for url in allowed:
        assert fetcher.fetch(url).read()
    for url in refused:
        with pytest.raises(ValueError, match="refused"):
            fetcher.fetch(url)
    assert len(fetcher.refused) == len(refused)


def test_a_page_naming_an_outside_file_fails_with_the_url(pack):
    html = '<p>x</p><img src="file:///etc/hostname"><link rel="attachment" href="file:///etc/hostname">'
    with pytest.raises(RenderError, match=r"refused to read: file:///etc/hostname \(outside content/ and templates/\)"):
        pdf.layout_html(html, base_url=pack, roots=[pack])


def test_network_is_refused(pack):
    with pytest.raises(RenderError, match="http://127.0.0.1:9/a.png"):
        pdf.layout_html('<img src="http://127.0.0.1:9/a.png">', base_url=pack, roots=[pack])


def test_markdown_never_passes_raw_html():
    html = str(render.markdown_html('<script>alert(1)</script>\n\n<link rel="attachment" href="file:///etc/hostname">\n\n'
                                    '[x](javascript:alert(1)) [f](file:///etc/passwd)'))
    assert "<script" not in html and "<link" not in html
    assert "&lt;script&gt;" in html
    assert 'href="javascript:' not in html and 'href="file:' not in html


def test_every_template_autoescapes():
    env = render.environment(str(TEMPLATES_DIR))
    template = env.from_string("{{ x }}")
    assert template.render(x="<b>") == "&lt;b&gt;"
    assert env.autoescape is True


def test_e7_e8_template_errors_name_file_and_line(tmp_path):
    (tmp_path / "t.html.j2").write_text("line one\n{{ m.nme }}\n")
    with pytest.raises(RenderError, match=r"t\.html\.j2:2: 'm' is undefined"):
        render.render_template(tmp_path, "t.html.j2")
    (tmp_path / "s.html.j2").write_text("{% for %}\n")
    with pytest.raises(RenderError, match=r"s\.html\.j2:1: "):
        render.render_template(tmp_path, "s.html.j2")


def test_sandbox_classes_are_not_reachable_by_content():
    """Content Markdown is never a template: Jinja syntax in it is printed, not run."""
    html = str(render.markdown_html("{{ ''.__class__.__mro__[1].__subclasses__() }}"))
    assert "subclasses" in html and "&lt;class" not in html and "<class" not in html
