"""A loss that uncovers the whole board (xbomb): its mines found by counting, on a real xbomb end board."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from autoplay.board.model import Board
from autoplay.calibrate.tilebook import TileBook
from autoplay.calibrate.uncovered import uncovered_mines
from autoplay.vision import read_image
from autoplay.vision.features import cell_patches, patch_vectors
from autoplay.vision.grid import Grid

XBOMB = Path(__file__).resolve().parents[1] / "fixtures" / "xbomb"
GRID = Grid(4.0 + 20 * np.arange(31), 27.0 + 20 * np.arange(17))  # tile20: lines from x=4, y=27, pitch 20


def clusters(image: np.ndarray) -> np.ndarray:
    """Cluster ids of every cell by looks alone, as live calibration groups them."""

    def crop(i: int) -> np.ndarray:
        x0, y0, x1, y1 = GRID.cell_rect(*divmod(i, 30))
        return np.ascontiguousarray(image[y0:y1, x0:x1])

    return TileBook().assign(patch_vectors(cell_patches(image, GRID)), crop)


def test_the_mines_of_an_uncovered_board_are_found_by_counting():
    before = Board.from_text((XBOMB / "tile20_mid2.txt").read_text())  # the same game before the losing click
    end = Board.from_text((XBOMB / "tile20_lost.txt").read_text())
    ids = clusters(read_image(XBOMB / "tile20_lost.png"))
    covered = np.array([c == "." for c in before.cells])
    flagged = np.array([c == "F" for c in before.cells])
    target = end.cells.index("X")
    mines = uncovered_mines(covered, covered, ids, target, flagged, 99, (16, 30))
    assert mines is not None
    assert np.array_equal(mines, covered & np.array([c == "*" for c in end.cells]))  # every mine, nothing else


def test_a_loss_that_leaves_covered_cells_is_the_usual_kind():
    """kmines and gnome-mines show the mines and leave the rest covered: no counting, every new tile a mine."""
    before = Board.from_text((XBOMB / "tile20_mid2.txt").read_text())
    ids = clusters(read_image(XBOMB / "tile20_lost.png"))
    covered = np.array([c == "." for c in before.cells])
    newly = covered.copy()
    newly[np.flatnonzero(covered)[:10]] = False  # ten covered cells that did not change
    target = Board.from_text((XBOMB / "tile20_lost.txt").read_text()).cells.index("X")
    assert uncovered_mines(covered, newly, ids, target, np.zeros(480, bool), 99, (16, 30)) is None
    # without the mine count nothing is counted either
    assert uncovered_mines(covered, covered, ids, target, np.zeros(480, bool), None, (16, 30)) is None
