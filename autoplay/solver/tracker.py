"""The solver's position kept up to date cell by cell, for a caller that sees every change.

The stateless front door re-reads the whole board at every decision, which
was the largest cost of a simulated game after the guess search: most numbers
on a board are long settled, yet every one is looked at again.  The simulator
knows exactly which cells each move opened or flagged, so it can tell a
tracker, which only touches the numbers around those cells.  The position it
hands out is the one :func:`read_position` would read from the same board
(same constraints in the same order), so decisions do not change.
"""

from __future__ import annotations

from autoplay.board.model import neighbour_table
from autoplay.solver.position import Constraint, Position, useful_constraints


class PositionTracker:
    """Unknown cells, flags and the live number constraints of one board, updated per changed cell."""

    def __init__(self, rows: int, cols: int):
        self.rows, self.cols = rows, cols
        self._nbrs = neighbour_table(rows, cols)
        self._unknown = set(range(rows * cols))
        self._mines: set[int] = set()
        self._numbers: dict[int, int] = {}
        #: numbers that still touch an unknown cell, by their flat index
        self._live: dict[int, Constraint] = {}

    def reveal(self, index: int, number: int) -> None:
        """``index`` now shows ``number``."""
        self._unknown.discard(index)
        self._numbers[index] = number
        self._refresh(index)
        self._refresh_around(index)

    def flag(self, index: int) -> None:
        """``index`` is flagged (the solver trusts flags as mines)."""
        if index in self._unknown:
            self._unknown.discard(index)
            self._mines.add(index)
            self._refresh_around(index)

    def position(self) -> Position:
        live = self._live
        constraints = [live[i] for i in sorted(live)]
        return Position(
            self.rows,
            self.cols,
            tuple(sorted(self._unknown)),
            tuple(sorted(self._mines)),
            useful_constraints(constraints, self.cols),
        )

    def _refresh_around(self, index: int) -> None:
        for j in self._nbrs[index]:
            if j in self._numbers:
                self._refresh(j)

    def _refresh(self, cell: int) -> None:
        around = self._nbrs[cell]
        unknowns = tuple(j for j in around if j in self._unknown)
        if unknowns:
            need = self._numbers[cell] - sum(1 for j in around if j in self._mines)
            self._live[cell] = Constraint(cell, unknowns, need)
        else:
            self._live.pop(cell, None)
