"""products.options: typed options checked in one place; a bad value is one usage line naming the option and its range."""

from __future__ import annotations

from dataclasses import FrozenInstanceError, dataclass

import pytest

from dungeonpress.errors import UsageError
from dungeonpress.products.options import (ALL_PAPERS, DEFAULT_CREEP_MM, Options, PrintShopOptions, flag_of, option,
                                           output_format, paper, parse, shown, specs, switch)


@dataclass(frozen=True)
class Demo(Options):
    """A command with one of each kind of option."""

    paper: str = paper("a4")
    rooms: int = option(10, "rooms", min=1, max=30)
    count: int | None = option(None, "count", min=1)
    turns: int | None = option(None, "turns", max=99)
    format: str = output_format(("pdf", "json"), "pdf")
    large_print: bool = switch("large print")
    page_size: str | None = option(None, "paper of the pages", choices=ALL_PAPERS)
    not_an_option: str = "kept"

    def check(self) -> None:
        if self.format == "json" and self.large_print:
            raise UsageError("--large-print needs --format pdf")


def usage(given: dict) -> str:
    with pytest.raises(UsageError) as caught:
        parse(Demo, given)
    message = str(caught.value)
    assert "\n" not in message
    return message


def test_parse_turns_typed_strings_into_whole_numbers_and_keeps_defaults():
    options = parse(Demo, {"rooms": "12", "paper": "letter", "count": None, "large_print": True})
    assert (options.rooms, options.paper, options.count, options.large_print, options.format) == (12, "letter", None,
                                                                                                   True, "pdf")
    assert parse(Demo, {}) == Demo()
    with pytest.raises(FrozenInstanceError):
        options.rooms = 3


@pytest.mark.parametrize("given, line", [
    ({"rooms": "0"}, "--rooms must be a whole number from 1 to 30 (got 0)"),
    ({"rooms": "31"}, "--rooms must be a whole number from 1 to 30 (got 31)"),
    ({"rooms": "ten"}, "--rooms must be a whole number from 1 to 30 (got ten)"),
    ({"rooms": "2.5"}, "--rooms must be a whole number from 1 to 30 (got 2.5)"),
    ({"count": "0"}, "--count must be a whole number, at least 1 (got 0)"),
    ({"turns": "100"}, "--turns must be a whole number, at most 99 (got 100)"),
    ({"paper": "a3"}, "--paper must be one of a4, letter (got a3)"),
    ({"page_size": "b5"}, "--page-size must be one of a4, letter, a5 (got b5)"),
    ({"format": "svg"}, "--format must be one of pdf, json (got svg)"),
    ({"format": "json", "large_print": True}, "--large-print needs --format pdf"),
    ({"seeds": "3"}, "unknown option seeds"),
])
def test_each_bad_value_is_one_line_naming_the_option_and_what_it_allows(given, line):
    assert usage(given) == line


def test_values_given_in_code_are_checked_the_same_way():
    with pytest.raises(UsageError, match=r"^--rooms must be a whole number from 1 to 30 \(got True\)$"):
        Demo(rooms=True)  # a bool is not a count
    with pytest.raises(UsageError, match=r"^--rooms must be a whole number from 1 to 30 \(got 3.0\)$"):
        Demo(rooms=3.0)
    assert Demo(rooms=30).rooms == 30 and Demo(rooms=1).rooms == 1


def test_a_long_bad_value_is_cut_short():
    assert shown("x" * 40) == "x" * 40 and shown("x" * 41) == "x" * 40 + "…"
    assert usage({"paper": "p" * 100}).endswith("(got " + "p" * 40 + "…)")


def test_specs_and_flags_follow_the_declaration():
    fields = specs(Demo)
    assert [f.name for f, _ in fields] == ["paper", "rooms", "count", "turns", "format", "large_print", "page_size"]
    assert [flag_of(f) for f, _ in fields] == ["--paper", "--rooms", "--count", "--turns", "--format", "--large-print",
                                              "--page-size"]
    by_name = {f.name: s for f, s in fields}
    assert by_name["large_print"].switch and not by_name["rooms"].switch
    assert by_name["rooms"].whole and not by_name["paper"].whole


def test_print_shop_options_bleed_marks_and_page_css():
    assert PrintShopOptions().page_css() == ""
    assert PrintShopOptions(bleed="3mm").page_css() == "@page { bleed: 3mm; marks: none; }"
    assert PrintShopOptions(bleed="5mm", marks="crop-cross").page_css() == "@page { bleed: 5mm; marks: crop cross; }"
    with pytest.raises(UsageError, match=r"^--marks needs --bleed"):
        PrintShopOptions(marks="crop")
    with pytest.raises(UsageError, match=r"^--bleed must be one of 3mm, 5mm, 0.125in \(got 2mm\)$"):
        PrintShopOptions(bleed="2mm")


@pytest.mark.parametrize("creep, mm", [(None, DEFAULT_CREEP_MM), ("0mm", 0.0), ("0.1mm", 0.1), ("0.25", 0.25),
                                       (" 0.5mm ", 0.5)])
def test_creep_is_a_paper_thickness_in_mm(creep, mm):
    assert PrintShopOptions(creep=creep).creep_mm == mm


@pytest.mark.parametrize("creep", ["0.6mm", "-0.1mm", "thick", "nan", "1in"])
def test_a_bad_creep_is_one_usage_line(creep):
    with pytest.raises(UsageError) as caught:
        PrintShopOptions(creep=creep)
    assert str(caught.value) == f"--creep must be a paper thickness from 0mm to 0.5mm, like 0.1mm (got {creep})"


def test_a_long_bad_creep_is_cut_short_like_every_other_value():
    assert str(pytest.raises(UsageError, PrintShopOptions, creep="9" * 60).value).endswith("(got " + "9" * 40 + "…)")
