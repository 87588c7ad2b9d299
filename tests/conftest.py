"""Shared fixtures: the project's content (loaded once) and a way to write small content packs."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from dungeonpress import build, load, validate


@pytest.fixture(scope="session")
def content():
    """The project's own content, loaded and validated once per test run."""
    return build.load_content()


@pytest.fixture
def make_pack(tmp_path, monkeypatch):
    """Write files into a fresh pack folder and return a function that validates it alone.

    Paths in error messages are relative to the working directory, so the test runs inside
    tmp_path and messages read `pack/tables/x.yaml:3: …`.
    """
    monkeypatch.chdir(tmp_path)
    root = tmp_path / "pack"

    def write(files: dict) -> Path:
        for name, text in files.items():
            path = root / name
            path.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(text, bytes):
                path.write_bytes(text)
            else:
                path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
        return root

    return write


def validate_folder(folder: Path):
    """Load and validate one folder of content on its own (no built-in packs)."""
    return validate.validate_content(load.load_content([folder]))
