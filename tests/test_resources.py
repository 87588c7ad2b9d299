"""resources: the built-in content, templates and schema as real folders, installed or in a checkout."""

from __future__ import annotations

from pathlib import Path

import pytest

from dungeonpress import resources

CHECKOUT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("name, inside", [("content", "core"), ("templates", "base.html.j2"),
                                          ("schema", "table.schema.json")])
def test_data_dir_is_a_real_folder_holding_the_data(name, inside):
    found = resources.data_dir(name)
    assert isinstance(found, Path) and found.is_dir()
    assert (found / inside).exists()


def test_in_a_checkout_the_folders_are_where_authors_edit_them():
    assert resources.data_dir("content").resolve() == (CHECKOUT / "content").resolve()


def test_an_installed_package_folder_comes_first(tmp_path, monkeypatch):
    (tmp_path / "dungeonpress" / "content").mkdir(parents=True)
    monkeypatch.setattr(resources.resources, "files", lambda package: tmp_path / package)
    assert resources.data_dir("content") == tmp_path / "dungeonpress" / "content"


def test_a_missing_folder_says_where_it_looked_and_what_to_do(tmp_path, monkeypatch):
    monkeypatch.setattr(resources, "_CHECKOUT", tmp_path)
    with pytest.raises(FileNotFoundError) as caught:
        resources.data_dir("fonts-that-are-not-there")
    message = str(caught.value)
    assert message.startswith("dungeonpress is installed without its fonts-that-are-not-there/ folder (looked in ")
    assert str(tmp_path / "fonts-that-are-not-there") in message and message.endswith("reinstall it")
    assert "\n" not in message
