"""export.licences: each table's `source:` → its work, authors, licence and the credit printed with it."""

from __future__ import annotations

import re

import pytest

from dungeonpress.export.licences import CC_BY_SA, TERMS, terms_for
from dungeonpress.validate import ORIGINS


def test_every_source_a_table_may_name_has_terms():
    assert set(TERMS) == set(ORIGINS)


@pytest.mark.parametrize("origin", sorted(TERMS))
def test_each_terms_has_a_date_a_credit_and_an_author(origin):
    terms = TERMS[origin]
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", terms.date)
    assert terms.authors and terms.title and terms.credit.endswith(".")
    # a licence that names CC BY-SA points at its text; one with no text points nowhere
    assert (terms.licence_url == CC_BY_SA) == terms.licence.startswith("CC BY-SA")


def test_the_loner_packs_are_cc_by_sa_and_pass_on_the_games_they_build_on():
    for origin in ("core", "dungeoneer", "dungeonpress"):
        terms = terms_for(origin)
        assert terms.licence == "CC BY-SA 4.0" and "Roberto Bisceglie" in terms.authors
        assert "Graven Utterance" in terms.credit and "Nathan Russell" in terms.credit


def test_the_solo_kit_credits_the_post_and_owes_nothing_to_loner():
    terms = terms_for("solo-turns")
    assert terms.licence == "CC BY-SA 4.0" and terms.authors == ("the dungeonpress project",)
    assert "Solo D&D Play" in terms.credit and "Loner" not in terms.credit


def test_dunginoes_is_non_commercial_with_credit():
    terms = terms_for("dunginoes")
    assert terms.licence_url is None and "non-commercial" in terms.licence and "loveandlossgames.com" in terms.credit


def test_a_user_pack_credits_itself_and_claims_no_licence():
    terms = terms_for("The Cellar Tables by Ana")
    assert terms.title == "The Cellar Tables by Ana" and terms.authors == ("The Cellar Tables by Ana",)
    assert terms.licence == "as stated by its author" and terms.licence_url is None and terms.url is None
    assert terms.credit == "From The Cellar Tables by Ana."
    assert terms_for("The Cellar Tables by Ana") == terms  # a fixed date: the same bytes on every build


def test_as_json_is_the_facts_an_export_carries():
    terms = terms_for("core")
    assert terms.as_json() == {"source": terms.title, "authors": list(terms.authors), "url": terms.url,
                               "licence": "CC BY-SA 4.0", "licence_url": CC_BY_SA, "credit": terms.credit}
