"""A skin that has learnt some tiles at a second size still reads the others there by the size-forgiving look."""

from __future__ import annotations

import shutil
from pathlib import Path

from autoplay.board.model import Board
from autoplay.calibrate.learn import LearnedTile
from autoplay.calibrate.learned_templates import add_learned
from autoplay.vision import decode_frame, load_skin, read_image

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
KMINES = FIXTURES / "kmines"


def test_a_tile_learnt_at_the_new_size_does_not_turn_the_second_look_off(tmp_path):
    """xbomb: after `play --learn` added its 1 and 2 at 32 px to a 20 px skin, the next board matched nothing,
    covered tiles included: the second look was kept only for boards off the size of every template."""
    home = tmp_path / "skin"
    shutil.copytree(KMINES / "learn" / "skin", home)  # made at 31 px
    frame = read_image(KMINES / "tile24_mid2.png")
    truth = Board.from_text((KMINES / "tile24_mid2.txt").read_text())
    before = decode_frame(frame, load_skin("kmines-live", home), None, 99)
    one = next(rc for rc in truth.coords() if truth[rc] == "1" and rc not in set(before.unreadable))
    x0, y0, x1, y1 = before.grid.cell_rect(*one)
    add_learned(home, "kmines-live", [LearnedTile("1", (one,), frame[y0:y1, x0:x1].copy())], game=1, end="won")
    after = decode_frame(frame, load_skin("kmines-live", home), None, 99)
    assert len(after.unreadable) <= len(before.unreadable)
    read = [rc for rc in truth.coords() if rc not in set(after.unreadable)]
    assert all(after.board[rc] == truth[rc] for rc in read)
