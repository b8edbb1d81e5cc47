"""Brute-force reference and random consistent boards for the solver's property tests.

The reference enumerates every mine placement cell by cell with exact
Fractions; it shares no code with the engine, so agreement means something.
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

from autoplay.board.model import Board, neighbour_table
from autoplay.board.rules import Rules
from autoplay.sim.game import Game


def random_position(rng: random.Random, max_unknown: int = 14, flags: bool = False) -> Board:
    """A board from a real random game: some safe cells revealed (cascading), optionally some true mines flagged."""
    while True:
        rows, cols = rng.randint(3, 6), rng.randint(3, 7)
        mines = rng.randint(1, max(1, rows * cols // 4))
        game = Game(rows, cols, mines, Rules("safe"), rng=random.Random(rng.getrandbits(32)))
        game.reveal(rng.randrange(rows), rng.randrange(cols))
        layout = game.solution()
        safe = [(r, c) for r, c in layout.coords() if layout[r, c] != "*"]
        for r, c in rng.sample(safe, rng.randint(0, len(safe) // 2)):
            game.reveal(r, c)
        if flags:
            mined = [(r, c) for r, c in layout.coords() if layout[r, c] == "*"]
            for r, c in rng.sample(mined, rng.randint(0, len(mined))):
                game.flag(r, c)
        board = game.board()
        if not game.over and 0 < board.count(".") <= max_unknown:
            return board


def brute_force(board: Board, mines: int | None) -> tuple[int, dict[tuple[int, int], Fraction]]:
    """(solutions, P(mine) per unknown cell) by enumerating placements.

    Global mode (``mines`` given): every placement of the remaining mines over all
    unknown cells.  Local mode: every placement over the cells touching a number,
    each counted once; off-frontier cells are left out.
    """
    rows, cols = board.rows, board.cols
    nbrs = neighbour_table(rows, cols)
    cells = board.cells
    unknown = [i for i, ch in enumerate(cells) if ch in ".?"]
    numbers = [i for i, ch in enumerate(cells) if ch.isdigit()]
    known = sum(1 for ch in cells if ch in "F*X")
    if mines is None:
        unknown = [i for i in unknown if any(cells[j].isdigit() for j in nbrs[i])]
    hits = {i: 0 for i in unknown}
    solutions = 0
    for bits in itertools.product((0, 1), repeat=len(unknown)):
        if mines is not None and known + sum(bits) != mines:
            continue
        mine = {i for i, b in zip(unknown, bits) if b}
        ok = all(sum(1 for j in nbrs[i] if j in mine or cells[j] in "F*X") == int(cells[i]) for i in numbers)
        if ok:
            solutions += 1
            for i in mine:
                hits[i] += 1
    if not solutions:
        return 0, {}
    return solutions, {divmod(i, cols): Fraction(h, solutions) for i, h in hits.items()}
