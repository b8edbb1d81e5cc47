"""A board that shows its lattice in one direction only (web look 62442: a vertical gradient with no border).

Its fresh board shows no edge between two columns; the rows, the outline and a known size (or square tiles) place
the columns, and the first opened cells confirm or contradict them.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from autoplay.calibrate.live import confirm_inferred, fresh_board
from autoplay.errors import UnreadableBoardError
from autoplay.vision import read_image
from autoplay.vision.locate import _confirmed, locate_grid, locate_one_way
from autoplay.vision.one_way import OneWay, across_edges

WEB = Path(__file__).resolve().parents[1] / "fixtures" / "web-clone"
EXPERT = {(16, 30): 99}


@pytest.fixture(scope="module")
def fresh() -> np.ndarray:
    return read_image(WEB / "look62442_chromium125_fresh.png")


@pytest.fixture(scope="module")
def opened() -> np.ndarray:
    return read_image(WEB / "look62442_chromium125_opened.png")


def test_the_fresh_board_shows_no_lattice_of_tiles(fresh: np.ndarray) -> None:
    with pytest.raises(UnreadableBoardError, match="no Minesweeper board found"):
        locate_grid(fresh, one_way=False)


@pytest.mark.parametrize("sizes", [EXPERT, {}])
def test_rows_outline_and_size_or_square_tiles_place_the_columns(fresh: np.ndarray, sizes: dict) -> None:
    found = locate_one_way(fresh, sizes)
    assert found is not None and found.inferred == "columns"
    grid = found.grid
    assert (grid.rows, grid.cols) == (16, 30)
    # The page draws 21 px tiles at 125% (26.25 px) on pixels 16 to 802 and 53 to 472.
    assert grid.pitch == pytest.approx((26.25, 26.25), abs=0.05)
    assert [grid.xs[0], grid.xs[-1], grid.ys[0], grid.ys[-1]] == pytest.approx([16, 803, 53, 473], abs=0.3)
    assert across_edges(fresh, grid, "columns") == "none"  # nothing on a fresh board confirms or contradicts them


def test_locate_grid_takes_a_fresh_one_way_board(fresh: np.ndarray) -> None:
    grid = locate_grid(fresh)
    assert (grid.rows, grid.cols) == (16, 30)


def test_firefox_at_150_percent() -> None:
    found = locate_one_way(read_image(WEB / "look62442_firefox150_fresh.png"), EXPERT)
    assert found is not None
    assert (found.grid.rows, found.grid.cols) == (16, 30)
    assert found.grid.pitch == pytest.approx((31.5, 31.5), abs=0.05)


def test_a_size_with_other_rows_gives_no_board(fresh: np.ndarray) -> None:
    # A known size is trusted only for a stack of its own row count: a stack cut short is part of a board.
    assert locate_one_way(fresh, {(9, 9): 10}) is None


def test_the_first_opened_cells_confirm_the_columns(fresh: np.ndarray, opened: np.ndarray) -> None:
    grid, inferred = fresh_board(fresh, EXPERT)
    assert inferred == "columns"
    assert across_edges(opened, grid, "columns") == "on"
    confirm_inferred(opened, grid, "columns")  # no error


@pytest.mark.parametrize("wrong", ["half a cell off", "three pixels off", "one column short"])
def test_columns_the_opened_cells_contradict_stop(fresh: np.ndarray, opened: np.ndarray, wrong: str) -> None:
    if wrong != "one column short":
        found = locate_one_way(fresh, EXPERT)
        assert found is not None
        grid = found.grid.shifted(found.grid.pitch[0] / 2 if wrong == "half a cell off" else 3, 0)
    else:
        found = locate_one_way(fresh, {(16, 29): 99})  # a wrong size the user gave: 29 wider columns
        assert found is not None and found.grid.cols == 29
        grid = found.grid
    assert across_edges(opened, grid, "columns") == "off"
    with pytest.raises(UnreadableBoardError, match="could not be confirmed"):
        confirm_inferred(opened, grid, "columns")


def test_a_fresh_board_confirms_nothing(fresh: np.ndarray) -> None:
    grid, inferred = fresh_board(fresh, EXPERT)
    assert inferred is not None
    with pytest.raises(UnreadableBoardError, match="do not show"):
        confirm_inferred(fresh, grid, inferred)


def test_a_board_turned_a_quarter_infers_its_rows(fresh: np.ndarray, opened: np.ndarray) -> None:
    turned = np.ascontiguousarray(np.swapaxes(fresh, 0, 1))
    found = locate_one_way(turned, {(30, 16): 99})
    assert found is not None and found.inferred == "rows"
    assert (found.grid.rows, found.grid.cols) == (30, 16)
    assert across_edges(np.ascontiguousarray(np.swapaxes(opened, 0, 1)), found.grid, "rows") == "on"


def test_tiles_seen_both_ways_are_located_as_before() -> None:
    # The one-way search runs only where no lattice of tiles shows: a normal board never reaches it.
    image = read_image(Path(__file__).resolve().parents[1] / "fixtures" / "tk-clone" / "look1_fresh.png")
    assert locate_grid(image) == locate_grid(image, one_way=False)


def test_synthetic_board_of_unbordered_gradient_strips() -> None:
    strip = np.zeros((20, 200, 3), np.uint8)
    strip[:] = np.linspace(60, 200, 20).astype(np.uint8)[:, None, None]
    page = np.full((160, 260, 3), 20, np.uint8)
    page[20:140, 30:230] = np.tile(strip, (6, 1, 1))  # 6 rows of 10 square cells of 20 px, no edge between columns
    found = locate_one_way(page, {})
    assert found is not None
    assert (found.grid.rows, found.grid.cols) == (6, 10)
    assert found.grid.xs[1] - found.grid.xs[0] == pytest.approx(20, abs=0.3)
    grid = found.grid  # on pixels 30 to 229 and 20 to 139
    assert [grid.xs[0], grid.xs[-1], grid.ys[0], grid.ys[-1]] == pytest.approx([30, 230, 20, 140], abs=0.2)


def test_locate_never_takes_inferred_columns_the_board_contradicts(fresh: np.ndarray, opened: np.ndarray) -> None:
    found = locate_one_way(fresh, EXPERT)
    assert found is not None
    half_off = OneWay(found.grid.shifted(found.grid.pitch[0] / 2, 0), "columns")
    with pytest.raises(UnreadableBoardError, match="do not lie where its opened cells"):
        _confirmed(opened, half_off, None)
    assert _confirmed(fresh, found, None) == found.grid  # a fresh board: every cell alike, nothing contradicts
