"""Rows or columns of tiles the outline search left out at the board's edge.

The lattice is found from tile outlines, and an edge row whose outlines merge
into the board's frame can go unseen: kmines at 24 px tiles was located a row
short on its fresh boards, and a game whose 2 px grid lines have the frame's
colour lost its top row and left column together (the frame's edge and the
tile's edge are too close for the edge detector to keep both).  A board a line
short is worse than no board: the numbers of the last row seen count mines the
solver does not know of, and "certain" moves lose.

What the game's boards measure in cells is known beforehand: a skin's
``[mines]`` table (measured at calibration, in cells whatever the tile size),
or the ``--mines ROWSxCOLS=N`` a user gives ``calibrate``.  So a located size
that is not one of them, but a line or two short of one, is checked against the
tiles themselves: the missing lines are added when every one of their cells
reads as one of the skin's tiles, as decoding reads them, or, before any skin
exists, looks exactly like the fresh board's own covered tile.  Tiles alone are
not enough: a margin around a board can read as a row of plain tiles
(sgt-mines' does), so a board of a known size is never grown, and a growth is
taken only when exactly one way of growing fits.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

import numpy as np

from autoplay.vision.features import cell_patches, patch_vectors
from autoplay.vision.grid import Grid
from autoplay.vision.skin import Skin

Cell = tuple[int, int]
#: Most lines a board may be grown by along each axis.
MOST_LINES = 2
#: RMS patch distance (0..1) under which two cells look the same (live calibration's "unchanged").
ALIKE = 0.03
#: Share of a located board's cells that must look like its commonest one for it to be a fresh board.
FRESH_SHARE = 0.9


def grow_to_size(
    image: np.ndarray, grid: Grid, sizes: Collection[tuple[int, int]], fits: Callable[[Grid, list[Cell]], bool]
) -> Grid:
    """``grid`` grown by at most ``MOST_LINES`` lines a side to a size in ``sizes``, when exactly one way fits.

    ``fits(grown, new_cells)`` says whether the cells the growth adds are tiles of this board.
    """
    known = set(sizes)
    if not known or (grid.rows, grid.cols) in known:
        return grid
    height, width = image.shape[:2]
    found = []
    for rows, cols in sorted(known):
        more_rows, more_cols = rows - grid.rows, cols - grid.cols
        if not (0 <= more_rows <= MOST_LINES and 0 <= more_cols <= MOST_LINES):
            continue
        for top in range(more_rows + 1):
            for left in range(more_cols + 1):
                grown = _grown(grid, top, more_rows - top, left, more_cols - left, width, height)
                if grown is None:
                    continue
                inside = range(top, top + grid.rows), range(left, left + grid.cols)
                new = [(r, c) for r in range(rows) for c in range(cols) if r not in inside[0] or c not in inside[1]]
                if fits(grown, new):
                    found.append(grown)
    return found[0] if len(found) == 1 else grid  # two ways that fit: the tiles do not say which


def extend_to_tiles(image: np.ndarray, grid: Grid, skin: Skin) -> Grid:
    """``grid``, or ``grid`` with the lines of tiles that make it a board size the skin knows."""

    def reads_as_tiles(grown: Grid, new: list[Cell]) -> bool:
        """Does every new cell read as one of the skin's tiles (any look decoding takes: shifted, at another size)?"""
        from autoplay.vision.decode import decode_frame  # decode locates through this module when given no grid

        unread = set(decode_frame(image, skin, grown).unreadable)
        return not unread.intersection(new)

    return grow_to_size(image, grid, skin.mines_by_size, reads_as_tiles)


def extend_fresh_board(image: np.ndarray, grid: Grid, sizes: Collection[tuple[int, int]]) -> Grid:
    """``grid`` grown to one of ``sizes`` on a fresh board, where every cell shows the same covered tile.

    Before a skin exists (live calibration locates its fresh board with nothing but the size the user gave),
    the one tile a fresh board shows is the test: the new cells must look like it, and the separators between
    the board's columns (rows) must run on through a new row (column) as strongly as through the board's own.
    The second test is what keeps a plain margin out: sgt-mines' margin has the colour of its covered tile's
    face, and only the tile's outline tells them apart.

    >>> import numpy as np
    >>> tile = np.full((10, 10, 3), 200, np.uint8); tile[:, 0] = tile[0, :] = 90
    >>> image = np.tile(tile, (4, 5, 1))
    >>> short = Grid(np.arange(10.0, 51.0, 10), np.arange(10.0, 41.0, 10))  # the top row, left column missed
    >>> grown = extend_fresh_board(image, short, [(4, 5)])
    >>> (grown.rows, grown.cols, grown.rect)
    (4, 5, (0, 0, 50, 40))
    """

    gray = (image if image.ndim == 2 else image.mean(axis=2)).astype(np.float64)

    def looks_fresh(grown: Grid, new: list[Cell]) -> bool:
        vectors = patch_vectors(cell_patches(image, grown))
        added = np.zeros(grown.rows * grown.cols, bool)
        added[[r * grown.cols + c for r, c in new]] = True
        reference = np.median(vectors[~added], axis=0)
        distance = np.sqrt(((vectors - reference) ** 2).mean(axis=1))
        fresh = np.mean(distance[~added] < ALIKE) >= FRESH_SHARE
        if not (fresh and np.all(distance[added] < ALIKE)):
            return False
        new_rows = [r for r in range(grown.rows) if added[r * grown.cols : (r + 1) * grown.cols].all()]
        new_cols = [c for c in range(grown.cols) if added[c :: grown.cols].all()]
        old_rows = [r for r in range(grown.rows) if r not in new_rows]
        old_cols = [c for c in range(grown.cols) if c not in new_cols]
        rows_go_on = all(_separators_continue(gray, grown.ys, grown.xs, line, old_rows, old_cols) for line in new_rows)
        return rows_go_on and all(
            _separators_continue(gray.T, grown.xs, grown.ys, line, old_cols, old_rows) for line in new_cols
        )

    return grow_to_size(image, grid, sizes, looks_fresh)


def _separators_continue(
    gray: np.ndarray, across: np.ndarray, along: np.ndarray, line: int, old_lines: list[int], old_others: list[int]
) -> bool:
    """Do the separators between the board's cells run through new row ``line`` as through its nearest old row?

    ``across`` are the row edges, ``along`` the column edges (pass the transposed image and swapped edges for a
    column).  A separator's strength is the largest mean step across it within two pixels of the edge.
    """
    nearest = min(old_lines, key=lambda r: abs(r - line))

    def strength(row: int) -> float:
        top, bottom = int(round(across[row])), int(round(across[row + 1]))
        steps = []
        for k in old_others[1:]:
            x = int(round(along[k]))
            if 2 < x < gray.shape[1] - 2:
                steps.append(
                    max(np.abs(gray[top:bottom, x + d] - gray[top:bottom, x + d - 1]).mean() for d in range(-2, 3))
                )
        return float(np.median(steps)) if steps else 0.0

    own = strength(nearest)
    return own > 0 and strength(line) >= 0.5 * own


def _grown(grid: Grid, top: int, bottom: int, left: int, right: int, width: int, height: int) -> Grid | None:
    """``grid`` with whole cells added on each side at the neighbouring pitch, or None when they leave the image."""
    xs, ys = grid.xs, grid.ys
    xs = np.concatenate([xs[0] - (xs[1] - xs[0]) * np.arange(left, 0, -1), xs])
    xs = np.concatenate([xs, xs[-1] + (xs[-1] - xs[-2]) * np.arange(1, right + 1)])
    ys = np.concatenate([ys[0] - (ys[1] - ys[0]) * np.arange(top, 0, -1), ys])
    ys = np.concatenate([ys, ys[-1] + (ys[-1] - ys[-2]) * np.arange(1, bottom + 1)])
    if xs[0] < -0.5 or ys[0] < -0.5 or xs[-1] > width + 0.5 or ys[-1] > height + 0.5:
        return None
    return Grid(xs, ys)
