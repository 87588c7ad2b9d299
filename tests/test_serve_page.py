"""serve.page: server state → the preview page's HTML, every value from outside escaped."""

from __future__ import annotations

import re
from pathlib import Path

from dungeonpress.serve.jobs import Job, RollRequest
from dungeonpress.serve.page import render

EVIL = "<script>alert('x')</script>"


def job(state: str = "done", **fields) -> Job:
    made = Job(id=1, label=fields.pop("label", "dungeonpress dungeon --seed 5"), argv=[], folder=Path("/tmp/x"),
               reason=fields.pop("reason", "rolled"), state=state)
    for name, value in fields.items():
        setattr(made, name, value)
    return made


def page(**given) -> str:
    args = dict(generation=3, build_label="build", products=[], current=None, history=[], check=None, watched=[])
    return render(**(args | given))


def test_the_page_carries_its_generation_and_the_defaults_in_the_form():
    html = page(generation=17, defaults=RollRequest(what="pack", seed=99, rooms=12, paper="letter", theme="ink-saver"))
    assert "<body data-gen='17'>" in html
    assert "<option value='pack' selected>" in html and "<option value='letter' selected>" in html
    assert "<option value='ink-saver' selected>" in html
    assert "name=seed inputmode=numeric value='99'" in html and "value='12'" in html


def test_the_build_folder_lists_each_pdf_with_its_size_in_words():
    html = page(products=[("dungeon-5-zine-a4.pdf", 2048), ("sub dir/big.pdf", 3 * 1024 * 1024)])
    assert "2 PDFs" in html and "2 KB" in html and "3.0 MB" in html
    assert "href='/files/sub%20dir/big.pdf'" in html  # paths are quoted in links
    assert "dungeon-<wbr>5-<wbr>zine-<wbr>a4.pdf" in html  # long names wrap after hyphens
    assert "1 PDF<" in page(products=[("a.pdf", 10)])
    assert "No PDFs yet" in page()


def test_everything_from_outside_is_escaped():
    html = page(build_label=EVIL, watched=[EVIL], notice=EVIL,
                current=job("failed", label=EVIL, errors=[(EVIL, 3, EVIL)], messages=[EVIL]),
                history=[job("done", label=EVIL, reason=EVIL)])
    assert EVIL not in html
    assert html.count("<script>") == 1  # the page's own script only


def test_the_check_pill_says_how_the_content_check_went():
    assert "pill busy'>checking" in page(check=None)
    assert "pill ok'>content ok" in page(check=job("done"))
    assert "pill bad'>1 problem<" in page(check=job("failed", messages=["broken"]))
    assert "pill bad'>2 problems<" in page(check=job("failed", errors=[("a.yaml", 1, "x"), ("a.yaml", 2, "y")]))


def test_a_failed_check_shows_its_problems_unless_the_roll_failed_too():
    check = job("failed", errors=[("pack/t.yaml", 4, "row 9 is past the die")])
    html = page(check=check)
    assert "<h2>Content check</h2>" in html and "<code>pack/t.yaml:4</code>: row 9 is past the die" in html
    assert "<h2>Content check</h2>" not in page(check=check, current=job("failed"))


def test_the_current_roll_building_ready_or_failed():
    assert "Building…" in page(current=job("running"))
    ready = page(current=job("done", outputs=[".serve/r/dungeon-5.json", ".serve/r/dungeon-5-zine-a4.pdf"], seconds=2.04))
    assert "built in 2.0 s" in ready
    links = re.findall(r"<a class='(\w+)' href='/files/([^']+)' download>", ready)
    assert links == [("pdf", ".serve/r/dungeon-5-zine-a4.pdf"), ("json", ".serve/r/dungeon-5.json")]  # the PDF first
    assert "<img src='/thumb/.serve/r/dungeon-5-zine-a4.pdf'" in ready
    failed = page(current=job("failed", messages=["error: the build took longer than 5 s and was stopped"]))
    assert "The build failed" in failed and "took longer than 5 s" in failed


def test_earlier_rolls_link_their_shortest_pdf():
    html = page(history=[job("done", outputs=["r/a-booklet-a4.pdf", "r/a.pdf", "r/a.json"])])
    assert "<h2>Earlier rolls</h2>" in html and "href='/files/r/a.pdf' download>a.pdf</a>" in html
