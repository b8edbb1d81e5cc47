"""The simulator must follow each clone's rules exactly, or measured win rates mean nothing."""

import random

import pytest

from autoplay.board import Rules
from autoplay.sim import Game, play_game, wilson_interval
from autoplay.sim.runner import GameSpec


def test_first_click_zero_opens_a_region():
    for seed in range(50):
        game = Game(16, 30, 99, Rules("zero"), random.Random(seed))
        assert game.reveal(3, 3)
        board = game.board()
        assert board[3, 3] == "0"
        assert all(board[r, c] != "." for r, c in board.neighbours(3, 3))


def test_first_click_safe_is_only_the_cell():
    zeros = 0
    for seed in range(200):
        game = Game(16, 30, 99, Rules("safe"), random.Random(seed))
        assert game.reveal(0, 0)
        zeros += game.board()[0, 0] == "0"
    # P(corner is a zero) on expert is about (1 - 99/479)^3 ~ 0.5: both outcomes must occur
    assert 40 < zeros < 160


def test_first_click_none_can_hit_a_mine():
    losses = sum(not Game(9, 9, 40, Rules("none"), random.Random(s)).reveal(4, 4) for s in range(100))
    assert 20 < losses < 80


def test_cascade_and_win_by_reveal():
    game = Game(5, 5, 1, Rules("zero"), random.Random(3))
    game.reveal(2, 2)
    layout = game.solution()
    for r, c in layout.coords():
        if layout[r, c] != "*":
            game.reveal(r, c)
    assert game.won and not game.lost


def test_flag_all_needs_every_mine_flagged():
    game = Game(5, 5, 2, Rules("zero", "flag-all"), random.Random(5))
    game.reveal(2, 2)
    layout = game.solution()
    safe = [(r, c) for r, c in layout.coords() if layout[r, c] != "*"]
    mines = [(r, c) for r, c in layout.coords() if layout[r, c] == "*"]
    for rc in safe:
        game.reveal(*rc)
    assert not game.won and not game.over
    for rc in mines:
        game.flag(*rc)
    assert game.won


def test_lost_board_shows_mines_and_the_exploded_one():
    game = Game(9, 9, 10, Rules("safe"), random.Random(1))
    game.reveal(0, 0)
    layout = game.solution()
    mine = next(rc for rc in layout.coords() if layout[rc] == "*")
    assert not game.reveal(*mine)
    board = game.board()
    assert board[mine] == "X"
    assert board.count("*") == 9 and game.lost and game.over


def test_too_many_mines_rejected():
    with pytest.raises(ValueError):
        Game(3, 3, 1, Rules("zero"))
    with pytest.raises(ValueError):
        Game(3, 3, 9, Rules("safe"))


class Sweep:
    """A fake decider that reveals cells in reading order: a deterministic, solver-free player."""

    def __call__(self, board, rules, rng):
        from types import SimpleNamespace

        r, c = board.unknown_cells()[0]
        move = SimpleNamespace(action="reveal", row=r, col=c, probability=0.5)
        return SimpleNamespace(moves=[move], guess=True)


def test_same_seed_same_game():
    spec = GameSpec(9, 9, 10, Rules("safe"))
    a = play_game(spec, seed=7, index=3, decide=Sweep())
    b = play_game(spec, seed=7, index=3, decide=Sweep())
    c = play_game(spec, seed=7, index=4, decide=Sweep())
    assert (a.won, a.decisions, a.safe_revealed_pct) == (b.won, b.decisions, b.safe_revealed_pct)
    assert (a.decisions, a.safe_revealed_pct) != (c.decisions, c.safe_revealed_pct) or a.won != c.won


def test_wilson_interval_brackets_the_rate():
    lo, hi = wilson_interval(40, 100)
    assert lo < 0.4 < hi
    assert 0.30 < lo < 0.31 and 0.49 < hi < 0.50
    assert wilson_interval(0, 10)[0] == 0.0
