"""A board located a line short of a size the skin knows gets its missing line when that line reads as tiles."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from autoplay.vision import load_skin, read_image
from autoplay.vision.locate import locate_grid

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
KMINES_LIVE = FIXTURES / "kmines" / "learn" / "skin"  # made by calibrate --live at 31 px; knows 16x30 boards


@pytest.mark.parametrize("name", ["tile24_fresh", "tile24_mid2", "tile24_lost", "tile31_fresh", "tile31_lost"])
def test_kmines_at_24_px_is_located_whole_with_a_skin_made_at_31(name):
    """Its outlines leave the bottom row out on fresh 24 px boards (15x30 once, and certain moves lost)."""
    grid = locate_grid(read_image(FIXTURES / "kmines" / f"{name}.png"), load_skin("kmines-live", KMINES_LIVE))
    assert (grid.rows, grid.cols) == (16, 30)


def test_a_board_is_not_grown_without_a_known_size():
    skin = dataclasses.replace(load_skin("kmines-live", KMINES_LIVE), mines_by_size={})
    grid = locate_grid(read_image(FIXTURES / "kmines" / "tile24_fresh.png"), skin)
    assert (grid.rows, grid.cols) == (15, 30)  # what the outlines alone find


def test_a_margin_that_reads_as_plain_tiles_does_not_grow_a_board_of_a_known_size():
    """sgt-mines' margin around its board reads as a row of tiles: a board of a size the skin knows stays."""
    skin = load_skin("sgt-live", FIXTURES / "sgt-mines" / "skin")
    for name in ("tile20_fresh", "tile20_won", "tile28_fresh", "expert_lost_20px"):
        grid = locate_grid(read_image(FIXTURES / "sgt-mines" / f"{name}.png"), skin)
        assert (grid.rows, grid.cols) == (16, 30), name
