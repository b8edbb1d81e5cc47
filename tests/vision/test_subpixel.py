"""Boards drawn at a fractional pitch (a page at 110-150%): located on a sub-pixel lattice, one look per tile.

The boards are drawn eight times larger and shrunk by area, as a browser interpolates 16 px art to 20 or 21.25 px:
each cell then lies at another fraction of a pixel, which is what split one tile into hundreds of looks before.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from autoplay.vision.features import cell_image, cell_patches, crop_patch, patch_vectors
from autoplay.vision.locate import distinct_looks, locate_grid

ROWS, COLS, TILE, GAP = 16, 30, 16, 1
LABELS = ".0123F"
DIGIT_COLOURS = {"1": (255, 0, 0), "2": (0, 128, 0), "3": (0, 0, 255)}


def draw_board(scale: float, origin: tuple[float, float], seed: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """A board of random tiles at ``scale`` times 16 px art with 1 px gaps, its corner at ``origin`` (CSS px)."""
    s = 8  # drawn at 8x, then shrunk: every edge lands between pixels as a browser's would
    labels = np.random.default_rng(seed).choice(list(LABELS), size=(ROWS, COLS))
    pitch = TILE + GAP
    width, height = int((origin[0] + COLS * pitch + 20) * s), int((origin[1] + ROWS * pitch + 20) * s)
    big = np.full((height, width, 3), 230, np.uint8)
    t = TILE * s
    for (r, c), label in np.ndenumerate(labels):
        x, y = int((origin[0] + c * pitch) * s), int((origin[1] + r * pitch) * s)
        if label in ".F":
            big[y : y + t, x : x + t] = 180
            big[y : y + 2 * s, x : x + t] = big[y : y + t, x : x + 2 * s] = 255
            big[y + t - 2 * s : y + t, x : x + t] = big[y : y + t, x + t - 2 * s : x + t] = 100
            if label == "F":
                pennant = np.array([[x + 5 * s, y + 3 * s], [x + 11 * s, y + 6 * s], [x + 5 * s, y + 9 * s]])
                cv2.fillPoly(big, [pennant], (0, 0, 255))
        else:
            big[y : y + t, x : x + t] = 200
            if label in DIGIT_COLOURS:
                at = (x + 4 * s, y + 13 * s)
                cv2.putText(
                    big, label, at, cv2.FONT_HERSHEY_SIMPLEX, 0.45 * s, DIGIT_COLOURS[label], 2 * s, cv2.LINE_AA
                )
    size = (round(width * scale / s), round(height * scale / s))
    return cv2.resize(big, size, interpolation=cv2.INTER_AREA), labels


def spread_per_label(image: np.ndarray, grid, labels: np.ndarray) -> dict[str, float]:
    """The largest RMS distance of a cell from its label's median cell, per label."""
    vectors = patch_vectors(cell_patches(image, grid))
    flat = labels.ravel()
    spread = {}
    for label in LABELS:
        own = vectors[flat == label]
        spread[label] = float(np.sqrt(((own - np.median(own, axis=0)) ** 2).mean(axis=1)).max())
    return spread


@pytest.mark.parametrize("scale", [1.1, 1.25, 1.5])
@pytest.mark.parametrize("origin", [(13.0, 41.0), (13.3, 40.6)])
def test_a_scaled_board_is_located_between_pixels_and_each_tile_keeps_one_look(scale, origin):
    image, labels = draw_board(scale, origin)
    grid = locate_grid(image)
    assert (grid.rows, grid.cols) == (ROWS, COLS)
    pitch = (TILE + GAP) * scale
    assert grid.pitch == pytest.approx((pitch, pitch), abs=0.03)
    assert grid.xs[0] == pytest.approx((origin[0] - GAP / 2) * scale, abs=0.8)  # the gap is split between cells
    spread = spread_per_label(image, grid, labels)
    # Whole-pixel edges left 0.06-0.19 between two cells of one tile here; interpolation alone leaves ~0.04.
    assert max(spread.values()) < 0.06, spread
    assert distinct_looks(image, grid) <= 5 * len(LABELS)  # whole pixels: 89-159 looks of these six tiles


def test_a_cell_cut_out_as_a_template_matches_its_cell_as_the_board_samples_it():
    image, _ = draw_board(1.25, (13.3, 40.6))
    grid = locate_grid(image)
    board = patch_vectors(cell_patches(image, grid)).reshape(ROWS, COLS, -1)
    for row, col in [(0, 0), (5, 7), (15, 29), (9, 18)]:
        tile = cell_image(image, grid, row, col)
        assert tile.shape[:2] == (round(np.diff(grid.ys)[row]), round(np.diff(grid.xs)[col]))
        cut = patch_vectors(crop_patch(tile))[0]
        assert (
            np.sqrt(((cut - board[row, col]) ** 2).mean()) < 0.045
        )  # resampled twice: within a tile's own spread (0.06)


def test_a_pixel_exact_board_keeps_whole_pixel_edges():
    image, labels = draw_board(1.0, (13.0, 41.0))
    grid = locate_grid(image)
    assert np.array_equal(grid.xs, np.round(grid.xs)) and np.array_equal(grid.ys, np.round(grid.ys))
    assert max(spread_per_label(image, grid, labels).values()) < 0.01


def test_a_skin_taught_on_a_page_at_125_percent_reads_another_board_of_it_cell_for_cell(tmp_path):
    """The whole reading path at a fractional pitch: templates cut from one board (sampled between pixels, as the
    skin then says) read a board with other tiles at another sub-pixel origin, every cell right."""
    from autoplay.board.model import Board
    from autoplay.calibrate.skin_writer import SkinSettings
    from autoplay.calibrate.supervised import calibrate_supervised
    from autoplay.vision.decode import decode_frame
    from autoplay.vision.skin import load_skin

    taught, labels = draw_board(1.25, (13.3, 40.6), seed=1)
    board = Board.from_rows(["".join(row) for row in labels])
    calibrate_supervised([taught], [board], "page125", tmp_path, SkinSettings())
    skin = load_skin("page125", tmp_path)
    assert skin.subpixel
    image, truth = draw_board(1.25, (21.7, 33.1), seed=2)
    decoded = decode_frame(image, skin)
    assert decoded.grid.subpixel
    # Random tiles break the game's rules (a 0 beside a covered cell), which decoding refuses; the looks read all.
    assert set(decoded.unreadable) == set(decoded.refused)
    assert decoded.labels.tolist() == truth.tolist()
