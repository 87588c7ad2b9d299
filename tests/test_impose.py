"""Imposition on synthetic documents: booklet page order and the one-sheet zine's panels."""

from __future__ import annotations

import io
import re

import pikepdf
import pytest

from dungeonpress import impose
from tests.conftest import run_cli


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


# Sewn signatures: each gathering folded in saddle-stitch order, collation marks stepping down the spine,
# the same bytes every time, and one-line errors for bad --signatures values.

@pytest.mark.parametrize("pages, sheets, sizes", [(108, 4, [4, 4, 4, 4, 4, 4, 3]), (112, 4, [4] * 7),
                                                  (112, 5, [5, 5, 5, 5, 4, 4]), (8, 4, [2]), (20, 1, [1] * 5),
                                                  (68, 3, [3, 3, 3, 3, 3, 2])])
def test_signatures_are_as_few_as_hold_n_sheets_and_within_a_sheet_of_each_other(pages, sheets, sizes):
    assert impose.signature_sizes(pages, sheets) == sizes
    assert sum(sizes) * 4 == pages


@pytest.mark.parametrize("pages, sheets", [(8, 1), (24, 2), (36, 4), (108, 4), (112, 6), (16, 8)])
def test_each_signature_folds_its_own_pages_in_order(pages, sheets):
    """Folding each gathering's sheets and stacking the gatherings reads 1..N: every page once, each signature
    a run of consecutive pages that reads in order when its own sheets are folded together."""
    start = 0
    for order, size in zip(impose.signature_order(pages, sheets), impose.signature_sizes(pages, sheets)):
        assert len(order) == 2 * size
        run = sorted(p for side in order for p in side)
        assert run == list(range(start, start + 4 * size))
        # nested folding: sheet k's front is (last - 2k, first + 2k), its back (first + 2k + 1, last - 2k - 1)
        first, last = start, start + 4 * size - 1
        for k in range(size):
            assert order[2 * k] == (last - 2 * k, first + 2 * k)
            assert order[2 * k + 1] == (first + 2 * k + 1, last - 2 * k - 1)
        start += 4 * size
    assert start == pages


def test_sewn_sheets_carry_the_pages_of_each_signature():
    sides = placed(impose.impose_signatures(numbered_pdf(16), "a4", 2))
    assert [[n for n, _ in side] for side in sides] == [[8, 1], [2, 7], [6, 3], [4, 5],
                                                        [16, 9], [10, 15], [14, 11], [12, 13]]


def _collation_blocks(data: bytes) -> list:
    """(sheet side index, x, y) of each filled block drawn on the sheet itself (not inside a placed page)."""
    found = []
    with pikepdf.open(io.BytesIO(data)) as pdf:
        width = float(pdf.pages[0].mediabox[2])
        for index, page in enumerate(pdf.pages):
            ops = page.Contents.read_bytes().decode()
            for x, y, w, h in re.findall(r"q 0 g ([-\d.]+) ([-\d.]+) ([-\d.]+) ([-\d.]+) re f Q", ops):
                assert abs(float(x) + float(w) / 2 - width / 2) < 0.01  # centred on the spine fold
                found.append((index, float(y)))
    return found


@pytest.mark.parametrize("pages, sheets", [(16, 2), (44, 3), (108, 4)])
def test_a_collation_mark_on_each_signatures_outer_sheet_one_step_lower_each_time(pages, sheets):
    blocks = _collation_blocks(impose.impose_signatures(numbered_pdf(pages), "letter", sheets))
    sizes = impose.signature_sizes(pages, sheets)
    outer_sides = [2 * sum(sizes[:n]) for n in range(len(sizes))]  # the first side of each signature's outer sheet
    assert [index for index, _ in blocks] == outer_sides
    ys = [y for _, y in blocks]
    assert ys == sorted(ys, reverse=True) and len(set(ys)) == len(ys)  # a staircase down the spine
    assert _collation_blocks(impose.impose_booklet(numbered_pdf(pages), "letter")) == []  # stapled: no marks


def test_sewn_sheets_are_the_same_bytes_every_time():
    source = numbered_pdf(44)
    assert impose.impose_signatures(source, "a4", 3, creep_mm=0.1) == impose.impose_signatures(source, "a4", 3,
                                                                                                 creep_mm=0.1)


def test_creep_restarts_in_every_signature():
    sides = placed(impose.impose_signatures(numbered_pdf(16, size=(420, 595)), "a4", 2, creep_mm=0.2))
    flat = placed(impose.impose_signatures(numbered_pdf(16, size=(420, 595)), "a4", 2))
    shifts = [round(after[0][1][4] - before[0][1][4], 3) for before, after in zip(flat, sides)]
    step = round(0.2 * impose.MM, 3)
    assert shifts == [0, 0, step, step, 0, 0, step, step]


@pytest.mark.parametrize("value", ["0", "9", "four", "-1", "2.5"])
@pytest.mark.parametrize("command", ["rulebook", "tables"])
def test_a_bad_signatures_value_is_one_line_and_exit_2(command, value):
    status, out, err = run_cli("build", command, "--signatures", value)
    assert status == 2
    assert err.strip().splitlines() == [f"dungeonpress build {command}: error: --signatures must be a whole number "
                                        f"from 1 to 8 (got {value})"]
