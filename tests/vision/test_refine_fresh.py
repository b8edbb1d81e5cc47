"""Before any skin exists, a fresh board's grid is refined against its own covered tile."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from autoplay.calibrate.live import locate_fresh
from autoplay.vision import read_image
from autoplay.vision.features import cell_patches, patch_vectors
from autoplay.vision.locate import locate_grid

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def _spread(image: np.ndarray, grid) -> float:
    vectors = patch_vectors(cell_patches(image, grid))
    return float(np.sqrt(((vectors - np.median(vectors, axis=0)) ** 2).mean(axis=1)).max())


def test_a_stippled_fresh_board_is_read_on_a_regular_lattice():
    """Look 17's located edges wander by a pixel (32, 32, 33...), so its sparse stipple read as two pictures and
    calibration took the covered tile for two; refined against the fresh board's own tile, every cell is alike."""
    image = read_image(FIXTURES / "tk-clone" / "look17_fresh.png")
    located = locate_grid(image)
    assert len(set(np.diff(located.ys))) > 1  # what the outlines give
    grid = locate_fresh(image, {(16, 30): 99})
    assert set(np.diff(grid.ys)) == {32.0} and set(np.diff(grid.xs)) == {32.0}
    assert _spread(image, grid) < 0.01 < _spread(image, located)


def test_a_board_already_read_alike_keeps_its_edges():
    image = read_image(FIXTURES / "tk-clone" / "look1_fresh.png")
    grid = locate_fresh(image, {(16, 30): 99})
    assert grid.rect == (20, 59, 620, 379) or abs(grid.rect[0] - 20) <= 1
    assert set(np.diff(grid.xs)) == {20.0}
