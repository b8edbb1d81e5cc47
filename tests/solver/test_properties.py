"""The engine's exact probabilities must equal brute-force enumeration on random consistent boards."""

from __future__ import annotations

import random

import pytest

from autoplay.solver import analyze
from tests.solver.brute import brute_force, random_position


def _check(board, mines):
    solutions, expected = brute_force(board, mines)
    analysis = analyze(board, mines)
    assert analysis.solutions == solutions
    assert analysis.exact == expected
    for (r, c), p in expected.items():
        assert analysis.probabilities[r][c] == pytest.approx(float(p))
    assert analysis.safe == sorted(cell for cell, p in expected.items() if p == 0)
    assert analysis.mines == sorted(cell for cell, p in expected.items() if p == 1)
    return analysis


@pytest.mark.parametrize("flags", [False, True])
def test_global_mode_matches_brute_force(flags):
    rng = random.Random(1000 + flags)
    for _ in range(150):
        board = random_position(rng, flags=flags)
        analysis = _check(board, board.mines)
        assert analysis.mode == "global"
        assert analysis.probabilities[0][0] is not None or board[0, 0] not in ".?F"


@pytest.mark.parametrize("flags", [False, True])
def test_local_mode_matches_brute_force(flags):
    rng = random.Random(2000 + flags)
    for _ in range(150):
        board = random_position(rng, flags=flags).with_mines(None)
        analysis = _check(board, None)
        assert analysis.mode == "local"
        frontier = set(analysis.exact)
        for r, c in board.unknown_cells():
            if (r, c) not in frontier:
                assert analysis.probabilities[r][c] is None


def test_question_marks_count_as_unknown():
    rng = random.Random(7)
    for _ in range(40):
        board = random_position(rng)
        hidden = [cell for cell in board.coords() if board[cell] == "."]
        marked = board.replace({cell: "?" for cell in rng.sample(hidden, len(hidden) // 2)})
        assert analyze(marked).exact == analyze(board).exact
