"""A board is placed by its tiles, not its outline: edge rows opened in about the window's colour keep their place.

Issue 32, item 5: a desktop game whose top rows were opened, in the window's own colour, was located without them
and the grid went where the margin read as tiles too (2 rows low, cells unreadable, boards unread).  The picture
here is a real gnome-mines screenshot (``expert_five``) changed as that game looked: its top two rows opened (0s,
cut from the same screenshot), the row under them numbers, the last row 1s (so a grid grown downwards into the
margin breaks no rule of the game), and the window's background repainted a grey a little lighter than the opened
cells (the game's own is 244, its opened cells 220).
"""

from __future__ import annotations

import numpy as np
import pytest

from autoplay.board.textformat import read_board
from autoplay.vision import decode_frame, load_skin, locate_grid, read_image
from autoplay.vision.extend import ALIKE, grow_to_size
from autoplay.vision.grid import Grid
from autoplay.vision.skin import Skin

from .conftest import FIXTURES, REPO

SOURCE = FIXTURES / "gnome-mines" / "expert_five"
#: gnome-mines' opened cell (BGR) and where its window's title bar ends.
OPENED = np.array([220, 222, 222], np.int16)
TITLE_BAR = 52
#: For each changed row, where a cell of each label it needs sits on the same row of the real screenshot.
SOURCES = {
    0: {"0": (0, 2)},
    1: {"0": (1, 2)},
    2: {"0": (2, 2), "1": (2, 3), "2": (2, 1)},
    15: {"1": (2, 3)},
}


@pytest.fixture(scope="module")
def skin() -> Skin:
    return load_skin("gnome-mines", REPO)


def top_rows_opened(skin: Skin, window: int) -> tuple[np.ndarray, list[str], Grid]:
    """The changed screenshot with its window background at grey ``window``, its label rows and the true grid."""
    image = read_image(SOURCE.with_suffix(".png"))
    grid = locate_grid(image, skin)  # the untouched screenshot is located exactly (test_decode)
    rows = [list(row) for row in read_board(SOURCE.with_suffix(".txt")).row_strings()]
    rows[0] = rows[1] = ["0"] * 30
    rows[2] = list("110001") + ["1"] * 22 + ["2", "1"]
    rows[15] = ["1"] * 30
    out = image.copy()
    for r, sources in SOURCES.items():
        for c in range(30):
            x0, y0, _, _ = grid.cell_rect(*sources[rows[r][c]])
            X0, Y0, X1, Y1 = grid.cell_rect(r, c)
            out[Y0:Y1, X0:X1] = image[y0 : y0 + Y1 - Y0, x0 : x0 + X1 - X0]
    pixels = out.astype(np.int16)
    lit = np.all(pixels >= OPENED - 1, axis=2)  # the background, and the anti-aliasing between it and the grey
    lit[:TITLE_BAR] = False
    pixels[lit] = np.clip(pixels[lit] - (244 - window), OPENED, 255)
    return pixels.astype(np.uint8), ["".join(row) for row in rows], grid


@pytest.mark.parametrize("window", [244, 240, 232])
def test_top_rows_opened_in_the_windows_colour_keep_their_place(skin: Skin, window: int) -> None:
    """Growing up and growing down both read as tiles; the tiles decide.

    244 (the game's own grey): the outlines show every row.  240: they miss the last row, and a row of margin above
    the board reads as 0s nearly as well as the real row reads as 1s where the pitch puts it (15 rows were located).
    232: they miss both opened rows (14 rows were located).
    """
    image, truth, grid = top_rows_opened(skin, window)
    decoded = decode_frame(image, skin)
    assert (decoded.grid.rows, decoded.grid.cols) == (16, 30)
    assert abs(decoded.grid.ys[0] - grid.ys[0]) <= 1 and abs(decoded.grid.ys[-1] - grid.ys[-1]) <= 1
    assert decoded.unreadable == []
    assert decoded.board.row_strings() == truth


def _fits_by_side(distances: dict[tuple[int, int], float]):
    """A fake judge for :func:`grow_to_size`: every new cell at the distance given for (rows added on top, left)."""

    def fits(grown: Grid, new: list[tuple[int, int]]) -> np.ndarray | None:
        key = (int(round((20 - grown.ys[0]) / 10)), int(round((20 - grown.xs[0]) / 10)))
        return None if key not in distances else np.full(len(new), distances[key])

    return fits


def test_the_way_of_growing_is_taken_only_when_its_tiles_clearly_fit_best() -> None:
    image = np.zeros((100, 100, 3), np.uint8)
    short = Grid(np.arange(20.0, 71.0, 10), np.arange(20.0, 61.0, 10))  # 4x5 of a known 6x7, room all round
    top_left = Grid(np.arange(0.0, 71.0, 10), np.arange(0.0, 61.0, 10))
    clear = _fits_by_side({(2, 2): 0.0, (0, 0): ALIKE + 0.01, (1, 1): ALIKE + 0.01})
    assert grow_to_size(image, short, [(6, 7)], clear) == top_left
    alike = _fits_by_side({(2, 2): 0.0, (0, 0): ALIKE - 0.01})
    assert grow_to_size(image, short, [(6, 7)], alike) == short  # the tiles do not say which: left as located
    assert grow_to_size(image, short, [(6, 7)], _fits_by_side({(1, 0): 0.02})).rect == (20, 10, 90, 70)
    assert grow_to_size(image, short, [(6, 7)], _fits_by_side({})) == short
