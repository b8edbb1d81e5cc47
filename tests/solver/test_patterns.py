"""Named Minesweeper patterns, each checked against the answer a player knows by heart."""

from __future__ import annotations

from fractions import Fraction

from autoplay.board.model import Board
from autoplay.board.rules import Rules
from autoplay.solver import analyze, choose_move


def board(text: str, mines: int | None = None) -> Board:
    b = Board.from_text(text)
    return b if mines is None else b.with_mines(mines)


def test_one_one_from_the_wall():
    # 1-1 against the left wall: the third cell along the row above is safe
    a = analyze(
        board(
            """
        ....
        11..
        00..
    """.replace(" ", "")
        )
    )
    # numbers at (1,0),(1,1): (1,0) sees (0,0),(0,1); (1,1) sees (0,0),(0,1),(0,2)
    assert (0, 2) in a.safe


def test_one_two_marks_the_far_cell_as_mine():
    a = analyze(
        board(
            """
        ....
        12..
        00..
    """.replace(" ", "")
        )
    )
    assert (0, 2) in a.mines


def test_one_two_one():
    a = analyze(
        board(
            """
        .....
        11211
        00000
    """.replace(" ", "")
        )
    )
    assert a.mines == [(0, 1), (0, 3)]
    assert a.safe == [(0, 0), (0, 2), (0, 4)]


def test_one_two_two_one():
    a = analyze(
        board(
            """
        ......
        012210
        000000
    """.replace(" ", "")
        )
    )
    assert a.mines == [(0, 2), (0, 3)]
    assert a.safe == [(0, 0), (0, 1), (0, 4), (0, 5)]


def test_hole_with_one_mine_inside():
    # a single hidden cell surrounded by 1s must be the mine
    a = analyze(
        board(
            """
        111
        1.1
        111
    """.replace(" ", "")
        )
    )
    assert a.mines == [(1, 1)]
    assert a.exact[(1, 1)] == 1


def test_triangle_corner_shared_by_two_ones():
    # two 1s that each see only the shared corner cell plus known cells: the corner is the mine
    a = analyze(
        board(
            """
        .1
        11
    """.replace(" ", "")
        )
    )
    assert a.mines == [(0, 0)]


def test_isolated_fifty_fifty_is_exactly_half():
    a = analyze(
        board(
            """
        ..
        11
        00
    """.replace(" ", "")
        )
    )
    assert a.exact == {(0, 0): Fraction(1, 2), (0, 1): Fraction(1, 2)}
    assert a.safe == [] and a.mines == []


def test_mine_count_endgame_decides_the_cell_no_number_sees():
    # (1,1) is a mine; (0,1) and (1,0) are safe; only the mine count says whether (0,0) holds the second mine
    b = Board.from_rows(["..1", "..1", "111"])
    assert analyze(b, 1).safe == [(0, 0), (0, 1), (1, 0)]
    assert analyze(b, 2).mines == [(0, 0), (1, 1)]
    local = analyze(b, None)
    assert local.probabilities[0][0] is None and local.mines == [(1, 1)]
    assert local.solutions == 1


def test_mine_count_makes_off_frontier_cells_safe():
    b = Board.from_rows(["111..", "1.1..", "111..", ".....", "....."])
    a = analyze(b, 1)
    assert a.mines == [(1, 1)]
    assert (4, 4) in a.safe and (3, 0) in a.safe
    assert a.off_frontier == 0
    two = analyze(b, 2)
    assert two.off_frontier == Fraction(1, 9)  # the 9 cells away from the numbers share the second mine
    without_count = analyze(b, None)
    assert without_count.mode == "local"
    assert without_count.probabilities[4][4] is None


def test_cheap_rules_decide_without_the_engine():
    b = Board.from_rows(["...", "111", "000"], mines=1)
    d = choose_move(b, rules=Rules())
    assert not d.guess and d.analysis is None
    assert d.reason.startswith("certain")
