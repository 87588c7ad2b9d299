"""A workroom's L: a room rectangle, its door points and its way in → a closed outline with one corner's block left
as rock.

A forge, library, vault or storeroom is drawn L-shaped, as a room fitted into the rock round older
walls: the block in the corner farthest from the way in is cut out, half the room's length along its
long wall and a third of its width (a square at least) along the short one. Every wall stays on the
grid and straight, so the floor's squares stay whole; every door's gap keeps a stretch of wall (a square
at least) between it and the cut, so a passage meets a straight wall on the rectangle, and each door's
gap is marked on the outline by its ends and middle (as on a round room's) so the VTT export opens the
wall there. A room whose doors leave no such corner stays square: a block whose edge a gap ends at sends
the passage in along the block's inner wall, and the room reads as a bend in the passage, not as a room.
"""

from __future__ import annotations

import math

from dungeonpress.draw.round_room import MOUTH


def ell_outline(x: int, y: int, w: int, h: int, doors, way_in) -> tuple | None:
    """The L's outline, clockwise on the page from the top-left; None when the room is too small for an L (under
    three squares either way) or no corner's block leaves a stretch of wall beside every door's gap."""
    if min(w, h) < 3:
        return None
    cut = (w // 2, max(1, h // 3)) if w >= h else (max(1, w // 3), h // 2)  # the block's width and height
    corners = ((x, y), (x + w, y), (x + w, y + h), (x, y + h))
    far = sorted(range(4), key=lambda k: (-round(math.dist(corners[k], way_in), 9), k))
    # A corner whose block leaves a stretch of wall beside every door's gap, the farthest from the way in first. A
    # block a gap merely ends at is refused too (strict < below): its passage would run on along the block's inner
    # wall, and seeds 2024 rooms 2, 5 and 7 showed such rooms read as a passage's bend with a nook, not as rooms.
    keep = 1e-9
    for k in far:
        cx, cy = corners[k]
        block = (min(cx, cx + (cut[0] if cx == x else -cut[0])), min(cy, cy + (cut[1] if cy == y else -cut[1])))
        x0, y0, x1, y1 = block[0], block[1], block[0] + cut[0], block[1] + cut[1]
        if any(x0 - MOUTH - keep < dx < x1 + MOUTH + keep and y0 - MOUTH - keep < dy < y1 + MOUTH + keep
               for dx, dy in doors):
            continue
        incoming = (corners[k][0] - corners[k - 1][0], corners[k][1] - corners[k - 1][1])
        outgoing = (corners[(k + 1) % 4][0] - cx, corners[(k + 1) % 4][1] - cy)
        back = _unit(incoming)
        on = _unit(outgoing)
        along_in = cut[0] if back[1] == 0 else cut[1]  # the block's side on the wall that comes into the corner
        along_out = cut[0] if on[1] == 0 else cut[1]
        notch = ((cx - back[0] * along_in, cy - back[1] * along_in),
                 (cx - back[0] * along_in + on[0] * along_out, cy - back[1] * along_in + on[1] * along_out),
                 (cx + on[0] * along_out, cy + on[1] * along_out))
        ring = [p for j, c in enumerate(corners) for p in (notch if j == k else (c,))]
        return with_gaps(ring, doors)
    return None


def _unit(vector) -> tuple:
    return (vector[0] > 0) - (vector[0] < 0), (vector[1] > 0) - (vector[1] < 0)


def with_gaps(ring, doors) -> tuple:
    """A straight-walled outline with each door's gap marked on its wall by the gap's ends and middle."""
    out = []
    for i, a in enumerate(ring):
        b = ring[(i + 1) % len(ring)]
        dx, dy = _unit((b[0] - a[0], b[1] - a[1]))
        length = abs(b[0] - a[0]) + abs(b[1] - a[1])
        out.append((float(a[0]), float(a[1])))
        offsets = []
        for px, py in doors:
            along = (px - a[0]) * dx + (py - a[1]) * dy
            if (px - a[0]) * dy - (py - a[1]) * dx == 0 and MOUTH <= along <= length - MOUTH:
                offsets += [along - MOUTH, along, along + MOUTH]
        out.extend((a[0] + dx * t + 0.0, a[1] + dy * t + 0.0) for t in sorted(offsets) if 0 < t < length)
    return tuple(out)
