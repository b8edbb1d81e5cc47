"""The solver's position reader and its cheap 'what if this cell shows v' update agree with a fresh read."""

from __future__ import annotations

import random

from autoplay.errors import ContradictionError
from autoplay.solver.position import read_position, with_reveal
from tests.solver.brute import random_position


def normal(pos):
    # which of two numbers seeing the same cells is kept does not matter
    return pos.unknown, pos.known_mines, sorted((c.unknowns, c.mines) for c in pos.constraints)


def test_with_reveal_equals_reading_the_changed_board():
    rng = random.Random(41)
    compared = 0
    for _ in range(150):
        board = random_position(rng, flags=True)
        pos = read_position(board)
        r, c = rng.choice(board.unknown_cells())
        for value in range(9):
            changed = board.replace({(r, c): str(value)})
            try:
                expected = normal(read_position(changed))
            except ContradictionError:
                expected = None
            try:
                got = normal(with_reveal(pos, r * board.cols + c, value))
            except ContradictionError:
                got = None
            assert got == expected
            compared += expected is not None
    assert compared > 100


def test_satisfied_numbers_are_dropped_and_duplicates_merged():
    from autoplay.board.model import Board

    pos = read_position(Board.from_rows(["..", "11", "00"]))
    # (1,0) and (1,1) see the same two cells: one constraint; the zeros touch no unknown cell: none
    assert [(c.unknowns, c.mines) for c in pos.constraints] == [((0, 1), 1)]
