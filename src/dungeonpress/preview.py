"""PDF file → PNG pages and one contact sheet written next to it (pypdfium2 + Pillow, no system binary).

Every PDF is rasterised through guard.read_pdf: in a child process, measured first, under a memory
cap and a time limit, with a pixel budget per image; a file over a limit is refused in one line.
"""

from __future__ import annotations

import io
import os
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image, PngImagePlugin

from dungeonpress import guard
from dungeonpress.impose.limits import UnsafePDF

DEFAULT_DPI = 80
SHEET_COLS = 6
SHEET_THUMB_WIDTH = 240  # px per page on the contact sheet: a 108-page book stays a sensible image
SHEET_GAP = 8
SHEET_THUMB_HEIGHT = 2 * SHEET_THUMB_WIDTH  # a page taller than twice its width is shrunk to fit its cell
# The pixel budget of one image preview writes (a page or the contact sheet): A4 at 600 dpi is 35 Mpx.
MAX_PIXELS = 50_000_000
# A PNG written by preview says so; preview overwrites only PNGs that say so.
SOFTWARE = "dungeonpress preview"
THUMB_BUDGET = guard.Budget(memory_mb=768, seconds=60)  # a thumbnail renders one page, at a small size

# PDFium is not thread-safe; page_count and render_page (scripts, our own PDFs) read in this process.
_PDFIUM = threading.Lock()
# The preview server asks for thumbnails from several request threads; each is a child process, and
# two at a time is what the machine this is made for has cores for.
_THUMBNAILS = threading.BoundedSemaphore(2)


class PreviewError(ValueError):
    """A preview request that cannot be met (no such file, not a PDF, pages outside the document)."""


class Refused(PreviewError):
    """A PDF over a reading limit or the pixel budget, or a PNG preview did not write in its way (exit 1)."""


@dataclass(frozen=True)
class Preview:
    pdf: Path
    page_count: int
    pages: list  # PNG paths, one per rendered page
    sheet: Path


def parse_pages(spec: str | None, page_count: int) -> list[int]:
    """`1-4`, `3`, `2,5-6` or `5-` (to the end) → 0-based page indexes; None means every page."""
    if not spec:
        return list(range(page_count))
    chosen: list[int] = []
    for part in spec.split(","):
        part = part.strip()
        low, dash, high = part.partition("-")
        try:
            first = int(low)
            last = (int(high) if high else page_count) if dash else first
        except ValueError:
            raise PreviewError(f"--pages {spec}: expected page numbers like 1-4 or 2,5") from None
        if first < 1 or last < first:
            raise PreviewError(f"--pages {spec}: pages are numbered from 1, low to high")
        if first > page_count:
            raise PreviewError(f"--pages {spec}: the PDF has {page_count} page{'s' if page_count != 1 else ''}")
        chosen.extend(i for i in range(first - 1, min(last, page_count)) if i not in chosen)
    return chosen


def page_count(path: Path) -> int:
    with _PDFIUM:
        document = _open(path)
        try:
            return len(document)
        finally:
            document.close()


def render_page(path: Path, index: int, dpi: float | None = None, *, height: int | None = None) -> Image.Image:
    """One page as an RGB image at `dpi` (72 dpi is 1 px per PDF point), or `height` px tall."""
    with _PDFIUM:
        document = _open(path)
        try:
            page = document[index]
            scale = height / page.get_height() if height else (dpi or DEFAULT_DPI) / 72
            return page.render(scale=scale).to_pil().convert("RGB")
        finally:
            document.close()


def png_bytes(image: Image.Image) -> bytes:
    """The image as PNG bytes that carry preview's name (so preview knows its own files again)."""
    buffer = io.BytesIO()
    info = PngImagePlugin.PngInfo()
    info.add_text("Software", SOFTWARE)
    image.save(buffer, format="PNG", optimize=True, pnginfo=info)
    return buffer.getvalue()


def thumbnail(path: Path, width: int = 180, budget: guard.Budget = THUMB_BUDGET) -> bytes:
    """The first page as a PNG about `width` px wide (the preview page's product cards), read under `budget`.

    The guarded path other code calls: a file over a limit is a Refused (a PreviewError) for its own
    thumbnail, and nothing else is touched.
    """
    try:
        with _THUMBNAILS:
            return guard.read_pdf(path, _thumbnail_png, width, budget=budget)
    except guard.Refused as exc:
        raise Refused(str(exc)) from None


def _thumbnail_png(path: Path, _boxes, width: int) -> bytes:
    document = _open(path)
    try:
        page = document[0]
        w, h = page.get_size()
        scale = min(width / w, 2 * width / h)  # a page far taller than wide fits a 1:2 box
        image = page.render(scale=scale).to_pil().convert("RGB")
    finally:
        document.close()
    return png_bytes(image)


def preview(path: Path, *, pages: str | None = None, dpi: float = DEFAULT_DPI,
            out_dir: Path | None = None, budget: guard.Budget = guard.DEFAULT) -> Preview:
    """Write `<stem>-p001.png`… and `<stem>-sheet.png` next to the PDF (or into `out_dir`).

    The pages are rasterised in a child process under `budget` (guard.read_pdf); an image over
    MAX_PIXELS is refused, and so is a target PNG that preview did not write: nothing is written then.
    """
    if dpi < 10 or dpi > 600:
        raise PreviewError(f"--dpi {dpi:g}: choose between 10 and 600")
    try:
        total, indexes, pngs, sheet_png = guard.read_pdf(path, _render_all, pages, dpi, budget=budget)
    except guard.Refused as exc:
        raise Refused(str(exc)) from None
    out_dir = out_dir or path.parent
    targets = [out_dir / f"{path.stem}-p{index + 1:03d}.png" for index in indexes]
    sheet = out_dir / f"{path.stem}-sheet.png"
    for target in (*targets, sheet):  # every one checked before any is written
        problem = _not_ours(target)
        if problem:
            raise Refused(f"{target}: {problem}; preview overwrites only its own PNGs (move it, or preview a copy "
                          f"of the PDF elsewhere)")
    out_dir.mkdir(parents=True, exist_ok=True)
    for target, data in zip(targets, pngs):
        _write_atomic(target, data)
    _write_atomic(sheet, sheet_png)
    return Preview(pdf=path, page_count=total, pages=targets, sheet=sheet)


def _render_all(path: Path, _boxes, pages: str | None, dpi: float) -> tuple:
    """preview's work in the child: (page count, page indexes, PNG of each, PNG of the contact sheet).

    Each page becomes PNG bytes and a small thumbnail at once: a long document never holds its
    full-size rasters all together.
    """
    document = _open(path)
    try:
        total = len(document)
        indexes = parse_pages(pages, total)
        pngs, thumbs = [], []
        for index in indexes:
            page = document[index]
            w, h = page.get_size()
            pixels = round(w * dpi / 72) * round(h * dpi / 72)
            if pixels > MAX_PIXELS:
                raise UnsafePDF(f"page {index + 1} at {dpi:g} dpi would be {pixels:,} pixels "
                                       f"(budget {MAX_PIXELS:,}; lower --dpi)")
            image = page.render(scale=dpi / 72).to_pil().convert("RGB")
            pngs.append(png_bytes(image))
            thumbs.append(_thumb(image))
    finally:
        document.close()
    cols = max(1, min(SHEET_COLS, len(thumbs)))
    rows = (len(thumbs) + cols - 1) // cols
    cell_h = max(t.height for t in thumbs)
    sheet_pixels = (SHEET_GAP + cols * (SHEET_THUMB_WIDTH + SHEET_GAP)) * (SHEET_GAP + rows * (cell_h + SHEET_GAP))
    if sheet_pixels > MAX_PIXELS:
        raise UnsafePDF(f"a contact sheet of {len(thumbs)} pages would be {sheet_pixels:,} pixels "
                               f"(budget {MAX_PIXELS:,}; choose fewer --pages)")
    return total, indexes, pngs, png_bytes(contact_sheet(thumbs))


def _thumb(image: Image.Image, width: int = SHEET_THUMB_WIDTH) -> Image.Image:
    """The image scaled to `width` px wide, or to twice that tall when it is taller than that."""
    scale = min(width / image.width, 2 * width / image.height)
    return image.resize((max(1, round(image.width * scale)), max(1, round(image.height * scale))),
                        Image.Resampling.LANCZOS)


def _not_ours(target: Path) -> str | None:
    """Why preview may not replace `target` (a link, a folder, a file it did not write), or None."""
    if not os.path.lexists(target):
        return None
    if target.is_symlink() or not target.is_file():
        return "exists and is not a plain file"
    try:
        with target.open("rb") as handle:
            head = handle.read(4096)
    except OSError as exc:
        return f"exists and cannot be read ({exc.strerror or exc})"
    if b"tEXtSoftware\x00" + SOFTWARE.encode() not in head:
        return "exists and was not written by dungeonpress preview"
    return None


def contact_sheet(images: list, cols: int = SHEET_COLS, thumb_width: int = SHEET_THUMB_WIDTH) -> Image.Image:
    """Pages side by side, `cols` to a row, each scaled to the same width on a grey ground (a very tall page to its cell)."""
    cols = max(1, min(cols, len(images)))
    thumbs = [_thumb(image, thumb_width) for image in images]
    cell_h = max(t.height for t in thumbs)
    rows = (len(thumbs) + cols - 1) // cols
    sheet = Image.new("RGB", (SHEET_GAP + cols * (thumb_width + SHEET_GAP),
                              SHEET_GAP + rows * (cell_h + SHEET_GAP)), "#8a8a8a")
    for n, thumb in enumerate(thumbs):
        x = SHEET_GAP + (n % cols) * (thumb_width + SHEET_GAP)
        y = SHEET_GAP + (n // cols) * (cell_h + SHEET_GAP)
        sheet.paste(thumb, (x, y))
    return sheet


def _open(path: Path):
    if not path.is_file():
        raise PreviewError(f"{path}: no such PDF")
    try:
        return pdfium.PdfDocument(str(path))
    except pdfium.PdfiumError as exc:
        raise PreviewError(f"{path}: not a readable PDF ({exc})") from None


def _write_atomic(target: Path, data: bytes) -> None:
    # Same pattern as build.write_atomic; this module stays free of build (and so of WeasyPrint),
    # because the preview server imports it.
    fd, temp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".part")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(temp, 0o644)
        os.replace(temp, target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def resolve(target: str, build_dir: Path) -> Path:
    """A PDF path as given, or a product name looked up in the build folder.

    `tables` is `tables.pdf`; otherwise a name matches the PDFs whose file name has it as a word
    (`rulebook` → `dungeoneer-rulebook.pdf`, `zine` → `dungeon-1234-zine-a4.pdf`, `character` →
    `characters-7.pdf`), and the shortest name wins (the reading PDF before its booklets).
    """
    given = Path(target)
    if given.suffix.lower() == ".pdf" or given.exists():
        if not given.is_file():
            raise PreviewError(f"{target}: no such PDF")
        return given
    exact = build_dir / f"{target}.pdf"
    if exact.is_file():
        return exact
    word = target.lower()
    # Hidden folders hold temp files; rolls/ holds what `serve` rolled: a name means the build's own product.
    found = [path for path in sorted(build_dir.rglob("*.pdf"))
             if not any(part.startswith(".") for part in path.relative_to(build_dir).parts)
             and path.relative_to(build_dir).parts[0] != "rolls"
             and {word, word + "s"} & set(path.stem.lower().split("-"))]
    if not found:
        raise PreviewError(f"{target}: no such PDF, and no product of that name in {build_dir} "
                           f"(build it first, e.g. `dungeonpress build rulebook`)")
    return min(found, key=lambda path: (len(path.stem), path.as_posix()))
