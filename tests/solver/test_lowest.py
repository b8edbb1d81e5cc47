"""The lowest probability read through floats (:mod:`autoplay.solver.lowest`) is the exact join's, to the bit.

Each case reveals a cell in a real position and compares, for every number it can show, the float-first
answer of a fresh :class:`Outcomes` with the lowest share of the full exact join of another fresh one.
"""

from __future__ import annotations

import random

from autoplay.board.rules import Rules
from autoplay.sim.game import Game
from autoplay.solver.analysis import Outcomes, _room, analyze, reveal_outcomes
from autoplay.solver.count import ComponentCount
from autoplay.solver.lowest import contenders, kept_floats, scaled
from autoplay.solver.position import Position, read_position
from tests.solver.brute import random_position
from tests.solver.test_limits import dealt


def compare(pos: Position, mines: int, cells: list[int]) -> tuple[int, int]:
    """(numbers compared, numbers whose floats left more than one contender) over ``cells`` of ``pos``."""
    compared = close_calls = 0
    for index in cells:
        fast = reveal_outcomes(pos, mines, index)
        exact = reveal_outcomes(pos, mines, index)
        for number in exact.numbers():
            joined = exact.joined(number)
            if joined is None:
                continue
            assert fast.lowest_probability(number) == joined.lowest_probability(), (index, number)
            compared += 1
            close_calls += _contenders(fast, number) > 1
    return compared, close_calls


def _contenders(outcomes: Outcomes, number: int) -> int:
    """How many groups the float shares left to be checked exactly (0 where the least is 0)."""
    kept = kept_floats(outcomes._counts)
    assert kept is not None, "the C module _lowest is not in use: build the compiled solver (pip install -e .)"
    count = outcomes._by_number[number]
    full_len = sum(len(c.totals) for c in [*outcomes._counts, count]) - len(outcomes._counts)
    room = _room(len(outcomes._off), outcomes._left, full_len)
    close = contenders(kept, count, room, len(outcomes._off), outcomes._left)
    assert close is not None  # expert boards scale safely
    return len(close)


def test_small_random_positions() -> None:
    rng = random.Random(8)
    compared = 0
    for _ in range(200):
        board = random_position(rng)
        pos = read_position(board)
        if analyze(board).solutions == 0 or not pos.unknown:
            continue
        cells = rng.sample(list(pos.unknown), min(3, len(pos.unknown)))
        compared += compare(pos, board.mines, cells)[0]
    assert compared > 300


def test_expert_positions_of_real_games() -> None:
    """Positions met in simulated expert games, every frontier cell revealed, with ties between groups."""
    compared = close_calls = 0
    for seed in range(6):
        game = Game(16, 30, 99, Rules("safe"), rng=random.Random(seed))
        game.reveal(0, 0)
        pos = read_position(game.board())
        frontier = sorted({j for con in pos.constraints for j in con.unknowns})
        done = compare(pos, 99, frontier[:12])
        compared += done[0]
        close_calls += done[1]
    assert compared > 100 and close_calls > 0


def test_long_frontiers_with_many_components() -> None:
    compared = 0
    for seed in range(3):
        board = dealt(16, 30, 99, 0.35 + 0.05 * seed, seed=seed)
        pos = read_position(board)
        frontier = sorted({j for con in pos.constraints for j in con.unknowns})
        compared += compare(pos, 99, frontier[::9])[0]
    assert compared > 50


def test_a_count_too_small_to_scale_is_left_to_the_exact_join() -> None:
    assert scaled([1, 2**400]) is None
    assert scaled([2**40, 2**41]) == [0.5, 1.0]
    kept = kept_floats([])
    assert kept is not None
    huge = ComponentCount(((0,), (1,)), (1, 2**400), ((0, 2**400), (1, 0)), 0b11, (0b10, 0b01))
    assert contenders(kept, huge, (1, 1), 0, 1) is None  # 1 / 2**400 cannot be scaled: joined exactly
