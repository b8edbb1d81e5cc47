"""choose_move's contract: certain moves first and complete, the engine only when cheap rules fail."""

from __future__ import annotations

import random

from autoplay.board.model import Board
from autoplay.solver import analyze, choose_move
from autoplay.solver.deduce import cheap_deductions
from autoplay.solver.position import read_position
from tests.solver.brute import brute_force, random_position


def test_certain_moves_are_reveals_then_flags_and_all_correct():
    rng = random.Random(17)
    seen_flags = 0
    for _ in range(150):
        board = random_position(rng, flags=True)
        decision = choose_move(board)
        if decision.guess:
            continue
        _solutions, truth = brute_force(board, board.mines)
        actions = [m.action for m in decision.moves]
        assert actions == sorted(actions, key=lambda a: a != "reveal")  # reveals come first
        for move in decision.moves:
            p = truth[(move.row, move.col)]
            assert p == (1 if move.action == "flag" else 0)
        seen_flags += actions.count("flag")
    assert seen_flags > 0


def test_engine_runs_only_when_cheap_rules_find_nothing():
    rng = random.Random(23)
    engine_certain = 0
    for _ in range(400):
        board = random_position(rng)
        pos = read_position(board)
        cheap = cheap_deductions(pos, board.mines - len(pos.known_mines))
        decision = choose_move(board)
        if cheap:
            assert decision.analysis is None and not decision.guess
            continue
        assert decision.analysis is not None
        full = analyze(board)
        if full.safe or full.mines:
            engine_certain += 1
            assert not decision.guess
            assert decision.reason == "certain: exact probabilities"
            assert {(m.row, m.col) for m in decision.moves} == set(full.safe) | set(full.mines)
        else:
            assert decision.guess and len(decision.moves) == 1
    assert engine_certain > 0  # the boards above must exercise the engine's own certain cells


def test_finished_board_has_nothing_to_do():
    decision = choose_move(Board.from_rows(["1F", "11"], mines=1))
    assert decision.moves == [] and not decision.guess


def test_local_mode_without_mine_count():
    board = Board.from_rows(["....", "....", "..1.", "...."])
    decision = choose_move(board, None)
    assert decision.guess and len(decision.moves) == 1
    assert decision.analysis is not None and decision.analysis.mode == "local"
