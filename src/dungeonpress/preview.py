"""PDF file → PNG pages and one contact sheet written next to it (pypdfium2 + Pillow, no system binary)."""

from __future__ import annotations

import io
import os
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image

DEFAULT_DPI = 80
SHEET_COLS = 6
SHEET_THUMB_WIDTH = 240  # px per page on the contact sheet: a 108-page book stays a sensible image
SHEET_GAP = 8

# PDFium is not thread-safe; the preview server renders thumbnails from several request threads.
_PDFIUM = threading.Lock()


class PreviewError(ValueError):
    """A preview request that cannot be met (no such file, not a PDF, pages outside the document)."""


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
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()


def thumbnail(path: Path, width: int = 180) -> bytes:
    """The first page as a PNG about `width` px wide (the preview page's product cards)."""
    with _PDFIUM:
        document = _open(path)
        try:
            page = document[0]
            image = page.render(scale=width / page.get_width()).to_pil().convert("RGB")
        finally:
            document.close()
    return png_bytes(image)


def preview(path: Path, *, pages: str | None = None, dpi: float = DEFAULT_DPI,
            out_dir: Path | None = None) -> Preview:
    """Write `<stem>-p001.png`… and `<stem>-sheet.png` next to the PDF (or into `out_dir`)."""
    if dpi < 10 or dpi > 600:
        raise PreviewError(f"--dpi {dpi:g}: choose between 10 and 600")
    total = page_count(path)
    indexes = parse_pages(pages, total)
    out_dir = out_dir or path.parent
    out_dir.mkdir(parents=True, exist_ok=True)
    written, images = [], []
    for index in indexes:
        image = render_page(path, index, dpi)
        target = out_dir / f"{path.stem}-p{index + 1:03d}.png"
        _write_atomic(target, png_bytes(image))
        written.append(target)
        images.append(image)
    sheet = out_dir / f"{path.stem}-sheet.png"
    _write_atomic(sheet, png_bytes(contact_sheet(images)))
    return Preview(pdf=path, page_count=total, pages=written, sheet=sheet)


def contact_sheet(images: list, cols: int = SHEET_COLS, thumb_width: int = SHEET_THUMB_WIDTH) -> Image.Image:
    """Pages side by side, `cols` to a row, each scaled to the same width on a grey ground."""
    cols = max(1, min(cols, len(images)))
    thumbs = [image.resize((thumb_width, max(1, round(image.height * thumb_width / image.width))),
                           Image.Resampling.LANCZOS) for image in images]
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
