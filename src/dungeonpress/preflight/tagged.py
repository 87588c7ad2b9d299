"""A page's tables as its tagged structure gives them: header rows, body rows, and where each row lies on the page.

Text lines alone cannot tell a table's rows apart: a row of several lines, a repeated header that wraps, or rows
with no die number in their first cell (the Navigation Check's "Yes, and…") all read as plain lines. A tagged PDF
says which marked content belongs to which TR; pdfium gives each drawn object's marked-content id and its bounds.
WeasyPrint writes a table that turns the page as one Table element on each page, so a page's Table elements are the
pieces it holds, and a piece carried over repeats the THead.
"""

from __future__ import annotations

import ctypes
from collections import defaultdict
from dataclasses import dataclass

import pypdfium2.raw as fpdf

# A hostile file's structure tree is read no deeper and no wider than this (a tagged book nests about twelve deep).
MAX_DEPTH = 64
MAX_ELEMENTS = 200_000
ROW_PARTS = ("THead", "TBody", "TFoot")


@dataclass(frozen=True)
class TablePiece:
    """The part of one table a page holds: how many header rows it repeats, and each body row's (top, bottom) in
    points from the page's top."""

    head: int
    rows: tuple
    top: float     # the piece's top: its header's when it has one, else its first row's
    left: float = 0.0   # the piece's left and right edges, over its header and body rows
    right: float = 0.0

    def holds(self, x: float, y: float) -> bool:
        """Does the point (points from the page's top left) lie within the piece? Its edges are the bounds of what it
        draws, which a line of text read back as boxes from descent to one em reaches past by a point or two: a line
        is held by the piece that holds its middle."""
        return self.left <= x <= self.right and self.top <= y <= self.bottom

    @property
    def depth(self) -> float:
        return self.rows[-1][1] - self.rows[0][0]

    @property
    def bottom(self) -> float:
        return self.rows[-1][1]


def table_pieces(page) -> list[TablePiece]:
    """The tables on a pdfium page in structure order, each with at least one body row drawn; [] for an untagged page."""
    tree = fpdf.FPDF_StructTree_GetForPage(page.raw)
    if not tree:
        return []
    try:
        boxes = _boxes_by_mcid(page)
        seen = [0]
        pieces = []
        for index in range(fpdf.FPDF_StructTree_CountChildren(tree)):
            child = fpdf.FPDF_StructTree_GetChildAtIndex(tree, index)
            for table in _tables(child, 0, seen) if child else ():
                piece = _piece(table, boxes, seen)
                if piece is not None:
                    pieces.append(piece)
        return pieces
    finally:
        fpdf.FPDF_StructTree_Close(tree)


def _boxes_by_mcid(page) -> dict:
    """Marked-content id → (top, bottom, left, right) of every object drawn with it, read from the page's top level."""
    top = page.get_mediabox()[3]
    out: dict = defaultdict(list)
    left, lower, right, upper = (ctypes.c_float() for _ in range(4))
    for index in range(fpdf.FPDFPage_CountObjects(page.raw)):
        obj = fpdf.FPDFPage_GetObject(page.raw, index)
        mcid = fpdf.FPDFPageObj_GetMarkedContentID(obj)
        if mcid >= 0 and fpdf.FPDFPageObj_GetBounds(obj, left, lower, right, upper):
            out[mcid].append((top - upper.value, top - lower.value, left.value, right.value))
    return out


def _type(element) -> str:
    size = fpdf.FPDF_StructElement_GetType(element, None, 0)
    if size <= 0:
        return ""
    buffer = ctypes.create_string_buffer(size)
    fpdf.FPDF_StructElement_GetType(element, buffer, size)
    return buffer.raw[:size].decode("utf-16-le", "replace").rstrip("\x00")


def _children(element, seen: list):
    for index in range(fpdf.FPDF_StructElement_CountChildren(element)):
        seen[0] += 1
        if seen[0] > MAX_ELEMENTS:
            return
        child = fpdf.FPDF_StructElement_GetChildAtIndex(element, index)
        if child:
            yield child


def _tables(element, depth: int, seen: list):
    if depth > MAX_DEPTH:
        return
    if _type(element) == "Table":
        yield element
        return
    for child in _children(element, seen):
        yield from _tables(child, depth + 1, seen)


def _mcids(element, depth: int, seen: list) -> list[int]:
    out = [fpdf.FPDF_StructElement_GetMarkedContentIdAtIndex(element, i)
           for i in range(fpdf.FPDF_StructElement_GetMarkedContentIdCount(element))]
    if depth < MAX_DEPTH:
        for child in _children(element, seen):
            out.extend(_mcids(child, depth + 1, seen))
    return out


def _piece(table, boxes: dict, seen: list) -> TablePiece | None:
    head, body = [], []
    for part in _children(table, seen):
        kind = _type(part)
        rows = [r for r in _children(part, seen) if _type(r) == "TR"] if kind in ROW_PARTS else [part] if kind == "TR" else []
        (head if kind == "THead" else body).extend(rows)

    def extent(row):
        spans = [span for mcid in _mcids(row, 0, seen) for span in boxes.get(mcid, ())]
        return (min(s[0] for s in spans), max(s[1] for s in spans), min(s[2] for s in spans),
                max(s[3] for s in spans)) if spans else None

    bodies = [e for e in map(extent, body) if e]
    heads = [e for e in map(extent, head) if e]
    if not bodies:
        return None
    every = [*heads, *bodies]
    return TablePiece(len(heads), tuple((e[0], e[1]) for e in bodies), min([bodies[0][0], *(h[0] for h in heads)]),
                      min(e[2] for e in every), max(e[3] for e in every))
