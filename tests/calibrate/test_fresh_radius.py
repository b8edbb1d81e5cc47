"""Live calibration clusters tiles with a radius the game's own fresh board measures."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from autoplay.calibrate.cluster import CLUSTER_RADIUS
from autoplay.calibrate.tilebook import MIN_RADIUS, TileBook, fresh_radius
from autoplay.vision import read_image
from autoplay.vision.features import cell_patches, patch_vectors
from autoplay.vision.locate import locate_grid

CLONE = Path(__file__).resolve().parents[1] / "fixtures" / "tk-clone"
KMINES = Path(__file__).resolve().parents[1] / "fixtures" / "kmines"


def _vectors(name: Path) -> tuple[np.ndarray, int]:
    image = read_image(name)
    grid = locate_grid(image)
    return patch_vectors(cell_patches(image, grid)), grid.cols


def test_faint_digits_of_a_pixel_exact_game_are_told_apart():
    fresh, _ = _vectors(CLONE / "look14_fresh.png")
    lost, cols = _vectors(CLONE / "look14_lost.png")
    radius = fresh_radius(fresh)
    assert radius == pytest.approx(MIN_RADIUS)
    book = TileBook(radius)
    book.assign(fresh, lambda k: np.zeros((1, 1, 3), np.uint8))
    ids = book.assign(lost, lambda k: np.zeros((1, 1, 3), np.uint8))
    one, two, empty = ids[2 * cols + 1], ids[2 * cols + 3], ids[3 * cols + 2]  # a 2, a 1 and a 0 of the opening
    assert len({one, two, empty}) == 3
    # what the fixed radius did: one cluster for all three
    merged = TileBook(CLUSTER_RADIUS)
    merged.assign(fresh, lambda k: np.zeros((1, 1, 3), np.uint8))
    ids = merged.assign(lost, lambda k: np.zeros((1, 1, 3), np.uint8))
    assert len({ids[2 * cols + 1], ids[2 * cols + 3], ids[3 * cols + 2]}) == 1


def test_a_game_drawn_over_a_picture_keeps_a_wide_radius():
    """kmines' covered tiles at 24 px differ from cell to cell: its fresh board asks for a wide radius."""
    fresh, _ = _vectors(KMINES / "tile24_fresh.png")
    assert fresh_radius(fresh) > 0.02
