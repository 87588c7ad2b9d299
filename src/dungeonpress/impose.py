"""Turn a PDF of pages into printer sheets (saddle-stitch booklets, the 8-page mini zine), and measure a PDF
against reading limits before anything renders it (the only pikepdf import)."""

from __future__ import annotations

import io
import re
import zlib
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


def impose_booklet(pdf_bytes: bytes, paper: str, creep_mm: float = 0.0) -> bytes:
    """Two pages a side, in saddle-stitch order, on landscape `paper` (a4 or letter), with creep compensation."""
    width, height = SHEETS[paper]
    with pikepdf.open(io.BytesIO(pdf_bytes)) as src:
        sides = []
        order = booklet_order(len(src.pages))
        for (left, right), shift in zip(order, creep_shifts(len(src.pages), creep_mm)):
            sides.append([Slot(left, shift, 0, width / 2, height, trim_sides=MAX_SIDE_TRIM),
                          Slot(right, width / 2 - shift, 0, width / 2, height, trim_sides=MAX_SIDE_TRIM)])
        return _impose(src, sides, (width, height), fold_marks="booklet")


def impose_zine(pdf_bytes: bytes, paper: str) -> bytes:
    """Eight pages on one side of landscape `paper`: the mini zine you fold, slit and fold again."""
    width, height = SHEETS[paper]
    with pikepdf.open(io.BytesIO(pdf_bytes)) as src:
        if len(src.pages) != 8:
            raise ValueError(f"a one-sheet zine has exactly 8 pages (got {len(src.pages)})")
        cw, ch = width / 4, height / 2
        slots = [Slot(p, i * cw, ch, cw, ch, upside_down=True) for i, p in enumerate(ZINE_TOP)]
        slots += [Slot(p, i * cw, 0, cw, ch) for i, p in enumerate(ZINE_BOTTOM)]
        return _impose(src, [slots], (width, height), fold_marks="zine")


def _impose(src: pikepdf.Pdf, sides: list, size: tuple, fold_marks: str) -> bytes:
    out = pikepdf.new()
    forms = {}
    for index in sorted({slot.page for side in sides for slot in side if slot.page is not None}):
        forms[index] = out.copy_foreign(src.pages[index].as_form_xobject())
    for side in sides:
        page = out.add_blank_page(page_size=size)
        resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary())
        page.obj.Resources = resources
        commands = []
        for n, slot in enumerate(side):
            if slot.page is None:
                continue
            name = pikepdf.Name(f"/P{n}")
            resources.XObject[name] = forms[slot.page]
            commands.append(_placement(src.pages[slot.page], slot, name))
        commands.append(_marks(fold_marks, size))
        page.obj.Contents = out.make_stream("\n".join(commands).encode())
    _copy_metadata(src, out)
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
    """Light grey guides: the centre fold of a booklet; the folds and the slit of a zine."""
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
        ops.append("[] 0 d 0.3 G 0.6 w")  # the cut: centre slit between the middle folds
        ops.append(f"{width / 4:.2f} {height / 2:.2f} m {3 * width / 4:.2f} {height / 2:.2f} l S")
    ops.append("Q")
    return " ".join(ops)



# --- reading limits ---------------------------------------------------------------------------------
# PDFium (behind preview and preflight) reads whatever a file asks for: a million pages from a page
# tree that lists one page again and again, gigabytes from a stream compressed twice, 10^8 drawings
# from form XObjects that draw each other. A print shop's RIP measures a file before it rasterises
# it; so does this, with pikepdf, on the raw objects (nothing is rendered, no stream is held whole).

class UnsafePDF(ValueError):
    """A PDF over one of the reading limits; the message names the limit (one line)."""


MIB = 1 << 20
M2 = (1000 * MM) ** 2  # one square metre in square points


@dataclass(frozen=True)
class ReadLimits:
    """What a PDF may ask of a reader; every limit is far above anything dungeonpress writes."""

    pages: int = 2000                  # the rulebook has about 110
    min_side: float = 3.0              # points: the PDF standard's smallest page side
    max_side: float = 14400.0          # points: its largest (200 inches)
    max_area: float = 2 * M2           # two square metres, twice A0
    stream_bytes: int = 128 * MIB      # one stream, decoded (a whole embedded font is a few MiB)
    total_stream_bytes: int = 512 * MIB  # every stream of the file, decoded
    form_depth: int = 12               # form XObjects inside form XObjects (an imposed sheet has 2 or 3)
    form_draws: int = 100_000          # form XObjects one page draws, counting each form inside another
    image_pixels: int = 100_000_000    # one image (pdf.MAX_IMAGE_PIXELS is 40 million)


_IMAGE_FILTERS = {"/DCTDecode", "/JPXDecode", "/JBIG2Decode", "/CCITTFaxDecode"}  # decoded at the image's own size
_DRAW = re.compile(rb"/([^\s/\[\]()<>{}%]+)\s*Do(?![^\s/\[\]()<>{}%])")


def check_limits(path, limits: ReadLimits = ReadLimits()) -> list[tuple] | None:
    """Measure a PDF file against `limits` before it is rendered; the MediaBox of each page, inherited ones resolved.

    Raises UnsafePDF naming the first limit passed. A file pikepdf cannot open at all gives None: the
    reader reports it (in its child process, under the memory and time limits).
    """
    try:
        pdf = pikepdf.open(path)
    except (pikepdf.PdfError, pikepdf.PasswordError, OSError) as exc:  # a folder, no file, not a PDF, encrypted: the reader says which
        if "loop detected in /pages" in str(exc).lower():  # qpdf walks the page tree as it opens
            raise UnsafePDF("page tree lists a page more than once (a loop or a repeated page)") from None
        return None
    with pdf:
        pages = _page_leaves(pdf, limits)
        boxes = [_page_box(attrs, number, limits) for number, (_, attrs) in enumerate(pages, start=1)]
        _check_streams(pdf, limits)
        for number, (page, attrs) in enumerate(pages, start=1):
            draws = _page_draws(page, attrs.get("/Resources"), limits)
            if draws > limits.form_draws:
                raise UnsafePDF(f"page {number} draws more than {limits.form_draws:,} form XObjects, counting forms "
                               f"inside forms (limit {limits.form_draws:,})")
    return boxes


_INHERITED = ("/MediaBox", "/CropBox", "/Resources", "/Rotate")


def _page_leaves(pdf, limits: ReadLimits) -> list:
    """(page dictionary, its attributes with inherited ones) for every page, walking the page tree once."""
    found: list = []
    seen: set = set()
    stack = [(pdf.Root.get("/Pages"), {}, 0)]
    while stack:
        node, inherited, depth = stack.pop()
        if not isinstance(node, pikepdf.Dictionary):
            continue
        if node.is_indirect:
            if node.objgen in seen:
                raise UnsafePDF(f"page tree lists object {node.objgen[0]} more than once (a loop or a repeated page)")
            seen.add(node.objgen)
        if depth > 64:
            raise UnsafePDF("page tree nested more than 64 levels deep")
        attrs = {**inherited, **{name: node[name] for name in _INHERITED if name in node}}
        kids = node.get("/Kids")
        if node.get("/Type") == "/Pages" or isinstance(kids, pikepdf.Array):
            if isinstance(kids, pikepdf.Array):
                stack.extend((kid, attrs, depth + 1) for kid in reversed(list(kids)))
            continue
        found.append((node, attrs))
        if len(found) > limits.pages:
            raise UnsafePDF(f"more than {limits.pages:,} pages (limit {limits.pages:,})")
    return found


def _page_box(attrs: dict, number: int, limits: ReadLimits) -> tuple:
    try:
        x0, y0, x1, y1 = (float(v) for v in attrs.get("/MediaBox", (0, 0, 612, 792)))
    except (TypeError, ValueError):
        raise UnsafePDF(f"page {number} has no readable MediaBox") from None
    width, height = abs(x1 - x0), abs(y1 - y0)
    if not (limits.min_side <= width <= limits.max_side and limits.min_side <= height <= limits.max_side):
        raise UnsafePDF(f"page {number} is {width:g} x {height:g} pt (each side must be {limits.min_side:g} to "
                        f"{limits.max_side:,g} pt)")
    if width * height > limits.max_area:
        raise UnsafePDF(f"page {number} is {width * height / M2:.1f} square metres (limit {limits.max_area / M2:g})")
    return (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))


def _filters(stream) -> list:
    found = stream.get("/Filter")
    if found is None:
        return []
    return [str(f) for f in found] if isinstance(found, pikepdf.Array) else [str(found)]


def _check_streams(pdf, limits: ReadLimits) -> None:
    total = 0
    for obj in pdf.objects:
        if not isinstance(obj, pikepdf.Stream):
            continue
        number = obj.objgen[0]
        if obj.get("/Subtype") == "/Image":
            try:
                pixels = int(obj.get("/Width", 0)) * int(obj.get("/Height", 0))
            except (TypeError, ValueError):
                pixels = 0
            if pixels > limits.image_pixels:
                raise UnsafePDF(f"image (object {number}) has {pixels:,} pixels (limit {limits.image_pixels:,})")
        filters = _filters(obj)
        if set(filters) & _IMAGE_FILTERS:
            continue
        cap = min(limits.stream_bytes, limits.total_stream_bytes - total)
        if filters and all(f in ("/FlateDecode", "/Fl") for f in filters):
            size = _inflated_size(obj.read_raw_bytes(), len(filters), cap)
        else:
            try:
                size = len(obj.read_bytes())
            except pikepdf.PdfError:
                size = 0  # undecodable: the reader skips it as well
        if size > limits.stream_bytes:
            raise UnsafePDF(f"stream (object {number}) decodes to more than {limits.stream_bytes // MIB} MiB "
                            f"(limit {limits.stream_bytes // MIB} MiB)")
        total += size
        if total > limits.total_stream_bytes:
            raise UnsafePDF(f"streams decode to more than {limits.total_stream_bytes // MIB} MiB in all "
                            f"(limit {limits.total_stream_bytes // MIB} MiB)")


def _inflated_size(raw: bytes, layers: int, cap: int) -> int:
    """The size of `raw` inflated `layers` times, counted a MiB at a time; stops just past `cap`."""
    decoders = [zlib.decompressobj() for _ in range(layers)]
    total = 0

    def feed(level: int, data: bytes) -> bool:  # False once past the cap
        nonlocal total
        if level == layers:
            total += len(data)
            return total <= cap
        decoder = decoders[level]
        while data and not decoder.eof:
            out = decoder.decompress(data, MIB)
            if not feed(level + 1, out):
                return False
            data = decoder.unconsumed_tail
        return True

    try:
        for start in range(0, len(raw), 1 << 16):
            if not feed(0, raw[start:start + (1 << 16)]):
                break
    except zlib.error:
        pass  # a damaged stream: readers keep what decoded before the damage
    return total


def _page_draws(page, resources, limits: ReadLimits) -> int:
    """How many form XObjects drawing the page draws, each form counted once per time it is drawn."""
    memo: dict = {}
    contents = page.get("/Contents")
    streams = list(contents) if isinstance(contents, pikepdf.Array) else [contents]
    draws = sum(_draws_in(s, resources, limits, memo, ()) for s in streams if isinstance(s, pikepdf.Stream))
    annots = page.get("/Annots")
    for annot in annots if isinstance(annots, pikepdf.Array) else ():
        normal = annot.get("/AP", {}).get("/N") if isinstance(annot, pikepdf.Dictionary) else None
        looks = [normal] if isinstance(normal, pikepdf.Stream) else (
            list(normal.values()) if isinstance(normal, pikepdf.Dictionary) else [])
        draws += sum(_form(look, resources, limits, memo, ()) for look in looks if isinstance(look, pikepdf.Stream))
    return draws


def _draws_in(stream, resources, limits, memo, path) -> int:
    try:
        data = stream.read_bytes()
    except pikepdf.PdfError:
        return 0
    xobjects = resources.get("/XObject") if isinstance(resources, pikepdf.Dictionary) else None
    if not isinstance(xobjects, pikepdf.Dictionary) or b"Do" not in data:
        return 0
    total = 0
    for match in _DRAW.finditer(data):
        target = xobjects.get("/" + match.group(1).decode("latin-1"))
        if isinstance(target, pikepdf.Stream) and target.get("/Subtype") == "/Form":
            total += _form(target, resources, limits, memo, path)
            if total > limits.form_draws:
                return total
    return total


def _form(form, resources, limits, memo, path) -> int:
    """1 for the form, plus every form it draws (a form without resources uses its page's, as old PDFs do)."""
    key = form.objgen if form.is_indirect else id(form)
    if key in memo:
        return memo[key]
    if key in path:
        raise UnsafePDF(f"form XObject (object {key[0]}) draws itself")
    if len(path) >= limits.form_depth:
        raise UnsafePDF(f"form XObjects nested more than {limits.form_depth} deep (limit {limits.form_depth})")
    own = form.get("/Resources")
    count = 1 + _draws_in(form, own if isinstance(own, pikepdf.Dictionary) else resources, limits, memo, (*path, key))
    memo[key] = count
    return count
