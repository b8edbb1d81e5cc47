"""Reading only the cells that changed: the same decode as reading every cell, bit for bit."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from autoplay.vision import decode_frame, load_skin, read_image
from autoplay.vision.cell_memory import CellMemory, changed_cells, first_look, reach
from autoplay.vision.classify import pixel_distances
from autoplay.vision.features import cell_patches, shrink_factor, some_cell_patches
from autoplay.vision.grid import Grid

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
#: A board of each shipped skin: whole-pixel tiles of 16-24 px (xdemineur, win7) and gnome-mines' larger ones.
BOARDS = [
    ("xdemineur", "xdemineur/expert_mid3.png"),
    ("gnome-mines", "gnome-mines/expert_dense_78.png"),
    ("win7", "win7/w7_mine3.png"),
]


def moved_tiles(image: np.ndarray, grid: Grid, pairs: list[tuple[int, int]]) -> np.ndarray:
    """``image`` with the pixels of each cell ``b`` of ``pairs`` copied onto cell ``a``: what a move changes."""
    out = image.copy()
    for a, b in pairs:
        ax0, ay0, ax1, ay1 = grid.cell_rect(*divmod(a, grid.cols))
        bx0, by0, _, _ = grid.cell_rect(*divmod(b, grid.cols))
        out[ay0:ay1, ax0:ax1] = image[by0 : by0 + ay1 - ay0, bx0 : bx0 + ax1 - ax0]
    return out


@pytest.mark.parametrize(("skin_name", "name"), BOARDS)
def test_a_frame_read_with_the_memory_of_the_last_reads_exactly_as_read_whole(skin_name, name):
    skin = load_skin(skin_name)
    before = read_image(FIXTURES / name)
    grid = decode_frame(before, skin).grid
    labels = decode_frame(before, skin, grid).labels.ravel()
    rng = np.random.default_rng(7)
    memory = CellMemory()
    frame = before
    for step in range(4):  # a few moves in a row, each copying some tiles over tiles of another look
        cells = rng.permutation(grid.rows * grid.cols)
        pairs = [
            (a, b) for a, b in zip(cells[::2].tolist(), cells[1::2].tolist(), strict=True) if labels[a] != labels[b]
        ]
        after = moved_tiles(frame, grid, pairs[: step + 1])
        decode_frame(frame, skin, grid, memory=memory)
        remembered = decode_frame(after, skin, grid, memory=memory)
        whole = decode_frame(after, skin, grid)
        assert remembered.reads_as(whole) and remembered.board == whole.board
        # only the copied-over cells and the neighbours their margin reaches were matched again
        assert 0 < memory.last_read <= 9 * (step + 1)
        frame = after
    decode_frame(frame, skin, grid, memory=memory)
    assert memory.last_read == 0  # the same frame again: nothing to read


def test_another_grid_or_frame_size_reads_every_cell():
    skin = load_skin("xdemineur")
    image = read_image(FIXTURES / "xdemineur/expert_mid3.png")
    grid = decode_frame(image, skin).grid
    memory = CellMemory()
    memory.first_look(image, grid, skin)
    memory.first_look(image, grid.shifted(1, 0), skin)
    assert memory.last_read == grid.rows * grid.cols
    memory.first_look(np.ascontiguousarray(image[:-1]), grid, skin)
    assert memory.last_read == grid.rows * grid.cols


@pytest.mark.parametrize("pitch", [16.0, 21.25, 77.0])  # plain, sub-pixel (a page at 125%), a wide averaging box
def test_some_cells_are_sampled_exactly_as_with_the_whole_board(pitch):
    image = np.random.default_rng(3).integers(0, 256, (int(6 * pitch) + 10, int(9 * pitch) + 10, 3), dtype=np.uint8)
    grid = Grid(np.arange(10) * pitch + 3.4 * (pitch % 1 > 0) + 2, np.arange(7) * pitch + 4)
    whole = cell_patches(image, grid).reshape(grid.rows * grid.cols, 12, 12, 3)
    cells = np.array([0, 5, 17, grid.rows * grid.cols - 1])
    assert np.array_equal(some_cell_patches(image, grid, cells), whole[cells])
    if pitch == 77.0:
        assert shrink_factor(grid) > 1


def test_exact_distances_of_a_row_do_not_depend_on_the_rows_beside_it():
    rng = np.random.default_rng(5)
    rows = rng.integers(0, 256, (480, 432), dtype=np.uint8)
    templates = rng.integers(0, 256, (31, 432), dtype=np.uint8)
    whole = pixel_distances(rows, templates)
    some = [3, 200, 479]
    assert np.array_equal(pixel_distances(rows[some], templates), whole[some])
    exact = ((rows[3].astype(np.int64) - templates[0].astype(np.int64)) ** 2).sum() / (432 * 255**2)
    assert whole[3, 0] == exact


def test_a_change_counts_for_every_cell_whose_margin_reaches_it():
    skin = load_skin("xdemineur")
    image = read_image(FIXTURES / "xdemineur/expert_mid3.png")
    grid = decode_frame(image, skin).grid
    margin = reach(grid, skin)
    _, y0, x1, _ = grid.cell_rect(5, 5)
    after = image.copy()
    after[y0 + 3, x1 - 1] += 1  # one channel of one pixel at the cell's right edge, off by one
    left, top = grid.rect[0] - margin, grid.rect[1] - margin
    region = (slice(top, grid.rect[3] + margin), slice(left, grid.rect[2] + margin))
    changed = changed_cells(image[region], after[region], grid, margin, (left, top)).tolist()
    assert changed == [5 * grid.cols + 5, 5 * grid.cols + 6]  # itself, and the cell to its right
    whole = first_look(after, grid, skin)
    memory = CellMemory()
    memory.first_look(image, grid, skin)
    again = memory.first_look(after, grid, skin)
    assert memory.last_read == 2 and np.array_equal(again.distance, whole.distance)
