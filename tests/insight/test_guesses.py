"""Guess explanations come from the policy's own scores: the chosen cell, its runners-up and the deciding rule."""

from __future__ import annotations

import random

import pytest

from autoplay.board.model import Board
from autoplay.board.rules import PRESETS, Rules
from autoplay.insight import explain_decision
from autoplay.insight.guesses import Candidate, _tie_break
from autoplay.sim.game import Game
from autoplay.solver import choose_move


def guess_decisions(seeds: range):
    preset = PRESETS["expert"]
    for seed in seeds:
        game = Game(preset.rows, preset.cols, preset.mines, Rules("safe"), rng=random.Random(seed))
        while not game.over:
            board = game.board()
            decision = choose_move(board)
            if decision.guess and not board.is_fresh:
                yield board, decision
            for move in decision.moves:
                if move.action == "flag":
                    game.flag(move.row, move.col)
                elif not game.reveal(move.row, move.col):
                    break


def test_guess_explanations_match_the_decision():
    policies = set()
    for board, decision in guess_decisions(range(4)):
        (why,) = explain_decision(board, decision)
        move = decision.moves[0]
        report = why.guess
        assert why.kind == "guess" and report is not None
        assert (report.chosen.row, report.chosen.col) == (move.row, move.col)
        assert report.chosen.probability == pytest.approx(move.probability)
        assert len(report.runners_up) <= 3
        assert all((c.row, c.col) != (move.row, move.col) for c in report.runners_up)
        assert all(board[c.row, c.col] in ".?" for c in report.runners_up)
        assert report.policy == decision.guess_choice.policy
        policies.add(report.policy)
        if report.policy == "look-ahead" and report.runners_up:
            other = report.runners_up[0]
            assert f"({other.row},{other.col})" in report.why
    assert "look-ahead" in policies


def test_a_fifty_fifty_says_it_must_be_taken():
    board = Board.from_rows(["..F....", "14F....", "02F...."], mines=5)
    (why,) = explain_decision(board, choose_move(board))
    assert why.guess.policy == "fifty-fifty" and "unavoidable 50/50" in why.text
    assert why.guess.chosen.probability == 0.5


@pytest.mark.parametrize(
    "chosen, other, words",
    [
        (Candidate(0, 0, 0.2, 0.8, 0.5, 1.0), Candidate(0, 1, 0.1, 0.7, 0.2, 1.0), "riskier than (0,1)"),
        (Candidate(0, 0, 0.2, 0.8, 0.5, 1.0), Candidate(0, 1, 0.2, 0.7, 0.2, 1.0), "as safe as (0,1)"),
        (Candidate(0, 0, 0.2, 0.8, 0.5, 2.0), Candidate(0, 1, 0.2, 0.8, 0.5, 1.0), "opens more safe cells"),
        (Candidate(0, 0, 0.2, 0.8, 0.5, 1.0), Candidate(0, 1, 0.2, 0.8, 0.5, 1.0), "level with (0,1)"),
        (Candidate(0, 0, 0.1, 0.9, 0.5, 1.0), Candidate(0, 1, 0.2, 0.8, 0.5, 1.0), "lowest mine probability"),
    ],
)
def test_tie_break_names_the_score_that_decided(chosen, other, words):
    assert words in _tie_break(chosen, other)


CLOSE_CALL = (
    """mines=40
001.............
112.2...........
2F312...........
3F..1...........
"""
    + "................\n" * 12
)


def test_a_depth_three_pick_says_the_scores_were_too_close():
    board = Board.from_text(CLOSE_CALL)
    assert choose_move(board, depth=2).guess_choice.policy == "look-ahead"  # two moves ahead: no third
    decision = choose_move(board)  # the default weighs close calls three moves deep
    assert decision.guess_choice is not None and decision.guess_choice.policy == "depth-3"
    leader = decision.guess_choice.ranked[0]
    assert (leader.index // 16, leader.index % 16) == (decision.moves[0].row, decision.moves[0].col)
    (why,) = explain_decision(board, decision)
    assert why.guess.policy == "depth-3" and "three moves" in why.guess.why


def test_a_pseudo_fifty_fifty_says_the_coin_toss_is_due_anyway():
    from tests.solver.test_guess_policy import PSEUDO_BOARD

    board = Board.from_rows(PSEUDO_BOARD, mines=99)
    (why,) = explain_decision(board, choose_move(board))
    assert why.guess.policy == "pseudo-50/50" and "in the making" in why.text
