"""Weights of the several-mines-per-cell game: how many ways a set of cells holds a number of mines.

The model (the seed's): the mines are distinct and each layout of them that puts at most ``K`` in
any cell is equally likely.  A layout with ``x_i`` mines in cell ``i`` is reached by ``M! / prod x_i!``
of those placements, so count vectors weigh ``prod 1/x_i!``.  Scaled by ``K!`` per cell the weights
become whole numbers: one cell holding ``j`` mines weighs ``K!/j!``, the generating polynomial of
one cell is ``P(t) = sum_j K!/j! t^j`` and ``s`` cells holding ``x`` mines weigh ``[t^x] P(t)^s``
(for ``K = 1`` that is ``C(s, x)``, the one-mine game's count).  Every cell of a board carries the
same ``K!`` factor, so ratios of these integers are exact probabilities.

Everything here is exact integer arithmetic and cached: the counting, the off-frontier cells and the
simulator's dealing all ask for the same few tables.
"""

from __future__ import annotations

import random
from functools import lru_cache
from math import factorial


@lru_cache(maxsize=64)
def cell_polynomial(max_per_cell: int) -> tuple[int, ...]:
    """Coefficients of ``P(t) = sum_{j<=K} K!/j! t^j``: the scaled weight of one cell holding j mines."""
    k = max_per_cell
    return tuple(factorial(k) // factorial(j) for j in range(k + 1))


@lru_cache(maxsize=8192)
def power_coefficients(max_per_cell: int, cells: int, degree: int) -> tuple[int, ...]:
    """``[t^x] P(t)^cells`` for x = 0..degree: the weight of ``cells`` cells holding x mines together.

    Computed without expanding the power (J.C.P. Miller's recurrence for powers of a polynomial,
    from ``P * Q' = n * P' * Q``), in O(degree * K) exact steps, so a few hundred cells off the
    frontier cost no more than a few.  Every division is exact because the coefficients are integers.
    """
    p = cell_polynomial(max_per_cell)
    k = len(p) - 1
    out = [p[0] ** cells]
    for x in range(1, degree + 1):
        acc = 0
        for j in range(1, min(x, k) + 1):
            acc += ((cells + 1) * j - x) * p[j] * out[x - j]
        out.append(acc // (x * p[0]))
    return tuple(out)


def group_weights(max_per_cell: int, cells: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(weight of the group holding x mines, weight with one given cell of it empty) for x = 0..K*cells.

    The second is ``K! * [t^x] P^(cells-1)``: a cell left empty contributes its ``t^0`` term, ``K!``.
    A cell's chance of holding at least one mine is one minus their ratio.
    """
    top = max_per_cell * cells
    ways = power_coefficients(max_per_cell, cells, top)
    rest = power_coefficients(max_per_cell, cells - 1, top)
    empty = tuple(factorial(max_per_cell) * w for w in rest)
    return ways, empty


@lru_cache(maxsize=16)
def _count_table(max_per_cell: int, cells: int, mines: int) -> tuple[tuple[int, ...], ...]:
    """``table[n][m]``: weight of n cells holding m mines, for n <= cells and m <= mines."""
    return tuple(power_coefficients(max_per_cell, n, mines) for n in range(cells + 1))


def sample_counts(cells: int, mines: int, max_per_cell: int, rng: random.Random) -> list[int]:
    """Mines per cell, drawn exactly from the model: distinct mines, every placement with <= K a cell equally likely.

    Cell by cell, the number of mines is drawn with probability proportional to its own weight times
    the weight of the rest holding what is left, so the joint law is the model's (placing the mines
    one at a time and skipping full cells would favour spread-out layouts).
    """
    if mines > max_per_cell * cells:
        raise ValueError(f"{mines} mines do not fit {cells} cells with at most {max_per_cell} a cell")
    table = _count_table(max_per_cell, cells, mines)
    p = cell_polynomial(max_per_cell)
    out = []
    left = mines
    for i in range(cells):
        rest = table[cells - i - 1]
        draw = rng.randrange(table[cells - i][left])
        for j in range(min(max_per_cell, left) + 1):
            draw -= p[j] * rest[left - j]
            if draw < 0:
                break
        out.append(j)
        left -= j
    return out
