"""Bind PDFs laid out apart (a book's chapters) into one: pages, one structure tree, outline, named destinations."""

from __future__ import annotations

import hashlib
import io
import re
import struct
import warnings

import pikepdf


class BindError(ValueError):
    """The parts cannot be bound as they are (a structure the binder does not know, a name in two parts)."""


def bind(parts: list[bytes], *, drop_dests: list | None = None, blank_before: list | None = None,
         furniture: bytes | None = None, stamped: list | None = None, continues: list | None = None,
         shifts: list | None = None) -> bytes:
    """One PDF holding every page of `parts` in order, as if it had been laid out as one document.

    - Pages keep their content, links and fonts; identical embedded font files are stored once, and the subsets of
      one font the parts embedded are stored as one subset holding the glyphs of them all.
    - The tagged structure becomes one tree: every part's top-level elements under the first part's
      Document element, each page's and link's StructParents key moved past the earlier parts' keys,
      so the ParentTree stays valid.
    - The outline is the parts' outlines one after another; named destinations are merged (a link to a
      name resolves in whichever part holds it). `drop_dests[i]` names destinations of part i to leave
      out: stand-ins a part laid out so its links to other parts were kept (as many empty elements at the
      start of its body, taken off the structure tree too).
    - `blank_before[i]`: an empty page goes before part i (a part that must start on a right-hand page).
    - `continues[i]`: part i carries on the part before it (a chapter cut at a page break): its top-level
      bookmarks go under the last top-level bookmark before it, as they would in the chapter laid out whole.
    - `shifts[i]`: how far (PDF points, rightwards) each page of part i is moved, its links and the destinations on it
      with it (a page laid out for the other side of a book whose sides differ only in their margins); () for none.
    - `furniture`: a PDF with a page for every page of the book (blank ones included) whose content (the
      page numbers) is drawn over that page as an artifact, where `stamped` says so (all pages if None).
    - Catalog entries (language, metadata, viewer preferences, MarkInfo) and the document info come from
      the first part. The bytes depend only on the parts: the same parts bind to the same bytes.
    """
    if not parts:
        raise BindError("nothing to bind")
    drop_dests = drop_dests or [()] * len(parts)
    blank_before = blank_before or [False] * len(parts)
    continues = continues or [False] * len(parts)
    shifts = shifts or [()] * len(parts)
    if blank_before[0] or shifts[0]:
        raise BindError("a book cannot begin with a blank page, nor its first part be moved")
    out = pikepdf.open(io.BytesIO(parts[0]))
    tree = _structure(out)
    if tree is not None:
        _drop_stand_ins(_document(tree), len(drop_dests[0]))
    next_key = _next_key(tree)
    outline_items = _top_outline(out)
    dests = [(name, dest) for name, dest in _dests(out) if name not in set(drop_dests[0])]
    sources = []  # kept open until saved: copied objects are read from them then
    for index, data in enumerate(parts[1:], start=1):
        part = pikepdf.open(io.BytesIO(data))
        if blank_before[index]:
            next_key = _add_blank_page(out, part.pages[0], tree, next_key)
        first_new = len(out.pages)
        with warnings.catch_warnings():  # pikepdf warns that names are not copied with pages: they are, below
            warnings.filterwarnings("ignore", message="Copying pages from another Pdf")
            out.pages.extend(part.pages)
        new_pages = [out.pages[i] for i in range(first_new, len(out.pages))]
        offset = next_key
        for page in new_pages:
            _shift_struct_parents(page, offset)
        moved = {page.obj.objgen: dx for page, dx in zip(new_pages, shifts[index]) if dx}
        for page in new_pages:
            if page.obj.objgen in moved:
                _move_page(out, page, moved[page.obj.objgen], moved)
        part_tree = _structure(part)
        if (tree is None) != (part_tree is None):
            raise BindError(f"part {index + 1} is {'un' if part_tree is None else ''}tagged, unlike the first")
        if tree is not None:
            copied = out.copy_foreign(part_tree)
            _drop_stand_ins(_document(copied), len(drop_dests[index]))
            if moved:
                _move_figures(_document(copied), moved)
            document = _document(tree)
            for element in _as_list(_document(copied).get("/K")):
                element.P = document
                document.K.append(element)
            nums = copied.ParentTree.Nums
            for i in range(0, len(nums), 2):
                tree.ParentTree.Nums.append(int(nums[i]) + offset)
                tree.ParentTree.Nums.append(nums[i + 1])
            next_key = offset + _next_key(copied)
        for item in _top_outline(part):
            copied = out.copy_foreign(item)
            _move_outline(copied, moved)
            if continues[index] and outline_items:
                _append_child(outline_items[-1], copied)
            else:
                outline_items.append(copied)
        part_dests = [(name, _copy(out, part, dest)) for name, dest in _dests(part) if name not in set(drop_dests[index])]
        for _, dest in part_dests:
            _move_dest(dest, moved)
        dests += part_dests
        # A copied stream's data is read from its part when the book is saved; read now, the part is closed
        # here and its parsed objects freed (a book's parts held twice, as parts and copied, were most of the
        # binder's peak memory). The bytes saved are the same.
        _own_stream_data(new_pages)
        part.close()
    if tree is not None and "/ParentTreeNextKey" in tree:
        tree.ParentTreeNextKey = next_key
    if furniture is not None:
        sources.append(_stamp(out, furniture, stamped))
    _set_outline(out, outline_items)
    _set_dests(out, dests)
    _merge_font_subsets(out)
    _share_font_files(out)
    buffer = io.BytesIO()
    out.save(buffer, deterministic_id=True, compress_streams=True, object_stream_mode=pikepdf.ObjectStreamMode.generate)
    for part in sources:
        part.close()
    return buffer.getvalue()


_NOT_FOLLOWED = {"/Parent", "/P", "/Pg", "/Prev", "/Next", "/First", "/Last"}  # links up or across, not down


def _move_page(out, page, dx: float, moved: dict) -> None:
    """Move what `page` draws, and its links, `dx` points rightwards (moved: every page moved, objgen -> points, for
    the links' destinations)."""
    page.contents_add(out.make_stream(f"q 1 0 0 1 {dx:.4f} 0 cm\n".encode()), prepend=True)
    page.contents_add(out.make_stream(b"\nQ\n"))
    for annot in page.obj.get("/Annots", pikepdf.Array()):
        if "/Rect" in annot:
            x1, y1, x2, y2 = (float(v) for v in annot.Rect)
            annot.Rect = pikepdf.Array([x1 + dx, y1, x2 + dx, y2])
        if "/QuadPoints" in annot:
            annot.QuadPoints = pikepdf.Array([float(v) + (dx if n % 2 == 0 else 0)
                                              for n, v in enumerate(annot.QuadPoints)])
        _move_dest(annot.get("/Dest"), moved)
        if "/A" in annot:
            _move_dest(annot.A.get("/D"), moved)


def _move_figures(document, moved: dict) -> None:
    """Move the bounding box of each figure on a moved page with it. WeasyPrint gives a Figure's /BBox in CSS px, as
    its boxes are laid out (pdf/tags.py), so it moves by the page's move in px."""
    stack = [document]
    while stack:
        element = stack.pop()
        if not isinstance(element, pikepdf.Dictionary):
            continue
        page, attributes = element.get("/Pg"), element.get("/A")
        dx = moved.get(page.objgen) if isinstance(page, pikepdf.Dictionary) else None
        if dx and isinstance(attributes, pikepdf.Dictionary) and "/BBox" in attributes:
            x1, y1, x2, y2 = (float(v) for v in attributes.BBox)
            attributes.BBox = pikepdf.Array([x1 + dx / PT_PER_PX, y1, x2 + dx / PT_PER_PX, y2])
        stack.extend(_as_list(element.get("/K")))


PT_PER_PX = 0.75  # a CSS px in PDF points


def _move_dest(dest, moved: dict) -> None:
    """Move an explicit destination ([page /XYZ left top zoom], or a dictionary holding one as /D) with its page
    (moved: a page's objgen -> points)."""
    if isinstance(dest, pikepdf.Dictionary):
        dest = dest.get("/D")
    if not isinstance(dest, pikepdf.Array) or len(dest) < 3 or dest[1] != pikepdf.Name.XYZ:
        return
    page = dest[0]
    dx = moved.get(page.objgen) if isinstance(page, pikepdf.Dictionary) else None
    if dx and dest[2] is not None:  # (a null left keeps the viewer's)
        dest[2] = float(dest[2]) + dx


def _move_outline(item, moved: dict) -> None:
    """Move the destinations of an outline item and of every item under it with their pages."""
    stack = [item]
    while stack:
        item = stack.pop()
        _move_dest(item.get("/Dest"), moved)
        action = item.get("/A")
        if action is not None:
            _move_dest(action.get("/D"), moved)
        child = item.get("/First")
        while child is not None:
            stack.append(child)
            child = child.get("/Next")


def _own_stream_data(pages) -> None:
    """Give every stream the pages reach (contents, fonts, images, forms, annotations' appearances) its data
    in this PDF, so the part it was copied from may be closed before the book is saved."""
    seen, stack = set(), [page.obj for page in pages]
    while stack:
        obj = stack.pop()
        if obj.is_indirect:
            if obj.objgen in seen:
                continue
            seen.add(obj.objgen)
        if isinstance(obj, pikepdf.Stream):
            obj.write(obj.read_raw_bytes(), filter=obj.get("/Filter"), decode_parms=obj.get("/DecodeParms"))
        if isinstance(obj, (pikepdf.Dictionary, pikepdf.Stream)):
            stack.extend(value for key, value in obj.items() if key not in _NOT_FOLLOWED
                         and isinstance(value, (pikepdf.Dictionary, pikepdf.Array, pikepdf.Stream)))
        elif isinstance(obj, pikepdf.Array):
            stack.extend(value for value in obj if isinstance(value, (pikepdf.Dictionary, pikepdf.Array, pikepdf.Stream)))


def _add_blank_page(out, like, tree, next_key: int) -> int:
    """Append an empty page the size of `like` (its boxes copied); tagged like a page WeasyPrint leaves
    blank: its own ParentTree entry, holding nothing. Returns the next free ParentTree key."""
    marks, xobjects = _printers_marks(out, like)
    page = pikepdf.Dictionary(Type=pikepdf.Name.Page, Resources=pikepdf.Dictionary(),
                              Contents=out.make_stream(marks))
    if xobjects:
        page.Resources.XObject = pikepdf.Dictionary(xobjects)
    for box in ("/MediaBox", "/CropBox", "/BleedBox", "/TrimBox", "/ArtBox"):
        if box in like.obj:
            page[box] = pikepdf.Array([float(v) for v in like.obj[box]])
    if tree is not None:
        page.StructParents = next_key
        tree.ParentTree.Nums.append(next_key)
        tree.ParentTree.Nums.append(out.make_indirect(pikepdf.Array()))
        next_key += 1
    out.pages.append(pikepdf.Page(page))
    return next_key


def _printers_marks(out, like) -> tuple[bytes, dict]:
    """The content drawing `like`'s printer's marks (crop marks, crosses), and the XObjects it names; (b"", {})
    when the page has no bleed or no marks.

    WeasyPrint draws a page's marks first, as an artifact: one form XObject reaching past the trim box into the
    bleed, painted with the page background. A blank page put in between parts must carry them too, or a print
    shop's sheet of it has nothing to trim by. The operators before that XObject (the page's coordinates) are kept
    with it, and as many Q as it leaves open."""
    trim, media = like.obj.get("/TrimBox"), like.obj.get("/MediaBox")
    if trim is None or media is None or [float(v) for v in trim] == [float(v) for v in media]:
        return b"", {}
    forms = like.obj.get("/Resources", {}).get("/XObject", {})
    kept, depth = [], 0
    for operands, operator in pikepdf.parse_content_stream(like):
        op = str(operator)
        if op in ("BT", "re", "m", "Tf", "TJ", "Tj"):  # text or paths before any marks: this page has none
            return b"", {}
        kept.append((operands, operator))
        depth += {"q": 1, "Q": -1}.get(op, 0)
        if op == "Do":
            name = operands[0]
            form = forms.get(name)
            bbox = [float(v) for v in form.get("/BBox", [])] if form is not None else []
            if len(bbox) != 4 or not (bbox[0] < float(trim[0]) and bbox[2] > float(trim[2])):
                return b"", {}
            kept.append(([], pikepdf.Operator("EMC")))
            kept += [([], pikepdf.Operator("Q"))] * depth
            return pikepdf.unparse_content_stream(kept), {str(name): out.copy_foreign(form)}  # `like` is a part's
    return b"", {}


def _stamp(out, furniture: bytes, stamped) -> pikepdf.Pdf:
    """Draw each page of `furniture` over the same page of `out`, as a form XObject marked as an artifact
    (page numbers and the like are not content a screen reader reads). Returns the opened furniture (it
    must stay open until `out` is saved)."""
    source = pikepdf.open(io.BytesIO(furniture))
    if len(source.pages) != len(out.pages):
        raise BindError(f"the furniture has {len(source.pages)} pages for a book of {len(out.pages)}")
    for i, (page, over) in enumerate(zip(out.pages, source.pages)):
        if (stamped is not None and not stamped[i]) or not _draws(over):
            continue
        form = out.copy_foreign(over.as_form_xobject())
        # WeasyPrint shares one resource dictionary between pages: each stamped page gets its own copy.
        resources = page.obj.get("/Resources", pikepdf.Dictionary())
        page.obj.Resources = pikepdf.Dictionary({key: value for key, value in resources.items()})
        page.obj.Resources.XObject = pikepdf.Dictionary({key: value for key, value in
                                                         resources.get("/XObject", pikepdf.Dictionary()).items()})
        name = _free_name(page, "/Furniture")  # pikepdf's own choice of name is random: no byte-identical books
        page.add_resource(form, pikepdf.Name.XObject, name=name)
        # The page's own content leaves its coordinates changed (WeasyPrint flips them): wrap it first.
        page.contents_add(out.make_stream(b"q\n"), prepend=True)
        page.contents_add(out.make_stream(b"\nQ\n/Artifact BMC q " + bytes(name.unparse()) + b" Do Q EMC\n"))
    return source


def _free_name(page, stem: str) -> pikepdf.Name:
    """`stem`, or `stem` and a number, whichever the page's XObjects do not use yet."""
    resources = page.obj.get("/Resources")
    taken = set(resources.get("/XObject", {}).keys()) if resources is not None else set()
    number = 0
    while (stem + (str(number) if number else "")) in taken:
        number += 1
    return pikepdf.Name(stem + (str(number) if number else ""))


_STATE_ONLY = {"q", "Q", "cm", "gs"}  # operators that draw nothing


def _draws(page) -> bool:
    """Whether a page's content draws anything (a page with no margin box on it only sets its coordinates)."""
    return any(str(operator) not in _STATE_ONLY for _, operator in pikepdf.parse_content_stream(page))


def _copy(out, part, value):
    """`value` of `part` copied into `out` (a direct array or dictionary is made indirect in `part` first)."""
    if isinstance(value, (pikepdf.Array, pikepdf.Dictionary)) and not value.is_indirect:
        value = part.make_indirect(value)
    return out.copy_foreign(value)


def _structure(pdf):
    return pdf.Root.get("/StructTreeRoot")


def _as_list(value) -> list:
    if value is None:
        return []
    return list(value) if isinstance(value, pikepdf.Array) else [value]


def _document(tree):
    """The structure tree's one top element (WeasyPrint writes a single Document element)."""
    kids = _as_list(tree.get("/K"))
    if len(kids) != 1 or kids[0].get("/S") != "/Document":
        raise BindError("a part's structure tree does not hold one Document element")
    document = kids[0]
    if not isinstance(document.get("/K"), pikepdf.Array):
        document.K = pikepdf.Array(_as_list(document.get("/K")))
    return document


def _drop_stand_ins(document, count: int) -> None:
    """Take the `count` stand-in anchors off the front of a part's structure: the empty elements its body
    begins with (paginate.book.stand_ins puts them there; they hold no content a reader could reach)."""
    kids = document.K
    leading = 0
    while leading < min(count, len(kids)) and len(_as_list(kids[leading].get("/K"))) == 0:
        leading += 1
    if leading != count:
        raise BindError(f"a part should begin with {count} empty stand-in elements, not {leading}")
    document.K = pikepdf.Array(list(kids)[count:])


def _next_key(tree) -> int:
    """The first ParentTree key after the ones a tree uses (a flat /Nums array, as WeasyPrint writes)."""
    if tree is None:
        return 0
    parent_tree = tree.ParentTree
    if "/Kids" in parent_tree:
        raise BindError("a part's ParentTree has /Kids (only flat /Nums trees are bound)")
    keys = [int(parent_tree.Nums[i]) for i in range(0, len(parent_tree.Nums), 2)]
    return max(keys, default=-1) + 1


def _shift_struct_parents(page, offset: int) -> None:
    if "/StructParents" in page.obj:
        page.obj.StructParents = int(page.obj.StructParents) + offset
    for annotation in page.obj.get("/Annots", []):
        if "/StructParent" in annotation:
            annotation.StructParent = int(annotation.StructParent) + offset


def _top_outline(pdf) -> list:
    """The outline's top-level items, in order (their children come with them)."""
    outlines = pdf.Root.get("/Outlines")
    items, item = [], outlines.get("/First") if outlines is not None else None
    while item is not None:
        items.append(item)
        item = item.get("/Next")
    return items


def _append_child(parent, item) -> None:
    """Put outline `item` (with its children) last under `parent`, keeping parent's /Count (open or closed)."""
    item.Parent = parent
    if "/Next" in item:
        del item.Next
    if "/Last" in parent:
        parent.Last.Next = item
        item.Prev = parent.Last
    else:
        parent.First = item
        if "/Prev" in item:
            del item.Prev
    parent.Last = item
    count = int(parent.get("/Count", 0))
    opened = 1 + max(0, int(item.get("/Count", 0)))
    parent.Count = count + opened if count >= 0 else count - 1


def _set_outline(pdf, items: list) -> None:
    if not items:
        return
    root = pdf.Root.get("/Outlines")
    if root is None:
        root = pdf.Root.Outlines = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Outlines))
    count = 0
    for i, item in enumerate(items):
        item.Parent = root
        if i:
            item.Prev = items[i - 1]
        elif "/Prev" in item:
            del item.Prev
        if i + 1 < len(items):
            item.Next = items[i + 1]
        elif "/Next" in item:
            del item.Next
        count += 1 + max(0, int(item.get("/Count", 0)))
    root.First, root.Last, root.Count = items[0], items[-1], count


def _dests(pdf) -> list:
    """(name, destination) of a flat /Names /Dests tree, in order."""
    names = pdf.Root.get("/Names")
    tree = names.get("/Dests") if names is not None else None
    if tree is None:
        return []
    if "/Kids" in tree:
        raise BindError("a part's named destinations have /Kids (only flat /Names trees are bound)")
    flat = tree.Names
    return [(str(flat[i]), flat[i + 1]) for i in range(0, len(flat), 2)]


def _set_dests(pdf, dests: list) -> None:
    if not dests:
        return
    seen: dict = {}
    for name, dest in dests:
        if name in seen:
            raise BindError(f"the destination '{name}' is in two parts")
        seen[name] = dest
    flat = pikepdf.Array()
    for name in sorted(seen):  # a name tree is sorted by key
        flat.append(pikepdf.String(name))
        flat.append(seen[name])
    if "/Names" not in pdf.Root:
        pdf.Root.Names = pikepdf.Dictionary()
    pdf.Root.Names.Dests = pdf.make_indirect(pikepdf.Dictionary(Names=flat))


def _share_font_files(pdf) -> None:
    """One copy of each distinct embedded font file; distinct subsets under one name get names of their own.

    Each part embedded its own fonts: whole fonts (no HarfBuzz-Subset) are the same file in every part and
    are kept once; subsets differ from part to part but WeasyPrint tags them by the font alone
    (ABCDEF+Vollkorn in every part), so a subset whose tag another file already has is re-tagged from a
    digest of its own bytes: names stay unique in the book, as PDF readers expect.
    """
    by_digest: dict = {}  # file digest -> the stream kept
    name_of: dict = {}  # font name -> the digest of the file first seen under it
    digests: dict = {}  # a stream's objgen -> its digest (a font file is named on every page that sets the font)
    for page in pdf.pages:
        for font, descriptor in _fonts(page):
            for key in ("/FontFile", "/FontFile2", "/FontFile3"):
                stream = descriptor.get(key)
                if stream is None:
                    continue
                digest = digests.get(stream.objgen) if stream.is_indirect else None
                if digest is None:
                    digest = hashlib.sha256(stream.read_raw_bytes() + repr(sorted(
                        (str(k), repr(v)) for k, v in stream.stream_dict.items() if k != "/Length")).encode()).hexdigest()
                    if stream.is_indirect:
                        digests[stream.objgen] = digest
                kept = by_digest.setdefault(digest, stream)
                if kept.objgen != stream.objgen:
                    descriptor[key] = kept
                name = str(descriptor.get("/FontName", ""))
                if name_of.setdefault(name, digest) != digest and _TAG.match(name.lstrip("/")):
                    tag = "".join(chr(ord("A") + int(digest[i:i + 2], 16) % 26) for i in range(0, 12, 2))
                    renamed = pikepdf.Name("/" + tag + "+" + name[8:])
                    name_of[str(renamed)] = digest
                    descriptor.FontName = renamed
                    for named in font:
                        named.BaseFont = renamed


_TAG = re.compile(r"^[A-Z]{6}\+")


def _merge_font_subsets(pdf) -> None:
    """Store each font the parts embedded as one subset: the glyphs every part's subset of it holds.

    Each part embeds its own subset of each font it sets (a pack of six delves carried eight or nine of each face, 235
    kB of fonts where the pack laid out as one document carried 40 kB). WeasyPrint subsets TrueType fonts keeping their
    glyph ids, so two subsets of one font differ only in which glyphs they hold, and their union serves every part's
    text as it is (the parts' widths and ToUnicode maps name the same ids). Subsets are taken for one font when their
    name (less its subset tag), units per em, revision and creation date agree; anything else is left as it was.
    """
    by_name: dict = {}  # the font's name, less its subset tag -> {stream's objgen: [stream, [its descriptors]]}
    seen = set()
    for page in pdf.pages:
        for _, descriptor in _fonts(page):
            stream = descriptor.get("/FontFile2")
            if stream is None or (descriptor.is_indirect and descriptor.objgen in seen):
                continue
            seen.add(descriptor.objgen)
            name = _TAG.sub("", str(descriptor.get("/FontName", "")).lstrip("/"))
            by_name.setdefault(name, {}).setdefault(stream.objgen, [stream, []])[1].append(descriptor)
    groups: dict = {}  # the font's identity -> {stream's objgen: [stream, font, [its descriptors]]}
    for name, files in by_name.items():
        if len(files) < 2:  # one file: nothing to merge, and not read
            continue
        for objgen, (stream, descriptors) in files.items():
            font = _truetype(stream)
            if font is not None:
                head = font["head"]
                groups.setdefault((name, head.unitsPerEm, head.fontRevision, head.created), {})[objgen] = \
                    [stream, font, descriptors]
    for streams in groups.values():
        if len(streams) < 2:
            continue
        merged = _kept_union([font for _, font, _ in streams.values()])
        if merged is None:
            continue
        shared = pikepdf.Stream(pdf, merged)
        for _, _, descriptors in streams.values():
            for descriptor in descriptors:
                descriptor.FontFile2 = shared


def _truetype(stream):
    """The TrueType font a /FontFile2 stream holds (fontTools, its tables read as they are asked for), or None."""
    from fontTools.ttLib import TTFont, TTLibError  # loaded where books are bound
    try:
        # Saved as it is read: no clock in the file, and no glyph read to compute bounds again (_widen keeps them)
        font = TTFont(io.BytesIO(bytes(stream.get_stream_buffer())), recalcTimestamp=False, recalcBBoxes=False,
                      lazy=True)
        return font if "glyf" in font and "head" in font else None
    except (TTLibError, pikepdf.PdfError, ValueError, KeyError, AssertionError, struct.error):
        return None


_UNIONS: dict = {}  # the digests of the subsets merged, in order -> their union (_kept_union)
UNIONS_KEPT = 32  # a few books' fonts: a process that binds book after book (serve's book server) meets them again


def _kept_union(fonts: list) -> bytes | None:
    """_union_of_subsets(fonts), kept for the process: a book bound again after an edit (serve's book server) holds the
    same subsets of most of its fonts, and merging them again was about a sixth of binding it (0.05 s of 0.35 s)."""
    key = tuple(hashlib.sha256(font.reader.file.getvalue()).hexdigest() for font in fonts)
    if key not in _UNIONS:
        if len(_UNIONS) >= UNIONS_KEPT:
            _UNIONS.pop(next(iter(_UNIONS)))  # the oldest
        _UNIONS[key] = _union_of_subsets(fonts)
    return _UNIONS[key]


def _union_of_subsets(fonts: list) -> bytes | None:
    """One font holding every glyph any of `fonts` (subsets of one font, glyph ids kept) holds, or None where they
    cannot be put together (a glyph id past the largest subset's, a table that cannot be read).

    A glyph is copied as the bytes its subset holds (with the ids kept, a composite's parts are the same ids in every
    subset), with its metrics; the largest subset's bounds and maxima are raised to every subset's. Only the largest
    subset's glyph table is read as glyphs (reading them all was most of a book's binding time)."""
    from fontTools.ttLib import TTLibError  # loaded where books are bound
    from fontTools.ttLib.tables._g_l_y_f import Glyph
    try:
        offsets = [_loca(font) for font in fonts]
        drawn = [{gid for gid in range(len(at) - 1) if at[gid + 1] > at[gid]} for at in offsets]  # the ids it draws
        base = max(range(len(fonts)), key=lambda i: fonts[i]["maxp"].numGlyphs)  # the first largest: every time alike
        adding = [i for i in range(len(fonts)) if drawn[i] - drawn[base]]
        kept = fonts[base]
        if not adding:
            return _saved(kept, untouched=True)
        order, glyphs, metrics = kept.getGlyphOrder(), kept["glyf"], kept["hmtx"]
        for i in adding:
            at, data, advances = offsets[i], fonts[i].reader["glyf"], _metrics(fonts[i])
            for gid in sorted(drawn[i] - drawn[base]):
                glyphs[order[gid]] = Glyph(data[at[gid]:at[gid + 1]])
                metrics[order[gid]] = advances(gid)
            drawn[base] |= drawn[i]
        _widen(kept, fonts)
        return _saved(kept)
    except (TTLibError, IndexError, KeyError, ValueError, AssertionError, struct.error):
        return None


def _widen(kept, fonts: list) -> None:
    """Raise the kept font's bounds and maxima (head, hhea, maxp) to cover every subset's glyphs: each subset's were
    computed over its own (the font is saved without reading its glyphs to compute them again)."""
    head, hhea, maxp = kept["head"], kept["hhea"], kept["maxp"]
    for font in fonts:
        theirs = font["head"]
        head.xMin, head.yMin = min(head.xMin, theirs.xMin), min(head.yMin, theirs.yMin)
        head.xMax, head.yMax = max(head.xMax, theirs.xMax), max(head.yMax, theirs.yMax)
        for field in ("advanceWidthMax", "xMaxExtent"):
            setattr(hhea, field, max(getattr(hhea, field), getattr(font["hhea"], field)))
        for field in ("minLeftSideBearing", "minRightSideBearing"):
            setattr(hhea, field, min(getattr(hhea, field), getattr(font["hhea"], field)))
        for field in ("maxPoints", "maxContours", "maxCompositePoints", "maxCompositeContours", "maxComponentElements",
                      "maxComponentDepth"):
            if hasattr(maxp, field):
                setattr(maxp, field, max(getattr(maxp, field), getattr(font["maxp"], field, 0)))


def _loca(font):
    """The byte offset of each glyph in a TrueType font's 'glyf' table, read off its 'loca' table."""
    import sys
    from array import array
    short = struct.unpack(">h", font.reader["head"][50:52])[0] == 0  # indexToLocFormat
    offsets = array("H" if short else "I", font.reader["loca"])
    if sys.byteorder == "little":  # the file is big-endian
        offsets.byteswap()
    return [offset * 2 for offset in offsets] if short else list(offsets)


def _metrics(font):
    """metrics(gid) -> (advance, left side bearing) of a glyph, read off the font's 'hmtx' table as it is stored."""
    long = struct.unpack(">H", font.reader["hhea"][34:36])[0]  # numberOfHMetrics
    data = font.reader["hmtx"]

    def metrics(gid: int) -> tuple:
        if gid < long:
            return struct.unpack(">Hh", data[4 * gid:4 * gid + 4])
        advance = struct.unpack(">H", data[4 * (long - 1):4 * (long - 1) + 2])[0]  # the last advance stands
        return advance, struct.unpack(">h", data[4 * long + 2 * (gid - long):4 * long + 2 * (gid - long) + 2])[0]
    return metrics


def _saved(font, untouched: bool = False) -> bytes:
    """The font's file: as it was read where nothing was added to it, else compiled again."""
    if untouched:
        font.reader.file.seek(0)
        return font.reader.file.read()
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


def _fonts(page):
    """(the font dictionaries that name it, its descriptor) of every embedded font a page uses, itself or
    in the form XObjects it draws (the stamped furniture)."""
    resources = page.obj.get("/Resources")
    yield from _resource_fonts(resources)
    xobjects = resources.get("/XObject") if resources is not None else None
    for _, xobject in (xobjects.items() if xobjects is not None else ()):
        if xobject.get("/Subtype") == "/Form":
            yield from _resource_fonts(xobject.get("/Resources"))


def _resource_fonts(resources):
    fonts = resources.get("/Font") if resources is not None else None
    for _, font in (fonts.items() if fonts is not None else ()):
        if "/FontDescriptor" in font:
            yield [font], font.FontDescriptor
        for descendant in font.get("/DescendantFonts", []):  # Type0 fonts keep the file in their CIDFont
            if "/FontDescriptor" in descendant:
                yield [font, descendant], descendant.FontDescriptor
