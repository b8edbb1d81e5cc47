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

from dataclasses import dataclass
from typing import Sequence

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


def forced_cells(constraints: Sequence[Constraint], count: MineCount | None = None) -> Forced:
    """Cells whose value is the same in every assignment consistent with ``constraints`` (and ``count``).

    Returns nothing forced when the numbers contradict each other: an
    explanation never rests on an impossible set.
    """
    membership: dict[int, int] = {}
    for k, con in enumerate(constraints):
        for j in con.unknowns:
            membership[j] = membership.get(j, 0) | (1 << k)
    by_mask: dict[int, list[int]] = {}
    for j, mask in membership.items():
        by_mask.setdefault(mask, []).append(j)
    masks = sorted(by_mask)
    sizes = [len(by_mask[m]) for m in masks]
    bits = [[k for k in range(len(constraints)) if m >> k & 1] for m in masks]
    need = [con.mines for con in constraints]
    room = [len(con.unknowns) for con in constraints]
    n_groups = len(masks)
    lowest = [s + 1 for s in sizes]
    highest = [-1] * n_groups
    totals: set[int] = set()
    union = len(membership)
    outside = 0 if count is None else len(count.unknown) - union
    low_total = 0 if count is None else max(0, count.left - outside)
    high_total = union if count is None else count.left
    chosen = [0] * n_groups

    def record(total: int) -> None:
        totals.add(total)
        for g, x in enumerate(chosen):
            if x < lowest[g]:
                lowest[g] = x
            if x > highest[g]:
                highest[g] = x
        if count is None or len(totals) > 1:
            if all(lowest[g] == 0 and highest[g] == sizes[g] for g in range(n_groups)):
                raise _Undecided

    def walk(g: int, total: int) -> None:
        if g == n_groups:
            if low_total <= total <= high_total:
                record(total)
            return
        size, touched = sizes[g], bits[g]
        for k in touched:
            room[k] -= size
        for x in range(size + 1):
            if total + x > high_total:
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

    try:
        walk(0, 0)
    except _Undecided:
        return NOTHING
    if not totals:
        return NOTHING
    safe: set[int] = set()
    mines: set[int] = set()
    for g, mask in enumerate(masks):
        if highest[g] == 0:
            safe.update(by_mask[mask])
        elif lowest[g] == sizes[g]:
            mines.update(by_mask[mask])
    if count is not None and outside:
        rest = [j for j in count.unknown if j not in membership]
        if max(totals) == count.left:
            if min(totals) == count.left:
                safe.update(rest)
        elif min(totals) == count.left - outside and max(totals) == min(totals):
            mines.update(rest)
    return Forced(frozenset(safe), frozenset(mines))


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
