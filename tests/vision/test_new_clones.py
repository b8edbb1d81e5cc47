"""A skin made by live calibration alone reads real sgt-mines frames: shifted grids, another tile size."""

from __future__ import annotations

from pathlib import Path

import pytest

from autoplay.board.textformat import read_board
from autoplay.vision import decode_frame, load_skin, locate_grid, read_image

SGT = Path(__file__).resolve().parents[1] / "fixtures" / "sgt-mines"


@pytest.fixture(scope="module")
def skin():
    return load_skin("sgt-live", SGT / "skin")


def test_live_skin_reads_a_lost_expert_board_exactly(skin):
    decoded = decode_frame(read_image(SGT / "expert_lost_20px.png"), skin)
    assert decoded.readable, decoded.unreadable
    assert decoded.board.row_strings() == read_board(SGT / "expert_lost_20px.txt").row_strings()


@pytest.mark.parametrize("dx,dy", [(1, 0), (0, -1), (1, 1), (-2, -2), (2, -1)])
def test_a_grid_off_by_one_or_two_pixels_reads_the_same(skin, dx, dy):
    """A grid that starts 2 px before the tiles (edge cells include the frame) or 1 px after them still reads."""
    image = read_image(SGT / "expert_lost_20px.png")
    grid = locate_grid(image, skin).shifted(dx, dy)
    decoded = decode_frame(image, skin, grid)
    assert decoded.readable, decoded.unreadable
    assert decoded.board.row_strings() == read_board(SGT / "expert_lost_20px.txt").row_strings()


def test_a_skin_calibrated_at_20px_reads_a_32px_board(skin):
    """Tiles drawn at another size (digits in another font size): every cell read, every cell right."""
    decoded = decode_frame(read_image(SGT / "intermediate_32px.png"), skin)
    assert (decoded.grid.rows, decoded.grid.cols) == (16, 16)
    assert decoded.readable, decoded.unreadable
    assert decoded.board.row_strings() == read_board(SGT / "intermediate_32px.txt").row_strings()
