"""A lattice found on an opening of a finished board, grown line by line to the whole board.

The lattice search finds tiles by their outlines.  Some games draw opened cells flat, with no outline but at a
blank cell's edge: on a won xdemineur board every cell is opened or flagged, and the largest lattice of outlines
is one opening in the middle (a 6x8 patch of a 16x30 board), or a strip of columns.  Read on that patch, the
board is nonsense ("26 of 48 cells match none of its templates", a contradiction, or "no hidden cell left"), and
a session started on the finished board of the last one stopped instead of starting a new game.

The cells just beyond such a patch say what it is: numbers and flags, read as confidently as any cell of the
board.  A line beyond a whole board is its frame or the window around it, which reads as no tile; so the patch is
grown one line at a time, on every side whose next line reads whole as the skin's tiles *and* shows a number, a
flag or a mine, tiles only a board shows (a margin the colour of a blank tile reads as a blank tile, never as a
"3").  A lattice of outlines can sit a pixel off the tiles, so each line is also read a pixel off, and the grid
follows the move that reads it.  A board of a size the skin knows is never grown, nor any beyond the largest it
knows.
"""

from __future__ import annotations

import numpy as np

from autoplay.vision.classify import classify
from autoplay.vision.extend import NUDGES, _grown
from autoplay.vision.features import cell_patches, patch_vectors
from autoplay.vision.grid import Grid
from autoplay.vision.refine import refine_grid
from autoplay.vision.skin import Skin

#: Tiles only a board shows (a margin or a page may look like a blank or covered tile, never like these).
MARKED = frozenset("12345678F*X")
#: Most lines added in all: more than any board's rows and columns together.
MOST_GROWTH = 256


def beyond(grid: Grid, side: str, width: int, height: int) -> tuple[Grid, Grid] | None:
    """``grid`` with one more line on ``side`` (at the neighbouring pitch), and that line alone as a grid of its
    own; None when the line would leave a ``width`` x ``height`` image.

    >>> grid = Grid(np.arange(10.0, 41.0, 10.0), np.arange(10.0, 31.0, 10.0))  # 2 rows, 3 columns of 10 px
    >>> grown, line = beyond(grid, "bottom", 100, 100)
    >>> (grown.rows, grown.cols, line.rows, line.cols, line.rect)
    (3, 3, 1, 3, (10, 30, 40, 40))
    >>> beyond(Grid(grid.xs, grid.ys - 10), "top", 100, 100) is None  # the board starts at the image's edge
    True
    """
    sides = {"top": (1, 0, 0, 0), "bottom": (0, 1, 0, 0), "left": (0, 0, 1, 0), "right": (0, 0, 0, 1)}
    grown = _grown(grid, *sides[side], width, height)
    if grown is None:
        return None
    xs, ys = grown.xs, grown.ys
    line = {"top": Grid(xs, ys[:2]), "bottom": Grid(xs, ys[-2:]), "left": Grid(xs[:2], ys), "right": Grid(xs[-2:], ys)}
    return grown, line[side]


def evenly_spaced(grid: Grid) -> Grid:
    """``grid``'s lines fitted to one pitch per axis: a patch's own wobble (lines refined on a few blank cells a
    pixel either way) would be carried into every line grown from it, some of them a pixel the wrong way.

    >>> grid = Grid(np.array([0.0, 21.0, 41.0, 63.0]), np.array([5.0, 26.0]))
    >>> evenly_spaced(grid).xs.round(1).tolist(), evenly_spaced(grid).ys.tolist()
    ([-0.0, 21.0, 42.0, 63.0], [5.0, 26.0])
    """

    def fit(lines: np.ndarray) -> np.ndarray:
        index = np.arange(len(lines))
        slope, intercept = np.polyfit(index, lines, 1)
        return np.asarray(np.round(intercept + slope * index), dtype=np.float64)  # tiles start on whole pixels

    return Grid(fit(grid.xs), fit(grid.ys))


def grow_through_openings(image: np.ndarray, grid: Grid, skin: Skin) -> Grid:
    """``grid`` grown on each side by every next line that reads whole as tiles and shows a number, flag or mine;
    ``grid`` itself (the same object) when no line does."""
    sizes = skin.mines_by_size
    if (grid.rows, grid.cols) in sizes:
        return grid
    most_rows = max((r for r, _ in sizes), default=None)
    most_cols = max((c for _, c in sizes), default=None)
    height, width = image.shape[:2]
    templates, labels = skin.template_matrix()
    limits = skin.match_limits()

    def marked_tiles(line: Grid) -> tuple[int, int] | None:
        """The pixel move (of the nudges tried) at which ``line`` reads whole and shows a tile only a board
        shows; None when none does."""
        for dx, dy in NUDGES:
            vectors = patch_vectors(cell_patches(image, line.shifted(dx, dy), skin.patch_size, skin.inset))
            result = classify(vectors, templates, labels, skin.max_distance, skin.min_confidence, limits)
            if result.readable.all() and not MARKED.isdisjoint(result.labels.tolist()):
                return dx, dy
        return None

    start, grid = grid, evenly_spaced(grid)
    refitted = grid
    for _ in range(MOST_GROWTH):
        grew = False
        for side in ("top", "bottom", "left", "right"):
            across = side in ("top", "bottom")
            most = most_rows if across else most_cols
            if most is not None and (grid.rows if across else grid.cols) >= most:
                continue
            step = beyond(grid, side, width, height)
            move = None if step is None else marked_tiles(step[1])
            if step is not None and move is not None:
                grid, grew = step[0].shifted(*move), True
        if not grew and grid is not refitted:
            # Lines grown at a pitch fitted on a patch carry its error: a fraction of a pixel a tile is a pixel
            # or more across a board's width (an xdemineur lattice of 15 columns 316 px wide, grown to 30, read its
            # next row a pixel off at one end).  Fitted again on the grown grid's own tiles, it may grow on.
            grid = refitted = evenly_spaced(refine_grid(image, grid, skin))
            continue
        if not grew:
            break
    return start if (grid.rows, grid.cols) == (start.rows, start.cols) else grid
