"""Reading again only the cells whose pixels changed since the last frame.

Between two decisions of a game a few cells change (the batch's reveals, an opening, a flag) and the rest of the
board is the same, pixel for pixel.  A cell's first look (its patch and nearest template) depends on nothing but
the pixels of its own rectangle and a margin around it (the averaging box and the interpolation's neighbour reach
past the cell's edge), so a cell whose pixels and grid are unchanged would be read exactly as before: its
last reading is kept, and only the changed cells are sampled and matched.  Exactly means bit for bit: the patches
of a few cells are those of the whole board (:func:`~autoplay.vision.features.some_cell_patches`), and the
distances are computed in integers (:func:`~autoplay.vision.classify.pixel_distances`), so a decode with a memory
is the decode without one, at a fraction of the cost (an expert board: ~2 ms whole, a few tenths of that for a
batch's cells).  The second looks at unreadable cells, the rules that refuse impossible readings and the game's
state are still worked out on every frame from the whole reading.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from autoplay.vision.classify import Classification, classify_distances, pixel_distances
from autoplay.vision.features import cell_patches, shrink_factor, some_cell_patches
from autoplay.vision.grid import Grid
from autoplay.vision.skin import Skin


def first_look(image: np.ndarray, grid: Grid, skin: Skin, cells: np.ndarray | None = None) -> Classification:
    """Every cell's nearest template (or only the flat cell indices ``cells``'), before any second look."""
    if cells is None:
        patches = cell_patches(image, grid, skin.patch_size, skin.inset)
    else:
        patches = some_cell_patches(image, grid, cells, skin.patch_size, skin.inset)
    rows = patches.reshape(-1, 3 * skin.patch_size**2)
    d2 = pixel_distances(rows, skin.template_pixels())
    labels = skin.template_matrix()[1]
    return classify_distances(d2, labels, skin.max_distance, skin.min_confidence, skin.match_limits())


def reach(grid: Grid, skin: Skin) -> int:
    """How far (in whole pixels) past a cell's edges the pixels its first look reads may lie.

    The averaging box (:func:`~autoplay.vision.features.shrink_factor`) reaches at most its width, linear
    interpolation one pixel more, and rounding the cell's edges to whole pixels one more.
    """
    return shrink_factor(grid, skin.patch_size, skin.inset) + 2


def changed_cells(
    before: np.ndarray, after: np.ndarray, grid: Grid, margin: int, origin: tuple[int, int]
) -> np.ndarray:
    """Flat indices of the cells with some pixel changed within ``margin`` of their rectangle (row-major order).

    ``before`` and ``after`` are the same region of two frames, its top-left pixel at ``origin`` (x, y) of the
    frame the grid is in.  The rows of the region that changed are found first; only the rows of cells (with
    their margin) holding one are then looked at across, so a batch's few cells cost a few strips.

    >>> import numpy as np
    >>> grid = Grid(np.arange(0.0, 41.0, 10.0), np.arange(0.0, 21.0, 10.0))  # 2 x 4 cells of 10 px
    >>> a = np.zeros((20, 40, 3), np.uint8)
    >>> b = a.copy()
    >>> b[3, 25] = 7  # inside cell (0, 2)
    >>> changed_cells(a, b, grid, 0, (0, 0)).tolist(), changed_cells(a, b, grid, 5, (0, 0)).tolist()
    ([2], [2, 3])
    >>> changed_cells(a, b, grid, 8, (0, 0)).tolist()  # reaching into the row below as well
    [1, 2, 3, 5, 6, 7]
    """
    height, width = before.shape[:2]
    channels = before.shape[2] if before.ndim == 3 else 1
    # a pixel's channels side by side on one row: numpy reduces a 2-D array fast, and over a last axis of 3 slowly
    difference = cv2.absdiff(before, after).reshape(height, width * channels)
    rows = np.flatnonzero(difference.max(axis=1))
    if not len(rows):
        return np.zeros(0, dtype=np.intp)
    across = np.flatnonzero(difference.max(axis=0))
    top, bottom, left, right = int(rows[0]), int(rows[-1]) + 1, int(across[0]), int(across[-1]) + 1
    # one integral image of the box around every change answers each cell's rectangle in four look-ups
    _, changed = cv2.threshold(difference[top:bottom, left:right], 0, 1, cv2.THRESH_BINARY)
    sums = cv2.integral(changed)
    x0, y0 = origin
    ya = np.clip(np.floor(grid.ys[:-1]).astype(int) - margin - y0, top, bottom)[:, None] - top
    yb = np.clip(np.ceil(grid.ys[1:]).astype(int) + margin - y0, top, bottom)[:, None] - top
    xa = np.clip((np.floor(grid.xs[:-1]).astype(int) - margin - x0) * channels, left, right) - left
    xb = np.clip((np.ceil(grid.xs[1:]).astype(int) + margin - x0) * channels, left, right) - left
    return np.flatnonzero(sums[yb, xb] - sums[ya, xb] - sums[yb, xa] + sums[ya, xa])


@dataclass
class _Seen:
    skin: Skin
    grid: Grid
    shape: tuple[int, ...]
    origin: tuple[int, int]
    region: np.ndarray
    result: Classification


class CellMemory:
    """The last frame's board and first looks, so that the next frame on the same grid re-reads only what changed.

    One per stream of frames (a play session, a watch, a replay).  Another skin, grid or frame size starts afresh.
    """

    def __init__(self) -> None:
        self._seen: _Seen | None = None
        #: Cells read by the last call (all of them, or those that changed): what the memory saved shows here.
        self.last_read = 0

    def first_look(self, image: np.ndarray, grid: Grid, skin: Skin) -> Classification:
        """:func:`first_look` of every cell, reading only those changed since the last frame on this grid."""
        margin = reach(grid, skin)
        x0, y0, x1, y1 = grid.rect
        height, width = image.shape[:2]
        left, top = max(0, x0 - margin), max(0, y0 - margin)
        region = image[top : min(height, y1 + margin), left : min(width, x1 + margin)]
        seen = self._seen
        if (
            seen is None
            or seen.skin is not skin
            or seen.shape != image.shape
            or seen.origin != (left, top)
            or seen.grid != grid
            or seen.region.shape != region.shape
        ):
            result = first_look(image, grid, skin)
            self.last_read = grid.rows * grid.cols
        else:
            cells = changed_cells(seen.region, region, grid, margin, (left, top))
            self.last_read = len(cells)
            result = seen.result
            if len(cells):
                fresh = first_look(image, grid, skin, cells)
                labels, distance = result.labels.copy(), result.distance.copy()
                confidence, readable = result.confidence.copy(), result.readable.copy()
                labels[cells], distance[cells] = fresh.labels, fresh.distance
                confidence[cells], readable[cells] = fresh.confidence, fresh.readable
                result = Classification(labels, distance, confidence, readable)
        self._seen = _Seen(skin, grid, image.shape, (left, top), region.copy(), result)
        return result
