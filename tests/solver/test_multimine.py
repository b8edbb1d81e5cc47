"""The several-mines-per-cell variant against brute force with exact fractions, and its one-mine special case."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction
from math import comb, factorial, prod

import pytest

from autoplay.board.model import neighbour_table
from autoplay.board.multiformat import MultiBoard
from autoplay.board.rules import Rules
from autoplay.sim.game import Game
from autoplay.solver.analysis import analyze
from autoplay.solver.multimine import analyze_multi, read_multi_position
from autoplay.solver.multiweights import power_coefficients, sample_counts

from .brute import random_position


def brute_multi(board: MultiBoard, mines: int | None):
    """(P(at least one mine), E[mines]) per unknown cell, by listing every count vector with weight prod 1/x!."""
    k = board.max_per_cell
    nbrs = neighbour_table(board.rows, board.cols)
    n = board.rows * board.cols
    unknown = [i for i in range(n) if board.is_unknown(i)]
    numbers = [i for i in range(n) if board.number(i) is not None]
    known = sum(board.mines_at(i) for i in range(n))
    if mines is None:
        unknown = [i for i in unknown if any(board.number(j) is not None for j in nbrs[i])]
    total = Fraction(0)
    hit = {i: Fraction(0) for i in unknown}
    held = {i: Fraction(0) for i in unknown}
    for xs in itertools.product(range(k + 1), repeat=len(unknown)):
        if mines is not None and known + sum(xs) != mines:
            continue
        count = dict(zip(unknown, xs))
        if any(sum(count.get(j, 0) + board.mines_at(j) for j in nbrs[i]) != board.number(i) for i in numbers):
            continue
        w = Fraction(1, prod(factorial(x) for x in xs))
        total += w
        for i, x in count.items():
            hit[i] += w * (x > 0)
            held[i] += w * x
    return {board_coord(board, i): (hit[i] / total, held[i] / total) for i in unknown}


def board_coord(board: MultiBoard, i: int) -> tuple[int, int]:
    return divmod(i, board.cols)


def random_multi_board(rng: random.Random, k: int, max_unknown: int = 9, flags: bool = False) -> MultiBoard:
    """A board from a real game of the variant: some empty cells revealed, optionally some mined cells flagged."""
    while True:
        rows, cols = rng.randint(2, 4), rng.randint(2, 5)
        mines = rng.randint(1, max(1, rows * cols // 2))
        game = Game(rows, cols, mines, Rules("safe"), rng=random.Random(rng.getrandbits(32)), max_per_cell=k)
        game.reveal(rng.randrange(rows), rng.randrange(cols))
        if game.over:
            continue
        held = game.mine_counts
        empty = [i for i in range(rows * cols) if not held[i]]
        for i in rng.sample(empty, rng.randint(0, len(empty) // 2)):
            game.reveal(*divmod(i, cols))
        if flags:
            for i in [i for i in range(rows * cols) if held[i]]:
                if rng.random() < 0.4:
                    game.flag(*divmod(i, cols))
        board = game.multi_board()
        hidden = sum(board.is_unknown(i) for i in range(rows * cols))
        if not game.over and 0 < hidden <= max_unknown:
            return board


@pytest.mark.parametrize("k", [2, 3])
@pytest.mark.parametrize("mode", ["global", "local"])
def test_probabilities_match_brute_force_exactly(k, mode):
    rng = random.Random(1000 * k + len(mode))
    checked = 0
    for _ in range(60 if k == 2 else 30):
        board = random_multi_board(rng, k, max_unknown=8 if k == 2 else 6, flags=rng.random() < 0.5)
        mines = board.mines if mode == "global" else None
        analysis = analyze_multi(read_multi_position(board), mines, k)
        truth = brute_multi(board, mines)
        for cell, (p, e) in truth.items():
            assert analysis.exact[cell] == p, (board.to_text(), cell)
            assert analysis.exact_expected[cell] == e, (board.to_text(), cell)
            checked += 1
        if mode == "local":
            assert set(analysis.exact) == set(truth)
    assert checked > 100


def test_one_mine_a_cell_gives_the_usual_engine_exactly():
    rng = random.Random(5)
    for _ in range(80):
        board = random_position(rng, flags=rng.random() < 0.5)
        multi = MultiBoard(board.rows, board.cols, board.cells, board.mines, 1)
        for mines in (board.mines, None):
            usual = analyze(board.with_mines(mines))
            variant = analyze_multi(read_multi_position(multi), mines, 1)
            assert variant.exact == usual.exact
            assert variant.solutions == usual.solutions
            assert variant.exact_expected == usual.exact


@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_outer_group_weights_are_the_polynomial_power(k):
    poly = [factorial(k) // factorial(j) for j in range(k + 1)]
    power = [1]
    for n in range(0, 7):
        assert list(power_coefficients(k, n, k * n + 2)) == power + [0] * (k * n + 3 - len(power))
        power = [
            sum(power[i - j] * poly[j] for j in range(k + 1) if 0 <= i - j < len(power)) for i in range(len(power) + k)
        ]
    assert power_coefficients(1, 30, 10) == tuple(comb(30, x) for x in range(11))


def test_dealing_follows_the_model_not_one_mine_at_a_time():
    # 3 cells, 3 distinct mines, at most 2 a cell: 24 placements, 6 of them one mine in each cell -> 1/4;
    # dropping mines one by one into cells that are not yet full would give 2/9
    rng = random.Random(3)
    draws = 20000
    spread = sum(sample_counts(3, 3, 2, rng) == [1, 1, 1] for _ in range(draws))
    assert abs(spread / draws - 0.25) < 0.012


def test_numbers_count_mines_and_contradictions_are_refused():
    board = MultiBoard(1, 3, ("2", ".", "."), 3, 2)
    pos = read_multi_position(board)
    assert pos.constraints[0].mines == 2
    too_many = MultiBoard(1, 2, ("5", "."), None, 2)
    with pytest.raises(Exception, match="needs 5 more mines"):
        read_multi_position(too_many)
