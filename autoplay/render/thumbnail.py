"""Small pictures for a page: the board cut out of a frame, shrunk, annotated, compressed.

A page shows hundreds of frames; at full size they would weigh 100 MB.  The
window around the board says nothing the board does not, so only the board
(and a few pixels of margin, for the move ring at the edge) is kept, scaled
down with area averaging, and only then annotated: heat, marks and the move
ring are drawn crisp at the small size, and percentages that no longer fit a
cell are left out rather than smeared (half the JPEG bytes of shrinking a
full-size annotated frame).
"""

from __future__ import annotations

import base64
from dataclasses import dataclass

import cv2
import numpy as np

from autoplay.errors import AutoplayError
from autoplay.render.layers import CellGeometry
from autoplay.render.overlay import as_bgr

#: Pixels kept around the board: a move ring on an edge cell reaches a little beyond it.
BOARD_MARGIN_PX = 6


@dataclass(frozen=True)
class ScaledGeometry:
    """A grid's cells moved by ``(-x0, -y0)`` and scaled by ``scale``: where they fall in a cut-out, shrunk copy."""

    grid: CellGeometry
    scale: float
    x0: int
    y0: int

    @property
    def rows(self) -> int:
        return self.grid.rows

    @property
    def cols(self) -> int:
        return self.grid.cols

    def cell_rect(self, row: int, col: int) -> tuple[int, int, int, int]:
        x0, y0, x1, y1 = self.grid.cell_rect(row, col)
        return (
            round((x0 - self.x0) * self.scale),
            round((y0 - self.y0) * self.scale),
            round((x1 - self.x0) * self.scale),
            round((y1 - self.y0) * self.scale),
        )


def board_bounds(image: np.ndarray, grid: CellGeometry, margin: int = BOARD_MARGIN_PX) -> tuple[int, int, int, int]:
    """``(x0, y0, x1, y1)`` of the board located by ``grid`` with ``margin`` pixels around it, inside ``image``."""
    left, top, _, _ = grid.cell_rect(0, 0)
    _, _, right, bottom = grid.cell_rect(grid.rows - 1, grid.cols - 1)
    y0, x0 = max(0, int(top) - margin), max(0, int(left) - margin)
    y1, x1 = min(image.shape[0], int(bottom) + margin), min(image.shape[1], int(right) + margin)
    if y1 <= y0 or x1 <= x0:
        raise AutoplayError(f"the board ({left},{top})-({right},{bottom}) lies outside the picture")
    return x0, y0, x1, y1


def board_cutout(image: np.ndarray, grid: CellGeometry, width: int) -> tuple[np.ndarray, ScaledGeometry]:
    """The board of a frame, ``width`` pixels wide (never enlarged), and where its cells are in it.

    A fresh BGR copy, ready to annotate at that size (:func:`autoplay.render.annotate_frame`): marks are
    drawn crisp and percentages that do not fit a small cell are left out, not smeared by shrinking.
    """
    x0, y0, x1, y1 = board_bounds(image, grid)
    small = shrink(as_bgr(image[y0:y1, x0:x1]), width)  # as_bgr copies: the caller's frame stays as it was
    return small, ScaledGeometry(grid, small.shape[1] / (x1 - x0), x0, y0)


def shrink(image: np.ndarray, width: int) -> np.ndarray:
    """``image`` scaled to ``width`` pixels wide (never enlarged), aspect kept."""
    if image.shape[1] <= width:
        return image
    height = max(1, round(image.shape[0] * width / image.shape[1]))
    return cv2.resize(image, (width, height), interpolation=cv2.INTER_AREA)


def data_uri(image: np.ndarray, kind: str = "jpeg", quality: int = 60) -> str:
    """The picture as a ``data:`` URI, so a page carries its images inside and needs no other file.

    ``jpeg`` for screenshots (their gradients and text compress 4x better than PNG); ``png`` for drawn
    boards (flat colours, exact).
    """
    if kind == "jpeg":
        ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    elif kind == "png":
        ok, encoded = cv2.imencode(".png", image, [cv2.IMWRITE_PNG_COMPRESSION, 9])
    else:
        raise ValueError(f"kind must be 'jpeg' or 'png', got {kind!r}")
    if not ok:
        raise AutoplayError(f"cannot encode a {image.shape} picture as {kind}")
    return f"data:image/{kind};base64,{base64.b64encode(encoded.tobytes()).decode('ascii')}"
