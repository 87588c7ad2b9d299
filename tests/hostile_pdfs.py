"""Small hostile PDFs written byte by byte: each one is a way a file can make a PDF reader run away."""

from __future__ import annotations

import zlib
from pathlib import Path


def write_pdf(path: Path, objects: list[bytes]) -> Path:
    """Objects 1..n (object 1 is the catalog) with a correct cross-reference table and trailer."""
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    path.write_bytes(bytes(out))
    return path


def stream(data: bytes, extra: bytes = b"") -> bytes:
    return b"<< /Length %d %s>>\nstream\n" % (len(data), extra) + data + b"\nendstream"


def one_page(path: Path, page_extra: bytes = b"", pages_extra: bytes = b"", content: bytes = b"",
             more: list | None = None) -> Path:
    """Catalog, page tree, one page (object 3) whose content is object 4, then `more` objects (5…)."""
    return write_pdf(path, [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 " + pages_extra + b">>",
        b"<< /Type /Page /Parent 2 0 R /Contents 4 0 R " + page_extra + b">>",
        stream(content),
        *(more or []),
    ])


def inherited_mediabox(path: Path) -> Path:
    """A valid PDF whose page takes its MediaBox from the page tree, as the PDF standard allows."""
    return one_page(path, pages_extra=b"/MediaBox [0 0 300 400] ",
                    content=b"0 0 1 rg 20 20 100 100 re f")


def sliver_page(path: Path) -> Path:
    """A page 0.01 pt wide and 14,400 pt tall: a preview of it is a strip millions of pixels long."""
    return one_page(path, page_extra=b"/MediaBox [0 0 0.01 14400] ")


def repeated_kid(path: Path, fan_out: int = 10, depth: int = 6) -> Path:
    """A page tree whose every node lists the same child `fan_out` times: fan_out ** depth pages from a few objects."""
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>"]
    for level in range(depth):
        number = 2 + level
        kid = b"%d 0 R " % (number + 1)
        parent = b"/Parent %d 0 R " % (number - 1) if level else b""
        objects.append(b"<< /Type /Pages " + parent + b"/Kids [" + kid * fan_out + b"] /Count %d >>"
                       % fan_out ** (depth - level))
    page = 2 + depth
    objects.append(b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 200 200] /Contents %d 0 R >>" % (page - 1, page + 1))
    objects.append(stream(b""))
    return write_pdf(path, objects)


def nested_forms(path: Path, depth: int = 8, fan_out: int = 10) -> Path:
    """Form XObjects each drawing the next one `fan_out` times: fan_out ** depth drawings in a few hundred bytes."""
    draw = b"q /X Do Q " * fan_out
    forms = []
    for level in range(depth):
        number = 5 + level
        resources = b"/Resources << /XObject << /X %d 0 R >> >> " % (number + 1) if level < depth - 1 else b""
        body = draw if level < depth - 1 else b"0 0 10 10 re f"
        forms.append(stream(body, b"/Type /XObject /Subtype /Form /BBox [0 0 100 100] " + resources))
    return one_page(path, page_extra=b"/MediaBox [0 0 200 200] /Resources << /XObject << /X 5 0 R >> >> ",
                    content=draw, more=forms)


def deflate_bomb(path: Path, decoded_mib: int = 256) -> Path:
    """A content stream compressed twice with Flate: a few kilobytes that decode to `decoded_mib` MiB of spaces."""
    inner = zlib.compressobj(9)
    chunk = b" " * (1 << 20)
    once = b"".join(inner.compress(chunk) for _ in range(decoded_mib)) + inner.flush()
    twice = zlib.compress(once, 9)
    return write_pdf(path, [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R >>",
        stream(twice, b"/Filter [/FlateDecode /FlateDecode] "),
    ])
