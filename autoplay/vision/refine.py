"""Nudging a located grid by a pixel or two until the skin's templates fit best.

Location from tile outlines is good to about a pixel, and a pixel matters on
pixel-exact games (xdemineur's 20 px tiles): a grid one pixel off makes every
cell a little unlike its template and a strict skin then refuses the board.
With a skin at hand, the fit itself is the better ruler: per axis, try the
measured edges and an evenly spaced lattice, each with either end moved by a
pixel, and keep the placement whose cells sit closest to their nearest
templates.  The search stays within a pixel of what the outlines measured:
skins with several templates per label (a lighting gradient) fit almost
equally well a few pixels off, so a wider search would wander.  Each axis is judged on a band of a few rows (or columns)
across the middle of the board, which keeps the search to a few milliseconds.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import numpy as np

from autoplay.vision.classify import squared_distances
from autoplay.vision.features import cell_patches, patch_vectors
from autoplay.vision.grid import Grid
from autoplay.vision.skin import Skin

BAND = 4
#: A moved grid must cut the template distance to this fraction of the measured grid's to be taken.
CLEAR_WIN = 0.5
#: A grid whose band cells sit within this fraction of the skin's match distance is left alone.
GOOD_FIT = 0.5


def template_fit(image: np.ndarray, grid: Grid, skin: Skin) -> float:
    """Mean squared distance of every cell to its nearest template (lower is better)."""
    templates, _ = skin.template_matrix()
    vectors = patch_vectors(cell_patches(image, grid, skin.patch_size, skin.inset))
    return float(squared_distances(vectors, templates).min(axis=1).mean())


def _fit_xs(image: np.ndarray, skin: Skin, rows: np.ndarray, xs: np.ndarray) -> float:
    return template_fit(image, Grid(xs, rows), skin)


def _fit_ys(image: np.ndarray, skin: Skin, cols: np.ndarray, ys: np.ndarray) -> float:
    return template_fit(image, Grid(cols, ys), skin)


def _on_pixels(edges: np.ndarray, like: np.ndarray) -> np.ndarray:
    """``edges`` rounded to whole pixels when ``like`` (the located edges) are whole; a sub-pixel lattice (a
    scaled page, see ``locate``) stays between pixels."""
    return np.asarray(np.round(edges)) if np.array_equal(like, np.round(like)) else np.asarray(edges)


def _stretch(edges: np.ndarray, first: float, last: float) -> np.ndarray:
    """Edges with the first moved by ``first`` px, the last by ``last`` px and those between in proportion."""
    t = (edges - edges[0]) / (edges[-1] - edges[0])
    return _on_pixels(edges + first + (last - first) * t, edges)


def _valid(edges: np.ndarray, limit: int) -> bool:
    return bool(edges[0] >= 0 and edges[-1] <= limit and np.all(np.diff(edges) > 0))


def _best_edges(edges: np.ndarray, limit: int, fit: Callable[[np.ndarray], float], reach: int) -> np.ndarray:
    """The measured or evenly spaced lattice with each end moved by up to ``reach`` px, whichever fits best."""
    even = _on_pixels(np.linspace(edges[0], edges[-1], len(edges)), edges)
    moves = range(-reach, reach + 1)
    candidates = [_stretch(base, a, b) for base in (edges, even) for a in moves for b in moves]
    best = min((e for e in candidates if _valid(e, limit)), key=fit, default=edges)
    # Only a clear win counts: on smooth tiles (rounded, anti-aliased) the fit is flat within a
    # pixel, and following its noise would move a good grid as often as it fixes a bad one.
    return best if fit(best) < CLEAR_WIN * fit(edges) else edges


def _band(edges: np.ndarray) -> slice:
    """Edge indices of up to BAND cells around the middle."""
    cells = len(edges) - 1
    start = max(0, cells // 2 - BAND // 2)
    return slice(start, min(cells, start + BAND) + 1)


def refine_grid(image: np.ndarray, grid: Grid, skin: Skin, reach: int = 1) -> Grid:
    """The placement within ``reach`` px of ``grid`` (each end, each axis) that the skin's templates fit best."""
    height, width = image.shape[:2]
    xs, ys = grid.xs, grid.ys
    band = Grid(xs, ys[_band(ys)])
    if template_fit(image, band, skin) <= (GOOD_FIT * skin.max_distance) ** 2:
        return grid  # the cells already sit on their templates: nothing a pixel could improve
    for _ in range(2):  # each axis is judged on the other's current edges: settle again after a change
        rows = ys[_band(ys)]
        new_xs = _best_edges(xs, width, partial(_fit_xs, image, skin, rows), reach)
        cols = new_xs[_band(new_xs)]
        new_ys = _best_edges(ys, height, partial(_fit_ys, image, skin, cols), reach)
        if np.array_equal(new_xs, xs) and np.array_equal(new_ys, ys):
            break
        xs, ys = new_xs, new_ys
    return Grid(xs, ys)


def _fresh_spread(image: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> float:
    """Mean squared distance of every cell to the board's median cell: 0 when each cell shows the same tile."""
    vectors = patch_vectors(cell_patches(image, Grid(xs, ys)))
    return float(((vectors - np.median(vectors, axis=0)) ** 2).mean())


def refine_to_fresh(image: np.ndarray, grid: Grid, reach: int = 1) -> Grid:
    """The placement within ``reach`` px of ``grid`` on which a fresh board's cells look most alike.

    A fresh board shows one tile in every cell, so before any skin exists that tile is the template the grid
    is refined against, as :func:`refine_grid` does with a skin's.  A lattice located from outlines can put
    some lines a pixel off (its edges are rounded from measured centres); a fine stipple read a pixel off is
    another picture, and calibration would then take one covered tile for two.
    """
    height, width = image.shape[:2]
    xs, ys = grid.xs, grid.ys
    for _ in range(2):
        new_xs = _best_edges(xs, width, partial(_fresh_spread, image, ys=ys), reach)
        new_ys = _best_edges(ys, height, partial(_fresh_spread, image, new_xs), reach)
        if np.array_equal(new_xs, xs) and np.array_equal(new_ys, ys):
            break
        xs, ys = new_xs, new_ys
    return Grid(xs, ys)
