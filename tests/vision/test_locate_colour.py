"""Boards that brightness edges do not show whole are found in the colour channels or in the unthinned steps.

Look 5 and 6: grid lines that differ from the tiles in hue, not in brightness.  Look 11: 2 px lines between
tiles of one brightness, of which Canny keeps only one side.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from autoplay.calibrate.live import locate_fresh
from autoplay.vision import read_image
from autoplay.vision.locate import locate_grid, tile_candidates

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


@pytest.mark.parametrize("name", ["look5_fresh", "look6_fresh", "look11_fresh"])
def test_no_board_shows_in_brightness_alone(name):
    image = read_image(FIXTURES / "tk-clone" / f"{name}.png")
    centres, _ = tile_candidates(image)
    assert len(centres) < 30  # why the other passes exist


@pytest.mark.parametrize(("name", "pitch"), [("look5_fresh", 35.0), ("look6_fresh", 34.0), ("look11_fresh", 30.0)])
def test_the_colour_channels_find_the_board(name, pitch):
    image = read_image(FIXTURES / "tk-clone" / f"{name}.png")
    grid = locate_fresh(image, {(16, 30): 99})
    assert (grid.rows, grid.cols) == (16, 30)
    assert grid.pitch == pytest.approx((pitch, pitch), abs=0.2)


def test_boards_found_in_brightness_are_found_as_before():
    """The colour pass runs only when brightness finds no board: a game found before keeps its pixels."""
    image = read_image(FIXTURES / "tk-clone" / "look1_fresh.png")
    grid = locate_grid(image)
    assert (grid.rows, grid.cols, grid.rect) == (15, 29, (40, 79, 620, 379))
