"""Books' chapters rendered to HTML kept under the build folder (cache.chapters): by what they read, and what all read."""

from __future__ import annotations

from dungeonpress.cache import chapters
from dungeonpress.cache.chapters import CHAPTER_CACHE, ChapterCache

HEADINGS = [(1, "Weather &amp; Light", "c2-weather-light"), (2, "<em>Cold</em> Mist", "c2-cold-mist")]


def test_a_chapter_survives_the_disk_as_it_was(tmp_path):
    cache = ChapterCache(tmp_path / CHAPTER_CACHE)
    assert cache.get("key") is None
    cache.put("key", '<h1 id="c2-weather-light">Weather &amp; Light</h1>', HEADINGS)
    assert cache.get("key") == ('<h1 id="c2-weather-light">Weather &amp; Light</h1>', [list(h) for h in HEADINGS])
    assert cache.get("other key") is None
    assert [f.suffix for f in (tmp_path / CHAPTER_CACHE).iterdir()] == [".json"]  # JSON, not pickle: nothing runs


def test_a_damaged_or_foreign_file_is_a_miss(tmp_path):
    cache = ChapterCache(tmp_path / "chapters")
    cache.put("key", "<p>x</p>", HEADINGS)
    (kept,) = (tmp_path / "chapters").iterdir()
    for damaged in (b'{"html": "<p>x</p>"', b'{"html": 3, "headings": []}', b'{"html": "", "headings": [[1, 2]]}', b"\xff"):
        kept.write_bytes(damaged)
        assert cache.get("key") is None


def test_other_templates_or_images_never_read_a_chapter_rendered_without_them(tmp_path, monkeypatch):
    ChapterCache(tmp_path / "chapters").put("key", "<p>x</p>", HEADINGS)
    pack = tmp_path / "pack"
    (pack / "rules").mkdir(parents=True)
    (pack / "rules" / "01.md").write_text("# One\n")
    assert ChapterCache(tmp_path / "chapters", [pack]).get("key") is not None  # its words are in the key
    (pack / "map.png").write_bytes(b"\x89PNG pretend")
    assert ChapterCache(tmp_path / "chapters", [pack]).get("key") is None  # an image is not
    templates = tmp_path / "templates"
    (templates / "partials").mkdir(parents=True)
    (templates / "partials" / "table.html.j2").write_text("<table></table>")
    monkeypatch.setattr(chapters, "TEMPLATES_DIR", templates)
    assert ChapterCache(tmp_path / "chapters").get("key") is None
