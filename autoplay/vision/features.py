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
    xs_arr = np.frombuffer(xs, dtype=np.float64)
    ys_arr = np.frombuffer(ys, dtype=np.float64)
    sx = _axis_samples(xs_arr - xs_arr[0], size, inset, offset)
    sy = _axis_samples(ys_arr - ys_arr[0], size, inset, offset)
    map_x = np.ascontiguousarray(np.broadcast_to(sx[None, :], (len(sy), len(sx))))
    map_y = np.ascontiguousarray(np.broadcast_to(sy[:, None], (len(sy), len(sx))))
    return cv2.convertMaps(map_x, map_y, cv2.CV_16SC2)


def shrink_factor(grid: Grid, size: int = DEFAULT_SIZE, inset: float = DEFAULT_INSET) -> int:
    """How wide (a power of two, in pixels) the box is that :func:`cell_patches` averages before sampling.

    It doubles while two or more of its widths fit in one sample's spacing: thin strokes (digits, flag
    poles) then count by their area instead of by whether a sample happens to hit them.
    """
    per_sample = min(np.diff(grid.xs).min(), np.diff(grid.ys).min()) * (1 - 2 * inset) / size
    factor = 1
    while per_sample >= 2 * factor:
        factor *= 2
    return factor


def cell_patches(image: np.ndarray, grid: Grid, size: int = DEFAULT_SIZE, inset: float = DEFAULT_INSET) -> np.ndarray:
    """A (rows, cols, size, size, 3) uint8 array: each cell resampled to ``size`` x ``size`` BGR."""
    x0, y0, x1, y1 = grid.rect
    board = image[max(0, y0) : y1, max(0, x0) : x1]
    factor = shrink_factor(grid, size, inset)
    if factor > 1:  # an even box: its mean is centred between the pixel it is stored at and the one before
        board = cv2.blur(board, (factor, factor), borderType=cv2.BORDER_REPLICATE)
    offset = 0.0 if factor > 1 else -0.5
    map1, map2 = _sampling_maps(grid.xs.tobytes(), grid.ys.tobytes(), size, float(inset), offset)
    sampled = cv2.remap(board, map1, map2, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    if sampled.ndim == 2:
        sampled = cv2.cvtColor(sampled, cv2.COLOR_GRAY2BGR)
    return sampled.reshape(grid.rows, size, grid.cols, size, 3).transpose(0, 2, 1, 3, 4)


def patch_vectors(patches: np.ndarray) -> np.ndarray:
    """Flatten patches (any leading shape) into float32 rows scaled to 0..1 for distance maths."""
    size = patches.shape[-3] * patches.shape[-2] * patches.shape[-1]
    return patches.reshape(-1, size).astype(np.float32) * np.float32(1 / 255)


def crop_patch(crop: np.ndarray, size: int = DEFAULT_SIZE, inset: float = DEFAULT_INSET) -> np.ndarray:
    """The patch of a single cell image (a template file), sampled exactly as cells on a board are."""
    h, w = crop.shape[:2]
    patch: np.ndarray = cell_patches(crop, Grid(np.array([0.0, w]), np.array([0.0, h])), size, inset)[0, 0]
    return patch
