"""Turn every cell of a grid into a small fixed-size colour patch in one pass.

Cells are resampled with one ``cv2.remap`` over the whole board instead of a
Python loop of crops and resizes: an expert board is 480 cells and the loop
alone would eat the 5 ms budget.  Averaging each pixel with its neighbours
first (a box as wide as about one sample) keeps thin strokes (digits, grid
lines) from aliasing away.  The box is centred on every pixel, so a cell reads
the same wherever it lies on the board: halving the board instead (as this did
once) paired the pixels of a cell at an odd offset differently from those of a
template cut on its own, and kmines' flags (31 px tiles) at odd columns then
matched no template of theirs, pixel-identical as they were.
The border of each cell (``inset``) is skipped so that grid lines and a pixel
of misplaced edge do not change the patch.
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from autoplay.vision.grid import Grid

DEFAULT_SIZE = 12
DEFAULT_INSET = 0.1


def _axis_samples(edges: np.ndarray, per_cell: int, inset: float, offset: float) -> np.ndarray:
    """Pixel coordinates of ``per_cell`` evenly spaced points in each cell (``offset``: where a pixel's value is
    centred, -0.5 for a plain pixel, 0 for the mean of an even box ending at it)."""
    lo, hi = edges[:-1, None], edges[1:, None]
    frac = inset + (1 - 2 * inset) * (np.arange(per_cell) + 0.5) / per_cell
    continuous = lo + (hi - lo) * frac[None, :]
    return np.asarray(continuous.ravel() + offset, dtype=np.float32)


@lru_cache(maxsize=32)
def _sampling_maps(xs: bytes, ys: bytes, size: int, inset: float, offset: float) -> tuple[np.ndarray, np.ndarray]:
    """Remap tables for edges given relative to the board crop's first pixel (so a sub-pixel origin is kept)."""
    sx = _axis_samples(np.frombuffer(xs, dtype=np.float64), size, inset, offset)
    sy = _axis_samples(np.frombuffer(ys, dtype=np.float64), size, inset, offset)
    map_x = np.ascontiguousarray(np.broadcast_to(sx[None, :], (len(sy), len(sx))))
    map_y = np.ascontiguousarray(np.broadcast_to(sy[:, None], (len(sy), len(sx))))
    return cv2.convertMaps(map_x, map_y, cv2.CV_16SC2)


def shrink_factor(grid: Grid, size: int = DEFAULT_SIZE, inset: float = DEFAULT_INSET) -> int:
    """How wide (in pixels) the box is that :func:`cell_patches` averages before sampling.

    It doubles while two or more of its widths fit in one sample's spacing: thin strokes (digits, flag
    poles) then count by their area instead of by whether a sample happens to hit them.

    On a sub-pixel grid (a board drawn at a fractional pitch, see ``locate``) every cell lies at another fraction
    of a pixel, and a sharp edge point-sampled there moves from one sample to the next as the fraction changes:
    one tile would show a different patch in every column.  There the box is odd and about two samples wide, so
    each sample is an average over its own neighbourhood and half a pixel of phase hardly changes it (measured on
    a page at 125%: a covered tile's cells from 0.06-0.08 RMS apart to 0.03).
    """
    per_sample = min(np.diff(grid.xs).min(), np.diff(grid.ys).min()) * (1 - 2 * inset) / size
    if grid.subpixel:
        return 2 * int(per_sample) + 1
    factor = 1
    while per_sample >= 2 * factor:
        factor *= 2
    return factor


def cell_patches(
    image: np.ndarray, grid: Grid, size: int = DEFAULT_SIZE, inset: float = DEFAULT_INSET, box: int | None = None
) -> np.ndarray:
    """A (rows, cols, size, size, 3) uint8 array: each cell resampled to ``size`` x ``size`` BGR.

    ``box`` replaces :func:`shrink_factor`'s choice (to compare two placements of one board alike).
    """
    board, map1, map2 = _board_and_maps(image, grid, size, inset, box)
    sampled = _bgr(cv2.remap(board, map1, map2, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE))
    return sampled.reshape(grid.rows, size, grid.cols, size, 3).transpose(0, 2, 1, 3, 4)


def some_cell_patches(
    image: np.ndarray, grid: Grid, cells: np.ndarray, size: int = DEFAULT_SIZE, inset: float = DEFAULT_INSET
) -> np.ndarray:
    """An (n, size, size, 3) uint8 array: the patches of the flat cell indices ``cells`` alone.

    Each is exactly its :func:`cell_patches` patch, pixel for pixel: the same averaged board is sampled at the same
    points (the whole board's sampling tables, cut down to these cells), and a sample is the same sum of the same
    four pixels whichever other samples are taken with it.  Re-reading a few changed cells costs a few cells.

    >>> import numpy as np
    >>> image = np.random.default_rng(1).integers(0, 256, (40, 60, 3), dtype=np.uint8)
    >>> grid = Grid(np.arange(0.0, 61.0, 20.0), np.arange(0.0, 41.0, 20.0))
    >>> whole = cell_patches(image, grid).reshape(-1, 12, 12, 3)
    >>> bool((some_cell_patches(image, grid, np.array([4, 1])) == whole[[4, 1]]).all())
    True
    """
    board, map1, map2 = _board_and_maps(image, grid, size, inset, None)
    rows, cols = np.divmod(np.asarray(cells, dtype=np.intp), grid.cols)

    def per_cell(table: np.ndarray) -> np.ndarray:
        cut = table.reshape(grid.rows, size, grid.cols, size, *table.shape[2:])[rows, :, cols]
        return np.ascontiguousarray(cut.reshape(len(rows) * size, size, *table.shape[2:]))

    sampled = _bgr(cv2.remap(board, per_cell(map1), per_cell(map2), cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE))
    return sampled.reshape(len(rows), size, size, 3)


def _board_and_maps(
    image: np.ndarray, grid: Grid, size: int, inset: float, box: int | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The board's crop, averaged over the sampling box, and the remap tables that sample every cell of it."""
    x0, y0, x1, y1 = grid.rect
    left, top = max(0, x0), max(0, y0)
    board = image[top:y1, left:x1]
    factor = shrink_factor(grid, size, inset) if box is None else box
    if factor > 1:  # an even box's mean is centred between the pixel it is stored at and the one before
        board = cv2.blur(board, (factor, factor), borderType=cv2.BORDER_REPLICATE)
    offset = 0.0 if factor % 2 == 0 else -0.5  # an odd box (or none) is centred on its pixel
    map1, map2 = _sampling_maps((grid.xs - left).tobytes(), (grid.ys - top).tobytes(), size, float(inset), offset)
    return board, map1, map2


def _bgr(sampled: np.ndarray) -> np.ndarray:
    """Colour samples of a grey board as BGR (templates are always colour)."""
    return cv2.cvtColor(sampled, cv2.COLOR_GRAY2BGR) if sampled.ndim == 2 else sampled


def patch_vectors(patches: np.ndarray) -> np.ndarray:
    """Flatten patches (any leading shape) into float32 rows scaled to 0..1 for distance maths."""
    size = patches.shape[-3] * patches.shape[-2] * patches.shape[-1]
    return patches.reshape(-1, size).astype(np.float32) * np.float32(1 / 255)


def cell_image(image: np.ndarray, grid: Grid, row: int, col: int) -> np.ndarray:
    """The picture of one cell as a tile of whole pixels: what a template file of it holds.

    On a grid of whole-pixel edges this is the plain crop.  On a sub-pixel grid (a page scaled to 125%) the cell is
    resampled so that the tile's own edges are the cell's, as :func:`cell_patches` sees it: a template cut from the
    rounded rectangle would sit up to half a pixel off its cell and never match it as well as the cell next to it.

    >>> import numpy as np
    >>> image = np.tile(np.arange(0, 200, 20, dtype=np.uint8), (4, 1))  # columns 0, 20, 40, ...
    >>> cell_image(image, Grid(np.array([2.0, 5.0]), np.array([1.0, 3.0])), 0, 0).tolist()
    [[40, 60, 80], [40, 60, 80]]
    >>> cell_image(image, Grid(np.array([2.5, 5.5]), np.array([1.0, 3.0])), 0, 0).tolist()  # half a pixel on
    [[50, 70, 90], [50, 70, 90]]
    """
    x0, y0, x1, y1 = grid.cell_rect(row, col)
    left, right, top, bottom = grid.xs[col], grid.xs[col + 1], grid.ys[row], grid.ys[row + 1]
    if (left, right, top, bottom) == (x0, x1, y0, y1):
        return np.ascontiguousarray(image[y0:y1, x0:x1])
    width, height = max(1, round(right - left)), max(1, round(bottom - top))
    sx, sy = (right - left) / width, (bottom - top) / height
    # The board's own average over each sample (shrink_factor) is taken first, around the cell only, so that the
    # tile's plain samples are the board's averaged ones.
    box = shrink_factor(grid)
    margin = box + 2
    ax, ay = max(0, x0 - margin), max(0, y0 - margin)
    near = image[ay : y1 + margin, ax : x1 + margin]
    near = cv2.blur(near, (box, box), borderType=cv2.BORDER_REPLICATE) if box > 1 else near
    # Output pixel i covers [i, i+1) of the tile, whose centre is at left + (i + 0.5) * sx on the image.
    shift = 0.0 if box % 2 == 0 else 0.5
    to_image = np.array([[sx, 0.0, left - ax + 0.5 * sx - shift], [0.0, sy, top - ay + 0.5 * sy - shift]])
    flags = cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
    return cv2.warpAffine(near, to_image, (width, height), flags=flags, borderMode=cv2.BORDER_REPLICATE)


def crop_patch(crop: np.ndarray, size: int = DEFAULT_SIZE, inset: float = DEFAULT_INSET) -> np.ndarray:
    """The patch of a single cell image (a template file), sampled exactly as cells on a board are."""
    h, w = crop.shape[:2]
    patch: np.ndarray = cell_patches(crop, Grid(np.array([0.0, w]), np.array([0.0, h])), size, inset)[0, 0]
    return patch
