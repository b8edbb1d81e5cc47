"""A row or column of tiles the outline search left out at the board's edge.

The lattice is found from tile outlines, and an edge row whose outlines merge
into the board's frame can go unseen: kmines at 24 px tiles was located a row
short on its fresh boards.  A board one row short is worse than no board: the
numbers of the last row seen count mines the solver does not know of, and
"certain" moves lose.  The skin knows the sizes its game's boards come in (its
``[mines]`` table, measured at calibration, in cells whatever the tile size),
so a located size it does not know, one line short of one it does, is checked
against the tiles themselves: the missing line is added when every one of its
cells reads as one of the skin's tiles, as decoding reads them.  Tiles alone are not
enough: a margin around a board can read as a row of plain tiles (sgt-mines'
does), so a board of a known size is never grown.
"""

from __future__ import annotations

import numpy as np

from autoplay.vision.grid import Grid
from autoplay.vision.skin import Skin

SIDES = ("top", "bottom", "left", "right")


def extend_to_tiles(image: np.ndarray, grid: Grid, skin: Skin) -> Grid:
    """``grid``, or ``grid`` with the one line of tiles that makes it a board size the skin knows."""
    known = set(skin.mines_by_size)
    if not known or (grid.rows, grid.cols) in known:
        return grid
    height, width = image.shape[:2]
    fits = []
    for side in SIDES:
        wider = _with_line(grid, side, width, height)
        if wider is not None and (wider.rows, wider.cols) in known and _reads_as_tiles(image, wider, side, skin):
            fits.append(wider)
    return fits[0] if len(fits) == 1 else grid  # two sides that fit: the tiles do not say which


def _with_line(grid: Grid, side: str, width: int, height: int) -> Grid | None:
    """``grid`` with one more line of cells on ``side`` (the neighbouring pitch), or None off the image."""
    xs, ys = grid.xs, grid.ys
    if side == "top":
        ys = np.concatenate([[ys[0] - (ys[1] - ys[0])], ys])
    elif side == "bottom":
        ys = np.concatenate([ys, [ys[-1] + (ys[-1] - ys[-2])]])
    elif side == "left":
        xs = np.concatenate([[xs[0] - (xs[1] - xs[0])], xs])
    else:
        xs = np.concatenate([xs, [xs[-1] + (xs[-1] - xs[-2])]])
    if xs[0] < 0 or ys[0] < 0 or xs[-1] > width or ys[-1] > height:
        return None
    return Grid(xs, ys)


def _reads_as_tiles(image: np.ndarray, grid: Grid, side: str, skin: Skin) -> bool:
    """Does the new line on ``side`` of ``grid`` read, cell by cell, as the skin's tiles (any look decoding takes:
    shifted, at another size)?"""
    from autoplay.vision.decode import decode_frame  # decode locates through this module when given no grid

    unread = decode_frame(image, skin, grid).unreadable
    line = {"top": 0, "bottom": grid.rows - 1, "left": 0, "right": grid.cols - 1}[side]
    on_line = [(r, c) for r, c in unread if (r if side in ("top", "bottom") else c) == line]
    return not on_line
