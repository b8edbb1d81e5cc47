"""A board located at a size its skin does not know, with no mine count, is a misreading and is never played."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from autoplay.errors import UnreadableBoardError
from autoplay.play.live import vision_decoder
from autoplay.vision.skin import load_skin

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def test_part_of_a_board_with_no_mine_count_is_refused_and_the_whole_board_is_read():
    skin = load_skin("gnome-mines")
    frame = cv2.imread(str(FIXTURES / "gnome-mines" / "expert_five.png"))
    decode = vision_decoder(skin, None)
    whole = decode(frame, None)
    assert (whole.board.rows, whole.board.cols) == (16, 30) and whole.board.mines == 99
    grid = whole.grid
    # The left third of the board only: gnome-mines' "flags/total" counter sits below the board's right half.
    # Followed by the window's own margin (no counter in it), so that nothing but its size tells it is a part.
    x10, x30 = int(round(grid.xs[10])), int(round(grid.xs[30]))
    part = np.ascontiguousarray(np.hstack([frame[:, :x10], frame[:, x30 : x30 + 40]]))
    with pytest.raises(UnreadableBoardError, match=r"located as 16x10 cells with no mine count.*16x30"):
        decode(part, None)
    # Told the mine count, the user takes responsibility for the size: it is read.
    assert vision_decoder(skin, 30)(part, None).board.cols == 10
    # Cut by the picture's edge, at a size the skin does not know, it is out of view whatever the count.
    cut = frame[:, : x10 + 2].copy()
    for mines in (None, 30):
        with pytest.raises(UnreadableBoardError, match=r"runs off the right edge.*scroll the page, zoom out"):
            vision_decoder(skin, mines)(cut, None)
