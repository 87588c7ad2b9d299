"""serve.page: server state → the preview page's HTML, every value from outside escaped."""

from __future__ import annotations

import re
from pathlib import Path

from dungeonpress.serve.catalog import seeded_products
from dungeonpress.serve.jobs import Job
from dungeonpress.serve.rolls import RollRequest
from dungeonpress.serve.page import render, render_document

CATALOG = seeded_products()

EVIL = "<script>alert('x')</script>"


def job(state: str = "done", **fields) -> Job:
    made = Job(id=1, label=fields.pop("label", "dungeonpress dungeon --seed 5"), argv=[], folder=Path("/tmp/x"),
               reason=fields.pop("reason", "rolled"), state=state)
    for name, value in fields.items():
        setattr(made, name, value)
    return made


def page(**given) -> str:
    args = dict(generation=3, build_label="build", products=[], current=None, history=[], check=None, watched=[],
                catalog=CATALOG)
    return render(**(args | given))


def test_the_page_carries_its_generation_and_the_roll_in_the_form():
    html = page(generation=17, defaults=RollRequest("dungeon", 99, (("--rooms", "12"), ("--paper", "letter"),
                                                                     ("--show-rolls", None)), "ink-saver"))
    assert "<body data-gen='17'>" in html
    assert "<option value='dungeon' selected>" in html and "<option value='letter' selected>" in html
    assert "<option value='ink-saver' selected>" in html
    assert "name=seed inputmode=numeric value='99'" in html and "name='rooms' type=number min=3 max=30 value='12'" in html
    assert "name='show-rolls' value=on checked>" in html


def test_the_form_offers_every_seeded_product_and_sends_only_the_chosen_ones_options():
    html = page(defaults=RollRequest("delve", 5))
    assert re.findall(r"<option value='(\w+)'(?: selected)?>\1</option>", html.split("name=product>")[1].split("</select>")[0]) == [
        "dungeon", "character", "paperogue", "dunginoes", "delve", "foes"]
    sets = dict(re.findall(r"<fieldset data-product='(\w+)'( hidden disabled)?>", html))
    assert sets == {"dungeon": " hidden disabled", "character": " hidden disabled", "paperogue": " hidden disabled",
                    "dunginoes": " hidden disabled", "delve": "", "foes": " hidden disabled"}
    assert "<form class=roll method=get action=/roll>" in html  # the URL it opens carries the roll
    assert "name='batch'" not in html and "name='format'" not in html


def test_the_build_folder_lists_each_pdf_with_its_size_in_words():
    html = page(products=[("dungeon-5-zine-a4.pdf", 2048), ("sub dir/big.pdf", 3 * 1024 * 1024)])
    assert "2 PDFs" in html and "2 KB" in html and "3.0 MB" in html
    assert "href='/view/sub%20dir/big.pdf'" in html  # paths are quoted in links; a card opens every page
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


def test_the_current_roll_building_ready_or_failed_with_reroll_and_link():
    roll = RollRequest("dungeon", 5, (("--rooms", "4"),))
    building = page(current=job("running", roll=roll))
    assert "Building…" in building and "href='/roll?product=dungeon&amp;seed=&amp;rooms=4'>Reroll</a>" in building
    ready = page(current=job("done", roll=roll, outputs=["rolls/r/dungeon-5.json", "rolls/r/dungeon-5-zine-a4.pdf",
                                                         "rolls/r/dungeon-5-booklet-a4.pdf"], seconds=2.04),
                 pages={"rolls/r/dungeon-5-zine-a4.pdf": 1, "rolls/r/dungeon-5-booklet-a4.pdf": 3})
    assert "built in 2.0 s" in ready
    assert "class=share href='/roll?product=dungeon&amp;seed=5&amp;rooms=4'>Link to this roll</a>" in ready
    links = re.findall(r"<a class='(\w+)' href='/files/([^']+)' download>", ready)
    assert links == [("pdf", "rolls/r/dungeon-5-zine-a4.pdf"), ("pdf", "rolls/r/dungeon-5-booklet-a4.pdf"),
                     ("json", "rolls/r/dungeon-5.json")]  # PDFs first
    # Every page of every PDF, each a picture linking to itself at full size.
    assert re.findall(r"<img loading=lazy src='/page/([^']+)'", ready) == [
        "rolls/r/dungeon-5-zine-a4.pdf?n=1", "rolls/r/dungeon-5-booklet-a4.pdf?n=1",
        "rolls/r/dungeon-5-booklet-a4.pdf?n=2", "rolls/r/dungeon-5-booklet-a4.pdf?n=3"]
    assert "dungeon-5-booklet-a4.pdf · 3 pages<a href='/files/rolls/r/dungeon-5-booklet-a4.pdf'>" in ready
    failed = page(current=job("failed", messages=["error: the build took longer than 5 s and was stopped"]))
    assert "The build failed" in failed and "took longer than 5 s" in failed


def test_a_document_view_shows_every_page_and_links_the_file():
    html = render_document("sub/<b>.pdf", 3)
    assert html.count("<img loading=lazy") == 3 and "src='/page/sub/%3Cb%3E.pdf?n=3'" in html
    assert "<b>" not in html and "href='/files/sub/%3Cb%3E.pdf'" in html
    assert "open the PDF" in render_document("x.pdf", 0) and "<img" not in render_document("x.pdf", 0)


def test_earlier_rolls_link_to_their_own_url():
    html = page(history=[job("done", roll=RollRequest("foes", 8, (("--deck", "dungeon"),)))])
    assert "<h2>Earlier rolls</h2>" in html and "href='/roll?product=foes&amp;seed=8&amp;deck=dungeon'>show</a>" in html


def test_kept_rolls_are_listed_with_a_link_to_every_page_of_each_pdf():
    html = page(build_label="build/", kept=[("dungeon-seed-3", ["rolls/dungeon-seed-3/dungeon-3-zine-a4.pdf"]), (EVIL, [])])
    assert "<h2>Kept rolls <small><code>build/rolls/</code></small></h2>" in html
    assert "<li>dungeon-seed-3 <a href='/view/rolls/dungeon-seed-3/dungeon-3-zine-a4.pdf'>dungeon-3-zine-a4.pdf</a></li>" in html
    assert EVIL not in html
    assert "Kept rolls" not in page(kept=[])


# -- the rulebook, built into the build folder through its part cache

def test_the_rulebook_section_offers_a_build_then_shows_its_state_and_reading_pdf():
    assert "<form class=book method=post action=/book><button type=submit>Build the rulebook</button>" in page()
    running = page(book=job("running", book=True, reason="changed mine/rules/02-weather.md"))
    assert "Building…" in running and "changed mine/rules/02-weather.md" in running and "Build it again" in running
    done = page(book=job("done", book=True, outputs=["dungeoneer-rulebook.pdf"], seconds=12.5))
    assert "<a href='/view/dungeoneer-rulebook.pdf'>" in done and "built in 12.5 s" in done
    failed = page(book=job("failed", book=True, errors=[("mine/book.yaml", 3, "no such chapter")]))
    assert "The rulebook failed" in failed and "<code>mine/book.yaml:3</code>: no such chapter" in failed
    assert EVIL not in page(book=job("failed", book=True, messages=[EVIL]))
