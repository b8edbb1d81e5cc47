"""One skin, the same game at another tile size: every cell read right, and a tile never seen still unreadable.

Real frames at two sizes of two games (sgt-mines 20 px → 28 and 32 px, kmines 31 → 24 px), and the shipped
xdemineur and Windows 7 skins on their screenshots scaled as a HiDPI screen draws them.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from autoplay.board.textformat import read_board
from autoplay.calibrate.supervised import calibrate_supervised
from autoplay.vision import decode_frame, load_skin, read_image
from autoplay.vision.rescaled import off_scale

from .conftest import FIXTURES

SGT = FIXTURES / "sgt-mines"
KMINES = FIXTURES / "kmines"
XBOMB = FIXTURES / "xbomb"


def wrong_and_unread(image: np.ndarray, skin, truth_path: Path) -> tuple[list[int], list[str]]:
    """Cells read as something else than the truth, and the true labels of the cells left unreadable."""
    truth = read_board(truth_path)
    decoded = decode_frame(image, skin)
    assert (decoded.board.rows, decoded.board.cols) == (truth.rows, truth.cols)
    unread = decoded.unreadable_mask.ravel()
    wrong = [
        i for i, (a, b) in enumerate(zip(decoded.board.cells, truth.cells, strict=True)) if a != b and not unread[i]
    ]
    return wrong, sorted({truth.cells[i] for i in np.flatnonzero(unread)})


@pytest.fixture(scope="module")
def sgt_skin():
    return load_skin("sgt-live", SGT / "skin")


@pytest.mark.parametrize("name", ["intermediate_32px", "tile28_fresh", "tile28_mid", "tile28_lost"])
def test_a_20px_live_skin_reads_every_cell_of_larger_boards(sgt_skin, name: str) -> None:
    image = read_image(SGT / f"{name}.png")
    assert off_scale(decode_frame(image, sgt_skin).grid, sgt_skin)
    assert wrong_and_unread(image, sgt_skin, SGT / f"{name}.txt") == ([], [])


def test_a_tile_never_calibrated_stays_unreadable_at_another_size(sgt_skin) -> None:
    """The 20 px skin knows 1-3 only: the 4 on a 28 px board is left unread, never taken for a 1."""
    wrong, unread = wrong_and_unread(read_image(SGT / "tile28_mid_four.png"), sgt_skin, SGT / "tile28_mid_four.txt")
    assert (wrong, unread) == ([], ["4"])


@pytest.fixture(scope="module")
def kmines_31px(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("skins")
    names = ["tile31_fresh", "tile31_mid", "tile31_mid2", "tile31_lost"]
    images = [read_image(KMINES / f"{n}.png") for n in names]
    calibrate_supervised(images, [read_board(KMINES / f"{n}.txt") for n in names], "km31", root)
    return load_skin("km31", root)


def test_a_31px_kmines_skin_reads_a_24px_lost_board(kmines_31px) -> None:
    """kmines' translucent tiles over a texture, every mine shown: all 480 cells right at 24 px."""
    image = read_image(KMINES / "tile24_lost.png")
    assert wrong_and_unread(image, kmines_31px, KMINES / "tile24_lost.txt") == ([], [])


@pytest.mark.parametrize(
    "skin_name,path",
    [
        ("xdemineur", FIXTURES / "xdemineur" / "expert_flags.png"),
        ("xdemineur", FIXTURES / "xdemineur" / "small_mid8.png"),
        ("win7", FIXTURES / "win7" / "w7_mine3.png"),
    ],
)
def test_shipped_skins_read_hidpi_screenshots(skin_name: str, path: Path) -> None:
    """The screenshot drawn twice as large (a HiDPI screen): every cell right."""
    image = cv2.resize(read_image(path), None, fx=2.0, fy=2.0, interpolation=cv2.INTER_LINEAR)
    assert wrong_and_unread(image, load_skin(skin_name), path.with_suffix(".txt")) == ([], [])


@pytest.mark.parametrize(
    "skin_name,path",
    [("xdemineur", FIXTURES / "xdemineur" / "expert_flags.png"), ("win7", FIXTURES / "win7" / "w7_mine3.png")],
)
def test_fractional_scaling_never_misreads(skin_name: str, path: Path) -> None:
    """At 1.5x (fractional scaling, every edge resampled) a cell may stay unread, but none is read wrong."""
    image = cv2.resize(read_image(path), None, fx=1.5, fy=1.5, interpolation=cv2.INTER_LINEAR)
    wrong, _ = wrong_and_unread(image, load_skin(skin_name), path.with_suffix(".txt"))
    assert wrong == []


def test_an_unknown_tile_is_looked_at_again_only_when_its_pixels_change(sgt_skin) -> None:
    """The second look is remembered by the cell's pixels: the same frame reads the same; a new tile there is read."""
    image = read_image(SGT / "tile20_mid.png")
    first = decode_frame(image, sgt_skin)
    again = decode_frame(image, sgt_skin, first.grid)
    assert first.unreadable == again.unreadable and len(first.unreadable) == 1
    assert np.array_equal(first.labels, again.labels) and np.array_equal(first.confidence, again.confidence)
    (row, col) = first.unreadable[0]
    one = next(divmod(i, first.grid.cols) for i, c in enumerate(first.board.cells) if c == "1")
    x0, y0, x1, y1 = first.grid.cell_rect(*one)
    u0, v0, u1, v1 = first.grid.cell_rect(row, col)
    painted = image.copy()
    painted[v0:v1, u0:u1] = image[y0:y1, x0:x1]
    changed = decode_frame(painted, sgt_skin, first.grid)
    assert changed.readable and changed.board.cells[row * first.grid.cols + col] == "1"


@pytest.fixture(scope="module")
def xbomb_20px(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("skins")
    names = ["tile20_fresh", "tile20_mid", "tile20_mid2"]
    images = [read_image(XBOMB / f"{n}.png") for n in names]
    calibrate_supervised(images, [read_board(XBOMB / f"{n}.txt") for n in names], "xb20", root)
    return load_skin("xb20", root)


@pytest.mark.parametrize("name,unread", [("tile32_fresh", []), ("tile32_mid", ["1", "2"])])
def test_digits_that_do_not_grow_with_the_tile_are_left_unread_not_misread(xbomb_20px, name, unread) -> None:
    """xbomb draws its digits in a fixed font: at 32 px a digit covers less of the tile, nearer a blank one.

    The separation of the labels shrinks with the tile's growth, so such a digit is not taken for a 0.
    """
    image = read_image(XBOMB / f"{name}.png")
    assert wrong_and_unread(image, xbomb_20px, XBOMB / f"{name}.txt") == ([], unread)


def test_a_five_never_calibrated_is_not_read_as_a_blank_tile_at_another_size(xbomb_20px) -> None:
    """The lost 32 px board shows 4s, 5s and 6s the 20 px skin never saw: none is read, least of all as 0."""
    wrong, unread = wrong_and_unread(read_image(XBOMB / "tile32_lost.png"), xbomb_20px, XBOMB / "tile32_lost.txt")
    assert wrong == [] and {"4", "5", "6"} <= set(unread)
