"""Readings no Minesweeper can show: each names the cells that cannot all be read right."""

from __future__ import annotations

import pytest

from autoplay.board.impossible import impossible_readings
from autoplay.board.model import Board


@pytest.mark.parametrize(
    ("rows", "cells"),
    [
        (["0..", "111", "..."], [(0, 0), (0, 1)]),  # a 0 beside a covered cell
        (["0*", "11"], [(0, 0), (0, 1)]),  # a 0 beside a mine shown (xbomb's 1s once read as 0)
        (["0X", "11"], [(0, 0), (0, 1)]),
        (["1*", "*1"], [(0, 0), (0, 1), (1, 0), (1, 1)]),  # each 1 with two mines shown around it
        (["4.", ".."], [(0, 0)]),  # a 4 in a corner: three neighbours, none of them a number
        (["3.1", "111"], [(0, 0), (1, 0), (1, 1)]),  # only one cell around the 3 could be a mine
    ],
)
def test_each_impossible_reading_names_its_cells(rows, cells):
    assert impossible_readings(Board.from_rows(rows)) == cells


@pytest.mark.parametrize(
    "rows",
    [
        ["00F", "01?", "01."],  # a 0 beside a flag (a wrong flag a cascade went around) and unread cells
        ["1*1", "111"],
        ["3F?", "F.."],  # cells not read may hold mines
        ["2*", "*2"],
        [".....", "....."],
    ],
)
def test_boards_a_game_can_show_pass(rows):
    assert impossible_readings(Board.from_rows(rows)) == []


def test_a_number_with_more_proven_mines_around_than_it_says_is_named_alone():
    from autoplay.board.impossible import over_proven_mines

    board = Board.from_rows(["FFF", "F0F", "FFF"])  # a 7 read as a blank 0 among our flags
    assert over_proven_mines(board, [(r, c) for r in range(3) for c in range(3) if (r, c) != (1, 1)]) == [(1, 1)]
    assert over_proven_mines(board, []) == []  # flags not known to be ours prove nothing
    assert over_proven_mines(Board.from_rows(["F2", "F."]), [(0, 0), (1, 0)]) == []
