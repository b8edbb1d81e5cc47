"""How the solver moves when nothing is certain: first click, forced 50/50s, safety, time cap."""

from __future__ import annotations

import random
import time

import pytest

from autoplay.board.model import Board, neighbour_table
from autoplay.board.rules import Rules
from autoplay.solver import analyze, choose_move, first_move
from autoplay.solver.analysis import clear_component_cache
from autoplay.solver.deduce import cheap_deductions
from autoplay.solver.guess import choose_guess
from autoplay.solver.position import read_position
from tests.solver.brute import random_position


@pytest.mark.parametrize(
    "rule, size, cell",
    [
        ("safe", (16, 30), (0, 0)),
        ("none", (9, 9), (0, 0)),
        ("zero", (16, 30), (3, 3)),
        ("zero", (16, 16), (2, 2)),
        ("zero", (9, 9), (2, 2)),
        ("zero", (2, 3), (1, 2)),
    ],
)
def test_first_move_follows_the_rule(rule, size, cell):
    move = first_move(*size, Rules(rule))
    assert (move.action, move.row, move.col) == ("reveal", *cell)
    decision = choose_move(Board.empty(*size, mines=5), rules=Rules(rule))
    assert decision.moves == [move] and decision.analysis is None


def test_unavoidable_fifty_fifty_is_taken_before_safer_cells():
    # (0,0)/(0,1) hold one mine and every number around them sees both: nothing can ever separate them.
    # The 12 cells on the right hold one mine (1/12 each) and are safer, yet the 50/50 goes first.
    board = Board.from_rows(["..F....", "14F....", "02F...."], mines=5)
    decision = choose_move(board)
    assert decision.guess
    move = decision.moves[0]
    assert (move.row, move.col) in {(0, 0), (0, 1)}
    assert move.probability == 0.5
    assert "50/50" in decision.reason


def test_fifty_fifty_seen_only_in_pairs_is_taken_before_safer_cells():
    # (1,1)/(1,2) hold one mine; the unknown cells below see both of them and every number sees both,
    # so nothing can ever tell them apart although they are not isolated.  The six cells of the
    # bottom two rows hold one mine (1/6 each) and are safer, yet the 50/50 goes first.
    board = Board.from_rows(["F33F", "F..F", "F..F", "...."], mines=8)
    decision = choose_move(board)
    move = decision.moves[0]
    assert decision.guess and (move.row, move.col) in {(1, 1), (1, 2)}
    assert "50/50" in decision.reason


def test_fifty_fifty_that_a_reveal_can_split_is_not_forced():
    # as above, but (2,3) is unknown and sees only (1,2): revealing it can settle the pair
    board = Board.from_rows(["F33F", "F..F", "F...", "...."], mines=8)
    decision = choose_move(board)
    assert "50/50" not in decision.reason


def test_lowest_probability_is_preferred_over_a_riskier_frontier():
    # the three cells around the 1 hold a mine (1/3 each); the 16 others share one mine (1/16 each)
    board = Board.from_rows(["1.........", ".........."], mines=2)
    decision = choose_move(board)
    move = decision.moves[0]
    assert decision.guess and len(decision.moves) == 1
    assert move.probability == pytest.approx(1 / 16)
    assert (move.row, move.col) not in {(0, 1), (1, 0), (1, 1)}


def test_guess_is_never_a_certain_mine_or_revealed_cell():
    rng = random.Random(5)
    checked = 0
    while checked < 40:
        board = random_position(rng)
        analysis = analyze(board)
        if analysis.safe or analysis.mines:
            continue
        choice = choose_guess(analysis, board.mines, time.perf_counter() + 5)
        index, p = choice.index, choice.probability
        r, c = divmod(index, board.cols)
        assert board[r, c] in ".?"
        assert p < 1
        assert p == analysis.probabilities[r][c]
        checked += 1


def scattered_numbers(seed: int, share: float, rows: int = 16, cols: int = 30, mines: int = 99) -> Board:
    """Expert board showing a random share of its non-zero numbers: big tangled components, no cheap deduction."""
    rng = random.Random(seed)
    nbrs = neighbour_table(rows, cols)
    layout = set(rng.sample(range(rows * cols), mines))
    number = {i: sum(j in layout for j in nbrs[i]) for i in range(rows * cols) if i not in layout}
    shown = set(rng.sample([i for i, n in number.items() if n], int(share * sum(1 for n in number.values() if n))))
    return Board(rows, cols, tuple(str(number[i]) if i in shown else "." for i in range(rows * cols)), mines)


def test_time_cap_holds_when_look_ahead_is_expensive():
    board = scattered_numbers(5, 0.2)
    assert not cheap_deductions(read_position(board), board.mines)  # so the engine and the guess search run
    started = time.perf_counter()
    decision = choose_move(board, time_limit=0.2)
    elapsed = time.perf_counter() - started
    assert decision.guess and len(decision.moves) == 1
    assert elapsed < 5 * 0.2


def test_enumeration_past_its_deadline_falls_back_to_estimates():
    board = scattered_numbers(5, 0.2)
    clear_component_cache()
    analysis = analyze(board, deadline=time.perf_counter())
    assert analysis.approximate
    assert any(not comp.exact for comp in analysis.components)
    estimated = [cell for comp in analysis.components if not comp.exact for cell in comp.cells]
    assert all(0.0 <= analysis.probabilities[r][c] <= 1.0 for r, c in estimated)
    assert not any(cell in analysis.exact for cell in estimated)
    decision = choose_move(board, time_limit=0.0)
    assert decision.moves and decision.moves[0].action == "reveal"


#: Expert game 47 of seed 1 at its pseudo-50/50: (0,21) is a mine only where it and (0,22) can never be split.
PSEUDO_BOARD = [
    "0112F101F21101F101.........F3F",
    "01F2110123F1011113....3..3FF31",
    "011100001F4310001FF3FFF22F4321",
    "1110000012FF422133323F3112F22F",
    "1F210111013FFF2F2F101110012F21",
    "12F211F10012333221111111112210",
    "012F2222110001F10012F12F21F211",
    "11212F12F2000233101F212F3213F2",
    "1F211123F31101FF10111012F102F2",
    "23F1012F22F2123310011212111332",
    "F33222F2123F12F20002F3F2111FF2",
    "2F2F2F3202F434F30002F313F323..",
    "222233F113FF4FF211122214F..2..",
    "F324F3222F5...421F11F11FF.....",
    "F5FFF32F22....F111111113......",
    "2FF43F2111....2100000001......",
]


def test_a_pseudo_fifty_fifty_is_guessed_before_safer_cells():
    board = Board.from_rows(PSEUDO_BOARD, mines=99)
    decision = choose_move(board)
    assert decision.guess_choice is not None and decision.guess_choice.policy == "pseudo-50/50"
    (move,) = decision.moves
    assert (move.row, move.col) == (0, 21) and "in the making" in decision.reason
    safest = min(p for line in decision.analysis.probabilities for p in line if p is not None and p > 0)
    assert safest < move.probability  # a safer cell exists: only the rule explains the pick
