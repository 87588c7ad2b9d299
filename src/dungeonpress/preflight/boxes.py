"""A page's boxes → the ones under a point, and the pairs whose top-left corners lie close, by a coarse grid.

A check that paired every filled shape with every other (and every letter with every shape) took
minutes on a page of a 48,000-row table. A grid finds the few candidates near each point; a work
budget bounds what is left (many shapes stacked on one spot), and the check says it stopped.
"""

from __future__ import annotations

from collections import defaultdict

CELL = 36.0            # points: half an inch, about two lines of body text
WORK_BUDGET = 4_000_000  # grid entries plus comparisons one page may cost a check


class TooMuchWork(Exception):
    """A page with more shapes on top of one another than a check will compare."""


class Budget:
    """Counts the work a check does on one page; TooMuchWork past WORK_BUDGET."""

    def __init__(self, limit: int = WORK_BUDGET):
        self.left = limit

    def spend(self, amount: int) -> None:
        self.left -= amount
        if self.left < 0:
            raise TooMuchWork


class Grid:
    """Boxes ({"x0", "x1", "top", "bottom"}) by the grid cells they cover, within the page (plus a cell round it)."""

    def __init__(self, boxes: list, width: float, height: float, budget: Budget, cell: float = CELL):
        self.boxes, self.cell = boxes, cell
        self.cells: dict = defaultdict(list)
        self._last = (int(width // cell) + 1, int(height // cell) + 1)
        for index, box in enumerate(boxes):
            xs = range(self._clamp(box["x0"], 0), self._clamp(box["x1"], 0) + 1)
            ys = range(self._clamp(box["top"], 1), self._clamp(box["bottom"], 1) + 1)
            budget.spend(len(xs) * len(ys))
            for cx in xs:
                for cy in ys:
                    self.cells[(cx, cy)].append(index)

    def _clamp(self, value: float, axis: int) -> int:
        return max(-1, min(self._last[axis], int(value // self.cell)))

    def under(self, x: float, y: float, budget: Budget) -> list:
        """The boxes that hold the point (x, y), in the order they were given."""
        if not self.cells:
            return []  # a page with no shapes of this kind: every letter asks, so answer before any arithmetic
        found = self.cells.get((self._clamp(x, 0), self._clamp(y, 1)))
        if not found:
            return []
        budget.spend(len(found))
        boxes = self.boxes
        return [box for box in map(boxes.__getitem__, found) if box["x0"] <= x <= box["x1"] and box["top"] <= y <= box["bottom"]]


def close_pairs(boxes: list, reach: float, budget: Budget, key=lambda box: None):
    """(i, j) for boxes i != j of the same `key` whose x0 and top both differ by at most `reach`.

    Each box is compared only with those in its own and the neighbouring cells of a `reach`-wide grid.
    """
    buckets: dict = defaultdict(list)
    for index, box in enumerate(boxes):
        buckets[(key(box), int(box["x0"] // reach), int(box["top"] // reach))].append(index)
    for (group, bx, by), members in buckets.items():
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                others = buckets.get((group, bx + dx, by + dy), ())
                budget.spend(len(members) * len(others))
                for i in members:
                    for j in others:
                        if i != j and abs(boxes[i]["x0"] - boxes[j]["x0"]) <= reach \
                                and abs(boxes[i]["top"] - boxes[j]["top"]) <= reach:
                            yield i, j
