"""Turn a PDF of pages into printer sheets: saddle-stitch booklets and the 8-page mini zine (with impose.limits,
the only pikepdf import)."""

from __future__ import annotations

import io
from dataclasses import dataclass

import pikepdf

from dungeonpress.model.paper import PAPER_MM

MM = 72 / 25.4


def _points(mm: float) -> float:
    """A length in points; a whole number of points (Letter's 612 x 792) stays whole, not 612.0000000000001."""
    points = mm * MM
    return float(round(points)) if abs(points - round(points)) < 1e-6 else points


# Landscape sheet sizes in points, for the papers booklets and zines are imposed on.
SHEETS = {paper: (_points(PAPER_MM[paper][1]), _points(PAPER_MM[paper][0])) for paper in ("a4", "letter")}


@dataclass(frozen=True)
class Slot:
    """Where one page goes on a sheet side: its page index (None = blank) and its box, rotated or not."""

    page: int | None
    x: float
    y: float
    w: float
    h: float
    upside_down: bool = False
    # Side edges a booklet may lose rather than shrink its type: an A5 page on half a US Letter sheet
    # (139.7 mm wide) prints at 100% with 4.15 mm off each side, all of it inside the 13 mm margins,
    # instead of at 94% with every size below the A5 minimums.
    trim_sides: float = 0.0


# How much a booklet page may be wider than its half sheet before it is scaled down instead (points).
MAX_SIDE_TRIM = 5 * 72 / 25.4


def booklet_order(page_count: int) -> list[tuple[int, int]]:
    """Page pairs (left, right) per sheet side for saddle stitching; `page_count` is a multiple of 4.

    Sheet k's front carries the last unplaced page on the left and the first on the right;
    its back carries the next two inwards, so a stack folded in the middle reads in order.
    """
    if page_count % 4:
        raise ValueError(f"a saddle-stitched booklet needs a multiple of 4 pages (got {page_count})")
    sides = []
    for k in range(page_count // 4):
        sides.append((page_count - 1 - 2 * k, 2 * k))
        sides.append((2 * k + 1, page_count - 2 - 2 * k))
    return sides


# The one-sheet fold-and-cut zine: bottom row reads 6 7 8 1 (back cover beside the front), the
# top row 5 4 3 2 printed upside down, so folding the sheet in half lengthwise turns them upright.
ZINE_TOP = (4, 3, 2, 1)  # 0-based page numbers, left to right, rotated 180 degrees
ZINE_BOTTOM = (5, 6, 7, 0)


def page_count(pdf_bytes: bytes) -> int:
    """How many pages a PDF has (for progress lines and the end-of-run summary)."""
    with pikepdf.open(io.BytesIO(pdf_bytes)) as pdf:
        return len(pdf.pages)


def creep_shifts(page_count: int, thickness_mm: float) -> list[float]:
    """How far (points) each sheet side's pages move towards the fold, outermost sheet first.

    Folded together, every sheet wraps round the ones inside it, so an inner sheet's pages reach
    further out at the fore-edge by one paper thickness per sheet outside them, and lose that much
    when the book is trimmed flush. Moving sheet k's pages k thicknesses towards the spine keeps
    the outer margins equal through the whole book (the 108-page rulebook is 27 sheets: 2.6 mm at
    0.1 mm a sheet).
    """
    return [k * thickness_mm * MM for k in range(page_count // 4) for _side in (0, 1)]


def impose_booklet(pdf_bytes: bytes, paper: str, creep_mm: float = 0.0, *, reading_copy: str = "") -> bytes:
    """Two pages a side, in saddle-stitch order, on landscape `paper` (a4 or letter), with creep compensation.

    `reading_copy` names the tagged PDF of the same pages in reading order (see `_for_the_printer`).
    """
    width, height = SHEETS[paper]
    with pikepdf.open(io.BytesIO(pdf_bytes)) as src:
        sides = []
        order = booklet_order(len(src.pages))
        for (left, right), shift in zip(order, creep_shifts(len(src.pages), creep_mm)):
            sides.append([Slot(left, shift, 0, width / 2, height, trim_sides=MAX_SIDE_TRIM),
                          Slot(right, width / 2 - shift, 0, width / 2, height, trim_sides=MAX_SIDE_TRIM)])
        return _impose(src, sides, (width, height), fold_marks="booklet", reading_copy=reading_copy)


def impose_bound(pdf_bytes: bytes, paper: str, signatures: int | None, creep_mm: float = 0.0, *,
                 reading_copy: str = "") -> bytes:
    """One saddle-stitched gathering, or with `signatures` sewn signatures of that many sheets (--signatures)."""
    if signatures:
        return impose_signatures(pdf_bytes, paper, signatures, creep_mm, reading_copy=reading_copy)
    return impose_booklet(pdf_bytes, paper, creep_mm, reading_copy=reading_copy)


def signature_sizes(page_count: int, sheets: int) -> list[int]:
    """Sheets in each sewn signature: as few signatures as hold `sheets` each, sized within one sheet of each other.

    The rulebook's 27 sheets at 4 a signature are 7 signatures of 4, 4, 4, 4, 4, 4, 3 sheets.
    """
    if page_count % 4:
        raise ValueError(f"a sewn book needs a multiple of 4 pages (got {page_count})")
    if sheets < 1:
        raise ValueError(f"a signature holds at least one sheet (got {sheets})")
    total = page_count // 4
    count = -(-total // sheets)
    base, extra = divmod(total, count)
    return [base + 1 if n < extra else base for n in range(count)]


def signature_order(page_count: int, sheets: int) -> list[list[tuple[int, int]]]:
    """Each signature's sheet sides (left, right page), each signature folded as its own saddle-stitched gathering."""
    out, start = [], 0
    for size in signature_sizes(page_count, sheets):
        out.append([(left + start, right + start) for left, right in booklet_order(4 * size)])
        start += 4 * size
    return out


def impose_signatures(pdf_bytes: bytes, paper: str, sheets: int, creep_mm: float = 0.0, *,
                      reading_copy: str = "") -> bytes:
    """Sewn signatures: the pages in gatherings of `sheets` folded sheets, each in saddle-stitch order with its own
    creep, and a collation mark on the spine fold of each gathering's outer sheet (a black block one step lower per
    signature: the gathered book shows a clean staircase on its spine, and a gap or a step out of line names a
    missing or misplaced signature)."""
    width, height = SHEETS[paper]
    with pikepdf.open(io.BytesIO(pdf_bytes)) as src:
        sides, marks = [], []
        signatures = signature_order(len(src.pages), sheets)
        for number, order in enumerate(signatures, start=1):
            for index, ((left, right), shift) in enumerate(zip(order, creep_shifts(2 * len(order), creep_mm))):
                sides.append([Slot(left, shift, 0, width / 2, height, trim_sides=MAX_SIDE_TRIM),
                              Slot(right, width / 2 - shift, 0, width / 2, height, trim_sides=MAX_SIDE_TRIM)])
                marks.append(_collation_mark(number, len(signatures), (width, height)) if index == 0 else "")
        return _impose(src, sides, (width, height), fold_marks="booklet", reading_copy=reading_copy,
                       extra_marks=marks)


COLLATION_MARK = (3 * MM, 6 * MM)  # the block's width (across the fold) and height, in points
COLLATION_SPAN = (20 * MM, 20 * MM)  # the staircase runs from 20 mm below the top to 20 mm above the foot


def _collation_mark(number: int, count: int, size: tuple) -> str:
    """The collation block of signature `number` of `count` on the outer side of its outer sheet, centred on the fold."""
    width, height = size
    block_w, block_h = COLLATION_MARK
    top, foot = COLLATION_SPAN
    step = 0 if count < 2 else (height - top - foot - block_h) / (count - 1)
    y = height - top - block_h - (number - 1) * step  # PDF y runs up: the first signature's block is highest
    x = width / 2 - block_w / 2
    return f"q 0 g {x:.2f} {y:.2f} {block_w:.2f} {block_h:.2f} re f Q"


def impose_zine(pdf_bytes: bytes, paper: str, *, reading_copy: str = "") -> bytes:
    """Eight pages on one side of landscape `paper`: the mini zine you fold, slit and fold again."""
    width, height = SHEETS[paper]
    with pikepdf.open(io.BytesIO(pdf_bytes)) as src:
        if len(src.pages) != 8:
            raise ValueError(f"a one-sheet zine has exactly 8 pages (got {len(src.pages)})")
        cw, ch = width / 4, height / 2
        slots = [Slot(p, i * cw, ch, cw, ch, upside_down=True) for i, p in enumerate(ZINE_TOP)]
        slots += [Slot(p, i * cw, 0, cw, ch) for i, p in enumerate(ZINE_BOTTOM)]
        return _impose(src, [slots], (width, height), fold_marks="zine", reading_copy=reading_copy)


def _impose(src: pikepdf.Pdf, sides: list, size: tuple, fold_marks: str, reading_copy: str = "",
            extra_marks: list | None = None) -> bytes:
    out = pikepdf.new()
    forms = {}
    for index in sorted({slot.page for side in sides for slot in side if slot.page is not None}):
        forms[index] = out.copy_foreign(src.pages[index].as_form_xobject())
    for number, side in enumerate(sides):
        page = out.add_blank_page(page_size=size)
        resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary())
        extra = extra_marks[number] if extra_marks else ""
        page.obj.Resources = resources
        commands = []
        for n, slot in enumerate(side):
            if slot.page is None:
                continue
            name = pikepdf.Name(f"/P{n}")
            resources.XObject[name] = forms[slot.page]
            commands.append(_placement(src.pages[slot.page], slot, name))
        commands.append(_marks(fold_marks, size))
        if extra:
            commands.append(extra)
        # A print sheet is for the printer: all of it is an artifact to a screen reader, which is sent
        # to the reading copy instead (the pages' own tags stay in that file, in reading order).
        page.obj.Contents = out.make_stream(("/Artifact BMC\n" + "\n".join(commands) + "\nEMC").encode())
    _copy_metadata(src, out)
    _for_the_printer(out, reading_copy)
    buffer = io.BytesIO()
    # Fixed ID and no generated dates, so the same input gives the same bytes.
    out.save(buffer, deterministic_id=True, compress_streams=True, object_stream_mode=pikepdf.ObjectStreamMode.generate)
    return buffer.getvalue()


def _copy_metadata(src: pikepdf.Pdf, out: pikepdf.Pdf) -> None:
    """The printer's sheets keep the book's title, author and language (what WeasyPrint wrote from the HTML)."""
    for key in ("/Title", "/Author", "/Subject", "/Keywords", "/Creator"):
        if key in src.docinfo:
            out.docinfo[key] = pikepdf.String(str(src.docinfo[key]))
    if "/Title" in out.docinfo:
        out.docinfo["/Title"] = pikepdf.String(f"{out.docinfo['/Title']} (imposed for printing)")
    if "/Lang" in src.Root:
        out.Root.Lang = pikepdf.String(str(src.Root.Lang))
        # Readers show the title, not the file name, as they do for the reading PDF.
        out.Root.ViewerPreferences = pikepdf.Dictionary(DisplayDocTitle=True)


def _for_the_printer(out: pikepdf.Pdf, reading_copy: str) -> None:
    """Say, where readers and checkers look, that this file is a print sheet and which file to read.

    The sheet is tagged (MarkInfo, a structure tree) with one element that holds no page content:
    its alternative text, the title and the XMP description all name the reading copy.
    """
    title = str(out.docinfo.get("/Title", "")) or "Print sheet"
    where = f"the tagged copy for reading and screen readers is {reading_copy}" if reading_copy else \
        "the tagged copy for reading and screen readers is the PDF beside it"
    note = f"Imposed for printing: pages in folding order; {where}."
    out.docinfo["/Subject"] = pikepdf.String(note)
    out.Root.MarkInfo = pikepdf.Dictionary(Marked=True)
    root = out.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.StructTreeRoot))
    document = out.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.StructElem, S=pikepdf.Name.Document,
                                                    P=root, Alt=pikepdf.String(note), K=pikepdf.Array()))
    root.K = pikepdf.Array([document])
    root.ParentTree = out.make_indirect(pikepdf.Dictionary(Nums=pikepdf.Array()))
    out.Root.StructTreeRoot = root
    with out.open_metadata(set_pikepdf_as_editor=False, update_docinfo=False) as meta:
        meta["dc:title"] = title
        meta["dc:description"] = note
        meta["pdfuaid:part"] = "1"


def _placement(page: pikepdf.Page, slot: Slot, name: pikepdf.Name) -> str:
    """PDF operators that draw a page's form scaled to fit and centred in its slot (rotated if asked)."""
    box = [float(v) for v in page.trimbox]
    pw, ph = box[2] - box[0], box[3] - box[1]
    scale = min(slot.w / pw, slot.h / ph)
    if scale < 1 and ph <= slot.h and (pw - slot.w) / 2 <= slot.trim_sides:
        # Print at full size and trim the side edges equally (see Slot.trim_sides).
        scale = 1.0
        cut = (pw - slot.w) / 2
        box = [box[0] + cut, box[1], box[2] - cut, box[3]]
        pw = slot.w
    dx = slot.x + (slot.w - pw * scale) / 2
    dy = slot.y + (slot.h - ph * scale) / 2
    if slot.upside_down:
        # rotate 180 degrees about the slot: x' = -s*x + (dx + pw*s), y' = -s*y + (dy + ph*s)
        a, d = -scale, -scale
        e, f = dx + pw * scale + box[0] * scale, dy + ph * scale + box[1] * scale
    else:
        a, d = scale, scale
        e, f = dx - box[0] * scale, dy - box[1] * scale
    # Clipped to the trim box: a page's bleed never prints over its neighbour across the fold.
    clip = f"{box[0]:.3f} {box[1]:.3f} {pw:.3f} {ph:.3f} re W n"
    return f"q {a:.5f} 0 0 {d:.5f} {e:.3f} {f:.3f} cm {clip} {name} Do Q"


def _marks(kind: str, size: tuple) -> str:
    """Light grey guides: the centre fold of a booklet; the folds of a zine, and its slit in red."""
    width, height = size
    tick = 5 * MM
    ops = ["q 0.6 G 0.4 w"]
    if kind == "booklet":  # short ticks at the fold, outside the page content
        ops.append(f"{width / 2:.2f} 0 m {width / 2:.2f} {tick:.2f} l S")
        ops.append(f"{width / 2:.2f} {height - tick:.2f} m {width / 2:.2f} {height:.2f} l S")
    else:
        ops.append("[2 2] 0 d")
        for i in (1, 2, 3):  # vertical folds: ticks at top and bottom edges
            x = width * i / 4
            ops.append(f"{x:.2f} 0 m {x:.2f} {tick:.2f} l S {x:.2f} {height - tick:.2f} m {x:.2f} {height:.2f} l S")
        ops.append(f"0 {height / 2:.2f} m {tick:.2f} {height / 2:.2f} l S")
        ops.append(f"{width - tick:.2f} {height / 2:.2f} m {width:.2f} {height / 2:.2f} l S")
        # The cut: the centre slit between the middle folds, solid and in the red the zine's note names ("cut only
        # along the red line") and its diagram draws (#7a1f1f); in grey it read as one more fold.
        ops.append("[] 0 d 0.478 0.122 0.122 RG 0.6 w")
        ops.append(f"{width / 4:.2f} {height / 2:.2f} m {3 * width / 4:.2f} {height / 2:.2f} l S")
    ops.append("Q")
    return " ".join(ops)
