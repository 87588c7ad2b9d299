"""No near-empty page in the book-sized products: every page is blank on purpose or at least a third full."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from dungeonpress.preflight.reading import MM, open_pdf
from tests.conftest import SHARED, standard_build

MIN_FILL = 0.35   # a page with less of its body in use reads as abandoned (issue 27: p25 22%, p38 12%, back 16%)
MARGINS_MM = 14   # the body: the page less a running head's and a folio's depth at top and foot


def page_fills(data: bytes, tmp_path: Path, *, margins_mm: float = MARGINS_MM, edge_mm: float = 12) -> list[tuple[int, float]]:
    """(page number, share of the body's height between its first and last ink) of each page with ink; a zine's
    small pages have their own margins and running heads nearer the edge (`margins_mm`, `edge_mm`).

    Read once a PDF in a test process: a large-print rulebook's 200 pages take about ten seconds to read, and seven
    tests measure the same shared build."""
    key = (hashlib.sha256(data).digest(), margins_mm, edge_mm)
    if key not in _FILLS:
        _FILLS[key] = tuple(_read_fills(data, tmp_path, margins_mm, edge_mm))
    return list(_FILLS[key])


_FILLS: dict = {}
_TEXTS: dict = {}


def _read_fills(data: bytes, tmp_path: Path, margins_mm: float, edge_mm: float) -> list[tuple[int, float]]:
    path = tmp_path / "read.pdf"
    path.write_bytes(data)
    doc = open_pdf(path)
    try:
        fills = []
        for page in doc.pages:
            edge = edge_mm * MM  # running heads and folios lie outside this; they fill nothing
            ink = [box for box in page.ink if box[4] != "text" or (box[1] >= edge and box[3] <= page.height - edge)]
            if ink:
                body = page.height - 2 * margins_mm * MM
                fills.append((page.number, (max(b[3] for b in ink) - min(b[1] for b in ink)) / body))
        return fills
    finally:
        doc.close()


def shared_pdf(key: str, name: str) -> bytes:
    """The PDF `name` of the shared build `key` (THEME/COMMAND/INDEX: tests/conftest.py's SHARED)."""
    outputs, _ = SHARED.result(key)
    return outputs[name]


def page_texts(data: bytes) -> list[str]:
    """Each page's text as a reader reads it (pdfium, Chromium's reader), its runs of white space made one space;
    read once a PDF. pdfium marks a word hyphenated at a line's end with U+FFFE where the hyphen was: it reads as
    the hyphen and the line break. (pypdf read the same text in twenty times the time: 5 s for the rulebook.)"""
    import pypdfium2 as pdfium
    key = hashlib.sha256(data).digest()
    if key not in _TEXTS:
        document = pdfium.PdfDocument(data)
        try:
            texts = []
            for page in document:
                text = page.get_textpage()
                texts.append(" ".join(text.get_text_range().replace("\ufffe", "- ").split()))
                text.close()
                page.close()
        finally:
            document.close()
        _TEXTS[key] = tuple(texts)
    return list(_TEXTS[key])


def near_empty(data: bytes, tmp_path: Path) -> list[str]:
    return [f"p{number} {100 * fill:.0f}%" for number, fill in page_fills(data, tmp_path) if fill < MIN_FILL]


@pytest.mark.slow
@pytest.mark.builds("standard/rulebook/0")
def test_no_rulebook_page_is_near_empty(tmp_path):
    # chapter ends carry a sidebar (the game, the generator, a creature of your own) instead of white;
    # the left-hand pages left blank so a chapter opens on the right carry no ink at all
    outputs, _ = standard_build("rulebook")
    assert near_empty(outputs["dungeoneer-rulebook.pdf"], tmp_path) == []


@pytest.mark.slow
@pytest.mark.builds("standard/tables/0")
def test_no_tables_booklet_page_is_near_empty(tmp_path):
    outputs, _ = standard_build("tables")
    assert near_empty(outputs["tables.pdf"], tmp_path) == []


@pytest.mark.slow
@pytest.mark.builds("standard/tables/0")
def test_paperogues_numbered_tables_follow_their_numbers_in_the_tables_booklet():
    # their titles were sorted as text: Table 10, 11 and 12 came before Table 1, in the contents and in the pages
    import re
    outputs, _ = standard_build("tables")
    texts = page_texts(outputs["tables.pdf"])
    contents = " ".join(t for t in texts[:5] if ". . ." in t)  # the contents pages, read by their leaders
    listed = [int(n) for n in re.findall(r"Table (\d+): [A-Z][a-z]+", contents)]
    assert listed == list(range(1, 13))
    pages = [int(re.search(rf"Table {n}: [^.]*?\.[ .]*(\d+)", contents).group(1)) for n in range(1, 13)]
    assert pages == sorted(pages) and pages[-1] > pages[0]


@pytest.mark.slow
@pytest.mark.builds("standard/dungeon/2", "standard/dungeon/3")
def test_the_dungeon_booklet_and_pack_have_no_near_empty_page(tmp_path):
    # the back page was a seed box and credits under 80% white (16% full): it holds the delve tracker now
    booklet, _ = standard_build("dungeon", 2)
    pack, _ = standard_build("dungeon", 3)
    assert near_empty(booklet["dungeon-1234-a5.pdf"], tmp_path) == []
    assert near_empty(pack["pack-66.pdf"], tmp_path) == []



@pytest.mark.slow
@pytest.mark.builds("standard/dungeon/2", "standard/dungeon/3")
def test_the_delve_trackers_last_box_runs_down_to_the_seed():
    """The back page's "Found, lost and owed" box ended 30 mm above the seed box, a quarter of the page white: it
    grows into that white now, in the booklet and the pack. Read from the page's drawn boxes (a full-width box is a
    path over 200 pt wide and 20 pt tall): the seed box, and the lowest writing box above it."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    for name, data in (("dungeon-1234-a5.pdf", standard_build("dungeon", 2)[0]["dungeon-1234-a5.pdf"]),
                       ("pack-66.pdf", standard_build("dungeon", 3)[0]["pack-66.pdf"])):
        document = pdfium.PdfDocument(data)
        try:
            page = document[len(document) - 1]
            boxes = sorted({tuple(round(v, 1) for v in obj.get_bounds()) for obj in page.get_objects(max_depth=20)
                            if obj.type == raw.FPDF_PAGEOBJ_PATH}, key=lambda box: box[1])
            boxes = [(bottom, top) for left, bottom, right, top in boxes if right - left > 200 and top - bottom > 20]
        finally:
            document.close()
        seed_top = boxes[0][1]  # the lowest: the seed box (PDF y runs up)
        write_bottom = min(bottom for bottom, top in boxes if bottom > seed_top)
        assert len(boxes) >= 3 and 0 < write_bottom - seed_top < 5 * 72 / 25.4, (name, boxes)


LARGE_THEMES = ("large-print", "dyslexia-friendly")  # the themes that set more pages than the standard one


@pytest.mark.slow
@pytest.mark.builds("{theme}/dungeon/2", "{theme}/dungeon/3")
@pytest.mark.parametrize("theme", LARGE_THEMES)
def test_the_dungeon_booklet_and_pack_have_no_near_empty_page_in_the_large_themes(theme, tmp_path):
    # were: large print a room alone overleaf (booklet p5, pack p10), the twists alone (p7, pack p14), How to Play's
    # last three lines alone (p13, pack p6), the index's last two lines alone (pack p3); dyslexia-friendly How to
    # Play's last lines (booklet p8, pack p4) and a room alone (pack p15, p32)
    booklet, _ = SHARED.result(f"{theme}/dungeon/2")
    pack, _ = SHARED.result(f"{theme}/dungeon/3")
    assert near_empty(booklet["dungeon-1234-a5.pdf"], tmp_path) == []
    assert near_empty(pack["pack-66.pdf"], tmp_path) == []


@pytest.mark.slow
@pytest.mark.builds("{theme}/tables/0")
@pytest.mark.parametrize("theme", LARGE_THEMES)
def test_no_tables_booklet_page_is_near_empty_in_the_large_themes(theme, tmp_path):
    # were: large print Traps 61 alone (p61 25%), Appendix C's title and note alone above a page of white (p129),
    # two rows of Appendix F alone (p138); dyslexia-friendly Appendix E alone (p69): tables of sentences turn the
    # page with three rows at least on each side
    outputs, _ = SHARED.result(f"{theme}/tables/0")
    assert near_empty(outputs["tables.pdf"], tmp_path) == []


@pytest.mark.slow
@pytest.mark.builds("{theme}/rulebook/0")
@pytest.mark.parametrize("theme", LARGE_THEMES)
def test_no_rulebook_page_is_near_empty_in_the_large_themes(theme, tmp_path):
    # were: large print Traps 61 alone (p175 25%), the last six pairs of Dungeon Name Regions alone at the chapter's
    # end (p198 28%: a two-up list turns the page with half of it at least), the character sheet's second page (p229
    # 19%: its NPC, location and event boxes fill it); dyslexia-friendly the Environment chapter's closing example
    # alone overleaf (p54 18%: the list it illustrates goes over with it, book.css)
    outputs, _ = SHARED.result(f"{theme}/rulebook/0")
    assert near_empty(outputs["dungeoneer-rulebook.pdf"], tmp_path) == []


def chapter_pages(data: bytes, title: str) -> range:
    """The page numbers of the chapter `title` (its top-level bookmark) up to the next chapter's first page."""
    import io
    import pypdf
    reader = pypdf.PdfReader(io.BytesIO(data))
    starts = [(item.title, reader.get_destination_page_number(item) + 1) for item in reader.outline
              if not isinstance(item, list)]
    index = [name for name, _ in starts].index(title)
    return range(starts[index][1], starts[index + 1][1])


@pytest.mark.slow
@pytest.mark.builds("large-print/rulebook/0")
def test_the_large_print_bestiary_fills_its_pages(tmp_path):
    # was one creature to a page, its labels each on a line of its own: 36 pages, ten of them about half white
    # (p92, p98, p101, p103, p105, p109, p112, p114, p120 at 47-54%); the labels now stand beside their values and a
    # long creature's closing description may turn the page, so the pages run on (22 pages, the fullest kept)
    data = shared_pdf("large-print/rulebook/0", "dungeoneer-rulebook.pdf")
    fills = dict(page_fills(data, tmp_path))
    bestiary = chapter_pages(data, "Creatures & Foes")
    assert [f"p{n} {100 * fills[n]:.0f}%" for n in bestiary[1:-1] if fills.get(n, 0) < 0.6] == []


@pytest.mark.slow
@pytest.mark.builds("large-print/tables/0")
def test_the_large_print_tables_booklets_appendices_run_on(tmp_path):
    # were: Appendix B's last three rows alone on p129 (42% full) and Appendix C, seven short rows kept whole, overleaf
    # on a page half white: in large print a table that more of its section follows turns the page with three rows at
    # least on each side, as a table of sentences does
    data = shared_pdf("large-print/tables/0", "tables.pdf")
    fills = dict(page_fills(data, tmp_path))
    appendices = chapter_pages(data, "Solo turn procedure")
    assert [f"p{n} {100 * fills[n]:.0f}%" for n in appendices[:-1] if fills.get(n, 0) < 0.45] == []


def section_pages(data: bytes, chapter: str) -> dict:
    """Each section (second-level bookmark) of `chapter` → the page number it opens on."""
    import io
    import pypdf
    reader = pypdf.PdfReader(io.BytesIO(data))
    outline = list(reader.outline)
    at = [i for i, item in enumerate(outline) if not isinstance(item, list) and item.title == chapter][0]
    return {item.title: reader.get_destination_page_number(item) + 1 for item in outline[at + 1]
            if not isinstance(item, list)}


@pytest.mark.slow
@pytest.mark.builds("{theme}/rulebook/0")
@pytest.mark.parametrize("theme", LARGE_THEMES)
def test_the_large_themes_cut_the_rulebook_where_their_own_pages_turn(theme, tmp_path):
    # the book is laid out in parts cut at headings that open a page; cut at the standard book's headings, large print
    # left Gear or Gold alone on p117 (42% full) before Adventure Gear, and dyslexia-friendly p93 54% before Hostile
    # Monsters: each theme now cuts where its own book, laid out whole, turns a page
    from dungeonpress.products import rulebook
    data = shared_pdf(f"{theme}/rulebook/0", "dungeoneer-rulebook.pdf")
    fills = dict(page_fills(data, tmp_path))
    opens = section_pages(data, "Adventure Tables")
    before = {slug: opens[slug.replace("-", " ").title()] - 1 for slug in rulebook.part_breaks(theme)}
    assert {slug: f"p{page} {100 * fills[page]:.0f}%" for slug, page in before.items() if fills[page] < 0.7} == {}


@pytest.mark.slow
@pytest.mark.builds("large-print/rulebook/0", "large-print/tables/0")
def test_large_prints_two_up_lists_turn_the_page_with_five_pairs_and_leave_no_page_half_white(tmp_path):
    # a two-up d66 list could open at a page's foot with three pairs under its title, and turn with three pairs
    # overleaf: pages were fuller (60%) but each such piece read as a list of its own, six lines at most, which the
    # preflight finds now that it reads a table's rows from its tags. Every piece has five pairs or more; a list's
    # long note may end a page above it, so the page before holds its title and note. Once, waiting for five pairs'
    # room, a list went overleaf with all it was kept with and pages ended under half full (Inspiration p190 54%, p192,
    # p195, p197 51%; the tables booklet's Loner core p12 54%, p14 57%); they stay half full at least. A list whose
    # entries wrap (Things, Oppositions) still split evenly over two pages about 55% full each (p182-p190, tables
    # p13-p17 61-65%): it is set as one list of whole lines now, which runs on, and every page but the last is 70% full.
    from dungeonpress.preflight import tagged
    from dungeonpress.preflight.reading import open_pdf
    book, _ = SHARED.result("large-print/rulebook/0")
    tables, _ = SHARED.result("large-print/tables/0")
    for data, chapter in ((book["dungeoneer-rulebook.pdf"], "Inspiration"), (tables["tables.pdf"], "Loner core")):
        fills = dict(page_fills(data, tmp_path))
        pages = [n for n in chapter_pages(data, chapter) if fills.get(n, 0) > 0]  # its blank page before the next left out
        assert [f"p{n} {100 * fills[n]:.0f}%" for n in pages[:-1] if fills[n] < 0.7] == [], chapter
        path = tmp_path / "read.pdf"
        path.write_bytes(data)
        doc = open_pdf(path)
        try:
            pieces = {n: tagged.table_pieces(doc.pages[n - 1].pdf) for n in pages}
        finally:
            doc.close()
        turned = [(n, len(pieces[n][-1].rows), len(pieces[n + 1][0].rows)) for n in pages[:-1]
                  if pieces[n] and pieces.get(n + 1) and pieces[n + 1][0].head]  # a piece carried over repeats its header
        assert turned and [t for t in turned if min(t[1:]) < 5] == [], chapter


@pytest.mark.slow
@pytest.mark.builds("standard/rulebook/0", "large-print/rulebook/0")
def test_a_list_whose_pairs_wrap_is_read_as_one_list_in_large_print_and_in_pairs_elsewhere():
    # Both forms are in every theme's HTML (templates/partials/table.html.j2); one is shown, so a reader, a search and
    # a screen reader meet each entry once, in the order of the form printed.
    standard = " ".join(page_texts(shared_pdf("standard/rulebook/0", "dungeoneer-rulebook.pdf")))
    large = " ".join(page_texts(shared_pdf("large-print/rulebook/0", "dungeoneer-rulebook.pdf")))
    assert "11 Magic 41 Suspicious characters" in standard and "11 Magic 12 Monsters 13 Ancient relics" in large
    assert standard.count("Suspicious characters") == large.count("Suspicious characters") == 1
    assert "11 Cast 41 Interrogate" in large  # the Actions' pairs fit their lines: still two-up


@pytest.mark.slow
@pytest.mark.builds("large-print/rulebook/0")
def test_large_prints_adventure_tables_run_on_where_a_list_turns_two_pages(tmp_path):
    # Minor Treasures, a two-up list that Major Treasures follows, ran over three pages keeping its last nine pairs
    # together: the middle page took five pairs and ended 41% full (p164). A list that more of its chapter follows turns
    # with five pairs at least overleaf (large-print.css), and a section's long note may end the page above its table:
    # every page of the chapter but its blank last one is more than half full (60% when three rows could turn a page)
    data = shared_pdf("large-print/rulebook/0", "dungeoneer-rulebook.pdf")
    fills = dict(page_fills(data, tmp_path))
    pages = [n for n in chapter_pages(data, "Adventure Tables") if fills.get(n, 0) > 0]
    assert [f"p{n} {100 * fills[n]:.0f}%" for n in pages[:-1] if fills[n] < 0.5] == []


@pytest.mark.slow
@pytest.mark.builds("{theme}/rulebook/0")
@pytest.mark.parametrize("theme", LARGE_THEMES)
def test_the_large_themes_open_the_contents_and_chapters_on_the_next_page(theme, tmp_path):
    # were: a blank left-hand page so the contents or a chapter could open on the right, after a page 40-90% full:
    # large print p4, p28, p48, p68, p84, p106, p194, p198; dyslexia-friendly p6, p10, p34, p48, p60, p112, p126. Only the
    # back matter (the quick reference) still waits for a right-hand page.
    import io
    import pypdf
    data = shared_pdf(f"{theme}/rulebook/0", "dungeoneer-rulebook.pdf")
    reader = pypdf.PdfReader(io.BytesIO(data))
    inked = {number for number, _ in page_fills(data, tmp_path)}
    opens = {reader.get_destination_page_number(item) + 1: item.title for item in reader.outline
             if not isinstance(item, list)}
    assert [f"p{n} before {opens.get(n + 1)}" for n in range(1, len(reader.pages) + 1)
            if n not in inked and opens.get(n + 1) != "Quick Reference"] == []
    assert any(page % 2 == 0 for page, title in opens.items() if title != "Character Sheet")  # some open on the left


@pytest.mark.slow
@pytest.mark.builds("standard/tables/0", "large-print/tables/0")
def test_the_tables_booklets_spare_pages_hold_empty_tables_to_fill_in(tmp_path):
    # were two bare Notes pages before the back cover (standard p62-63, large print p138-139): the pages that pad the
    # booklet to whole sheets are now tables of one's own to write in, a d66 one first, then a d6 and a 2d6
    for theme in ("standard", "large-print"):
        data = shared_pdf(f"{theme}/tables/0", "tables.pdf")
        texts = page_texts(data)
        spare = [n for n, text in enumerate(texts, start=1) if text.startswith("Your Own Tables")]
        # the pages before the back cover: three in the standard booklet (68 pages), two in large print's (140), since
        # each game opens a page
        count = {"standard": 3, "large-print": 2}[theme]
        assert len(texts) % 4 == 0 and not any(text.startswith("Notes") for text in texts[-4:]), theme
        assert spare == list(range(len(texts) - count, len(texts))), theme
        if count:
            assert "d66 11 41 12 42" in texts[spare[0] - 1] and "36 66" in texts[spare[0] - 1], theme
        if count > 1:
            assert "d6 1 2 3 4 5 6 2d6 2 3 4 5 6 7 8 9 10 11 12" in texts[spare[1] - 1], theme
        assert not any(text.startswith("Notes") for text in texts), theme
        fills = dict(page_fills(data, tmp_path))
        assert all(fills[n] > 0.6 for n in spare), theme


@pytest.mark.slow
@pytest.mark.builds("{theme}/dungeon/2")
@pytest.mark.parametrize("theme", LARGE_THEMES)
def test_the_large_themes_dungeon_booklets_spare_room_is_laid_out_for_play(theme, tmp_path):
    # were ruled notes three times in the dyslexia-friendly booklet (the key's p3, How to Play's last page p8, a Delve
    # Notes page p11) and twice in large print (p12, p15): How to Play's last page now ends in a log of the foes fought,
    # and the third spare page holds the delve's threads (people, places, open questions) under their labels
    booklet, _ = SHARED.result(f"{theme}/dungeon/2")
    data = booklet["dungeon-1234-a5.pdf"]
    texts = page_texts(data)
    rules_end = max(n for n, text in enumerate(texts, start=1) if "Stairs down" in text)
    assert "Foes Fought" in texts[rules_end - 1] and "Luck" in texts[rules_end - 1].split("Foes Fought")[1]
    assert [n for n, text in enumerate(texts, start=1) if text.startswith("Threads")] == [len(texts) - 1]
    assert all(label in texts[-2] for label in ("People met", "Places found", "Questions still open"))
    assert [n for n, text in enumerate(texts, start=1) if "Delve Notes" in text] == []
    assert len([n for n, text in enumerate(texts, start=1) if "Notes" in text.split()]) <= 1  # a key page's, at most
    fills = dict(page_fills(data, tmp_path))
    assert fills[rules_end] > 0.6


@pytest.mark.slow
@pytest.mark.builds("large-print/delve/0")
def test_the_large_print_solo_procedures_appendices_fill_their_pages(tmp_path):
    # was p5 33% full: large print's bolder rules made Appendix A's table a little taller, its monster lines ended a
    # third of the way down p5 and the traps table, kept whole, went overleaf; the lines are set a little closer, and
    # the appendices take six pages as in the standard kit, the booklet's fourth turn log (turns 73-96) after them
    data = shared_pdf("large-print/delve/0", "solo-procedure.pdf")
    fills = dict(page_fills(data, tmp_path))
    appendices = chapter_pages(data, "Appendices A–F")
    assert [f"p{n} {100 * fills[n]:.0f}%" for n in appendices if fills.get(n, 0) < 0.8] == []
    assert len(appendices) == 6


@pytest.mark.slow
@pytest.mark.builds("standard/paperogue/0", "dyslexia-friendly/paperogue/0")
def test_the_paperogue_reference_cards_first_pages_run_to_their_feet(tmp_path):
    # were p1 75% and p2 87% full (their feet a fifth and an eighth white): page 1's rules are set a size larger, page
    # 2's spells and level steps on taller lines; in the dyslexia-friendly theme's wider letters the card keeps its
    # four pages
    import io
    import pypdf
    standard, _ = standard_build("paperogue")
    fills = dict(page_fills(standard["paperogue-reference.pdf"], tmp_path))
    assert [f"p{n} {100 * fills[n]:.0f}%" for n in (1, 2) if fills[n] < 0.88] == []
    wider, _ = SHARED.result("dyslexia-friendly/paperogue/0")
    assert len(pypdf.PdfReader(io.BytesIO(wider["paperogue-reference.pdf"])).pages) == 4


@pytest.mark.slow
@pytest.mark.builds("large-print/tables/0")
def test_large_prints_appendix_f_and_the_encounter_check_fill_their_pages(tmp_path):
    # were p132 57% (Appendix F's last rows) and p133 61% (the Encounter Check alone, sent overleaf whole because its
    # "Roll on" head broke over two lines at 14 pt): a three-column table's heads stay on one line. Then p131 50%:
    # Appendix F's rows 10-12, kept together, missed the page by 7 mm, its names held to two lines on 42% of the
    # measure. A table of sentences' columns are now balanced for 14 pt (views.tables: LARGE_MEASURE_CHARS): the
    # appendix takes two pages, the check one, each over half full, and the Bestiary at a glance opens the next
    import io
    import pypdf
    data = shared_pdf("large-print/tables/0", "tables.pdf")
    fills = dict(page_fills(data, tmp_path))
    reader = pypdf.PdfReader(io.BytesIO(data))
    texts = [" ".join(page.extract_text().split()) for page in reader.pages]
    opens = next(reader.get_destination_page_number(item) + 1 for item in reader.outline
                 if not isinstance(item, list) and item.title == "Bestiary at a glance")
    appendix = next(n for n, text in enumerate(texts, start=1) if "Rooms that are neither monster" in text)  # its note
    check = next(n for n, text in enumerate(texts, start=1) if "Obstacle and treasure" in text)
    assert [f"p{n} {100 * fills[n]:.0f}%" for n in range(appendix, opens) if fills[n] < 0.55] == []
    assert "d20 Result Roll on" in texts[check - 1]  # the head on one line
    assert check <= opens and opens - appendix <= 3


@pytest.mark.slow
@pytest.mark.builds("{theme}/tables/0")
@pytest.mark.parametrize("theme", LARGE_THEMES)
def test_the_tables_booklets_bestiary_ends_on_a_full_page(theme, tmp_path):
    # were the bestiary at a glance's last rows above a half-white page (large print p137 50%, dyslexia-friendly p71
    # 43%): where its last page has room for four rows or more, the rest of it holds empty rows to write one's own
    # creatures in, under the same three heads (the standard booklet's p64). Opening a page of its own, the bestiary
    # now ends on large print's p137 93% full and dyslexia-friendly's p72 67% full (two rows would fit: too few)
    data = shared_pdf(f"{theme}/tables/0", "tables.pdf")
    texts = page_texts(data)
    last = max(n for n, text in enumerate(texts, start=1) if "Bound by Any Bargain Spoken" in text)  # creature 66
    own = [n for n, text in enumerate(texts, start=1) if "Creatures of Your Own" in text]
    assert own == []
    fills = dict(page_fills(data, tmp_path))
    assert fills[last] > {"large-print": 0.8, "dyslexia-friendly": 0.6}[theme], f"p{last} {100 * fills[last]:.0f}%"


ZINE_MARGINS_MM, ZINE_EDGE_MM = 5, 4.5  # a zine page's margins; its running head stands above the top one


@pytest.mark.slow
@pytest.mark.parametrize("seed,paper", [(17, "a4"), (12, "letter")])
def test_a_zines_key_ends_in_a_log_of_the_foes_fought_where_its_last_page_has_room(content, seed, paper, tmp_path):
    # were the key's rules ending high on a page whose aids open overleaf: seed 17 on A4 p5 (40% white), seed 12 on
    # Letter p5 (the rules' last lines alone, 56% white); the rest of that page is a log of the foes fought
    from dungeonpress import build
    from dungeonpress.products import dungeon as product
    ctx = build.context_for(content, seed=seed)
    rooms = product.DEFAULT_ROOMS
    data = product.zine_pages(ctx, product.roll_dungeon(ctx, seed, rooms), seed, rooms, paper)
    texts = page_texts(data)
    last = next(n for n, text in enumerate(texts, start=1) if "Doors, Puzzles and the End" in text)
    assert "Foes Fought" in texts[last - 1] and "Foe Luck How it ended" in texts[last - 1]
    assert texts[last].startswith("Wandering Encounters") and len(texts) == 8
    fills = dict(page_fills(data, tmp_path, margins_mm=ZINE_MARGINS_MM, edge_mm=ZINE_EDGE_MM))
    assert fills[last] > 0.9, f"p{last} {100 * fills[last]:.0f}%"


@pytest.mark.slow
@pytest.mark.parametrize("theme", ["standard", "dyslexia-friendly"])
def test_a_zine_whose_wandering_table_fills_its_page_keeps_its_entries_whole_and_its_answers(content, theme, tmp_path):
    # seed 29 on Letter took the last resort, the split fit: room 6's trap turned the page away from its entry, the
    # oracle page lost its pre-rolled answers to the doors rule, and the key's last page held the navigation rule's
    # last lines alone (p5 33% full). Its wandering table fills a page alone and the fold-and-cut note ran it over:
    # the note now stands at the oracle page's foot, the entries whole, the doors rule after the navigation one, the
    # Foes Fought log under them, and the answers kept (compact in the wider letters)
    import re

    from dungeonpress import build
    from dungeonpress.products import dungeon as product
    ctx = build.context_for(content, theme=theme)
    rooms = product.DEFAULT_ROOMS
    data = product.zine_pages(ctx, product.roll_dungeon(ctx, 29, rooms), 29, rooms, "letter")
    texts = page_texts(data)
    assert len(texts) == 8
    key = [text for text in texts[2:] if "Exits" in text]  # each key page after the first opens with an entry
    assert len(key) >= 2 and key[0].startswith("Room Key") and all(re.match(r"\d+ [A-Z]", text) for text in key[1:])
    last = next(n for n, text in enumerate(texts, start=1) if "Doors, Puzzles and the End" in text)
    assert "Foes Fought" in texts[last - 1] and texts[last].startswith("Wandering Encounters")
    oracle = texts[last + 1]
    assert oracle.startswith("Pre-rolled Oracle") and "Plain Advantage Disadvantage" in oracle
    assert "Cut only along the red line" in oracle
    fills = dict(page_fills(data, tmp_path, margins_mm=ZINE_MARGINS_MM, edge_mm=ZINE_EDGE_MM))
    assert fills[last] > 0.9, f"p{last} {100 * fills[last]:.0f}%"


@pytest.mark.slow
@pytest.mark.builds("large-print/tables/0")
def test_large_prints_bestiary_at_a_glance_sets_each_creature_in_two_lines(tmp_path):
    # in four columns at 14 pt every cell wrapped at about fifteen letters ("Cannot / Resist / Anything / Shiny"): the
    # 36 creatures took four pages (p131-p134), the third 69% full. Each creature's concept stands under its name, beside
    # its frailty: three pages, each over 90% full
    data = shared_pdf("large-print/tables/0", "tables.pdf")
    texts = page_texts(data)
    pages = [n for n, text in enumerate(texts, start=1) if "d66 Creature and concept Frailty" in text]  # its header
    assert len(pages) == 3 and "Frailty 11 Larder Rat Swarm Thieving Swarm Scatters" in texts[pages[0] - 1]
    assert "66 The Thing Beneath the Seal Imprisoned Horror Bound by Any Bargain Spoken" in texts[pages[-1] - 1]
    fills = dict(page_fills(data, tmp_path))
    assert [f"p{n} {100 * fills[n]:.0f}%" for n in pages if fills[n] < 0.9] == []


@pytest.mark.slow
@pytest.mark.builds("standard/tables/0", "large-print/tables/0", "dyslexia-friendly/tables/0")
def test_the_white_a_table_leaves_before_the_next_opens_overleaf_holds_a_table_of_ones_own(tmp_path):
    # were large print p71 40% (Neutral Presences' last rows; Puzzles and Locked Mechanisms, its title, note and first
    # five rows taller than the room, overleaf), p115 42% (Paperogue's last table; Dunginoes overleaf) and p130 58% (the
    # solo procedure's Encounter Check; the Bestiary at a glance overleaf), the standard booklet's p53 53% (Paperogue's
    # end): that room now holds an empty d6 or 2d6 table to write one's own in
    # (Paperogue's tables now end with Table 12, on a full page; large print's p71 and p115 moved with the five-row rule)
    ends = {"standard": ("Giant shrew",),
            "large-print": ("Broken stair climbing to a landing", "Obstacle and treasure"),
            "dyslexia-friendly": ("Thumb-Sized Gold Nugget",)}
    for theme, lasts in ends.items():
        data = shared_pdf(f"{theme}/tables/0", "tables.pdf")
        texts = page_texts(data)
        fills = dict(page_fills(data, tmp_path))
        own = [n for n, text in enumerate(texts, start=1) if "A Table of Your Own" in text]
        assert own, theme
        assert [f"p{n} {100 * fills[n]:.0f}%" for n in own if fills[n] < 0.75] == [], theme
        for last in lasts:
            assert next(n for n, text in enumerate(texts, start=1) if last in text) in own, (theme, last)


@pytest.mark.slow
@pytest.mark.builds("large-print/rulebook/0")
def test_large_prints_long_lead_ins_and_its_worked_example_run_on_rather_than_leave_half_a_page(tmp_path):
    # were p52 43% (Complications; the Example of Exploration, kept whole, overleaf), p70 44% (Hidden Passages' end;
    # Hazards' heading, lead-in and table overleaf as one), p78 40% (Resource Pressure's end; the Resource Tracker's
    # likewise) and p188 42% (the exact odds' opening; the Oracle's section overleaf): a lead-in of three lines or more
    # ends the page, its table opening the next under its title or note, and the example turns between its steps
    data = shared_pdf("large-print/rulebook/0", "dungeoneer-rulebook.pdf")
    texts = page_texts(data)
    fills = dict(page_fills(data, tmp_path))

    def page_of(words: str) -> int:
        return next(n for n, text in enumerate(texts, start=1) if words in text)

    complications = page_of("Environmental hazard (flood, gas)")
    assert "Example of Exploration" in texts[complications - 1] and fills[complications] > 0.85
    # Hazards' caption is gone (the paragraph under the table says it), and its table now follows its lead-in on the page
    hazards = page_of("Dungeons are unstable.")
    assert page_of("Falling Debris") in (hazards, hazards + 1) and fills[hazards] > 0.55, f"p{hazards}"
    for lead, table in (("Keep your gear in one list", "A filled-in example: six gear tags"),
                        ("The chance of each answer on a plain roll", "Oracle answers, exact odds")):
        page = page_of(lead)  # the lead-in ends its page; its table opens the next
        assert page_of(table) == page + 1 and fills[page] > 0.55, (lead, f"p{page} {100 * fills[page]:.0f}%")


@pytest.mark.slow
@pytest.mark.builds("standard/rulebook/0", "dyslexia-friendly/rulebook/0", "large-print/rulebook/0")
def test_the_exploration_chapter_opens_with_the_scene_count_and_ends_fuller(tmp_path):
    # were the dyslexia-friendly chapter's first page 48% (the Navigation Check's heading, lead-in and table overleaf)
    # and the standard chapter's last page 41% (its worked example alone): the chapter opens with the scene count on one
    # hand, where its introduction asks for a tally of scenes
    for key, least in (("standard/rulebook/0", 0.6), ("dyslexia-friendly/rulebook/0", 0.6), ("large-print/rulebook/0", 0.35)):
        outputs, _ = SHARED.result(key)
        data = outputs["dungeoneer-rulebook.pdf"]
        texts = page_texts(data)
        fills = dict(page_fills(data, tmp_path))
        pages = [n for n in chapter_pages(data, "Exploration") if n in fills]
        assert "The scene count on one hand" in texts[pages[0] - 1], key
        assert [f"p{n} {100 * fills[n]:.0f}%" for n in pages if fills[n] < least] == [], key


@pytest.mark.slow
@pytest.mark.parametrize("seed", [9, 11, 24])
def test_a_wide_map_turned_on_its_side_fills_the_letter_zines_map_page(content, seed, tmp_path):
    # were 70%, 66% and 65% full: a map wider than its tall panel printed at the panel's width, a third of the page
    # white under its legend; turned on its side it prints its squares 15-26% larger and fills the page
    from dungeonpress import build
    from dungeonpress.products import dungeon as product
    ctx = build.context_for(content, seed=seed)
    rooms = product.DEFAULT_ROOMS
    data = product.zine_pages(ctx, product.roll_dungeon(ctx, seed, rooms), seed, rooms, "letter")
    assert page_texts(data)[1].startswith("Map")
    assert "turned to fit: north is to the left" in page_texts(data)[1]  # the reader is told to turn the page
    fills = dict(page_fills(data, tmp_path, margins_mm=ZINE_MARGINS_MM, edge_mm=ZINE_EDGE_MM))
    assert fills[2] > 0.85, f"p2 {100 * fills[2]:.0f}%"
