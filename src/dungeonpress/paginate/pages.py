"""A laid-out document → where its anchors fell, its spare (notes) pages, and the same document padded or cut to size."""

from __future__ import annotations

from dungeonpress import pdf
from dungeonpress.errors import RenderError
from dungeonpress.views.notes import SPARE_ID

SPARE = SPARE_ID  # id prefix of the spare pages (notes pages) a document may lose when it is padded


def anchor_boxes(measured) -> dict:
    """Every anchor (element id) of measured pages → (page index, top, bottom) of its box, in CSS px.

    `measured` is pdf.measure(rendered): a box split over pages gives its last page.
    """
    return {name: (index, top, bottom) for index, page in enumerate(measured)
            for name, (top, bottom) in page.boxes.items()}


def anchor_starts(measured) -> dict:
    """Every anchor → (page index, top, bottom) of its box on the first page it is on (anchor_boxes gives the last)."""
    where: dict = {}
    for index, page in enumerate(measured):
        for name, (top, bottom) in page.boxes.items():
            where.setdefault(name, (index, top, bottom))
    return where


def anchor_pages(measured) -> dict:
    """Every anchor (element id) → the indices of the pages its box is on (more than one when it was split)."""
    pages: dict = {}
    for index, page in enumerate(measured):
        for name in page.boxes:
            pages.setdefault(name, []).append(index)
    return pages


def spare_pages(measured, prefix: str = SPARE) -> list[int]:
    """Indices of the pages holding an anchor that starts with `prefix` (the notes pages), in order."""
    return [i for i, page in enumerate(measured) if any(anchor.startswith(prefix) for anchor in page.boxes)]


def drop_spare_pages(rendered, surplus: int, prefix: str = SPARE):
    """The same document without its last `surplus` spare pages (a copy: nothing is laid out again)."""
    if surplus <= 0:
        return rendered
    dropped = set(spare_pages(pdf.measure(rendered), prefix)[-surplus:])
    return pdf.keep_only(rendered, [i for i in range(rendered.page_count) if i not in dropped])


def pad_to_multiple(rendered, multiple: int, name: str, prefix: str = SPARE):
    """Keep just enough spare pages for the page count to be a multiple of `multiple` (booklets fold in fours).

    The one way every booklet is padded: the document is laid out once with a few spare notes
    pages, and the ones not needed are dropped. RenderError if too few spares were laid out.
    """
    spares = len(spare_pages(pdf.measure(rendered), prefix))
    needed = -(rendered.page_count - spares) % multiple
    padded = drop_spare_pages(rendered, spares - needed, prefix)
    if padded.page_count % multiple:
        raise RenderError(f"{name} has {padded.page_count} pages after padding with {spares} spare notes pages "
                          f"(expected a multiple of {multiple})")
    return padded


def keep_pages(rendered, count: int, name: str, prefix: str = SPARE):
    """Drop spare pages until the document has exactly `count` pages; RenderError if it cannot."""
    padded = drop_spare_pages(rendered, rendered.page_count - count, prefix)
    if padded.page_count != count:
        raise RenderError(f"{name} came out at {padded.page_count} pages, not {count}")
    return padded


def even_page_fillers(measured, anchors: list) -> list:
    """The anchors that need a filler page put before them so each falls on an even (left-hand) page number.

    Each anchor starts a new page, so one page put in moves every later page by one: walked in order.
    Anchors the layout does not have are skipped.
    """
    where = {name: box[0] + 1 for name, box in anchor_boxes(measured).items()}  # page number
    fillers, shift = [], 0
    for anchor in anchors:
        if anchor not in where:
            continue
        if (where[anchor] + shift) % 2:
            fillers.append(anchor)
            shift += 1
    return fillers


def even_key_turns(measured, keys: list) -> list:
    """The room anchors that should start a page so each room key that runs over pages shares them about evenly.

    `keys` holds each key's room anchors in order. A key laid out on k pages is cut into k runs of rooms
    whose fullest page is as short as can be (the first page also holds the key's heading and lead-in), so
    its last page carries a fair share instead of one room alone on a page of white. Rooms keep their order
    and the key keeps its page count; a key on one page, or whose rooms the layout lacks, is left as it is.
    """
    where = anchor_starts(measured)  # anchor -> (page index, top, bottom) of the page a room starts on
    turns = []
    for rooms in keys:
        if not rooms or any(room not in where for room in rooms):
            continue
        first, last = where[rooms[0]][0], where[rooms[-1]][0]
        if first == last:
            continue
        heights = [where[room][2] - where[room][1] for room in rooms]
        # Where a page's text begins: the top of the first room on a page the key runs onto.
        text_top = min(where[room][1] for room in rooms if where[room][0] != first)
        lead = max(0.0, where[rooms[0]][1] - text_top)  # the heading and lead-in above the first room
        starts = _fairest_cut(heights, last - first + 1, lead)
        turns += [rooms[start] for start in starts[1:]]
    return turns


def _fairest_cut(heights: list, parts: int, lead: float) -> list:
    """Indices where each of `parts` consecutive runs of `heights` starts, the tallest run as short as can be
    (the first run also carries `lead`), then the next tallest, and so on (no page left much emptier than the
    others); among equals, the one whose first pages hold the most."""
    count = len(heights)
    if parts > count:
        return list(range(count))
    best = None
    def walk(start, part, cuts, runs):
        nonlocal best
        if part == parts - 1:
            loads = runs + [sum(heights[start:]) + (lead if part == 0 else 0.0)]
            score = (sorted(loads, reverse=True), [-c for c in cuts[1:]])
            if best is None or score < best[0]:
                best = (score, list(cuts))
            return
        for end in range(start + 1, count - (parts - part - 1) + 1):
            run = sum(heights[start:end]) + (lead if part == 0 else 0.0)
            walk(end, part + 1, cuts + [end], runs + [run])
    walk(0, 0, [0], [])
    return best[1]


def lines_after(measured, anchor: str, line: float, reserve: float) -> int:
    """How many ruled lines `line` px tall fit under `anchor`'s box on the last page it runs onto, after `reserve`
    px for a heading; 0 when the box is on one page (a section that ran over leaves the rest of its last page)."""
    on = anchor_pages(measured).get(anchor, [])
    if len(on) < 2:
        return 0
    page = measured[on[-1]]
    return max(0, int((page.text_bottom - page.boxes[anchor][1] - reserve) // line))


def room_under(measured, anchor: str) -> float:
    """CSS px of the text area left under `anchor`'s box on the last page it is on (0 when the layout lacks it)."""
    on = anchor_pages(measured).get(anchor, [])
    if not on:
        return 0.0
    page = measured[on[-1]]
    return max(0.0, page.text_bottom - page.boxes[anchor][1])


def lines_under_each_page(measured, anchors: list, line: float, reserve: float) -> list:
    """For each page `anchors` (boxes kept whole, in order) are laid out on: (the anchor that opens the next of those
    pages, or None after the last, and how many ruled lines `line` px tall fit under the last box on the page after
    `reserve` px for a heading). Anchors the layout lacks leave nothing to say: []."""
    if not anchors or any(all(name not in page.boxes for page in measured) for name in anchors):
        return []
    on = {}  # page index -> bottom of the lowest of the anchors on it
    first = {}  # page index -> the first anchor on it
    for index, page in enumerate(measured):
        for name in anchors:
            if name in page.boxes:
                on[index] = max(on.get(index, 0.0), page.boxes[name][1])
                first.setdefault(index, name)
    pages = sorted(on)
    return [(first[pages[n + 1]] if n + 1 < len(pages) else None,
             max(0, int((measured[index].text_bottom - on[index] - reserve) // line)))
            for n, index in enumerate(pages)]


def lines_under_turned_pages(measured, anchors: list, turns: list, line: float, reserve: float) -> list | None:
    """lines_under_each_page as `anchors` will give it laid out again with each of `turns` opening a page, read off
    this layout of them: each box keeps its height wherever it falls (boxes kept whole, one under the next), the first
    keeps its place on its page, and a page a turn opens starts its first box at its text's top. None where that does
    not hold here (a gap between two boxes on one page) or a page would run over: only laying out again can tell."""
    where = anchor_starts(measured)
    if not anchors or any(name not in where for name in anchors):
        return []
    for before, after in zip(anchors, anchors[1:]):
        if where[before][0] == where[after][0] and abs(where[after][1] - where[before][2]) > 0.01:
            return None
    first = measured[where[anchors[0]][0]]
    runs, bottom = [], where[anchors[0]][1]
    for name in anchors:
        if name in turns and name != anchors[0]:
            runs.append((name, bottom))
            bottom = first.text_top
        bottom += where[name][2] - where[name][1]
        if bottom > first.text_bottom + 0.01:
            return None
    runs.append((None, bottom))
    return [(name, max(0, int((first.text_bottom - low - reserve) // line))) for name, low in runs]


def white_before_turns(measured, anchors: list) -> dict:
    """For each anchor of `anchors` (blocks in reading order) whose successor opens on a later page than the anchor's
    box ends on (the last anchor's successor is the document's end): (CSS px of the text area left white under it, that
    white as a share of the text area's height). Anchors the layout lacks are left out, and so is one whose successor
    the layout lacks."""
    on = anchor_pages(measured)
    white = {}
    for index, anchor in enumerate(anchors):
        following = anchors[index + 1] if index + 1 < len(anchors) else None
        if anchor not in on or (following is not None and following not in on):
            continue
        last = on[anchor][-1]
        if following is not None and on[following][0] <= last:
            continue
        page = measured[last]
        room = max(0.0, page.text_bottom - page.boxes[anchor][1])
        area = page.text_bottom - page.text_top
        white[anchor] = (room, room / area if area > 0 else 0.0)
    return white
