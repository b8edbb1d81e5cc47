"""The guess search's one-enumeration 'what would this cell show' equals re-counting each changed board."""

from __future__ import annotations

import random
from fractions import Fraction

from autoplay.errors import ContradictionError
from autoplay.solver.analysis import clear_component_cache, reveal_outcomes, tally
from autoplay.solver.count import count_by_watched, count_component
from autoplay.solver.position import read_position, with_reveal
from tests.solver.brute import random_position


def cell_probabilities(t) -> dict[int, Fraction]:
    return {j: Fraction(num, den) for cells, num, den in t.shares for j in cells}


def test_outcomes_equal_a_fresh_count_of_every_number():
    rng = random.Random(7)
    compared = 0
    for _ in range(120):
        board = random_position(rng, flags=True)
        pos = read_position(board)
        mines = board.mines
        clear_component_cache()
        index = rng.choice(pos.unknown)
        outcomes = reveal_outcomes(pos, mines, index)
        for value in range(9):
            try:
                expected = tally(with_reveal(pos, index, value), mines)
            except ContradictionError:
                expected = None
            got = outcomes.get(value)
            assert (got is None) == (expected is None), (board.to_text(), index, value)
            if expected is not None:
                assert got.solutions == expected.solutions
                assert cell_probabilities(got) == cell_probabilities(expected)
                compared += 1
    assert compared > 100


def test_safe_cells_without_the_join_equal_the_joined_tally():
    """The look-ahead's shortcut (no products of counts) finds the same layouts and safe cells as the full join."""
    rng = random.Random(11)
    compared = with_safe = 0
    for _ in range(200):
        board = random_position(rng, flags=rng.random() < 0.5)
        pos = read_position(board)
        clear_component_cache()
        index = rng.choice(pos.unknown)
        fast = reveal_outcomes(pos, board.mines, index)  # asked first, so it cannot reuse a joined tally
        slow = reveal_outcomes(pos, board.mines, index)
        for value in range(9):
            joined = slow.joined(value)
            expected = None if joined is None else (joined.solutions, joined.safe_cell_count())
            assert fast.safe_cells(value) == expected, (board.to_text(), index, value)
            if joined is not None:  # the depth-3 search follows the first safe cell of the joined shares
                safe = [j for cells, num, _den in joined.shares if num == 0 for j in cells]
                assert fast.first_safe(value) == (safe[0] if safe else -1), (board.to_text(), index, value)
                assert fast.lowest_probability(value) == joined.lowest_probability()
            compared += expected is not None
            with_safe += expected is not None and expected[1] > 0
    assert compared > 100 and with_safe > 20


def test_watched_counts_add_up_to_the_plain_count():
    # a 1-2-1 line: cells a b c d e over the numbers; watch b and c
    constraints = [((0, 1, 2), 1), ((1, 2, 3), 2), ((2, 3, 4), 1)]
    plain = count_component(constraints)
    split = count_by_watched(constraints, (1, 2))
    assert sorted(split) == [1]  # the 1-2-1 puts exactly one mine on b, c: b and d hold the mines
    assert split[1].totals == plain.totals
    # watching a cell no number touches multiplies its two states in
    free = count_by_watched(constraints, (9,))
    assert {seen: sum(c.totals) for seen, c in free.items()} == {0: sum(plain.totals), 1: sum(plain.totals)}
