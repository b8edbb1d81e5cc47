"""A skin taught at 100% reads the page at 125% and 150% where the tiles' edges are drawn otherwise.

Real frames of ``benchmarks/web_clone.py`` looks whose covered tile has a CSS border or a bevel: at a fractional
device scale the border is drawn a device pixel wider or narrower depending on where the tile falls, so no cell
of the fresh board came near the covered tile taught at 100% and ``play`` stopped at once with exit 3.  The
size-forgiving reading looks again at the middle of each cell (``autoplay.vision.rescaled``): every cell is read,
and none wrong.  The skins are those ``calibrate --live`` made at 100% (tests/fixtures/web-clone/README.md).
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

import autoplay.vision.rescaled as rescaled
import autoplay.vision.retry as retry
from autoplay.board.textformat import read_board
from autoplay.errors import UnreadableBoardError
from autoplay.vision import decode_frame, load_skin, read_image
from autoplay.vision.among import read_among

from .conftest import FIXTURES

WEB = FIXTURES / "web-clone"
TAUGHT = WEB / "taught-100"
FRESH = [
    ("firefox125_look95403_fresh.png", "web-95403"),  # a 2 px CSS border drawn 2 or 3 px wide
    ("chromium150_look95403_fresh.png", "web-95403"),
    ("firefox125_look28999_fresh.png", "web-28999"),  # a 3 px bevel drawn 3 or 4 px wide
]


def unread_without_the_middle_look(image: np.ndarray, skin, monkeypatch: pytest.MonkeyPatch) -> int:
    """How many cells the size-forgiving reading leaves unread when it compares whole cells only."""
    monkeypatch.setattr(rescaled, "CENTRE_INSET", 0.0)
    retry._CACHES.pop(skin, None)
    try:
        return len(decode_frame(image, skin).unreadable)
    except UnreadableBoardError:
        return 480
    finally:
        retry._CACHES.pop(skin, None)


@pytest.mark.parametrize(("frame", "name"), FRESH)
def test_a_skin_taught_at_100_reads_every_covered_cell_of_a_fresh_board_at_another_scale(frame, name, monkeypatch):
    skin = load_skin(name, TAUGHT)
    image = read_image(WEB / frame)
    decoded = decode_frame(image, skin)
    assert (decoded.board.rows, decoded.board.cols) == (16, 30)
    assert len(decoded.unreadable) == 0 and decoded.board.is_fresh
    assert unread_without_the_middle_look(image, skin, monkeypatch) > 400  # the whole-cell look alone reads few


def test_a_game_in_progress_reads_right_and_leaves_only_numbers_never_taught_unread(monkeypatch):
    """Firefox at 150%, look 11147, in the middle of a game: its numbers, flags and covers at 1.5 times the size
    taught; the 4, 5 and 6 the skin never saw stay unread."""
    skin = load_skin("web-11147", TAUGHT)
    image = read_image(WEB / "firefox150_look11147_mid.png")
    truth = read_board(WEB / "firefox150_look11147_mid.txt")
    decoded = decode_frame(image, skin)
    assert (decoded.board.rows, decoded.board.cols) == (truth.rows, truth.cols)
    unread = decoded.unreadable_mask.ravel()
    wrong = [
        i for i, (a, b) in enumerate(zip(decoded.board.cells, truth.cells, strict=True)) if a != b and not unread[i]
    ]
    assert wrong == []
    assert {truth.cells[i] for i in np.flatnonzero(unread)} <= set("456")
    assert unread_without_the_middle_look(image, skin, monkeypatch) > unread.sum()


def test_numbers_never_taught_read_as_numbers_among_a_last_guess_s_outcomes():
    """A last guess's cell can show its number or a mine.  The 4, 5 and 6 of the game in progress are numbers this
    skin never saw: the numbers it knows stand in for them, so each reads as its number, not as a mine; and the
    exploded mine taught at 100%, drawn in the page at 150%, still reads as a mine against a number never seen."""
    skin = load_skin("web-11147", TAUGHT)
    image = read_image(WEB / "firefox150_look11147_mid.png")
    truth = read_board(WEB / "firefox150_look11147_mid.txt")
    decoded = decode_frame(image, skin)
    unread = [tuple(map(int, rc)) for rc in decoded.unreadable]
    assert unread and all(truth[rc] in "456" for rc in unread)
    assert [decoded.read_among(rc, {"won": truth[rc], "lost": "*X"}) for rc in unread] == ["won"] * len(unread)

    exploded = skin.templates["X"][0]
    pitch = float(np.mean(decoded.grid.pitch))
    big = cv2.resize(exploded, (round(pitch), round(pitch)), interpolation=cv2.INTER_LINEAR)
    row, col = unread[0]
    shown = image.copy()
    x, y = (int(round(v)) for v in (decoded.grid.xs[col], decoded.grid.ys[row]))
    shown[y : y + big.shape[0], x : x + big.shape[1]] = big
    assert read_among(shown, decoded.grid, skin, (row, col), {"won": "7", "lost": "*X"}) == "lost"
