"""A PDF file → its pages' MediaBoxes, or UnsafePDF naming the first reading limit it passes (pikepdf, nothing rendered)."""

from __future__ import annotations

import re
import zlib
from dataclasses import dataclass

import pikepdf

MM = 72 / 25.4

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
