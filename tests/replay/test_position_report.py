"""Position reports checked against brute force over every mine placement of small boards."""

from fractions import Fraction
from itertools import combinations, product

import pytest

from autoplay.board import Board
from autoplay.errors import ContradictionError
from autoplay.replay.position_report import convolve_counts, report_position


def numbers_hold(board: Board, mines: set[tuple[int, int]]) -> bool:
    for r, c in board.coords():
        n = board.number(r, c)
        if n is not None and sum((rc in mines) or board[rc] == "F" for rc in board.neighbours(r, c)) != n:
            return False
    return True


def brute_global(board: Board, total: int) -> list[set[tuple[int, int]]]:
    """Every placement of the unflagged mines on unknown cells that all numbers accept."""
    unknown = board.unknown_cells()
    left = total - board.count("F")
    return [set(combo) for combo in combinations(unknown, left) if numbers_hold(board, set(combo))]


def brute_local(board: Board) -> tuple[list[tuple[int, int]], list[set[tuple[int, int]]]]:
    """Frontier cells and every assignment of them that the numbers accept (off-frontier cells ignored)."""
    frontier = sorted(
        {rc for rc in board.unknown_cells() if any(board.number(*n) is not None for n in board.neighbours(*rc))}
    )
    solutions = []
    for bits in product((0, 1), repeat=len(frontier)):
        mines = {rc for rc, bit in zip(frontier, bits) if bit}
        if numbers_hold(board, mines):
            solutions.append(mines)
    return frontier, solutions


BOARDS = [
    "mines=4\n..1..\n..1..\n111..\n.....\n",
    "mines=3\n.2.\n...\n1.1\n",
    "mines=5\n1..1.\n.....\n1F..1\n",
    "mines=3\n......\n.1..2.\n......\n",
    "mines=6\n.....\n.1...\n.....\n.....\n",
]


@pytest.mark.parametrize("text", BOARDS)
def test_global_and_local_probabilities_and_counts_match_brute_force(text):
    board = Board.from_text(text)
    report = report_position(board)
    placements = brute_global(board, board.mines)
    frontier, local = brute_local(board)
    assert report.global_.solutions == len(placements)
    assert report.local.solutions == len(local)
    for cell in report.cells:
        rc = (cell.row, cell.col)
        with_mine = sum(rc in p for p in placements)
        assert cell.mine_solutions == with_mine
        assert cell.global_p == pytest.approx(with_mine / len(placements))
        assert cell.frontier == (rc in frontier)
        if cell.frontier:
            assert cell.local_p == pytest.approx(sum(rc in s for s in local) / len(local))
        else:
            assert cell.local_p is None


@pytest.mark.parametrize("text", BOARDS)
def test_subsystem_maps_combine_into_the_frontier_and_whole_board_maps(text):
    board = Board.from_text(text)
    report = report_position(board, decide=False)
    frontier, local = brute_local(board)
    by_count: dict[int, int] = {}
    for s in local:
        by_count[len(s)] = by_count.get(len(s), 0) + 1
    assert report.combined == by_count
    assert sorted(rc for s in report.subsystems for rc in s.cells) == frontier
    placements = brute_global(board, board.mines)
    weighted: dict[int, int] = {}
    for p in placements:
        on_frontier = len(p & set(frontier))
        weighted[on_frontier] = weighted.get(on_frontier, 0) + 1
    assert report.weighted == weighted


def test_two_separate_subsystems_are_reported_apart():
    board = Board.from_text("mines=3\n.1...1.\n.1...1.\n")
    report = report_position(board, decide=False)
    assert len(report.subsystems) == 2
    assert all(s.mine_counts == {1: 4} for s in report.subsystems)
    assert report.combined == {2: 16}


def test_without_a_mine_count_only_the_local_view_exists():
    board = Board.from_text(".2.\n...\n")
    report = report_position(board)
    assert report.global_ is None and report.analysis is report.local
    assert all(c.global_p is None for c in report.cells)
    data = report.to_dict()
    assert data["mode"] == "local" and data["solutions"]["global"] is None


def test_mines_argument_overrides_the_header():
    board = Board.from_text("mines=3\n.2.\n...\n1.1\n")
    assert report_position(board, 2, decide=False).global_.solutions == len(brute_global(board.with_mines(2), 2)) > 0


def test_convolve_counts():
    assert convolve_counts([]) == {0: 1}
    assert convolve_counts([{1: 2, 2: 1}, {0: 1, 1: 3}]) == {1: 2, 2: 7, 3: 3}


@pytest.mark.parametrize(
    "text, mines, fragment",
    [
        ("3.\n.1\n", None, "needs 3 more mines but only 2"),
        ("1.\n..\n", 10, "too many mines"),
        ("2..\n...\n", 1, "too few mines"),
        ("F1F\n...\n", 5, r"1 at \(0,1\) has 2 flagged"),
    ],
)
def test_impossible_positions_raise_the_solvers_error_naming_cells(text, mines, fragment):
    with pytest.raises(ContradictionError, match=fragment) as info:
        report_position(Board.from_text(text), mines)
    assert info.value.cells


def test_decision_is_the_same_for_the_same_board():
    board = Board.from_text("mines=10\n" + "\n".join(["..1......", "..1......", "111......"] + ["." * 9] * 6))
    first = report_position(board).to_dict()["decision"]
    second = report_position(board).to_dict()["decision"]
    assert first == second and first["moves"]


def test_mine_solutions_are_exact_probability_times_solutions():
    board = Board.from_text(BOARDS[0])
    report = report_position(board, decide=False)
    for cell in report.cells:
        assert Fraction(cell.mine_solutions, report.solutions) == report.global_.exact[(cell.row, cell.col)]
