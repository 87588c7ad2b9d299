"""Print-shop output: bleed and trim boxes, crop marks outside the trim, the cover in the bleed, PDF/X, option checks."""

from __future__ import annotations

import io
from pathlib import Path

import pikepdf
import pytest

from dungeonpress import build, cli
from dungeonpress.errors import UsageError
from dungeonpress.products import options
from dungeonpress.products.rulebook import COMMANDS as RULEBOOK, RulebookOptions

MM = 72 / 25.4
A5 = (148 * MM, 210 * MM)


def test_marks_need_a_bleed_and_creep_is_a_thickness():
    with pytest.raises(UsageError, match="--marks needs --bleed"):
        options.parse(RulebookOptions, {"marks": "crop"})
    with pytest.raises(UsageError, match="--creep must be a paper thickness"):
        options.parse(RulebookOptions, {"creep": "2cm"})
    assert options.parse(RulebookOptions, {"creep": "0.08mm"}).creep_mm == pytest.approx(0.08)
    assert options.parse(RulebookOptions, {}).creep_mm == options.DEFAULT_CREEP_MM
    assert options.parse(RulebookOptions, {"bleed": "3mm", "marks": "crop"}).page_css() == \
        "@page { bleed: 3mm; marks: crop; }"


def test_a_bad_creep_on_the_command_line_is_one_line_exit_two(capsys):
    code = cli.main(["build", "tables", "--creep", "thick"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "--creep" in err[0]


@pytest.fixture(scope="module")
def shop(content):
    command = RULEBOOK[0]
    ctx = build.context_for(content)
    opts = options.parse(RulebookOptions, {"bleed": "3mm", "marks": "crop", "pdf_x": True, "paper": "a4"})
    outputs = {o.name: o.data for o in command.run(ctx, opts)}
    assert ctx.warnings == []
    return outputs


def boxes(page) -> dict:
    return {name: [float(v) for v in page.obj[name]] for name in ("/MediaBox", "/TrimBox", "/BleedBox")}


@pytest.mark.slow
def test_trim_is_a5_and_the_bleed_three_millimetres_round_it(shop):
    with pikepdf.open(io.BytesIO(shop["dungeoneer-rulebook.pdf"])) as pdf:
        for page in list(pdf.pages)[:3] + [pdf.pages[-1]]:
            b = boxes(page)
            trim, bleed, media = b["/TrimBox"], b["/BleedBox"], b["/MediaBox"]
            assert trim[2] - trim[0] == pytest.approx(A5[0], abs=0.5)
            assert trim[3] - trim[1] == pytest.approx(A5[1], abs=0.5)
            for i, sign in enumerate((-1, -1, 1, 1)):
                assert bleed[i] - trim[i] == pytest.approx(sign * 3 * MM, abs=0.2)
                assert sign * (media[i] - bleed[i]) >= -0.01  # the media box holds the bleed box


@pytest.mark.slow
def test_cover_tint_reaches_into_the_bleed_and_crop_marks_sit_outside_the_trim(shop):
    import pypdfium2
    data = shop["dungeoneer-rulebook.pdf"]
    with pikepdf.open(io.BytesIO(data)) as pdf:
        media, trim = boxes(pdf.pages[0])["/MediaBox"], boxes(pdf.pages[0])["/TrimBox"]
    scale = 100 / 72
    cover = pypdfium2.PdfDocument(data)[0].render(scale=scale, crop=(0, 0, 0, 0)).to_pil().convert("RGB")
    # 1.5 mm outside the trim, halfway down the left edge: the cover's tint, not white paper
    x = round((trim[0] - media[0] - 1.5 * MM) * scale)
    y = cover.height // 2
    r, g, b = cover.getpixel((x, y))
    assert (r, g, b) != (255, 255, 255) and r > 200 and b < r, (r, g, b)
    # a text page: inside the trim at the corner is white, the crop mark line lies in the bleed
    page = pypdfium2.PdfDocument(data)[10].render(scale=scale).to_pil().convert("L")
    inside = page.getpixel((round((trim[0] - media[0] + 2 * MM) * scale), round((media[3] - trim[3] + 2 * MM) * scale)))
    assert inside > 240
    mark_zone = [page.getpixel((i, round((media[3] - trim[3]) * scale) - 1)) for i in range(0, round((trim[0] - media[0]) * scale))]
    assert min(mark_zone) < 160, "a crop mark in the top-left bleed, in line with the trim"


@pytest.mark.slow
def test_pdf_x_is_declared_tagged_and_rebuilds_byte_identical(content, shop):
    with pikepdf.open(io.BytesIO(shop["dungeoneer-rulebook.pdf"])) as pdf:
        assert str(pdf.docinfo["/GTS_PDFXVersion"]).startswith("PDF/X-3")
        intents = pdf.Root.OutputIntents
        assert str(intents[0].S) == "/GTS_PDFX" and "/DestOutputProfile" in intents[0]
        assert "/StructTreeRoot" in pdf.Root and str(pdf.Root.Lang) == "en"
        assert str(pdf.docinfo["/Title"]) == content.book.title
    with pikepdf.open(io.BytesIO(shop["dungeoneer-rulebook-booklet-a4.pdf"])) as pdf:
        assert str(pdf.Root.Lang) == "en" and str(pdf.docinfo["/Author"])
    # Rebuilt, the same bytes: shown on the 16-page book of tests/fixtures/small_pack made twice with the same
    # print-shop options (what PDF/X adds, the output intent and its profile, is the same for any book; the
    # 112-page book is rebuilt byte for byte in another process by test_reliability_faults.py's R1).
    small = build.load_content([Path(__file__).parent / "fixtures" / "small_pack"])
    command, shop_pages = RULEBOOK[0], {"bleed": "3mm", "marks": "crop", "pdf_x": True, "paper": "a4", "layout": "pages"}
    first, again = (command.run(build.context_for(small), options.parse(RulebookOptions, shop_pages))[0].data
                    for _ in range(2))
    with pikepdf.open(io.BytesIO(first)) as pdf:
        assert str(pdf.docinfo["/GTS_PDFXVersion"]).startswith("PDF/X-3") and len(pdf.pages) == 16
    assert again == first


def _mark_in_top_left_bleed(data: bytes, index: int) -> bool:
    """Whether page `index` has a crop mark in its top-left bleed, in line with the trim's top edge."""
    import pypdfium2
    with pikepdf.open(io.BytesIO(data)) as pdf:
        media, trim = boxes(pdf.pages[index])["/MediaBox"], boxes(pdf.pages[index])["/TrimBox"]
    scale = 100 / 72
    page = pypdfium2.PdfDocument(data)[index].render(scale=scale).to_pil().convert("L")
    row = round((media[3] - trim[3]) * scale) - 1
    return min(page.getpixel((i, row)) for i in range(0, round((trim[0] - media[0]) * scale))) < 160


@pytest.mark.slow
def test_the_pages_between_chapters_carry_the_crop_marks_too(shop):
    # the left-hand pages left so a chapter opens on a right-hand one (p6, p26, p32, p90, p100) were put in by the
    # binder with nothing on them: a print shop had no marks to trim those sheets by. They hold plates now (a map of
    # a rolled delve); a pack's own book (the small fixture pack's) still has blank ones.
    import pypdfium2
    data = shop["dungeoneer-rulebook.pdf"]
    document = pypdfium2.PdfDocument(data)
    plates = [i for i in range(len(document)) if "Roll it again as a zine" in document[i].get_textpage().get_text_range()]
    document.close()
    assert [i + 1 for i in plates] == [6, 26, 32, 90, 100]
    assert [i + 1 for i in plates if not _mark_in_top_left_bleed(data, i)] == []
    small = build.load_content([Path(__file__).parent / "fixtures" / "small_pack"])
    shop_pages = {"bleed": "3mm", "marks": "crop", "pdf_x": True, "paper": "a4", "layout": "pages"}
    own = RULEBOOK[0].run(build.context_for(small), options.parse(RulebookOptions, shop_pages))[0].data
    with pikepdf.open(io.BytesIO(own)) as pdf:
        blank = [i for i, page in enumerate(pdf.pages) if "/Font" not in page.obj.get("/Resources", {})]
    assert len(blank) >= 2
    assert [i + 1 for i in blank if not _mark_in_top_left_bleed(own, i)] == []


@pytest.mark.slow
def test_the_preflight_reads_a_print_shop_page_by_its_trim(shop, tmp_path):
    # it read the page with its bleed as a sheet of no known size (so every text line was held to A4's 9 pt) and its
    # crop marks as ink at the sheet's edge: 184 errors on a clean book; now only the covers' tinted frames, which sit
    # on the same tint, are left to it
    from dungeonpress import preflight
    path = tmp_path / "dungeoneer-rulebook.pdf"
    path.write_bytes(shop["dungeoneer-rulebook.pdf"])
    findings = preflight.check_file(path, shop=True)
    with pikepdf.open(path) as pdf:
        last = len(pdf.pages)
    assert [str(f) for f in findings if f.severity == preflight.ERROR and f.page not in (1, last)] == []
