"""Names for the shapes people learn: recognised from a proof's reduced numbers and where they sit.

A name is only a label on top of the exact proof, so the rules are simple
and err towards the generic name.  The definitions used here:

- ``flag reduction``: one number whose flags already account for some of its
  mines (the rest of its cells are then all safe, or all mines).
- ``1-1``, ``1-2``, ``1-2-1``, ``1-2-2-1``: numbers next to each other in
  one row or column whose values, after subtracting flags, read that
  sequence (the whole run between the outermost cited numbers is read, so a
  1-2-2-1 whose proof needs only three of its numbers is still recognised).
- ``1-3-1 corner`` / ``2-2-2 corner``: three numbers in an L (the middle one
  orthogonally next to both others) reading 1, 3, 1 or 2, 2, 2 around the bend.
- ``hole``: the forced cell lies in a small pocket of hidden cells closed off
  from every other hidden cell.
- ``triangle``: three numbers not in one line, each sharing cells with both others.
- ``shared mines in regions``: any other set of numbers linked by shared cells.
- ``mine-count endgame``: the proof needs the global mine count.

Any name gets " (after flag reduction)" when a cited number was reduced by flags.
"""

from __future__ import annotations

from dataclasses import dataclass

from autoplay.board.model import Board, neighbour_table
from autoplay.insight.proofs import Proof
from autoplay.solver.position import Position

#: A pocket of at most this many hidden cells counts as a hole.
HOLE_SIZE = 3

LINE_PATTERNS = {(1, 1): "1-1", (1, 2): "1-2", (1, 2, 1): "1-2-1", (1, 2, 2, 1): "1-2-2-1"}
CORNER_PATTERNS = {(1, 3, 1): "1-3-1 corner", (2, 2, 2): "2-2-2 corner"}


@dataclass(frozen=True)
class Cited:
    """One number of a proof as a person reads it: where, what it shows, and what it still needs."""

    row: int
    col: int
    shown: int
    needs: int

    @property
    def reduced(self) -> bool:
        return self.needs != self.shown


def cite(board: Board, proof: Proof) -> list[Cited]:
    out = []
    for con in proof.numbers:
        r, c = board.at(con.cell)
        out.append(Cited(r, c, int(board.cells[con.cell]), con.mines))
    return sorted(out, key=lambda n: (n.row, n.col))


def name_pattern(board: Board, pos: Position, proof: Proof) -> str | None:
    """The pattern name for ``proof``, or None when only the generic description fits."""
    if proof.uses_count:
        return "mine-count endgame"
    if not proof.minimal:
        return None
    numbers = cite(board, proof)
    reduced = any(n.reduced for n in numbers)
    if len(numbers) == 1:
        return "flag reduction" if reduced else None
    name = (
        _line(board, numbers)
        or _corner(numbers)
        or _hole(pos, proof)
        or _triangle(numbers, proof)
        or "shared mines in regions"
    )
    return name + " (after flag reduction)" if reduced else name


def _needs_at(board: Board, row: int, col: int) -> int | None:
    """What the number at (row, col) still needs after its flags; None when the cell is not a number."""
    value = board.number(row, col)
    if value is None:
        return None
    known = sum(1 for rr, cc in board.neighbours(row, col) if board[rr, cc] in "F*X")
    return value - known


def _line(board: Board, numbers: list[Cited]) -> str | None:
    rows = {n.row for n in numbers}
    cols = {n.col for n in numbers}
    if len(rows) == 1:
        r = numbers[0].row
        cells = [(r, c) for c in range(min(cols), max(cols) + 1)]
    elif len(cols) == 1:
        c = numbers[0].col
        cells = [(r, c) for r in range(min(rows), max(rows) + 1)]
    else:
        return None
    run = tuple(_needs_at(board, r, c) for r, c in cells)
    if None in run:
        return None
    return LINE_PATTERNS.get(run) or LINE_PATTERNS.get(run[::-1])  # type: ignore[arg-type]


def _corner(numbers: list[Cited]) -> str | None:
    if len(numbers) != 3:
        return None
    for middle in numbers:
        ends = [n for n in numbers if n is not middle]
        steps = [(n.row - middle.row, n.col - middle.col) for n in ends]
        if (
            all(abs(dr) + abs(dc) == 1 for dr, dc in steps)
            and steps[0][0] * steps[1][0] + steps[0][1] * steps[1][1] == 0
        ) and ends[0].needs == ends[1].needs:
            return CORNER_PATTERNS.get((ends[0].needs, middle.needs, ends[1].needs))
    return None


def _hole(pos: Position, proof: Proof) -> str | None:
    """Flood the hidden cells 8-connected to the forced cell; a small closed pocket is a hole."""
    unknown = set(pos.unknown)
    nbrs = neighbour_table(pos.rows, pos.cols)
    pocket = {proof.cell}
    todo = [proof.cell]
    while todo:
        for j in nbrs[todo.pop()]:
            if j in unknown and j not in pocket:
                if len(pocket) >= HOLE_SIZE:
                    return None
                pocket.add(j)
                todo.append(j)
    return "hole"


def _triangle(numbers: list[Cited], proof: Proof) -> str | None:
    if len(proof.numbers) != 3:
        return None
    (r0, c0), (r1, c1), (r2, c2) = ((n.row, n.col) for n in numbers)
    if (r1 - r0) * (c2 - c0) == (r2 - r0) * (c1 - c0):
        return None  # in one line
    a, b, c = (set(con.unknowns) for con in proof.numbers)
    return "triangle" if a & b and b & c and a & c else None
