"""Annotated screenshots: what the player saw, with what the solver thought painted on top."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import cv2
import numpy as np

from autoplay.board.model import Board
from autoplay.render.layers import CellGeometry, Coord, Probabilities, paint_analysis, shown_mines
from autoplay.render.palette import GRID_LINE, MOVE_REVEAL, TEXT_DARK, TEXT_LIGHT

#: Light enough that digits and flags of the real tiles remain readable under the tint.
FRAME_HEAT_ALPHA = 0.45


def as_bgr(image: np.ndarray) -> np.ndarray:
    """A fresh 3-channel uint8 copy: captures arrive as BGRA (mss) or grey (tests), and callers keep theirs."""
    image = np.asarray(image)
    if image.dtype != np.uint8:
        raise ValueError(f"expected an 8-bit image, got {image.dtype}")
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.ndim == 3 and image.shape[2] == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    if image.ndim == 3 and image.shape[2] == 3:
        return image.copy()
    raise ValueError(f"expected a grey, BGR or BGRA image, got shape {image.shape}")


def draw_grid_lines(image: np.ndarray, geometry: CellGeometry) -> None:
    """Outline every cell as vision located it, so a misplaced grid is obvious at a glance."""
    for r in range(geometry.rows):
        for c in range(geometry.cols):
            x0, y0, x1, y1 = geometry.cell_rect(r, c)
            cv2.rectangle(image, (x0, y0), (x1 - 1, y1 - 1), GRID_LINE, 1)
    left, top, _, _ = geometry.cell_rect(0, 0)
    _, _, right, bottom = geometry.cell_rect(geometry.rows - 1, geometry.cols - 1)
    cv2.rectangle(image, (left - 1, top - 1), (right, bottom), MOVE_REVEAL, 1)


def annotate_frame(
    image_bgr: np.ndarray,
    grid: CellGeometry,
    probabilities: Probabilities | None,
    move: Any = None,
    safe: Iterable[Coord] = (),
    mines: Iterable[Coord] = (),
    *,
    board: Board | None = None,
) -> np.ndarray:
    """A copy of the screenshot with the grid, the heat map, certain cells and the chosen move.

    Same size as the input so the annotated frame lines up with the original
    pixel for pixel; use :func:`add_caption` for a line of text underneath.
    Given the decoded ``board``, flags and shown mines stay untinted: the
    solver's 100% there says nothing the tile does not, and would hide it.
    """
    out = as_bgr(image_bgr)
    draw_grid_lines(out, grid)
    skip = shown_mines(board) if board is not None else ()
    return paint_analysis(
        out, grid, probabilities, move=move, safe=safe, mines=mines, alpha=FRAME_HEAT_ALPHA, skip=skip
    )


def add_caption(image: np.ndarray, lines: str | list[str]) -> np.ndarray:
    """The image with a strip of text below it (frame name, move, reason) instead of over the board."""
    lines = [lines] if isinstance(lines, str) else list(lines)
    if not lines:
        return image
    line_h, scale, font = 18, 0.45, cv2.FONT_HERSHEY_SIMPLEX
    image = as_bgr(image)
    text_w = max(cv2.getTextSize(text, font, scale, 1)[0][0] for text in lines) + 12
    width = max(image.shape[1], text_w)
    # widen on the right rather than cut the text: the frame keeps its pixel positions either way
    canvas = np.empty((image.shape[0] + line_h * len(lines) + 6, width, 3), dtype=np.uint8)
    canvas[:] = TEXT_DARK
    canvas[: image.shape[0], : image.shape[1]] = image
    for i, text in enumerate(lines):
        cv2.putText(canvas, text, (6, image.shape[0] + line_h * (i + 1)), font, scale, TEXT_LIGHT, 1, cv2.LINE_AA)
    return canvas
