"""The solo turn procedure: the pre-rolled delve follows the post's schedule, and the PDFs are stable."""

from __future__ import annotations

import io
import random

import pytest
from pypdf import PdfReader

from dungeonpress import build, cli
from dungeonpress.generate import delve
from dungeonpress.products import delve as product

SEEDS = range(40)


@pytest.fixture(scope="module")
def content():
    return build.load_content()


@pytest.fixture(scope="module")
def delves(content):
    out = []
    for seed in SEEDS:
        for mapping in (True, False):
            light = delve.LIGHTS[seed % 3]
            out.append(delve.generate_delve(random.Random(seed), content, turns=48, light=light, mapping=mapping))
    return out


def test_wandering_checks_only_on_even_turns(delves):
    for rolled in delves:
        every = 2 if rolled.mapping else 4  # half as often when not mapping
        for turn in rolled.turns:
            # a rest turn keeps its wandering check even when not mapping (turns 6, 18, 30…)
            assert (turn.wandering_roll is not None) == (turn.number % every == 0 or turn.number % 6 == 0)
            assert turn.number % 2 == 0 or turn.wandering_roll is None
            assert (turn.wandering is not None) == (turn.wandering_roll == 1)


def test_rest_every_sixth_turn_without_encounter_check(delves):
    for rolled in delves:
        for turn in rolled.turns:
            assert turn.rest == (turn.number % 6 == 0)
            if turn.rest or turn.wandering:  # a wanderer takes the whole turn
                assert turn.encounter_roll is None and not turn.finds
            else:
                assert 1 <= turn.encounter_roll <= 20 and turn.encounter


def test_encounter_results_are_resolved_on_their_appendices(delves, content):
    table = content.table(delve.ENCOUNTER_TABLE)
    for rolled in delves:
        for turn in rolled.turns:
            if turn.encounter_roll is None:
                continue
            row = table.row_for(turn.encounter_roll)
            assert [f.appendix for f in turn.finds] == delve.appendix_letters(row)
            for find in turn.finds:
                assert find.text.strip()
                assert content.table(delve.APPENDICES[find.appendix]).row_for(find.roll)


def test_light_burns_down(delves):
    for rolled in delves:
        for turn in rolled.turns:
            assert turn.light_out == (turn.number % rolled.light_turns == 0)
            assert 0 <= turn.light_left < rolled.light_turns


def test_lost_only_without_a_map_and_leaving_costs_half_the_turns(delves):
    for rolled in delves:
        lost = False
        for turn in rolled.turns:
            if rolled.mapping:
                assert turn.lost_roll is None and not turn.lost
            assert (turn.leave_checks is None) == lost  # no leaving while lost
            if not lost:
                assert turn.leave_checks == (turn.number - 1) // 2
            assert turn.got_lost == (not lost and turn.lost)
            assert turn.found_way == (lost and not turn.lost)
            lost = turn.lost
        assert len(rolled.exit_checks) == len(rolled.turns) // 2
        assert bool(rolled.still_lost_rolls) == lost
        assert all((c.monster is not None) == (c.roll == 1) for c in rolled.exit_checks)
    assert any(t.got_lost for r in delves for t in r.turns)


def test_wandering_monsters_carry_no_treasure(delves):
    for rolled in delves:
        for turn in rolled.turns:
            if turn.wandering:
                assert not any(d.startswith("Carries") for d in turn.wandering.details)


@pytest.mark.parametrize("spec, low, high", [("3d6 × 10", 30, 180), ("2d4", 2, 8), ("1d6+1", 2, 7), ("1", 1, 1), (4, 4, 4)])
def test_amounts(spec, low, high):
    rng = random.Random(1)
    for _ in range(50):
        assert low <= delve.roll_amount(rng, spec) <= high
    assert delve.roll_amount(rng, "—") == "—"


def test_same_seed_same_delve(content):
    first = delve.generate_delve(random.Random(5), content, turns=20, mapping=False)
    assert first == delve.generate_delve(random.Random(5), content, turns=20, mapping=False)


# --- the product ------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def built(content):
    def make():
        ctx = build.context_for(content, seed=1234)
        outputs = product.build_delve(ctx, product.DelveOptions(turns=36, light="torch"))
        return ctx, {o.name: o.data for o in outputs}
    return make(), make()


def test_outputs_are_named_and_byte_identical(built):
    (ctx, first), (_, second) = built
    assert sorted(first) == ["delve-1234.pdf", "solo-procedure-card.pdf", "solo-procedure.pdf"]
    assert first == second
    assert ctx.warnings == []


def test_procedure_pdf_holds_card_appendices_and_log(built):
    (_, outputs), _ = built
    text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(outputs["solo-procedure.pdf"])).pages)
    flat = " ".join(text.split())
    for heading in ("Encounter Check", "Appendix A", "Appendix F", "Turn Log", "Solo D&D Play"):
        assert heading.upper() in flat.upper()


def test_delve_log_lists_every_turn_and_the_way_out(built):
    (_, outputs), _ = built
    text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(outputs["delve-1234.pdf"])).pages)
    assert "18 wandering checks" in " ".join(text.split())


def test_cli_refuses_bad_turns(tmp_path):
    err = io.StringIO()
    status = cli.main(["delve", "--seed", "1", "--turns", "0", "--quiet", "--out", str(tmp_path)],
                      stdout=io.StringIO(), stderr=err)
    assert status == 2
    assert err.getvalue() == "dungeonpress delve: error: --turns must be a whole number from 1 to 200 (got 0)\n"
    assert cli.main(["delve", "--light", "moon"], stdout=io.StringIO(), stderr=io.StringIO()) == 2
