"""What ``watch --overlay`` draws over the board, as a picture and the mask of its marks (no X11 here).

Each covered cell gets a small box in its middle, in its heat colour, with its mine chance in percent; a cell
certain to be safe also gets a green frame, a certain mine a red one, and the move autoplay would make a thick
blue frame on the cell's edge.  The rest of each tile, and every open cell, stays the game's own: the overlay
window is shaped to the marks (:func:`mask_rectangles`), so the person sees their board between them.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from autoplay.board.model import HIDDEN, QUESTION, Coord
from autoplay.insight.coach import Coached
from autoplay.render.palette import BGR, heat_colour, percent_label
from autoplay.vision.grid import Grid

#: ``(x, y, width, height)`` in the overlay's pixels.
Rectangle = tuple[int, int, int, int]
SAFE_COLOUR: BGR = (40, 170, 0)
MINE_COLOUR: BGR = (20, 20, 220)
MOVE_COLOUR: BGR = (255, 64, 16)
OUTLINE: BGR = (40, 40, 40)
#: Frame widths in pixels: the suggested move's on the cell's edge, the certain cells' just inside it.
MOVE_FRAME, CERTAIN_FRAME = 3, 2


@dataclass(frozen=True)
class Marks:
    """One position's marks on a board located at ``grid`` (window pixels)."""

    grid: Grid
    odds: dict[Coord, float]  # every covered cell's mine chance
    safe: frozenset[Coord]
    mines: frozenset[Coord]
    move: Coord | None

    @property
    def origin(self) -> tuple[int, int]:
        """The board's top-left corner in the game window: where the overlay window goes."""
        x0, y0, _, _ = self.grid.rect
        return x0, y0

    @property
    def size(self) -> tuple[int, int]:
        """``(width, height)`` of the board, and of the overlay."""
        x0, y0, x1, y1 = self.grid.rect
        return x1 - x0, y1 - y0


def marks_of(coached: Coached, grid: Grid) -> Marks:
    """The marks for one position: covered cells only (flags and open cells are the person's to see)."""
    advice = coached.advice
    board, analysis, decision = advice.board, advice.analysis, advice.decision
    if analysis is None or (board.rows, board.cols) != (grid.rows, grid.cols):
        return Marks(grid, {}, frozenset(), frozenset(), None)
    odds: dict[Coord, float] = {}
    for r in range(board.rows):
        for c in range(board.cols):
            p = analysis.probabilities[r][c]
            if p is not None and board[r, c] in (HIDDEN, QUESTION):
                odds[r, c] = float(p)
    safe = frozenset(cell for cell in analysis.safe if cell in odds)
    mines = frozenset(cell for cell in analysis.mines if cell in odds)
    move = None
    if decision is not None and decision.moves:
        first = decision.moves[0]
        move = (first.row, first.col)
    return Marks(grid, odds, safe, mines, move)


def _label_box(x0: int, y0: int, x1: int, y1: int) -> tuple[int, int, int, int]:
    """The label's box in the middle of a cell: about 3/4 of its width and half its height, at least 9 px high."""
    width, height = x1 - x0, y1 - y0
    box_w, box_h = max(8, (3 * width) // 4), max(9, height // 2)
    left, top = x0 + (width - box_w) // 2, y0 + (height - box_h) // 2
    return left, top, left + box_w - 1, top + box_h - 1


def _text(image: np.ndarray, text: str, box: tuple[int, int, int, int], colour: BGR) -> None:
    """``text`` centred in ``box``, as large as fits (the smallest Hershey size when nothing does)."""
    left, top, right, bottom = box
    font = cv2.FONT_HERSHEY_PLAIN
    scale = 1.0
    while scale > 0.5:
        (w, h), _ = cv2.getTextSize(text, font, scale, 1)
        if w <= right - left - 1 and h <= bottom - top - 1:
            break
        scale -= 0.1
    (w, h), _ = cv2.getTextSize(text, font, scale, 1)
    x = left + (right - left + 1 - w) // 2
    y = top + (bottom - top + 1 + h) // 2
    cv2.putText(image, text, (x, y), font, scale, colour, 1, cv2.LINE_AA)


def _frame(
    image: np.ndarray, mask: np.ndarray, rect: tuple[int, int, int, int], inset: int, width: int, colour: BGR
) -> None:
    x0, y0, x1, y1 = rect
    corner0, corner1 = (x0 + inset, y0 + inset), (x1 - 1 - inset, y1 - 1 - inset)
    for layer, value in ((image, colour), (mask, 255)):
        for step in range(width):
            cv2.rectangle(
                layer, (corner0[0] + step, corner0[1] + step), (corner1[0] - step, corner1[1] - step), value, 1
            )


def paint(marks: Marks) -> tuple[np.ndarray, np.ndarray]:
    """The overlay's picture (BGR, the board's size) and the mask of the pixels that are marks (``uint8`` 0/255)."""
    width, height = marks.size
    image = np.zeros((height, width, 3), np.uint8)
    mask = np.zeros((height, width), np.uint8)
    ox, oy = marks.origin
    for (r, c), p in marks.odds.items():
        x0, y0, x1, y1 = marks.grid.cell_rect(r, c)
        cell = (x0 - ox, y0 - oy, x1 - ox, y1 - oy)
        box = _label_box(*cell)
        cv2.rectangle(image, box[:2], box[2:], heat_colour(p), -1)
        cv2.rectangle(image, box[:2], box[2:], OUTLINE, 1)
        cv2.rectangle(mask, box[:2], box[2:], 255, -1)
        _text(image, percent_label(p), box, (0, 0, 0) if p < 0.75 else (255, 255, 255))
        if (r, c) in marks.safe or (r, c) in marks.mines:
            colour = SAFE_COLOUR if (r, c) in marks.safe else MINE_COLOUR
            _frame(image, mask, cell, MOVE_FRAME, CERTAIN_FRAME, colour)
    if marks.move is not None:
        x0, y0, x1, y1 = marks.grid.cell_rect(*marks.move)
        _frame(image, mask, (x0 - ox, y0 - oy, x1 - ox, y1 - oy), 0, MOVE_FRAME, MOVE_COLOUR)
    return image, mask


def _runs(row: np.ndarray) -> list[tuple[int, int]]:
    """``(start, end)`` of each run of nonzero pixels in one row, end excluded."""
    edges = np.flatnonzero(np.diff(np.concatenate(([0], (row > 0).astype(np.int8), [0]))))
    return [(int(a), int(b)) for a, b in zip(edges[::2], edges[1::2], strict=True)]


def mask_rectangles(mask: np.ndarray) -> list[Rectangle]:
    """Rectangles whose union is exactly the mask's nonzero pixels: the overlay window's visible shape.

    Runs of each row, with a run that continues unchanged in the next rows merged into one rectangle (a label
    box is one rectangle, a frame four).

    >>> m = np.zeros((4, 5), np.uint8); m[1:3, 1:4] = 1; m[3, 0] = 1
    >>> sorted(mask_rectangles(m))
    [(0, 3, 1, 1), (1, 1, 3, 2)]
    """
    out: list[Rectangle] = []
    open_runs: dict[tuple[int, int], int] = {}
    for y in range(mask.shape[0] + 1):
        runs = set(_runs(mask[y])) if y < mask.shape[0] else set()
        for run, top in list(open_runs.items()):
            if run not in runs:
                out.append((run[0], top, run[1] - run[0], y - top))
                del open_runs[run]
        for run in runs:
            open_runs.setdefault(run, y)
    return out
