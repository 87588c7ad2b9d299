"""Imposition on synthetic documents: booklet page order and the one-sheet zine's panels."""

from __future__ import annotations

import io
import re

import pikepdf
import pytest

from dungeonpress import impose


def numbered_pdf(count: int, size=(210, 297)) -> bytes:
    pdf = pikepdf.new()
    for n in range(count):
        page = pdf.add_blank_page(page_size=size)
        page.obj.Contents = pdf.make_stream(f"% page {n + 1}\n".encode())
    buffer = io.BytesIO()
    pdf.save(buffer)
    return buffer.getvalue()


def placed(data: bytes) -> list:
    """For each sheet side: (page number, 'a b c d e f' matrix) per placed form, in drawing order."""
    sides = []
    with pikepdf.open(io.BytesIO(data)) as pdf:
        for page in pdf.pages:
            ops = page.Contents.read_bytes().decode()
            side = []
            for matrix, name in re.findall(r"q ([-\d. ]+) cm (?:[-\d. ]+ re W n )?(/P\d+) Do Q", ops):
                number = int(re.search(rb"page (\d+)", page.Resources.XObject[name].read_bytes()).group(1))
                side.append((number, [float(v) for v in matrix.split()]))
            sides.append(side)
    return sides


def test_booklet_order_eight_pages():
    assert impose.booklet_order(8) == [(7, 0), (1, 6), (5, 2), (3, 4)]
    with pytest.raises(ValueError):
        impose.booklet_order(6)


def test_booklet_sheets_carry_pages_left_and_right():
    sides = placed(impose.impose_booklet(numbered_pdf(8), "a4"))
    assert [[n for n, _ in side] for side in sides] == [[8, 1], [2, 7], [6, 3], [4, 5]]
    left, right = sides[0][0][1], sides[0][1][1]
    assert left[4] < right[4]  # the first page named goes on the left half


def test_zine_panels_fold_into_order():
    sides = placed(impose.impose_zine(numbered_pdf(8, size=(210, 148)), "a4"))
    assert len(sides) == 1
    panels = sides[0]
    top, bottom = panels[:4], panels[4:]
    assert [n for n, _ in top] == [5, 4, 3, 2] and [n for n, _ in bottom] == [6, 7, 8, 1]
    assert all(m[0] < 0 and m[3] < 0 for _, m in top)  # top row printed upside down
    assert all(m[0] > 0 and m[3] > 0 for _, m in bottom)
    assert [m[4] for _, m in bottom] == sorted(m[4] for _, m in bottom)  # left to right


def test_creep_moves_each_inner_sheet_one_thickness_further_towards_the_fold():
    """16 pages = 4 sheets; at 0.2 mm a sheet, sheet k's pages sit k × 0.2 mm nearer the spine."""
    flat = placed(impose.impose_booklet(numbered_pdf(16, size=(420, 595)), "a4"))
    crept = placed(impose.impose_booklet(numbered_pdf(16, size=(420, 595)), "a4", creep_mm=0.2))
    step = 0.2 * impose.MM
    for index, (before, after) in enumerate(zip(flat, crept)):
        sheet = index // 2  # front and back of a sheet move alike
        (_, left0), (_, right0) = before
        (_, left1), (_, right1) = after
        assert left1[4] - left0[4] == pytest.approx(sheet * step, abs=1e-3)  # left page: towards the fold (right)
        assert right1[4] - right0[4] == pytest.approx(-sheet * step, abs=1e-3)  # right page: towards the fold (left)
        assert left1[5] == left0[5] and right1[5] == right0[5]
    assert impose.creep_shifts(108, 0.1)[-1] == pytest.approx(26 * 0.1 * impose.MM)  # the rulebook's innermost sheet


def test_imposed_pages_are_clipped_to_their_trim_box():
    data = impose.impose_booklet(numbered_pdf(4), "a4")
    with pikepdf.open(io.BytesIO(data)) as pdf:
        ops = pdf.pages[0].Contents.read_bytes().decode()
    assert ops.count("re W n") == 2


def test_an_a5_page_on_a_letter_booklet_prints_at_full_size_with_equal_side_trims():
    a5 = (148 * impose.MM, 210 * impose.MM)
    data = impose.impose_booklet(numbered_pdf(4, size=a5), "letter")
    with pikepdf.open(io.BytesIO(data)) as pdf:
        ops = pdf.pages[0].Contents.read_bytes().decode()
    clips = [[float(v) for v in c.split()] for c in re.findall(r"cm ([-\d. ]+) re W n", ops)]
    half = 5.5 * 72
    cut = (a5[0] - half) / 2  # 4.15 mm off each side
    assert [m[0] for _, m in placed(data)[0]] == [1.0, 1.0]  # not shrunk
    assert all(abs(x - cut) < 0.01 and abs(w - half) < 0.01 and abs(h - a5[1]) < 0.01 for x, _, w, h in clips), clips


def test_a_page_much_wider_than_its_half_sheet_is_scaled_down_instead():
    data = impose.impose_booklet(numbered_pdf(4, size=(210 * impose.MM, 210 * impose.MM)), "letter")
    assert all(m[0] < 0.7 for _, m in placed(data)[0])
