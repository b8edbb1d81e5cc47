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
(sgt-mines' does), so a board of a known size is never grown.

Where the lines went missing is the tiles' to say, not the outline's: opened
cells in about the window's own colour (a board opened along its top edge)
leave no outline, and the margin beyond the other edge may read as the same
plain tile, a little less like it.  So when several ways of growing fit, each
is judged by its worst new line (how far its cells sit from the tiles they were
read as), and the best is taken when it is clearly the best (its worst line
nearer by ``ALIKE`` than any other way's); ways that look alike leave the board
as located.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

import numpy as np

from autoplay.vision.classify import squared_distances
from autoplay.vision.features import cell_patches, patch_vectors
from autoplay.vision.grid import Grid
from autoplay.vision.skin import Skin

Cell = tuple[int, int]
#: How a growth is judged: given the grown grid and the cells it adds, each added cell's RMS distance (0..1, in the
#: order given) to what it was read as, or None when some added cell is not a tile of this board.
Fits = Callable[[Grid, list[Cell]], np.ndarray | None]
#: Most lines a board may be grown by along each axis.
MOST_LINES = 2
#: RMS patch distance (0..1) under which two cells look the same (live calibration's "unchanged").
ALIKE = 0.03
#: Share of a located board's cells that must look like its commonest one for it to be a fresh board.
FRESH_SHARE = 0.9
#: Whole-pixel moves of a grown grid over which :func:`nearest_tile` takes each cell's best match.
NUDGES = tuple((dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1))


def grow_to_size(image: np.ndarray, grid: Grid, sizes: Collection[tuple[int, int]], fits: Fits) -> Grid:
    """``grid`` grown by at most ``MOST_LINES`` lines a side to a size in ``sizes``: the way of growing whose new
    lines are most clearly tiles of the board (see the module's doc), or ``grid`` when none is.  A lattice up to
    ``MOST_LINES`` lines a side larger than a known size (a page's line of text just above the board, drawn at the
    tiles' pitch) is cut back the same way: to the window of that size whose every line is most clearly tiles.

    ``fits(grown, new_cells)`` says how far each cell the growth adds is from a tile of this board (None: not one).
    """
    known = set(sizes)
    if not known or (grid.rows, grid.cols) in known:
        return grid
    height, width = image.shape[:2]
    found: list[tuple[float, Grid]] = []
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
                distances = fits(grown, new)
                if distances is not None:
                    found.append((worst_new_line(new, distances, inside), grown))
    for rows, cols in sorted(known):  # a lattice that ran on into the page around the board: cut it back
        fewer_rows, fewer_cols = grid.rows - rows, grid.cols - cols
        if not (0 <= fewer_rows <= MOST_LINES and 0 <= fewer_cols <= MOST_LINES):
            continue
        for top in range(fewer_rows + 1):
            for left in range(fewer_cols + 1):
                window = Grid(grid.xs[left : left + cols + 1], grid.ys[top : top + rows + 1])
                cells = [(r, c) for r in range(rows) for c in range(cols)]
                distances = fits(window, cells)
                if distances is not None:  # every line of the window counts: none is the old board's for sure
                    found.append((worst_new_line(cells, distances, (range(0), range(0))), window))
    return clearly_best(found) or grid


def worst_new_line(new: list[Cell], distances: np.ndarray, inside: tuple[range, range]) -> float:
    """The largest RMS distance over the whole rows and columns a growth adds (``inside``: the old rows, columns).

    A line, not a cell, is the unit: a margin misread as tiles is a whole line a little unlike them, and a
    mean over every new cell would let a good line on one side hide a poor one on the other.

    >>> new = [(0, 0), (0, 1), (3, 0), (3, 1)]  # a row added above rows 1-2, and one below
    >>> round(worst_new_line(new, np.array([0.0, 0.0, 0.04, 0.02]), (range(1, 3), range(0, 2))), 4)
    0.0316
    """
    lines: dict[tuple[str, int], list[float]] = {}
    for (r, c), d in zip(new, distances.tolist(), strict=True):
        if r not in inside[0]:
            lines.setdefault(("row", r), []).append(d)
        if c not in inside[1]:
            lines.setdefault(("col", c), []).append(d)
    return max(float(np.sqrt(np.mean(np.square(line)))) for line in lines.values())


def clearly_best(scored: list[tuple[float, Grid]]) -> Grid | None:
    """The lowest-scored grid when no other comes within ``ALIKE`` of it; the only one when alone; else None."""
    ranked = sorted(scored, key=lambda pair: pair[0])
    if not ranked:
        return None
    if len(ranked) > 1 and ranked[1][0] - ranked[0][0] < ALIKE:
        return None  # two ways that fit about as well: the tiles do not say which
    return ranked[0][1]


def extend_to_tiles(image: np.ndarray, grid: Grid, skin: Skin) -> Grid:
    """``grid``, or ``grid`` with the lines of tiles that make it a board size the skin knows."""

    def reads_as_tiles(grown: Grid, new: list[Cell]) -> np.ndarray | None:
        """How near each new cell is to the tile it reads as (any look decoding takes: shifted, at another size);
        None when one of them reads as none."""
        from autoplay.vision.decode import decode_frame  # decode locates through this module when given no grid

        decoded = decode_frame(image, skin, grown)
        if set(decoded.unreadable).intersection(new) or decoded.distance is None:
            return None
        rows, cols = (np.array(axis) for axis in zip(*new, strict=True))
        read = np.asarray(decoded.distance[rows, cols], dtype=np.float64)
        return np.asarray(np.minimum(read, nearest_tile(image, grown, skin)[rows * grown.cols + cols]))

    return grow_to_size(image, grid, skin.mines_by_size, reads_as_tiles)


def nearest_tile(image: np.ndarray, grid: Grid, skin: Skin) -> np.ndarray:
    """Each cell's RMS distance (flat, row-major) to the skin's nearest template, the grid moved by up to a pixel.

    Lines added to a located lattice are placed at its pitch, which can put them a pixel off the tiles (a pitch
    that alternates 28 and 27 px, rounded edges): a real row of tiles then reads a little unlike its templates,
    about as unlike as a margin, unless the pixel is forgiven.  A margin is flat, so no pixel makes it nearer.
    """
    templates, _ = skin.template_matrix()
    best = np.full(grid.rows * grid.cols, np.inf)
    for dx, dy in NUDGES:
        vectors = patch_vectors(cell_patches(image, grid.shifted(dx, dy), skin.patch_size, skin.inset))
        best = np.minimum(best, squared_distances(vectors, templates).min(axis=1))
    return np.asarray(np.sqrt(best), dtype=np.float64)


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

    def looks_fresh(grown: Grid, new: list[Cell]) -> np.ndarray | None:
        """Each new cell's distance to the fresh board's tile, when every one shows it and the separators go on."""
        vectors = patch_vectors(cell_patches(image, grown))
        flat = [r * grown.cols + c for r, c in new]
        added = np.zeros(grown.rows * grown.cols, bool)
        added[flat] = True
        if added.all():  # a window cut from a larger lattice: every cell of it must show the one covered tile
            distance = np.sqrt(((vectors - np.median(vectors, axis=0)) ** 2).mean(axis=1))
            return np.asarray(distance, dtype=np.float64) if np.all(distance < ALIKE) else None
        reference = np.median(vectors[~added], axis=0)
        distance = np.sqrt(((vectors - reference) ** 2).mean(axis=1))
        alike = phase_spread(distance[~added])
        fresh = np.mean(distance[~added] < alike) >= FRESH_SHARE
        new_rows = [r for r in range(grown.rows) if added[r * grown.cols : (r + 1) * grown.cols].all()]
        new_cols = [c for c in range(grown.cols) if added[c :: grown.cols].all()]
        odd = (distance >= alike).reshape(grown.rows, grown.cols)
        # One odd cell in a new line is forgiven: the tile under the pointer, highlighted (Firefox 125%, look 8479,
        # its bottom row); a margin or a header taken for a line of tiles is unlike the tile all along.
        if not fresh or any(odd[r].sum() > 1 for r in new_rows) or any(odd[:, c].sum() > 1 for c in new_cols):
            return None
        old_rows = [r for r in range(grown.rows) if r not in new_rows]
        old_cols = [c for c in range(grown.cols) if c not in new_cols]
        rows_go_on = all(_separators_continue(gray, grown.ys, grown.xs, line, old_rows, old_cols) for line in new_rows)
        cols_go_on = all(
            _separators_continue(gray.T, grown.xs, grown.ys, line, old_cols, old_rows) for line in new_cols
        )
        return np.asarray(distance[flat], dtype=np.float64) if rows_go_on and cols_go_on else None

    return grow_to_size(image, grid, sizes, looks_fresh)


def phase_spread(distances: np.ndarray) -> float:
    """How far from the fresh tile a cell of this board may look and still be it: ``ALIKE``, or more on a board
    whose own cells vary (a page at 125% draws its covered tile in one look per sub-pixel phase: Firefox, look
    95403, 0.028 from the median tile at the median cell, up to 0.039), twice their 90th percentile, at most
    ``2 * ALIKE`` (a margin or a header lies 0.3 and more away).

    >>> phase_spread(np.zeros(480)), phase_spread(np.full(480, 0.02)), phase_spread(np.full(480, 0.2))
    (0.03, 0.04, 0.06)
    """
    return float(np.clip(2 * np.percentile(distances, 90), ALIKE, 2 * ALIKE)) if len(distances) else ALIKE


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
