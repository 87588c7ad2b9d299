"""A zine's reading copy: its laid-out pages less what is printed only to fold and cut the sheet, tags and all.

The zine is laid out once, and both files come from that layout: the sheet (impose_zine) and the reading copy, its
eight pages in reading order for screens and screen readers. The note that says where to cut and fold belongs on the
sheet; in the reading copy it told someone reading on a screen to cut along a red line they do not have. It is found by
its tags, not by where it lies: the note's drawing is a Figure whose alternative text opens with FOLD_NOTE_ALT
(templates/partials/dungeon_aids.html.j2), and the note is the smallest element holding that figure and a paragraph.

Left out means: the note's element leaves the structure tree (with any parent it leaves empty), its marked content stops
painting (the operators that only set state are kept, so what follows on the page is drawn as before), and its marked
content identifiers leave the page's entry in the ParentTree. The page's layout is unchanged: the note's place is white.
"""

from __future__ import annotations

import io

import pikepdf

FOLD_NOTE_ALT = "How to fold and cut the sheet"

# Operators that put marks on the page; a left-out region keeps every other operator (colour, graphics state, text
# state and position, clipping), since WeasyPrint sets state inside one marked span that the next one draws with.
_PAINTS = {"Tj", "TJ", "Do", "sh", "INLINE IMAGE"}
_PATH_PAINTS = {"S", "s", "f", "F", "f*", "B", "B*", "b", "b*"}  # become `n`: the path ends unpainted
_MOVES_AND_PAINTS = {"'": "T*", '"': "T*"}  # next line and show: only the move is kept
_MARKS = {"BMC", "BDC"}


def without_fold_note(pdf_bytes: bytes) -> bytes:
    """The PDF without its fold-and-cut note (the same bytes when it has none)."""
    with pikepdf.open(io.BytesIO(pdf_bytes)) as pdf:
        tree = pdf.Root.get("/StructTreeRoot")
        if tree is None:
            return pdf_bytes
        notes = list(_notes(tree))
        if not notes:
            return pdf_bytes
        for note in notes:
            _leave_out(pdf, tree, note)
        buffer = io.BytesIO()
        pdf.save(buffer, deterministic_id=True, compress_streams=True, fix_metadata_version=False,  # XMP as written
                 object_stream_mode=pikepdf.ObjectStreamMode.preserve)
        return buffer.getvalue()


def _kids(element) -> list:
    kids = element.get("/K") if isinstance(element, pikepdf.Dictionary) else None
    if kids is None:
        return []
    return list(kids) if isinstance(kids, pikepdf.Array) else [kids]


def _is_element(item) -> bool:
    return isinstance(item, pikepdf.Dictionary) and "/S" in item


def _notes(element, ancestors=()):
    """Each fold note's element: the nearest ancestor of a note figure that is a paragraph or has one among its kids."""
    for kid in _kids(element):
        if not _is_element(kid):
            continue
        if kid.S == pikepdf.Name.Figure and str(kid.get("/Alt", "")).startswith(FOLD_NOTE_ALT):
            for element in reversed(ancestors):
                if element.S == pikepdf.Name.P or any(_is_element(k) and k.S == pikepdf.Name.P for k in _kids(element)):
                    yield element
                    break
            continue
        yield from _notes(kid, (*ancestors, kid))


def _marked_ids(element) -> dict:
    """{page object id: {MCID, ...}} of the content the element and its descendants mark."""
    found: dict = {}

    def walk(item, page):
        if isinstance(item, int):
            found.setdefault(page.objgen, set()).add(int(item))
        elif _is_element(item):
            for kid in _kids(item):
                walk(kid, item.get("/Pg", page))
        elif isinstance(item, pikepdf.Dictionary) and item.get("/Type") == pikepdf.Name.MCR:
            found.setdefault(item.get("/Pg", page).objgen, set()).add(int(item.MCID))
    walk(element, element.get("/Pg"))
    return found


def _leave_out(pdf: pikepdf.Pdf, tree, note) -> None:
    marked = _marked_ids(note)
    for page in pdf.pages:
        ids = marked.get(page.obj.objgen)
        if ids:
            _stop_painting(pdf, page, ids)
            _forget_ids(tree, page, ids)
    element = note
    while True:  # out of the tree, with each parent it leaves without kids (the Document element stays)
        parent = element.P
        parent.K = pikepdf.Array([kid for kid in _kids(parent)
                                  if not (_is_element(kid) and kid.objgen == element.objgen)])
        if len(parent.K) or not _is_element(parent) or _is_top(parent):
            break
        element = parent


def _is_top(element) -> bool:
    """Whether the element is the tree's top one (the Document element under the StructTreeRoot)."""
    above = element.get("/P")
    return above is None or above.get("/Type") == pikepdf.Name.StructTreeRoot


def _stop_painting(pdf: pikepdf.Pdf, page, ids: set) -> None:
    kept, depth = [], 0  # depth > 0: inside a left-out region, counting its nested marked content
    for instruction in pikepdf.parse_content_stream(page):
        operator = str(instruction.operator)
        if depth:
            if operator in _MARKS:
                depth += 1
            elif operator == "EMC":
                depth -= 1
            elif operator in _PATH_PAINTS:
                kept.append(pikepdf.ContentStreamInstruction([], pikepdf.Operator("n")))
            elif operator in _MOVES_AND_PAINTS:
                kept.append(pikepdf.ContentStreamInstruction([], pikepdf.Operator(_MOVES_AND_PAINTS[operator])))
            elif operator not in _PAINTS:
                kept.append(instruction)
            continue
        if operator == "BDC" and isinstance(instruction.operands[1], pikepdf.Dictionary) and \
                instruction.operands[1].get("/MCID") in ids:
            depth = 1
            continue
        kept.append(instruction)
    page.obj.Contents = pdf.make_stream(pikepdf.unparse_content_stream(kept))


def _forget_ids(tree, page, ids: set) -> None:
    """The page's ParentTree entry no longer names the left-out elements for those identifiers."""
    index = page.obj.get("/StructParents")
    nums = tree.get("/ParentTree", pikepdf.Dictionary()).get("/Nums")
    if index is None or nums is None:
        return
    for key, value in zip(list(nums)[::2], list(nums)[1::2]):
        if int(key) == int(index) and isinstance(value, pikepdf.Array):
            for mcid in ids:
                if mcid < len(value):
                    value[mcid] = None
