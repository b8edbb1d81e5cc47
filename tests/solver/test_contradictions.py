"""Impossible boards are reported, never smoothed over, and the error names the cells involved."""

from __future__ import annotations

import random

import pytest

from autoplay.board.model import Board
from autoplay.errors import ContradictionError
from autoplay.solver import analyze, choose_move
from tests.solver.brute import brute_force, random_position


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


def test_cheap_rules_do_not_act_on_a_board_with_a_misread_number():
    """Firefox, look 14138 (the top left of the recorded board): a 4 at (4,1) read as a 1.  The 2 at (4,2) proves
    (5,1) and (5,2) mines by itself; both touch the "1", so no placement exists, and the single-number rule's flags
    are refused before any is pressed."""
    board = rows(
        "..........",
        "..........",
        ".1111.....",
        ".1001122..",
        ".1210001..",
        "...22111..",
        "..........",
    )
    with pytest.raises(ContradictionError, match="would have 2 mines around it") as err:
        choose_move(board)
    assert {(4, 1), (4, 2), (5, 1), (5, 2)} <= set(err.value.cells)


@pytest.mark.parametrize("seed", range(2))
def test_a_number_changed_by_one_is_refused_only_when_nothing_explains_it(seed):
    """One number of a true board read one off: a refusal always names a board brute force cannot explain."""
    rng = random.Random(seed)
    refused = explained = 0
    for _ in range(80):
        board = random_position(rng, max_unknown=10, flags=rng.random() < 0.5)
        numbers = [i for i, ch in enumerate(board.cells) if ch.isdigit()]
        if not numbers:
            continue
        i = rng.choice(numbers)
        value = int(board.cells[i]) + rng.choice((-1, 1))
        if not 0 <= value <= 8:
            continue
        misread = Board(board.rows, board.cols, (*board.cells[:i], str(value), *board.cells[i + 1 :]), board.mines)
        try:
            choose_move(misread, None)
        except ContradictionError:
            assert brute_force(misread, misread.mines)[0] == 0
            refused += 1
        else:
            explained += 1
    assert refused and explained
