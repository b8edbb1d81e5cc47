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
#: Caption text: OpenCV's plain font at a size that reads at 100% zoom, one line every 18 pixels.
CAPTION_FONT, CAPTION_SCALE, CAPTION_LINE_PX, CAPTION_MARGIN = cv2.FONT_HERSHEY_SIMPLEX, 0.45, 18, 6


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
    grid_lines: bool = True,
) -> np.ndarray:
    """A copy of the screenshot with the grid, the heat map, certain cells and the chosen move.

    Same size as the input so the annotated frame lines up with the original
    pixel for pixel; use :func:`add_caption` for a line of text underneath.
    Given the decoded ``board``, flags and shown mines stay untinted: the
    solver's 100% there says nothing the tile does not, and would hide it.
    ``grid_lines=False`` leaves out the located grid (a thumbnail: the tiles' own edges show it, and the
    lines would cost a third of its JPEG bytes).
    """
    out = as_bgr(image_bgr)
    if grid_lines:
        draw_grid_lines(out, grid)
    skip = shown_mines(board) if board is not None else ()
    return paint_analysis(
        out, grid, probabilities, move=move, safe=safe, mines=mines, alpha=FRAME_HEAT_ALPHA, skip=skip
    )


def add_caption(image: np.ndarray, lines: str | list[str]) -> np.ndarray:
    """The image with a strip of text below it (frame name, move, reason) instead of over the board.

    Lines longer than the picture is wide wrap onto more lines, so the picture keeps its size and no
    black margin appears beside it.
    """
    lines = [lines] if isinstance(lines, str) else list(lines)
    if not lines:
        return image
    image = as_bgr(image)
    width = image.shape[1]
    wrapped = [part for text in lines for part in wrap_text(text, width - 2 * CAPTION_MARGIN)]
    canvas = np.empty((image.shape[0] + CAPTION_LINE_PX * len(wrapped) + 6, width, 3), dtype=np.uint8)
    canvas[:] = TEXT_DARK
    canvas[: image.shape[0]] = image
    for i, text in enumerate(wrapped):
        origin = (CAPTION_MARGIN, image.shape[0] + CAPTION_LINE_PX * (i + 1))
        cv2.putText(canvas, text, origin, CAPTION_FONT, CAPTION_SCALE, TEXT_LIGHT, 1, cv2.LINE_AA)
    return canvas


def wrap_text(text: str, width_px: int) -> list[str]:
    """``text`` in lines no wider than ``width_px`` in the caption font: at spaces, inside a word only when
    the word alone is too wide."""

    def fits(candidate: str) -> bool:
        return cv2.getTextSize(candidate, CAPTION_FONT, CAPTION_SCALE, 1)[0][0] <= width_px

    out: list[str] = []
    line = ""
    for word in text.split(" "):
        candidate = f"{line} {word}" if line else word
        if fits(candidate):
            line = candidate
            continue
        if line:
            out.append(line)
        while word and not fits(word):
            cut = max((n for n in range(1, len(word)) if fits(word[:n])), default=1)
            out.append(word[:cut])
            word = word[cut:]
        line = word
    if line or not out:
        out.append(line)
    return out
