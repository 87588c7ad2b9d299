"""serve.rolls: a form or URL query → a checked roll, its command line, its URL and its folder name."""

from __future__ import annotations

import re
from urllib.parse import parse_qs

import pytest

from dungeonpress.serve.catalog import seeded_products
from dungeonpress.serve.rolls import BadRoll, RollRequest

CATALOG = seeded_products()


def roll(**query) -> RollRequest:
    return RollRequest.from_query({key.replace("_", "-"): [value] for key, value in query.items()}, CATALOG)


def test_a_query_becomes_the_products_own_command_line():
    assert roll(product="dungeon", seed="42", rooms="6", paper="letter", layout="booklet").argv() == [
        "dungeon", "--seed", "42", "--rooms", "6", "--layout", "booklet", "--paper", "letter"]
    assert roll(product="character", seed="42", paper="a5", count="3").argv() == [
        "character", "--seed", "42", "--count", "3", "--paper", "a5"]
    assert roll(product="delve", seed="7", no_map="on", light="candle").argv() == [
        "delve", "--seed", "7", "--light", "candle", "--no-map"]
    assert roll(product="dunginoes", seed="7", theme="ink-saver").argv() == [
        "dunginoes", "--seed", "7", "--theme", "ink-saver"]
    assert roll(product="delve", seed="7", no_map="").argv() == ["delve", "--seed", "7"]  # an unticked box
    assert 0 <= roll(product="dungeon", seed="").seed <= 999_999_999


def test_every_seeded_product_of_the_cli_can_be_rolled_and_batch_and_format_are_left_out():
    assert list(CATALOG) == ["dungeon", "character", "paperogue", "dunginoes", "delve", "foes"]
    flags = {c.flag for product in CATALOG.values() for c in product.choices}
    assert "--batch" not in flags and "--format" not in flags
    for name in CATALOG:
        assert roll(product=name, seed="5").argv()[:3] == [name, "--seed", "5"]


@pytest.mark.parametrize("change, message", [
    ({"product": "rulebook"}, "unknown product 'rulebook' (expected dungeon, character, paperogue, dunginoes, "
                              "delve, foes)"),
    ({"seed": "1; rm -rf /"}, "seed '1; rm -rf /' is not a whole number"),
    ({"seed": "-1"}, "seed -1 is out of range (0-999999999)"),
    ({"rooms": "99"}, "--rooms must be a whole number from 3 to 30 (got 99)"),
    ({"paper": "a5"}, "--paper must be one of a4, letter (got a5)"),
    ({"layout": "scroll"}, "--layout must be one of zine, booklet, pack (got scroll)"),
    ({"theme": "neon"}, "theme 'neon' (expected "),
])
def test_bad_values_are_refused_as_the_command_line_refuses_them(change, message):
    query = {"product": "dungeon", "seed": "42", "rooms": "6"} | change
    with pytest.raises(BadRoll, match=re.escape(message)):
        roll(**query)


def test_a_roll_survives_its_url_and_a_reroll_asks_for_a_fresh_seed():
    made = roll(product="dungeon", seed="4242", rooms="5", paper="letter", show_rolls="on", theme="ink-saver")
    assert made.query() == "product=dungeon&seed=4242&rooms=5&paper=letter&show-rolls=on&theme=ink-saver"
    assert RollRequest.from_query(parse_qs(made.query()), CATALOG) == made
    assert made.reroll() == "product=dungeon&seed=&rooms=5&paper=letter&show-rolls=on&theme=ink-saver"
    assert made.folder_name() == "dungeon-seed-4242-rooms-5-paper-letter-show-rolls-theme-ink-saver"
