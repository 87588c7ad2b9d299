"""model.paper: every paper size in millimetres, portrait."""

from __future__ import annotations

import pytest

from dungeonpress.model.paper import PAPER_MM


@pytest.mark.parametrize("name, size", [
    ("a4", (210.0, 297.0)), ("a5", (148.0, 210.0)), ("a6", (105.0, 148.0)), ("a7", (74.0, 105.0)),
    ("letter", (215.9, 279.4)),  # 8.5 x 11 inches
])
def test_each_paper_is_its_size_in_mm(name, size):
    assert PAPER_MM[name] == size


def test_every_paper_is_portrait():
    assert all(width < height for width, height in PAPER_MM.values())


def test_the_iso_sizes_halve_along_their_long_side():
    # each A size is the one above folded in half (to the whole millimetre, as ISO 216 rounds)
    for big, small in (("a4", "a5"), ("a5", "a6"), ("a6", "a7")):
        width, height = PAPER_MM[big]
        assert PAPER_MM[small][1] == width and abs(PAPER_MM[small][0] - height / 2) <= 1


def test_letter_is_eight_and_a_half_by_eleven_inches():
    assert PAPER_MM["letter"] == (round(8.5 * 25.4, 1), round(11 * 25.4, 1))
