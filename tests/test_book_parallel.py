"""A book's parts laid out in two worker processes: the same bytes as in one process, chapters on right-hand
pages, page numbers stamped as artifacts, blank pages tagged like WeasyPrint's own."""

from __future__ import annotations

import io
from pathlib import Path

import pikepdf
import pytest
from pypdf import PdfReader

from dungeonpress import build
from dungeonpress.errors import RenderError
from dungeonpress.products import rulebook

SMALL_PACK = Path(__file__).parent / "fixtures" / "small_pack"


def small_book(run_parts=None) -> bytes:
    ctx = build.context_for(build.load_content([SMALL_PACK]))
    ctx.run_parts = run_parts
    return rulebook.build_rulebook(ctx, rulebook.RulebookOptions(layout="pages"))[0].data


@pytest.fixture(scope="module")
def in_one_process():
    return small_book()


@pytest.mark.slow  # starts two worker processes, each importing WeasyPrint
def test_part_workers_answer_in_the_jobs_order_and_a_workers_error_is_raised_here():
    workers = build.PartWorkers(2)
    try:
        assert workers(len, ["aaa", "b", "cc", "dddd"]) == [3, 1, 2, 4]
        with pytest.raises(ValueError, match="invalid literal"):
            workers(int, ["1", "x"])
    finally:
        workers.close()


@pytest.mark.slow  # lays the small book out again, in two worker processes
def test_the_book_laid_out_in_two_workers_is_the_book_laid_out_in_one_process(in_one_process):
    workers = build.PartWorkers(2)
    try:
        assert small_book(workers) == in_one_process
    finally:
        workers.close()


def test_every_chapter_and_the_back_matter_open_on_a_right_hand_page(in_one_process):
    reader = PdfReader(io.BytesIO(in_one_process))
    opened = {item.title: reader.get_destination_page_number(item) + 1 for item in reader.outline
              if not isinstance(item, list)}
    assert {"Starting Out", "Weather and Light", "Hazards", "Quick Reference"} <= set(opened)
    assert all(opened[title] % 2 == 1 for title in ("Starting Out", "Weather and Light", "Hazards", "Quick Reference"))


def test_blank_pages_hold_nothing_and_are_tagged_like_weasyprints(in_one_process):
    with pikepdf.open(io.BytesIO(in_one_process)) as book:
        nums = book.Root.StructTreeRoot.ParentTree.Nums
        parent_tree = {int(nums[i]): nums[i + 1] for i in range(0, len(nums), 2)}
        blank = [i for i, page in enumerate(book.pages) if isinstance(page.obj.Contents, pikepdf.Stream)
                 and not page.obj.Contents.read_bytes().strip()]
        assert blank == [3, 9]  # before the first chapter (the front matter takes three pages) and the back matter
        assert len(parent_tree[int(book.pages[3].obj.StructParents)]) == 0
        assert sorted(parent_tree) == list(range(len(parent_tree)))  # each page and link has a key of its own


def test_page_numbers_are_stamped_as_artifacts_on_numbered_pages_only(in_one_process):
    texts = [page.extract_text() for page in PdfReader(io.BytesIO(in_one_process)).pages]
    with pikepdf.open(io.BytesIO(in_one_process)) as book:
        stamped = [i for i, page in enumerate(book.pages)
                   if "/Furniture" in page.obj.Resources.get("/XObject", {})]
        for i in stamped:
            assert b"/Artifact BMC q /Furniture Do Q EMC" in book.pages[i].obj.Contents[-1].read_bytes()
    assert stamped == [4, 5, 6, 7, 8, 12, 13, 14]  # the chapters and the notes (not the covers, front matter, sheets)
    assert all(texts[i].rstrip().endswith(str(i + 1)) for i in stamped)


def test_a_worker_that_dies_is_one_line_not_a_traceback():
    workers = build.PartWorkers(2)
    try:
        with pytest.raises(RenderError, match=r"^a worker laying out the book's parts stopped"):
            workers(_die, [1, 2])
    finally:
        workers.close()


def _die(_job):
    import os
    os._exit(1)
