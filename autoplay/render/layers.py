"""The solver's view of a position painted over any grid of cells: heat map, percentages, marks, move.

One mechanism for both pictures: :func:`annotate_frame` paints it over a
screenshot and :func:`render_board` over tiles it drew itself; only the grid
geometry and the tint strength differ.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Protocol, Sequence

import numpy as np

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
#: rows x cols of mine probabilities; None (or NaN in an array) where the solver gives none.
Probabilities = Sequence[Sequence[float | None]] | np.ndarray


class CellGeometry(Protocol):
    """Where each cell sits in the picture; vision's ``Grid`` and :class:`UniformGrid` both qualify."""

    rows: int
    cols: int

    def cell_rect(self, row: int, col: int) -> Rect: ...


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
            rect = geometry.cell_rect(r, c)
            blend_rect(image, rect, heat_colour(p), alpha)
            if (r, c) not in safe_set and (r, c) not in mine_set:
                text_colour = TEXT_LIGHT if p > 0.8 else TEXT_DARK
                label = percent_label(p)
                # the % sign keeps "8" (percent) from reading as a tile's 8; dropped only when it cannot fit
                if not put_centred_text(image, rect, label + "%", text_colour, max_scale=0.4):
                    put_centred_text(image, rect, label, text_colour, max_scale=0.4)
    for r, c in safe_set:
        draw_safe_mark(image, geometry.cell_rect(r, c))
    for r, c in mine_set:
        draw_mine_mark(image, geometry.cell_rect(r, c))
    mark = as_move_mark(move)
    if mark is not None:
        if not (0 <= mark.row < rows and 0 <= mark.col < cols):
            raise ValueError(f"move ({mark.row},{mark.col}) is outside the {rows}x{cols} grid")
        draw_move_ring(image, geometry.cell_rect(mark.row, mark.col), mark.action)
    return image
