"""A Board drawn from scratch, for positions that have no screenshot (text boards, ``analyze --out``)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from autoplay.board.model import DIGITS, EXPLODED, FLAG, HIDDEN, MINE, QUESTION, Board
from autoplay.render.cells import Rect, draw_flag, draw_mine, fill_rect, put_centred_text
from autoplay.render.layers import Coord, Probabilities, cell_box, paint_analysis, shown_mines
from autoplay.render.palette import (
    EXPLODED_TILE,
    GRID_LINE,
    HIDDEN_TILE,
    NUMBER_COLOURS,
    REVEALED_TILE,
    TEXT_DARK,
    TEXT_LIGHT,
)

#: Hidden cells are painted more strongly than on a screenshot: there is no real tile to keep visible.
BOARD_HEAT_ALPHA = 0.6
#: Below this cell size the row/column numbers in the margin would not be legible.
MIN_LABELLED_CELL_PX = 14


@dataclass(frozen=True)
class UniformGrid:
    """Square cells of ``cell_px`` starting at ``(x0, y0)``: the geometry of a drawn board."""

    rows: int
    cols: int
    cell_px: int
    x0: int = 0
    y0: int = 0

    def cell_rect(self, row: int, col: int) -> tuple[int, int, int, int]:
        """Corners ``(x0, y0, x1, y1)``, x1/y1 exclusive, like vision's ``Grid``."""
        x, y = self.x0 + col * self.cell_px, self.y0 + row * self.cell_px
        return x, y, x + self.cell_px, y + self.cell_px

    @property
    def size(self) -> tuple[int, int]:
        """Width and height of the picture including the label margin."""
        return self.x0 + self.cols * self.cell_px, self.y0 + self.rows * self.cell_px


def _draw_raised(image: np.ndarray, rect: Rect) -> None:
    """The bevelled look of an unopened tile, so hidden and revealed differ even without colour."""
    x, y, w, h = rect
    fill_rect(image, rect, HIDDEN_TILE)
    edge = max(1, w // 10)
    cv2.rectangle(image, (x, y), (x + w - 1, y + edge - 1), TEXT_LIGHT, -1)
    cv2.rectangle(image, (x, y), (x + edge - 1, y + h - 1), TEXT_LIGHT, -1)
    cv2.rectangle(image, (x, y + h - edge), (x + w - 1, y + h - 1), (123, 123, 123), -1)
    cv2.rectangle(image, (x + w - edge, y), (x + w - 1, y + h - 1), (123, 123, 123), -1)


def draw_tile(image: np.ndarray, rect: Rect, ch: str) -> None:
    """One cell as the classic game shows it."""
    if ch in (HIDDEN, FLAG, QUESTION):
        _draw_raised(image, rect)
        if ch == FLAG:
            draw_flag(image, rect)
        elif ch == QUESTION:
            put_centred_text(image, rect, "?", TEXT_DARK, bold=True)
        return
    fill_rect(image, rect, EXPLODED_TILE if ch == EXPLODED else REVEALED_TILE)
    x, y, w, h = rect
    cv2.rectangle(image, (x, y), (x + w - 1, y + h - 1), GRID_LINE, 1)
    if ch in (MINE, EXPLODED):
        draw_mine(image, rect)
    elif ch in DIGITS and ch != "0":
        put_centred_text(image, rect, ch, NUMBER_COLOURS[int(ch)], bold=True)


def _draw_labels(image: np.ndarray, grid: UniformGrid) -> None:
    """0-based row and column numbers, matching the coordinates every command prints."""
    for c in range(grid.cols):
        x, _, w, _ = cell_box(grid, 0, c)
        put_centred_text(image, (x, 0, w, grid.y0), str(c), TEXT_DARK, max_scale=0.4)
    for r in range(grid.rows):
        _, y, _, h = cell_box(grid, r, 0)
        put_centred_text(image, (0, y, grid.x0, h), str(r), TEXT_DARK, max_scale=0.4)


def render_board(
    board: Board,
    probabilities: Probabilities | None = None,
    move: Any = None,
    cell_px: int = 28,
    safe: Iterable[Coord] = (),
    mines: Iterable[Coord] = (),
) -> np.ndarray:
    """A BGR picture of the board with numbered margins and, if given, the solver's heat map and move."""
    if cell_px < 4:
        raise ValueError(f"cell_px must be at least 4, got {cell_px}")
    margin = cell_px if cell_px >= MIN_LABELLED_CELL_PX else 0
    grid = UniformGrid(board.rows, board.cols, cell_px, margin, margin)
    width, height = grid.size
    image = np.full((height, width, 3), 245, dtype=np.uint8)
    for r, c in board.coords():
        draw_tile(image, cell_box(grid, r, c), board[r, c])
    if margin:
        _draw_labels(image, grid)
    return paint_analysis(
        image, grid, probabilities, move=move, safe=safe, mines=mines, alpha=BOARD_HEAT_ALPHA, skip=shown_mines(board)
    )
