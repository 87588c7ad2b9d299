"""`dungeonpress preview`: page ranges, PNG pages and one contact sheet next to the PDF, product names."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pikepdf
import pytest
from PIL import Image

from dungeonpress import preview
from dungeonpress.cli import main

ROOT = Path(__file__).resolve().parents[1]


def blank_pdf(path: Path, pages: int = 5, size=(144, 216)) -> Path:
    """A PDF of `pages` blank pages, 2 × 3 inches (144 × 216 pt): 1 px per point at 72 dpi."""
    path.parent.mkdir(parents=True, exist_ok=True)
    pdf = pikepdf.new()
    for _ in range(pages):
        pdf.add_blank_page(page_size=size)
    pdf.save(path)
    return path


@pytest.mark.parametrize("spec, expected", [
    (None, [0, 1, 2, 3, 4]), ("1-4", [0, 1, 2, 3]), ("3", [2]), ("2,4-5", [1, 3, 4]), ("4-", [3, 4]),
    ("1-99", [0, 1, 2, 3, 4]), ("2,2-3", [1, 2]),
])
def test_page_ranges(spec, expected):
    assert preview.parse_pages(spec, 5) == expected


@pytest.mark.parametrize("spec, message", [
    ("x", "expected page numbers"), ("0-2", "numbered from 1"), ("4-2", "low to high"), ("6", "has 5 pages"),
])
def test_bad_page_ranges(spec, message):
    with pytest.raises(preview.PreviewError, match=message):
        preview.parse_pages(spec, 5)


def test_pages_and_sheet_are_written_next_to_the_pdf(tmp_path):
    pdf = blank_pdf(tmp_path / "book.pdf")
    made = preview.preview(pdf, pages="2-4", dpi=144)
    assert [p.name for p in made.pages] == ["book-p002.png", "book-p003.png", "book-p004.png"]
    assert made.sheet == tmp_path / "book-sheet.png" and made.page_count == 5
    assert Image.open(made.pages[0]).size == (288, 432)  # 2 × 3 in at 144 dpi
    sheet = Image.open(made.sheet)
    # Three pages in one row, each 240 px wide with 8 px gaps around them.
    assert sheet.size == (8 + 3 * (240 + 8), 8 + 360 + 8)
    assert not list(tmp_path.glob(".*.part"))


def test_product_names_resolve_in_the_build_folder(tmp_path):
    for name in ("dungeoneer-rulebook", "dungeoneer-rulebook-booklet-a4", "tables", "tables-booklet-a4",
                 "dungeon-5-zine-a4", "dungeon-5-zine-letter", "characters-7", "pack-66", "pack-66-booklet",
                 ".serve/roll-x/dungeon-1-zine-a4", "rolls/dungeon-seed-1/dungeon-1-zine-a4"):
        blank_pdf(tmp_path / f"{name}.pdf", pages=1)
    found = {name: preview.resolve(name, tmp_path).name for name in ("rulebook", "tables", "zine", "character", "pack")}
    assert found == {"rulebook": "dungeoneer-rulebook.pdf", "tables": "tables.pdf", "zine": "dungeon-5-zine-a4.pdf",
                     "character": "characters-7.pdf", "pack": "pack-66.pdf"}
    with pytest.raises(preview.PreviewError, match="no product of that name"):
        preview.resolve("sheet", tmp_path)


def test_cli_preview(tmp_path, capsys):
    blank_pdf(tmp_path / "build" / "tables.pdf", pages=3)
    assert main(["preview", "tables", "--out", str(tmp_path / "build"), "--pages", "1-2", "--dpi", "36"]) == 0
    written = [line.removeprefix("wrote ") for line in capsys.readouterr().out.splitlines()]
    assert [Path(p).name for p in written] == ["tables-p001.png", "tables-p002.png", "tables-sheet.png"]
    assert Image.open(tmp_path / "build" / "tables-p001.png").size == (72, 108)


@pytest.mark.parametrize("args, message", [
    (["nothing.pdf"], "error: nothing.pdf: no such PDF"),
    (["tables", "--pages", "7"], "error: --pages 7: the PDF has 3 pages"),
    (["tables", "--dpi", "2"], "error: --dpi 2: choose between 10 and 600"),
])
def test_cli_preview_mistakes_are_one_line(tmp_path, capsys, args, message):
    blank_pdf(tmp_path / "tables.pdf", pages=3)
    assert main(["preview", *args, "--out", str(tmp_path)]) == 2
    assert capsys.readouterr().err == message + "\n"


def test_cli_preview_refuses_a_file_that_is_not_a_pdf(tmp_path, capsys):
    fake = tmp_path / "fake.pdf"
    fake.write_bytes(b"not a pdf")
    assert main(["preview", str(fake)]) == 2
    assert capsys.readouterr().err.startswith(f"error: {fake}: not a readable PDF")


@pytest.mark.slow
def test_the_preview_script_uses_the_module(tmp_path):
    blank_pdf(tmp_path / "build" / "a.pdf", pages=2)
    blank_pdf(tmp_path / "build" / "sub" / "b.pdf", pages=1)
    blank_pdf(tmp_path / "build" / ".serve" / "c.pdf", pages=1)
    run = subprocess.run([sys.executable, "scripts/preview.py", str(tmp_path / "build"), str(tmp_path / "out")],
                         cwd=ROOT, capture_output=True, text=True, check=True)
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        "a-p001.png", "a-p002.png", "a-sheet.png", "b-p001.png", "b-sheet.png"]
    assert run.stdout.count("pages, sheet") == 2
