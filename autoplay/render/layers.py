"""The solver's view of a position painted over any grid of cells: heat map, percentages, marks, move.

One mechanism for both pictures: :func:`annotate_frame` paints it over a
screenshot and :func:`render_board` over tiles it drew itself; only the grid
geometry and the tint strength differ.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from autoplay.board.model import EXPLODED, FLAG, MINE, Board
from autoplay.render.cells import (
    Rect,
    blend_rect,
    draw_mine_mark,
    draw_move_ring,
    draw_safe_mark,
    put_centred_text,
)
from autoplay.render.palette import TEXT_DARK, TEXT_LIGHT, heat_colour, percent_label

Coord = tuple[int, int]
#: Cell characters that already show a mine.
KNOWN_MINE_CHARS = frozenset(FLAG + MINE + EXPLODED)
#: rows x cols of mine probabilities; None (or NaN in an array) where the solver gives none.
Probabilities = Sequence[Sequence[float | None]] | np.ndarray


class CellGeometry(Protocol):
    """Where each cell sits in the picture; vision's ``Grid`` and :class:`UniformGrid` both qualify.

    ``cell_rect`` returns corners ``(x0, y0, x1, y1)`` with x1/y1 exclusive, as vision does.
    """

    @property
    def rows(self) -> int: ...
    @property
    def cols(self) -> int: ...

    def cell_rect(self, row: int, col: int) -> tuple[int, int, int, int]: ...


def cell_box(geometry: CellGeometry, row: int, col: int) -> Rect:
    """The cell as ``(x, y, w, h)``, the form the drawing primitives take."""
    x0, y0, x1, y1 = geometry.cell_rect(row, col)
    return x0, y0, x1 - x0, y1 - y0


@dataclass(frozen=True)
class MoveMark:
    row: int
    col: int
    action: str = "reveal"


def as_move_mark(move: Any) -> MoveMark | None:
    """Accept the solver's ``Move``, a recorded move dict, or a plain ``(row, col[, action])`` tuple.

    Replay hands over moves read back from JSON and tests hand over tuples;
    converting here keeps every caller free of that bookkeeping.
    """
    if move is None:
        return None
    if isinstance(move, MoveMark):
        return move
    if isinstance(move, dict):
        return MoveMark(int(move["row"]), int(move["col"]), str(move.get("action", "reveal")))
    if hasattr(move, "row") and hasattr(move, "col"):
        return MoveMark(int(move.row), int(move.col), str(getattr(move, "action", "reveal")))
    if isinstance(move, (tuple, list)) and len(move) in (2, 3):
        return MoveMark(int(move[0]), int(move[1]), str(move[2]) if len(move) == 3 else "reveal")
    raise TypeError(f"cannot mark {move!r} as a move: need .row/.col, a dict or a (row, col) tuple")


def shown_mines(board: Board) -> list[Coord]:
    """Cells whose own picture already says 'mine' (flag, shown or exploded mine): heat there only hides it."""
    return [board.at(i) for i, ch in enumerate(board.cells) if ch in KNOWN_MINE_CHARS]


def probability_at(probabilities: Probabilities | None, row: int, col: int) -> float | None:
    if probabilities is None:
        return None
    value = probabilities[row][col]
    if value is None:
        return None
    value = float(value)
    return None if value != value else value  # NaN means "no probability" in arrays


def check_shape(probabilities: Probabilities | None, rows: int, cols: int) -> None:
    """Fail early and clearly: a probability grid from another board would paint nonsense."""
    if probabilities is None:
        return
    got_rows = len(probabilities)
    got_cols = len(probabilities[0]) if got_rows else 0
    if (got_rows, got_cols) != (rows, cols):
        raise ValueError(f"probabilities are {got_rows}x{got_cols} but the grid is {rows}x{cols}")


def paint_analysis(
    image: np.ndarray,
    geometry: CellGeometry,
    probabilities: Probabilities | None,
    *,
    move: Any = None,
    safe: Iterable[Coord] = (),
    mines: Iterable[Coord] = (),
    alpha: float,
    skip: Iterable[Coord] = (),
) -> np.ndarray:
    """Paint heat, percentages, certain marks and the move (last, so nothing covers it) in place.

    ``skip`` names cells that get no heat (flags on a drawn board, which the
    flag picture explains better than a red 100).
    """
    rows, cols = geometry.rows, geometry.cols
    check_shape(probabilities, rows, cols)
    safe_set, mine_set, skip_set = set(map(tuple, safe)), set(map(tuple, mines)), set(map(tuple, skip))
    for r in range(rows):
        for c in range(cols):
            p = probability_at(probabilities, r, c)
            if p is None or (r, c) in skip_set:
                continue
            rect = cell_box(geometry, r, c)
            blend_rect(image, rect, heat_colour(p), alpha)
            if (r, c) not in safe_set and (r, c) not in mine_set:
                text_colour = TEXT_LIGHT if p > 0.8 else TEXT_DARK
                label = percent_label(p)
                # the % sign keeps "8" (percent) from reading as a tile's 8; dropped only when it cannot fit
                if not put_centred_text(image, rect, label + "%", text_colour, max_scale=0.55):
                    put_centred_text(image, rect, label, text_colour, max_scale=0.55)
    for r, c in safe_set:
        draw_safe_mark(image, cell_box(geometry, r, c))
    for r, c in mine_set:
        draw_mine_mark(image, cell_box(geometry, r, c))
    mark = as_move_mark(move)
    if mark is not None:
        if not (0 <= mark.row < rows and 0 <= mark.col < cols):
            raise ValueError(f"move ({mark.row},{mark.col}) is outside the {rows}x{cols} grid")
        draw_move_ring(image, cell_box(geometry, mark.row, mark.col), mark.action)
    return image
