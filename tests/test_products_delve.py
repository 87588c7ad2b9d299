"""The solo turn procedure product: its PDFs and log are named, stable and hold the delve."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from dungeonpress import build, cli
from dungeonpress.products import delve as product
from tests.conftest import slow_fixture


@pytest.fixture(scope="module")
def content():
    return build.load_content()


@pytest.fixture(scope="module")
@slow_fixture
def built(content):
    def make():
        ctx = build.context_for(content, seed=1234)
        outputs = product.build_delve(ctx, product.DelveOptions(turns=36, light="torch"))
        return ctx, {o.name: o.data for o in outputs}
    return make(), make()


@pytest.mark.slow
def test_outputs_are_named_and_byte_identical(built):
    (ctx, first), (_, second) = built
    assert sorted(first) == ["delve-1234.pdf", "solo-procedure-card.pdf", "solo-procedure.pdf"]
    assert first == second
    assert ctx.warnings == []


@pytest.mark.slow
def test_procedure_pdf_holds_card_appendices_and_log(built):
    (_, outputs), _ = built
    text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(outputs["solo-procedure.pdf"])).pages)
    flat = " ".join(text.split())
    for heading in ("Encounter Check", "Appendix A", "Appendix F", "Turn Log", "Solo D&D Play"):
        assert heading.upper() in flat.upper()


@pytest.mark.slow
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
