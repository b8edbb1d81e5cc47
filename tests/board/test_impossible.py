"""A 0 beside a covered cell is a reading no Minesweeper can show."""

from __future__ import annotations

from autoplay.board.impossible import zero_conflicts
from autoplay.board.model import Board


def test_a_zero_beside_a_covered_cell_names_both():
    board = Board.from_rows(["0..", "111", "..."])
    assert zero_conflicts(board) == [(0, 0), (0, 1)]


def test_zeros_among_opened_cells_flags_and_unread_cells_are_fine():
    assert zero_conflicts(Board.from_rows(["00F", "01?", "11."])) == []


def test_every_zero_of_a_conflict_is_named_once():
    board = Board.from_rows(["0.0", "000"])
    assert zero_conflicts(board) == [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)]
