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

from bisect import bisect_left, insort

from autoplay.board.model import neighbour_table
from autoplay.solver.position import Constraint, Position, useful_constraints


class PositionTracker:
    """Unknown cells, flags and the live number constraints of one board, updated per changed cell."""

    def __init__(self, rows: int, cols: int):
        self.rows, self.cols = rows, cols
        self._nbrs = neighbour_table(rows, cols)
        # per cell, indexed by flat index (lists, not sets: the compiled solver reads them without boxing ints)
        self._is_unknown = [True] * (rows * cols)
        #: the unknown cells in order, so a position need not sort hundreds of cells at every decision
        self._unknown_order = list(range(rows * cols))
        self._mines: list[int] = []
        #: flags around each cell, kept as flags are placed so a refresh need not count them
        self._mines_around = [0] * (rows * cols)
        #: the number each opened cell shows, -1 while it is not open
        self._number = [-1] * (rows * cols)
        #: the batch that last touched each cell, so a batch refreshes a number once
        self._touched_in = [0] * (rows * cols)
        self._batch = 0
        #: numbers that still touch an unknown cell, by their flat index
        self._live: dict[int, Constraint] = {}

    def update(self, opened: list[tuple[int, int]], flagged: list[int]) -> None:
        """Cells ``opened`` as (index, number shown) and cells ``flagged`` (trusted as mines) since the last call.

        Taken as one batch because a cascade opens dozens of cells around the same numbers: each
        number touched is refreshed once, not once per neighbour that changed.
        """
        is_unknown, number, nbrs, order = self._is_unknown, self._number, self._nbrs, self._unknown_order
        touched_in = self._touched_in
        self._batch += 1
        batch = self._batch
        touched: list[int] = []
        for index, shown in opened:
            if is_unknown[index]:
                is_unknown[index] = False
                del order[bisect_left(order, index)]
            number[index] = shown
            if touched_in[index] != batch:
                touched_in[index] = batch
                touched.append(index)
            for j in nbrs[index]:
                if touched_in[j] != batch:
                    touched_in[j] = batch
                    touched.append(j)
        mines_around = self._mines_around
        for index in flagged:
            if is_unknown[index]:
                is_unknown[index] = False
                del order[bisect_left(order, index)]
                insort(self._mines, index)
                for j in nbrs[index]:
                    mines_around[j] += 1
                    if touched_in[j] != batch:
                        touched_in[j] = batch
                        touched.append(j)
        for cell in touched:
            if number[cell] >= 0:
                self._refresh(cell)

    def position(self) -> Position:
        live = self._live
        constraints = [live[i] for i in sorted(live)]
        return Position(
            self.rows,
            self.cols,
            tuple(self._unknown_order),
            tuple(self._mines),
            useful_constraints(constraints, self.cols),
        )

    def _refresh(self, cell: int) -> None:
        is_unknown = self._is_unknown
        unknowns = tuple([j for j in self._nbrs[cell] if is_unknown[j]])
        if unknowns:
            self._live[cell] = Constraint(cell, unknowns, self._number[cell] - self._mines_around[cell])
        else:
            self._live.pop(cell, None)
