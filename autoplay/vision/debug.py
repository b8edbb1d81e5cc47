"""Debug pictures that show a user where autoplay looked and what it could not read."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from autoplay.errors import UsageError
from autoplay.outputs import output_file
from autoplay.vision.grid import Grid

if TYPE_CHECKING:
    from autoplay.vision.skin import Skin

GRID_COLOUR = (0, 200, 0)
BAD_COLOUR = (0, 0, 255)
SEARCH_COLOUR = (255, 0, 255)


def draw_grid(
    image: np.ndarray,
    grid: Grid | None,
    bad_cells: Iterable[tuple[int, int]] = (),
    search_boxes: Iterable[tuple[int, int, int, int]] = (),
) -> np.ndarray:
    """A copy of ``image`` with the grid lines, the unreadable cells boxed and any search boxes outlined."""
    canvas = image.copy() if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    for x0, y0, x1, y1 in search_boxes:
        cv2.rectangle(canvas, (x0, y0), (x1 - 1, y1 - 1), SEARCH_COLOUR, 1)
    if grid is not None:
        x0, y0, x1, y1 = grid.rect
        for x in grid.xs:
            xi = int(round(x))
            cv2.line(canvas, (xi, y0), (xi, y1), GRID_COLOUR, 1)
        for y in grid.ys:
            yi = int(round(y))
            cv2.line(canvas, (x0, yi), (x1, yi), GRID_COLOUR, 1)
        for r, c in bad_cells:
            cx0, cy0, cx1, cy1 = grid.cell_rect(r, c)
            cv2.rectangle(canvas, (cx0, cy0), (cx1 - 1, cy1 - 1), BAD_COLOUR, 2)
    return canvas


def write_debug_image(
    path: str | Path,
    image: np.ndarray,
    grid: Grid | None,
    bad_cells: Iterable[tuple[int, int]] = (),
    search_boxes: Iterable[tuple[int, int, int, int]] = (),
    root: str | Path | None = None,
) -> str:
    """Write the debug picture and return its path as a string for messages.

    The folder is created one level deep at most (:mod:`autoplay.outputs`); a folder that cannot be
    written is a one-line :class:`~autoplay.errors.UsageError`, never a silent ``False`` from OpenCV.
    """
    out = output_file(path, root)
    ok, encoded = cv2.imencode(".png", draw_grid(image, grid, bad_cells, search_boxes))
    try:
        if not ok:
            raise OSError("cannot encode the picture")
        out.write_bytes(encoded.tobytes())
    except OSError as exc:
        raise UsageError(f"{out}: cannot write the debug picture: {getattr(exc, 'strerror', None) or exc}") from None
    return str(out)


def write_search_debug(path: str | Path, image: np.ndarray, skin: Skin | None = None) -> str:
    """Debug picture for "no board found": every square region that was considered a possible tile."""
    from autoplay.vision.locate import DEFAULT_PITCH_RANGE, tile_candidates

    pitch_range = skin.pitch_range if skin is not None and skin.pitch_range else DEFAULT_PITCH_RANGE
    centres, sides = tile_candidates(image, pitch_range)
    boxes = [(int(x - s / 2), int(y - s / 2), int(x + s / 2), int(y + s / 2)) for (x, y), s in zip(centres, sides)]
    return write_debug_image(path, image, None, search_boxes=boxes)
