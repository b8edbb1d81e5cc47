"""What a handful of numbers force on their own: the exact check behind every explanation and grade.

A move is explained by the numbers that force it, so the check must ignore
every other number on the board.  Cells touching exactly the same subset of
the chosen numbers form a group; only how many mines each group holds
matters, so the search walks group counts (at most 2^k - 1 groups for k
numbers) instead of cells.  A group is forced safe when it holds no mine in
any consistent count vector and forced mines when it is full in all of them.

With the global mine count the union of the numbers' cells must leave a
placeable number of mines for the unknown cells outside it; when every
solution uses up exactly the mines left (or leaves exactly as many as there
are outside cells), the outside cells are forced too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from autoplay.solver.position import Constraint


@dataclass(frozen=True)
class MineCount:
    """The global count as a constraint: ``left`` mines among all the ``unknown`` cells (flat indices)."""

    left: int
    unknown: tuple[int, ...]


@dataclass(frozen=True)
class Forced:
    """Flat indices forced safe and forced mines by one set of numbers."""

    safe: frozenset[int]
    mines: frozenset[int]

    def __bool__(self) -> bool:
        return bool(self.safe or self.mines)


NOTHING = Forced(frozenset(), frozenset())


class _Undecided(Exception):
    """Every group already took both extreme values: nothing can be forced, stop enumerating."""


class _Found(Exception):
    """A satisfiability search met its first solution."""


class Subsystem:
    """The chosen numbers as groups of cells, ready to be enumerated or asked one question."""

    def __init__(self, constraints: Sequence[Constraint], count: MineCount | None = None) -> None:
        membership: dict[int, int] = {}
        for k, con in enumerate(constraints):
            for j in con.unknowns:
                membership[j] = membership.get(j, 0) | (1 << k)
        by_mask: dict[int, list[int]] = {}
        for j, mask in membership.items():
            by_mask.setdefault(mask, []).append(j)
        self.membership = membership
        self.masks = sorted(by_mask)
        self.cells = [by_mask[m] for m in self.masks]
        self.sizes = [len(c) for c in self.cells]
        self.bits = [[k for k in range(len(constraints)) if m >> k & 1] for m in self.masks]
        self.need = [con.mines for con in constraints]
        self.room = [len(con.unknowns) for con in constraints]
        self.count = count
        union = len(membership)
        self.outside = 0 if count is None else len(count.unknown) - union
        self.low_total = 0 if count is None else max(0, count.left - self.outside)
        self.high_total = union if count is None else count.left

    def _walk(self, visit, allowed: list[range], low: int, high: int) -> None:
        """Depth-first over group counts within ``allowed`` and totals in [low, high]; ``visit`` sees each solution.

        Works on copies of the needs, so a visit that stops the walk by raising leaves the subsystem reusable.
        """
        need, room, sizes, bits = list(self.need), list(self.room), self.sizes, self.bits
        n_groups = len(sizes)
        chosen = [0] * n_groups

        def walk(g: int, total: int) -> None:
            if g == n_groups:
                if low <= total <= high:
                    visit(chosen, total)
                return
            size, touched = sizes[g], bits[g]
            for k in touched:
                room[k] -= size
            for x in allowed[g]:
                if total + x > high:
                    break
                if all(0 <= need[k] - x <= room[k] for k in touched):
                    for k in touched:
                        need[k] -= x
                    chosen[g] = x
                    walk(g + 1, total + x)
                    for k in touched:
                        need[k] += x
            for k in touched:
                room[k] += size

        walk(0, 0)

    def forced(self) -> Forced:
        """Every cell with one value in all solutions (nothing when there is no solution)."""
        sizes = self.sizes
        n_groups = len(sizes)
        lowest = [s + 1 for s in sizes]
        highest = [-1] * n_groups
        totals: set[int] = set()
        counting = self.count is not None

        def visit(chosen: list[int], total: int) -> None:
            totals.add(total)
            for g, x in enumerate(chosen):
                if x < lowest[g]:
                    lowest[g] = x
                if x > highest[g]:
                    highest[g] = x
            if (not counting or len(totals) > 1) and all(
                lowest[g] == 0 and highest[g] == sizes[g] for g in range(n_groups)
            ):
                raise _Undecided

        try:
            self._walk(visit, [range(s + 1) for s in sizes], self.low_total, self.high_total)
        except _Undecided:
            return NOTHING
        if not totals:
            return NOTHING
        safe: set[int] = set()
        mines: set[int] = set()
        for g, cells in enumerate(self.cells):
            if highest[g] == 0:
                safe.update(cells)
            elif lowest[g] == sizes[g]:
                mines.update(cells)
        if self.count is not None and self.outside:
            rest = [j for j in self.count.unknown if j not in self.membership]
            if min(totals) == max(totals) == self.count.left:
                safe.update(rest)
            elif min(totals) == max(totals) == self.count.left - self.outside:
                mines.update(rest)
        return Forced(frozenset(safe), frozenset(mines))

    def _satisfiable(self, allowed: list[range], low: int, high: int) -> bool:
        def stop(chosen: list[int], total: int) -> None:
            raise _Found

        try:
            self._walk(stop, allowed, low, high)
        except _Found:
            return True
        return False

    def forces(self, cell: int, mine: bool) -> bool:
        """True when ``cell`` is a mine (``mine``) or safe in every solution, and there is a solution.

        One satisfiability search for the opposite value, which fails fast
        on the many sets that force nothing; explaining a move asks this of
        thousands of sets, where listing every solution would cost ~50x more.
        """
        full = [range(s + 1) for s in self.sizes]
        low, high = self.low_total, self.high_total
        g = self.membership.get(cell)
        if g is not None:
            g = self.masks.index(g)
            size = self.sizes[g]
            opposite = list(full)
            opposite[g] = range(size) if mine else range(1, size + 1)
            if self._satisfiable(opposite, low, high):
                return False
            wanted = list(full)
            wanted[g] = range(size, size + 1) if mine else range(1)
            return self._satisfiable(wanted, low, high)
        if self.count is None or not self.outside:
            return False
        # a cell outside the set is decided only by the totals: all mines left inside it, or none to spare
        edge = self.count.left - self.outside if mine else self.count.left
        if mine and self._satisfiable(full, max(low, edge + 1), high):
            return False
        if not mine and self._satisfiable(full, low, min(high, edge - 1)):
            return False
        return self._satisfiable(full, edge, edge)


def forced_cells(constraints: Sequence[Constraint], count: MineCount | None = None) -> Forced:
    """Cells whose value is the same in every assignment consistent with ``constraints`` (and ``count``).

    Returns nothing forced when the numbers contradict each other: an
    explanation never rests on an impossible set.
    """
    return Subsystem(constraints, count).forced()


def forces(constraints: Sequence[Constraint], cell: int, mine: bool, count: MineCount | None = None) -> bool:
    """Whether these numbers alone (and ``count``) make ``cell`` a mine (``mine``) or safe."""
    return Subsystem(constraints, count).forces(cell, mine)


def count_can_matter(constraints: Sequence[Constraint], count: MineCount) -> bool:
    """False when the mine count cannot cut any solution of any set of these numbers.

    The count binds a set only when the mines left are no more than its
    numbers could need, or the cells outside it could not hold the rest; the
    grader skips the whole count level on the many positions where neither can
    happen.  The empty set (every cell safe, or every cell a mine) is left to
    the caller.
    """
    frontier = {j for con in constraints for j in con.unknowns}
    return count.left <= sum(con.mines for con in constraints) or len(count.unknown) - len(frontier) <= count.left
