"""A fresh board whose outlines missed edge lines is grown, before any skin exists, to the size the user named."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from autoplay.calibrate.live import locate_fresh
from autoplay.vision import read_image
from autoplay.vision.extend import extend_fresh_board
from autoplay.vision.grid import Grid
from autoplay.vision.locate import locate_grid

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
EXPERT = {(16, 30): 99}


def test_a_top_row_and_left_column_merged_into_the_frame_are_grown_back():
    image = read_image(FIXTURES / "tk-clone" / "look1_fresh.png")
    short = locate_grid(image)
    assert (short.rows, short.cols) == (15, 29)  # what the outlines alone find
    grid = locate_fresh(image, EXPERT)
    assert (grid.rows, grid.cols) == (16, 30)
    x0, y0, x1, y1 = grid.rect
    assert abs(x0 - 20) <= 1 and abs(y0 - 59) <= 1  # the board's own frame line, drawn at x=20, y=59
    assert (x1, y1) == short.rect[2:]


def test_kmines_fresh_board_at_24_px_is_grown_by_its_bottom_row():
    image = read_image(FIXTURES / "kmines" / "tile24_fresh.png")
    assert (locate_grid(image).rows, locate_grid(image).cols) == (15, 30)
    grid = locate_fresh(image, EXPERT)
    assert (grid.rows, grid.cols) == (16, 30)


def test_nothing_grows_without_a_size_to_grow_to():
    image = read_image(FIXTURES / "tk-clone" / "look1_fresh.png")
    assert (locate_fresh(image, {}).rows, locate_fresh(image, {}).cols) == (15, 29)
    assert (locate_fresh(image, {(9, 9): 10}).rows, locate_fresh(image, {(9, 9): 10}).cols) == (15, 29)


def test_a_margin_is_not_a_line_of_fresh_tiles():
    """sgt-mines' flat margin beside its raised covered tiles: asked for one more row or column, it stays."""
    image = read_image(FIXTURES / "sgt-mines" / "tile20_fresh.png")
    grid = locate_grid(image)
    assert (grid.rows, grid.cols) == (16, 30)
    for size in ((17, 30), (16, 31), (18, 32)):
        grown = extend_fresh_board(image, grid, [size])
        assert (grown.rows, grown.cols) == (16, 30), size


def test_a_board_that_is_not_fresh_is_not_grown():
    """Mid-game cells differ from one another: the fresh board's single tile is no test there."""
    tile = np.full((10, 10, 3), 200, np.uint8)
    tile[:, 0] = tile[0, :] = 90
    image = np.tile(tile, (4, 5, 1))
    for index in (6, 8, 12, 13, 17, 18):  # opened cells inside the located part
        r, c = divmod(index, 5)
        image[r * 10 + 1 : r * 10 + 10, c * 10 + 1 : c * 10 + 10] = 240
    short = Grid(np.arange(10.0, 51.0, 10), np.arange(10.0, 41.0, 10))
    grown = extend_fresh_board(image, short, [(4, 5)])
    assert (grown.rows, grown.cols) == (3, 4)


def test_a_lattice_a_pixel_off_on_some_lines_is_still_grown():
    """Look 17's located edges wander by a pixel; its sparse stipple then reads differently unless the grid is
    first placed where the fresh board's cells look most alike."""
    image = read_image(FIXTURES / "tk-clone" / "look17_fresh.png")
    assert (locate_grid(image).rows, locate_grid(image).cols) == (15, 30)
    grid = locate_fresh(image, EXPERT)
    assert (grid.rows, grid.cols) == (16, 30)
    assert grid.rect[3] >= image.shape[0] - 1  # the board ends at the window's bottom edge: the top row was missing


def test_a_board_at_125_percent_whose_tile_varies_by_phase_is_grown_to_its_size():
    """Firefox at 125%, look 95403: the covered tile in one look per sub-pixel phase (0.028 from the median tile at
    the median cell, up to 0.039, where a fixed 0.03 called only 61% of the board alike); calibration said the
    board was 14x30."""
    image = read_image(FIXTURES / "web-clone" / "firefox125_look95403_fresh.png")
    grid = locate_fresh(image, EXPERT)
    assert (grid.rows, grid.cols) == (16, 30)


def test_the_tile_under_the_pointer_does_not_keep_its_row_off_the_board():
    """Firefox at 125%, look 8479: the pointer rested on a bottom-row tile, drawn highlighted; the top and bottom
    rows were missed by the outlines, and the bottom one, with its one odd cell, was refused (a 14x30 board)."""
    image = read_image(FIXTURES / "web-clone" / "firefox125_look8479_fresh_hovered.png")
    grid = locate_fresh(image, EXPERT)
    assert (grid.rows, grid.cols) == (16, 30)
    assert abs(grid.rect[1] - 69) <= 1 and abs(grid.rect[3] - 469) <= 1  # rows 0 and 15 included (209-140, 609-140)
