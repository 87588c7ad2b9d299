"""The free floor of one room while marks are placed in it: a placed room, its floor polygon and a seeded Random →
the cells still free, the boxes reserved (the number, the thresholds, the marks) and where the number stands."""

from __future__ import annotations

import math
from dataclasses import dataclass

from dungeonpress.draw.geometry import Region

NUMBER_HALF = (0.48, 0.48)  # half the room number's box, in cells (a hair inside the middle square)
INWARD = {"N": (0, 1), "S": (0, -1), "E": (-1, 0), "W": (1, 0)}


@dataclass(frozen=True)
class Furnishing:
    """One mark drawn in a room: its legend name, its box (x0, y0, x1, y1) in cells, and its SVG."""

    mark: str
    box: tuple
    svg: str


def thresholds(placed) -> list:
    """The box of the square inside each of a placed room's doors, which marks keep off."""
    out = []
    for door in placed.doors:
        dx, dy = INWARD[door.side]
        cx, cy = door.x + dx * 0.5, door.y + dy * 0.5
        out.append((cx - 0.45, cy - 0.45, cx + 0.45, cy + 0.45))
    return out


class FreeFloor:
    """The free floor of one room while marks are placed in it."""

    def __init__(self, placed, floor, rng, number_half=NUMBER_HALF):
        self.placed, self.floor, self.rng = placed, floor, rng
        self.region = Region(floor)  # the inside test runs thousands of times per room
        self.number_half = tuple(max(a, b) for a, b in zip(number_half, NUMBER_HALF))  # as printed, when it moves
        x, y, w, h = placed.x, placed.y, placed.w, placed.h
        self.centre = (x + w / 2, y + h / 2)
        self.boxes = []  # everything reserved so far: number, thresholds, marks
        self.drawn = []  # the boxes of the marks drawn so far (columns keep clear of them)
        self.alone = False  # whether the mark being placed is the room's only one
        self.nave = set()  # cells a mark in a pillared hall's nave took: the pillars beside it still stand there
        self.free = []
        for j in range(h):
            for i in range(w):
                cell = (x + i, y + j)
                # A cell is free floor when its inner 80% is: every mark keeps 0.1 squares inside its cell.
                mx, my = cell[0] + 0.5, cell[1] + 0.5
                if all(self.region.contains((mx + (qx - mx) * 0.8, my + (qy - my) * 0.8)) for qx, qy in _corners(cell)):
                    self.free.append(cell)
        self.cells = list(self.free)  # every free cell of the floor, before anything is reserved
        # Among equally good cells (the four corners of a room, say) the dice choose: sorted by place alone,
        # every room put its first pair of marks in its two top corners.
        self.lot = {cell: rng.random() for cell in self.free}
        nx, ny = self.number_half  # the number as printed (large print's, or a small map's, may outgrow NUMBER_HALF)
        self.number = (self.centre[0] - nx, self.centre[1] - ny, self.centre[0] + nx, self.centre[1] + ny)
        self.block(*self.number)
        for threshold in thresholds(placed):
            self.block(*threshold)

    def block(self, x0, y0, x1, y1) -> None:
        """Reserve the box and take every free cell that overlaps it."""
        self.boxes.append((x0, y0, x1, y1))
        self.free = [c for c in self.free if not overlaps(_cell_box(c), (x0, y0, x1, y1))]

    def clear_middle(self) -> None:
        """Give the room's middle back to the marks: its number moves (see place_number) for an altar that stands there."""
        self.boxes.remove(self.number)
        self.free = [c for c in self.cells if not any(overlaps(_cell_box(c), b) for b in self.boxes)]

    def place_number(self, placing=()) -> bool:
        """Set the number's box on the clear spot nearest the middle (on a grid of eighths of a square) and reserve it;
        False when none is clear of the marks (those drawn and those in `placing`). `number_half` is the printed
        number's half size. Thresholds are kept clear where the floor allows (a number is words, not a thing in
        the way: it may stand in a doorway)."""
        nx, ny = self.number_half
        p, (cx, cy) = self.placed, self.centre
        # Nearest first, then by place: the first spot that passes is the one to take. Testing every spot (four
        # point-in-polygon tests each) and taking the least cost a map a third of its drawing time.
        spots = sorted((round(math.hypot(x - cx, y - cy), 9), y, x)
                       for x, y in ((p.x + i / 8, p.y + j / 8)
                                    for i in range(int(p.w * 8) + 1) for j in range(int(p.h * 8) + 1)))
        for keep in (self.boxes, self.drawn + [item.box for item in placing]):
            for _, y, x in spots:
                box = (x - nx, y - ny, x + nx, y + ny)
                if not any(overlaps(box, b, KEEP_OFF) for b in keep) and self.holds(box):
                    self.number = box
                    self.block(*box)
                    return True
        return False

    def holds(self, box) -> bool:
        """Whether every corner of `box` lies on the room's floor."""
        return all(self.region.contains(corner) for corner in _corners_of(box))

    def take(self, cell) -> tuple:
        self.free.remove(cell)
        self.boxes.append((cell[0], cell[1], cell[0] + 1, cell[1] + 1))
        return cell

    def spot(self, size: float):
        """The top-left of a free `size` square off the cell grid (when no whole cell is left), nearest a corner."""
        p, best = self.placed, None
        steps_x, steps_y = int((p.w - size) / 0.25), int((p.h - size) / 0.25)
        for i in range(steps_x + 1):
            for j in range(steps_y + 1):
                x, y = p.x + i * 0.25, p.y + j * 0.25
                box = (x, y, x + size, y + size)
                if any(overlaps(box, b, KEEP_OFF) for b in self.boxes) or not self.holds(box):
                    continue
                rank = (self._far((x + size / 2 - 0.5, y + size / 2 - 0.5)), i, j)
                if best is None or rank < best[0]:
                    best = (rank, (x, y))
        if best is None:
            return None
        x, y = best[1]
        self.block(x, y, x + size, y + size)
        return x, y

    def walls(self, cell) -> list:
        """The sides of the room that `cell` touches."""
        x, y, w, h = self.placed.x, self.placed.y, self.placed.w, self.placed.h
        return [side for side, hit in (("N", cell[1] == y), ("S", cell[1] == y + h - 1),
                                       ("W", cell[0] == x), ("E", cell[0] == x + w - 1)) if hit]

    def by_corner(self) -> list:
        """Free cells, those in corners and against walls first."""
        return sorted(self.free, key=lambda c: (-len(self.walls(c)), round(self._far(c), 9), self.lot[c]))

    def _far(self, cell) -> float:
        return -math.hypot(cell[0] + 0.5 - self.centre[0], cell[1] + 0.5 - self.centre[1])


KEEP_OFF = 0.05  # how far, in squares, a mark placed off the cell grid keeps from what is there already


def overlaps(a, b, gap: float = 0.0) -> bool:
    """Whether boxes `a` and `b` (x0, y0, x1, y1, in cells) overlap or come closer than `gap`."""
    return b[0] < a[2] + gap and a[0] < b[2] + gap and b[1] < a[3] + gap and a[1] < b[3] + gap


def _cell_box(cell) -> tuple:
    return cell[0], cell[1], cell[0] + 1, cell[1] + 1


def _corners_of(box):
    x0, y0, x1, y1 = box
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


def _corners(cell):
    return _corners_of(_cell_box(cell))
