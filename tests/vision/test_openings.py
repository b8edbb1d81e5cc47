"""A won board whose only tile outlines are around an opening in its middle is located whole, not as the opening.

The pictures are xdemineur 2.1.1 windows under Xvfb right after autoplay won an expert game (30x16, 99 mines):
every cell opened or flagged; and one lost with a single cell left covered.  Before ``vision/openings.py`` the
lattice search found a 6x10 patch of blank cells (a 4x15 strip on the lost one) there, and a session started on
such a board stopped ("no hidden cell left, yet the game shows no win or loss", "too many mines").
"""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest

from autoplay.board.model import FLAG, HIDDEN
from autoplay.vision import load_skin, locate_grid
from autoplay.vision.decode import decode_frame

FINISHED = Path(__file__).resolve().parents[1] / "fixtures" / "xdemineur" / "finished"
#: Where every expert board of the xdemineur fixtures lies in its window (expert_flags.png, located the usual way).
EXPERT_RECT = (15, 80, 645, 416)


@pytest.mark.parametrize(
    ("name", "state"), [("expert_won.png", "won"), ("expert_won_2.png", "won"), ("expert_lost.png", "lost")]
)
def test_a_finished_board_is_located_whole_and_read_as_finished(name, state):
    skin = load_skin("xdemineur")
    image = cv2.imread(str(FINISHED / name))
    grid = locate_grid(image, skin)
    assert (grid.rows, grid.cols, grid.rect) == (16, 30, EXPERT_RECT)
    decoded = decode_frame(image, skin, None, mines=99)
    assert decoded.unreadable == []
    assert decoded.state == state
    if state == "won":
        assert decoded.board.count(FLAG) == 99 and decoded.board.count(HIDDEN) == 0


def test_a_located_board_is_not_grown_into_its_frame():
    skin = load_skin("xdemineur")
    fixtures = FINISHED.parent
    for name in ("expert_flags.png", "expert_end.png", "small_won.png"):
        grid = locate_grid(cv2.imread(str(fixtures / name)), skin)
        assert (grid.rows, grid.cols) in {(16, 30), (9, 12)}, name
