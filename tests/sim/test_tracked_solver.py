"""The simulator's tracked position must decide exactly as the stateless front door on the same board."""

from __future__ import annotations

import random

from autoplay.board.rules import Rules
from autoplay.sim.game import Game
from autoplay.sim.runner import GameSpec, play_game, solver_decider, tracked_solver
from autoplay.solver import choose_move


def moves(decision) -> list[tuple[str, int, int]]:
    return [(m.action, m.row, m.col) for m in decision.moves]


def test_tracked_decisions_equal_reading_the_board_at_every_step():
    checked = 0
    for seed, (rows, cols, mines, rule) in enumerate([(16, 30, 99, "safe"), (16, 16, 40, "zero"), (9, 9, 10, "safe")]):
        for game_index in range(4):
            spec = GameSpec(rows, cols, mines, Rules(rule))
            game = Game(rows, cols, mines, spec.rules, random.Random(100 * seed + game_index))
            decide = tracked_solver(game, spec)
            while not game.over:
                board = game.board()
                tracked = decide()
                fresh = choose_move(board, board.mines, spec.rules)
                assert moves(tracked) == moves(fresh), board.to_text()
                assert tracked.reason == fresh.reason
                checked += 1
                for action, r, c in moves(tracked):
                    if action == "flag":
                        game.flag(r, c)
                    elif not game.reveal(r, c):
                        break
    assert checked > 100


def test_tracked_and_board_games_end_the_same():
    spec = GameSpec(16, 16, 40, Rules("zero"))
    for index in range(6):
        tracked = play_game(spec, seed=3, index=index)
        board = play_game(spec, seed=3, index=index, decide=solver_decider(spec.time_limit))
        assert (tracked.won, tracked.decisions, tracked.guesses, tracked.safe_revealed_pct) == (
            board.won,
            board.decisions,
            board.guesses,
            board.safe_revealed_pct,
        )


def test_a_given_first_cell_replaces_the_solver_start():
    spec = GameSpec(16, 16, 40, Rules("zero"), first_cell=(5, 7))
    game = Game(16, 16, 40, spec.rules, random.Random(1))
    first = tracked_solver(game, spec)()
    assert moves(first) == [("reveal", 5, 7)]
    assert moves(tracked_solver(game, GameSpec(16, 16, 40, Rules("zero")))()) == [("reveal", 2, 2)]
