"""A tile the skin has never seen stays unreadable: with a measured tile radius no limit reaches half-way to
the next tile.

The frame is look 14 of ``benchmarks/tk_clone.py`` (19 px, faint digits in one grey) in play; its skin is the one
live calibration and ``play --learn`` made (0–5, no 6).  The 6 at (5,23) lies 0.02 from the learnt 5, inside
the skin's limit of 0.04: read as 5, it cost a game on a move called certain.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from autoplay.board.model import Board
from autoplay.vision import decode_frame, load_skin, read_image
from autoplay.vision.grid import Grid
from autoplay.vision.skin import Skin

TK = Path(__file__).resolve().parents[1] / "fixtures" / "tk-clone"
SIX = (5, 23)


@pytest.fixture(scope="module")
def look14():
    frame = read_image(TK / "look14_six.png")
    grid = Grid.from_dict(json.loads((TK / "look14_six_grid.json").read_text()))
    truth = Board.from_text((TK / "look14_six_layout.txt").read_text())
    return frame, grid, truth, load_skin("look-14", TK / "look14-skin")


def test_without_a_measured_radius_the_unseen_six_passes_as_the_five(look14):
    frame, grid, truth, skin = look14
    assert truth[SIX] == "6" and skin.tile_radius is None
    assert decode_frame(frame, skin, grid, 99).board[SIX] == "5"


def test_with_the_radius_live_calibration_measured_the_six_is_unreadable_and_the_rest_reads_right(look14):
    frame, grid, truth, skin = look14
    measured = replace(skin, tile_radius=0.01)  # look 14 draws pixel-exact: its fresh board's radius
    decoded = decode_frame(frame, measured, grid, 99)
    assert SIX in decoded.unreadable
    for index, cell in enumerate(decoded.board.cells):
        rc = divmod(index, truth.cols)
        if rc in decoded.unreadable or cell in ".F":
            continue
        assert cell == truth.cells[index], rc


def test_a_limit_stays_at_least_the_measured_radius_and_never_grows():
    far = np.full((4, 4, 3), 200, np.uint8)
    near = far.copy()
    near[1, 1] = 190
    skin = Skin("two", templates={"1": [far], "2": [near]}, max_distance=0.04, tile_radius=0.03)
    limits = skin.match_limits()
    assert limits["1"] == limits["2"] == pytest.approx(0.03)  # the tiles are nearer than 0.06 apart
    assert replace(skin, tile_radius=None).match_limits() == {}  # unmeasured: the skin's own limits
    wide = replace(skin, tile_radius=0.5)
    assert wide.match_limits()["1"] == pytest.approx(0.04)  # never above the skin's own limit
