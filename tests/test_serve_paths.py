"""serve.paths: a URL path names a file inside the build folder, or is refused (403 outside it, 404 missing)."""

from __future__ import annotations

import pytest

from dungeonpress.serve.paths import Refused, inside


@pytest.fixture
def build_dir(tmp_path):
    """A build folder with two files, a secret beside it and links that lead out of it."""
    out = tmp_path / "build"
    (out / "exports").mkdir(parents=True)
    (out / "tables.pdf").write_bytes(b"%PDF-1.7\n")
    (out / "exports" / "t.json").write_text("{}")
    (out / "%2e%2e").mkdir()  # a folder literally named %2e%2e: a doubly encoded path names it, not the parent
    (tmp_path / "secret.txt").write_text("not yours")
    (out / "link-out.txt").symlink_to(tmp_path / "secret.txt")
    (out / "dir-out").symlink_to(tmp_path)
    (out / "link-in.json").symlink_to(out / "exports" / "t.json")
    return out


REFUSED = [
    ("../secret.txt", 403), ("%2e%2e/secret.txt", 403), ("%2E%2E%2Fsecret.txt", 403), ("..%2fsecret.txt", 403),
    ("exports/../../secret.txt", 403), ("/etc/passwd", 403), ("%2Fetc%2Fpasswd", 403), ("link-out.txt", 403),
    ("dir-out/secret.txt", 403), ("..%5csecret.txt", 404), ("tables.pdf%00.png", 404),
    ("%252e%252e/secret.txt", 404), ("missing.pdf", 404), ("exports", 404), ("C:/x", 403), ("", 404),
]


@pytest.mark.parametrize("rel, status", REFUSED)
def test_paths_outside_the_build_folder_are_refused(build_dir, rel, status):
    with pytest.raises(Refused) as refused:
        inside(build_dir, rel)
    assert refused.value.status == status


def test_paths_inside_the_build_folder_are_served(build_dir):
    assert inside(build_dir, "tables.pdf") == (build_dir / "tables.pdf").resolve()
    assert inside(build_dir, "exports/t.json") == (build_dir / "exports" / "t.json").resolve()
    assert inside(build_dir, "exports%2Ft.json") == (build_dir / "exports" / "t.json").resolve()
    assert inside(build_dir, "link-in.json") == (build_dir / "exports" / "t.json").resolve()  # a link that stays in


def test_a_path_is_decoded_once(build_dir):
    (build_dir / "%2e%2e" / "x.txt").write_text("inside")
    assert inside(build_dir, "%252e%252e/x.txt") == (build_dir / "%2e%2e" / "x.txt").resolve()


def test_a_path_that_is_not_utf8_is_left_to_the_caller(build_dir):
    # the server answers 404 for it (tests/test_serve.py): inside() only decodes strictly
    with pytest.raises(UnicodeDecodeError):
        inside(build_dir, "%ff")
