"""A lattice that ran on past the board into the page (text drawn at the tiles' pitch) is cut back to a known size."""

from __future__ import annotations

import numpy as np

from autoplay.vision.extend import extend_fresh_board
from autoplay.vision.grid import Grid


def _page(rows: int, cols: int, extra_top: int) -> tuple[np.ndarray, Grid]:
    """A fresh board of ``rows`` x ``cols`` 20 px tiles under ``extra_top`` rows of the page's own text."""
    tile = np.full((20, 20, 3), 190, np.uint8)
    tile[:, 0] = tile[0, :] = 60
    board = np.tile(tile, (rows, cols, 1))
    rng = np.random.default_rng(3)
    text = rng.choice(np.array([40, 230], np.uint8), size=(20 * extra_top, 20 * cols, 3))
    image = np.concatenate([text, board])
    lattice = Grid(np.arange(0.0, 20 * cols + 1, 20), np.arange(0.0, 20 * (rows + extra_top) + 1, 20))
    return image, lattice


def test_a_fresh_board_is_cut_to_the_rows_of_tiles():
    """Web clone look 32168 at 100%: live calibration located 18x30 over a 16x30 board, its "Mines: 99" line and
    its caption taken for rows of tiles, and named nothing."""
    image, lattice = _page(5, 6, extra_top=2)
    cut = extend_fresh_board(image, lattice, [(5, 6)])
    assert (cut.rows, cut.cols, cut.rect) == (5, 6, (0, 40, 120, 140))


def test_a_lattice_of_the_known_size_is_left_alone():
    image, lattice = _page(5, 6, extra_top=2)
    assert extend_fresh_board(image, lattice, [(7, 6)]) is lattice
