"""The depth-3 survival search against a reference that recounts every position by brute force."""

from __future__ import annotations

import itertools
import random
import time
from fractions import Fraction

import pytest

from autoplay.board.model import Board, neighbour_table
from autoplay.solver.analysis import analyze
from autoplay.solver.deeper import FOLLOW_UPS, _Search, deeper_pick
from autoplay.solver.guess import Scored, _candidates
from autoplay.solver.position import read_position

from .brute import brute_force, random_position


def _outcomes(board: Board, cell: int) -> dict[int, Fraction]:
    """P(the cell is safe and shows v) for every v, by listing every layout of the board's mines."""
    nbrs = neighbour_table(board.rows, board.cols)
    unknown = [i for i, ch in enumerate(board.cells) if ch in ".?"]
    numbers = [i for i, ch in enumerate(board.cells) if ch.isdigit()]
    known = {i for i, ch in enumerate(board.cells) if ch in "F*X"}
    left = board.mines - len(known)
    shows: dict[int, int] = {}
    total = 0
    for chosen in itertools.combinations(unknown, left):
        mine = known | set(chosen)
        if any(sum(1 for j in nbrs[i] if j in mine) != int(board.cells[i]) for i in numbers):
            continue
        total += 1
        if cell not in mine:
            v = sum(1 for j in nbrs[cell] if j in mine)
            shows[v] = shows.get(v, 0) + 1
    return {v: Fraction(n, total) for v, n in shows.items()}


def _reveal(board: Board, cell: int, v: int) -> Board:
    return board.replace({board.at(cell): str(v)})


def _risks(board: Board) -> dict[int, float]:
    _, probabilities = brute_force(board, board.mines)
    return {board.index(r, c): float(p) for (r, c), p in probabilities.items()}


def reference_three(board: Board, cell: int) -> float:
    total = 0.0
    for v, chance in _outcomes(board, cell).items():
        child = _reveal(board, cell, v)
        risk = _risks(child)
        safe = [j for j, p in risk.items() if p == 0]
        if len(safe) >= 2:
            value = 1.0
        elif safe:
            value = _reference_two(child, safe[0])
        else:
            value = 0.0
            for follow in _candidates(read_position(child), risk)[:FOLLOW_UPS]:
                if 1 - risk[follow] <= value:
                    break
                value = max(value, _reference_two(child, follow))
        total += float(chance) * value
    return total


def _reference_two(board: Board, cell: int) -> float:
    total = 0.0
    for v, chance in _outcomes(board, cell).items():
        risk = _risks(_reveal(board, cell, v))
        total += float(chance) * (1.0 if any(p == 0 for p in risk.values()) else 1.0 - min(risk.values(), default=1.0))
    return total


def test_three_move_survival_matches_brute_force():
    rng = random.Random(11)
    checked = 0
    while checked < 40:
        board = random_position(rng, max_unknown=10)
        pos = read_position(board)
        analysis = analyze(board)
        if analysis.safe or analysis.mines or not pos.constraints:
            continue
        search = _Search(board.mines, time.perf_counter() + 30, _candidates)
        risk = {board.index(r, c): p for (r, c), p in ((rc, float(p)) for rc, p in analysis.exact.items())}
        for cell in sorted(risk, key=risk.get)[:2]:
            value = search.survive_three(pos, analysis.solutions, cell)
            assert value == pytest.approx(reference_three(board, cell), abs=1e-12), board.to_text()
            assert 0.0 <= value <= 1.0 - risk[cell] + 1e-12
            checked += 1


def test_deeper_pick_keeps_the_leader_unless_close_and_better():
    pos = read_position(Board.from_text("1?\n??"))  # never searched: the scores alone decide here
    far = [Scored(1, 0.9, 0.9, 0.5), Scored(2, 0.8, 0.7, 0.1)]
    assert deeper_pick(pos, 1, 10, far, time.perf_counter() + 1, _candidates) is None  # 0.95 vs 0.71: not close
    unscored = [Scored(1, 0.9, 0.9, 0.5), Scored(2, 0.8)]
    assert deeper_pick(pos, 1, 10, unscored, time.perf_counter() + 1, _candidates) is None
