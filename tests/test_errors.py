"""errors: a content mistake reads `path:LINE: what (expected)`, every one at once, in file and line order."""

from __future__ import annotations

import os
from pathlib import Path

from dungeonpress.errors import ContentError, ContentErrors, Source, display_path


def test_source_prints_as_path_colon_line():
    assert str(Source("pack/tables/x.yaml", 3)) == "pack/tables/x.yaml:3"


def test_a_content_error_is_one_line_with_its_location():
    error = ContentError(Source("pack/tables/mood.yaml", 7), "row 7 is past the die (expected 1–6)")
    assert str(error) == "pack/tables/mood.yaml:7: row 7 is past the die (expected 1–6)"
    assert "\n" not in str(error)
    assert str(ContentError(None, "no book.yaml (expected one in the pack)")) == "no book.yaml (expected one in the pack)"


def test_errors_with_the_same_text_are_equal_and_counted_once():
    a = ContentError(Source("a.yaml", 1), "bad")
    assert a == ContentError(Source("a.yaml", 1), "bad") and hash(a) == hash(ContentError(Source("a.yaml", 1), "bad"))
    assert a != ContentError(Source("a.yaml", 2), "bad") and a != "a.yaml:1: bad"
    assert len(ContentErrors([a, ContentError(Source("a.yaml", 1), "bad")]).errors) == 1


def test_content_errors_are_sorted_by_file_then_line_number_and_end_with_a_count():
    errors = ContentErrors([
        ContentError(Source("b.yaml", 2), "second file"),
        ContentError(Source("a.yaml", 10), "line ten"),
        ContentError(Source("a.yaml", 9), "line nine"),  # 9 before 10: numbers, not text
        ContentError(None, "no place"),
    ])
    assert str(errors).splitlines() == [
        "no place",
        "a.yaml:9: line nine",
        "a.yaml:10: line ten",
        "b.yaml:2: second file",
        "build failed: 4 content errors",
    ]


def test_one_content_error_is_counted_in_the_singular():
    assert str(ContentErrors([ContentError(Source("a.yaml", 1), "bad")])).splitlines()[-1] == "build failed: 1 content error"


def test_display_path_is_relative_below_the_working_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert display_path(tmp_path / "pack" / "x.yaml") == os.path.join("pack", "x.yaml")
    assert display_path("pack/x.yaml") == os.path.join("pack", "x.yaml")
    outside = tmp_path.parent / "elsewhere.yaml"
    assert display_path(outside) == str(outside)


def test_display_path_names_a_link_by_its_own_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    target = tmp_path.parent / f"{tmp_path.name}-target.yaml"
    target.write_text("x")
    (tmp_path / "link.yaml").symlink_to(target)
    assert display_path(Path("link.yaml")) == "link.yaml"
