"""Impossible boards are reported, never smoothed over, and the error names the cells involved."""

from __future__ import annotations

import pytest

from autoplay.board.model import Board
from autoplay.errors import ContradictionError
from autoplay.solver import analyze, choose_move


def rows(*lines: str, mines: int | None = None) -> Board:
    return Board.from_rows(list(lines), mines)


def test_number_with_too_many_flags():
    with pytest.raises(ContradictionError) as err:
        analyze(rows("1F", "F."))
    assert err.value.cells == [(0, 0), (0, 1), (1, 0)]
    assert err.value.exit_code == 2


def test_shown_mines_count_as_flags():
    with pytest.raises(ContradictionError) as err:
        analyze(rows("1*", "X."))
    assert err.value.cells == [(0, 0), (0, 1), (1, 0)]


def test_number_with_too_few_unknown_neighbours():
    with pytest.raises(ContradictionError) as err:
        analyze(rows("3.", "11"))
    assert (0, 0) in err.value.cells and (0, 1) in err.value.cells


def test_no_consistent_assignment_across_numbers():
    # each number alone is possible: (1,0)=1 sees (0,0),(0,1), and (1,1)=0 says both are safe
    with pytest.raises(ContradictionError, match="no placement") as err:
        analyze(rows("...", "10."))
    assert (1, 0) in err.value.cells and (1, 1) in err.value.cells


def test_no_consistent_assignment_in_a_chain():
    # 1-3-1 on a wall: the 3 needs two mines beyond the 1's pair, but only one cell is left for them
    with pytest.raises(ContradictionError, match="no placement") as err:
        analyze(rows("...", "131", "000"))
    assert err.value.cells == [(1, 0), (1, 1), (1, 2)]


def test_too_few_mines_for_the_numbers():
    with pytest.raises(ContradictionError, match="too few mines") as err:
        analyze(rows("1...", "....", "....", "...1"), 1)
    assert err.value.cells == [(0, 0), (3, 3)]


def test_too_few_mines_for_the_flags():
    with pytest.raises(ContradictionError, match="too few mines") as err:
        analyze(rows("FF.", "...", "..."), 1)
    assert err.value.cells == [(0, 0), (0, 1)]


def test_too_many_mines_for_the_cells():
    with pytest.raises(ContradictionError, match="too many mines") as err:
        analyze(rows("0.", ".."), 3)
    assert (0, 0) in err.value.cells


def test_choose_move_reports_contradictions_too():
    with pytest.raises(ContradictionError):
        choose_move(rows("1F", "F."))
