"""Cell patches: a tile reads the same wherever it lies on the board, and as the template cut from it."""

from __future__ import annotations

import numpy as np
import pytest

from autoplay.vision.features import cell_patches, crop_patch, shrink_factor
from autoplay.vision.grid import Grid


@pytest.mark.parametrize("pitch", [20, 31, 33, 51, 77])
def test_a_tile_reads_as_its_own_crop_at_every_offset(pitch):
    """A sharp tile (a one-pixel checker, the worst case for pairing pixels) tiled over a board with a border of
    odd width: every cell, at even and odd offsets alike, gives exactly the patch of the tile cut on its own.
    Halving the whole board first, as the sampler once did, paired the pixels of odd cells differently."""
    rng = np.random.default_rng(pitch)
    tile = rng.integers(0, 256, (pitch, pitch, 3), dtype=np.uint8)
    tile[::2, ::2] = 255
    tile[1::2, 1::2] = 0
    rows, cols, left, top = 3, 4, 7, 5
    image = np.zeros((top + rows * pitch + 9, left + cols * pitch + 9, 3), np.uint8)
    for r in range(rows):
        for c in range(cols):
            image[top + r * pitch : top + (r + 1) * pitch, left + c * pitch : left + (c + 1) * pitch] = tile
    grid = Grid(left + pitch * np.arange(cols + 1.0), top + pitch * np.arange(rows + 1.0))
    if pitch >= 31:
        assert shrink_factor(grid) > 1  # the averaged case is the one at stake
    patches = cell_patches(image, grid)
    own = crop_patch(tile)
    for r in range(rows):
        for c in range(cols):
            assert np.abs(patches[r, c].astype(int) - own).max() <= 1, (r, c)
