"""The portable screen's check before each batch, on real gnome-mines screenshots (no X server needed).

Capture is replaced by a list of saved frames: the frame the decision was made
on, then what the screen shows when the batch is about to be clicked.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from autoplay.play import portable
from autoplay.play.portable import BoardChangedError, PortableScreen, ScreenArea, area_around, same_board, shifted
from autoplay.vision import load_skin, locate_grid, read_image

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "gnome-mines"


@pytest.fixture(scope="module")
def skin():
    return load_skin("gnome-mines")


def screen_showing(monkeypatch, skin, decided_on: np.ndarray, then: np.ndarray) -> PortableScreen:
    frames = [decided_on, then]
    monkeypatch.setattr(portable, "grab", lambda rect, display: frames.pop(0))
    height, width = decided_on.shape[:2]
    screen = PortableScreen(ScreenArea(0, 0, width, height), ":0", locate_grid(decided_on, skin), skin)
    screen.grab()
    return screen


def test_unchanged_board_and_a_late_redraw_pass(monkeypatch, skin):
    fresh = read_image(FIXTURES / "expert_open.png")
    screen_showing(monkeypatch, skin, fresh, fresh.copy()).check()
    later = read_image(FIXTURES / "expert_end.png")  # other tiles, same board in the same place
    screen_showing(monkeypatch, skin, fresh, later).check()


def test_a_moved_or_covered_board_stops_before_the_batch(monkeypatch, skin):
    frame = read_image(FIXTURES / "expert_open.png")
    moved = np.roll(frame, (40, 56), axis=(0, 1))
    with pytest.raises(BoardChangedError, match="moved"):
        screen_showing(monkeypatch, skin, frame, moved).check()
    covered = frame.copy()
    x0, y0, x1, y1 = locate_grid(frame, skin).rect
    covered[(y0 + y1) // 2 : (y0 + y1) // 2 + 60, (x0 + x1) // 2 : (x0 + x1) // 2 + 80] = 0
    with pytest.raises(BoardChangedError, match="covers the board"):
        screen_showing(monkeypatch, skin, frame, covered).check()
    blank = np.full_like(frame, 200)
    with pytest.raises(BoardChangedError, match="no longer on the screen"):
        screen_showing(monkeypatch, skin, frame, blank).check()


def test_area_around_the_board_keeps_three_cells_of_margin_inside_the_screen(skin):
    grid = locate_grid(read_image(FIXTURES / "expert_open.png"), skin)
    area = area_around(shifted(grid, 500, 400), (2000, 1200))
    px, py = grid.pitch
    x0, y0, x1, y1 = shifted(grid, 500, 400).rect
    assert (area.width, area.height) == (int(x1 + 3 * px) - area.x, int(y1 + 3 * py) - area.y)
    assert area.x == int(x0 - 3 * px) and area.y == int(y0 - 3 * py)
    corner = shifted(grid, 5 - grid.rect[0], 5 - grid.rect[1])  # the board 5 px from the screen's corner
    clipped = area_around(corner, (corner.rect[2] + 10, corner.rect[3] + 10))
    assert clipped.rect == (0, 0, corner.rect[2] + 10, corner.rect[3] + 10)
    assert same_board(shifted(grid, 2, -2), grid) and not same_board(shifted(grid, 12, 0), grid)
