"""Exact counting of one independent frontier component.

Cells that touch exactly the same numbers form a *group*; only how many mines
each group holds matters, and a group of ``s`` cells holding ``x`` mines
stands for ``C(s, x)`` cell-level assignments.  Groups are visited in a
breadth-first sweep from a peripheral group, so at each step only a thin band
of numbers is "open" (touched both before and after).  The count of the rest
depends only on what those open numbers still need, so results are memoised on
that tuple: a long frontier costs time linear in its length instead of
exponential, and only truly wide open areas stay expensive, which the node
budget bounds.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from math import comb
from typing import Final


class BudgetExceeded(Exception):
    """Enumeration hit its deadline; the caller falls back to an approximation."""


@dataclass(frozen=True)
class ComponentCount:
    """Exact counts of one component.

    ``totals[m]``: number of cell-level assignments with ``m`` mines in the
    component.  ``group_mines[g][m]``: sum over those assignments of the mines
    in group ``g`` (divide by the group size for a cell's share).
    """

    groups: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]
    group_mines: tuple[tuple[int, ...], ...]


def group_cells(constraints: list[tuple[tuple[int, ...], int]]) -> list[tuple[int, ...]]:
    """Cells with identical sets of constraints, each group sorted, in first-seen order."""
    keys: dict[int, list[int]] = {}
    for k, (cells, _need) in enumerate(constraints):
        for j in cells:
            keys.setdefault(j, []).append(k)
    groups: dict[tuple[int, ...], list[int]] = {}
    for j, ks in keys.items():
        groups.setdefault(tuple(ks), []).append(j)
    return [tuple(sorted(g)) for g in groups.values()]


def count_component(constraints: list[tuple[tuple[int, ...], int]], deadline: float | None = None) -> ComponentCount:
    """Count every assignment satisfying ``constraints`` (each: unknown cells, mines they hold).

    Raises :class:`BudgetExceeded` once ``time.perf_counter()`` passes ``deadline``.
    """
    groups, by_watched = _count(constraints, (), deadline)
    return by_watched.get(0) or ComponentCount(groups, (), tuple(() for _ in groups))


def count_by_watched(
    constraints: list[tuple[tuple[int, ...], int]], watched: tuple[int, ...], deadline: float | None = None
) -> dict[int, ComponentCount]:
    """:func:`count_component` split by how many mines the ``watched`` cells hold.

    The guess search asks what a cell's number would be: the number is the mines among its unknown
    neighbours, so watching those neighbours counts every possible number in one enumeration instead
    of one enumeration per number.  Watched cells need not be in any constraint.  Only counts that
    have at least one assignment appear.
    """
    return _count(constraints, watched, deadline)[1]


def _count(
    constraints: list[tuple[tuple[int, ...], int]], watched: tuple[int, ...], deadline: float | None
) -> tuple[tuple[tuple[int, ...], ...], dict[int, ComponentCount]]:
    pseudo = [(watched, -1)] if watched else []
    groups = group_cells(constraints + pseudo)
    group_of = {j: g for g, cells in enumerate(groups) for j in cells}
    cons_groups = [sorted({group_of[j] for j in cells}) for cells, _need in constraints]
    watched_groups = {group_of[j] for j in watched}
    order = _sweep_order(len(groups), cons_groups + [sorted(watched_groups)] if watched else cons_groups)
    rank = {g: i for i, g in enumerate(order)}
    sizes = [len(groups[g]) for g in order]
    cons_groups = [sorted(rank[g] for g in gs) for gs in cons_groups]
    needs = [need for _cells, need in constraints]
    steps = [1 + _WATCH * (g in watched_groups) for g in order]
    result = _Enumerator(sizes, cons_groups, needs, deadline, steps).run()
    k = len(order)
    ordered = tuple(groups[g] for g in order)
    by_watched: dict[int, dict[int, list[int]]] = {}
    for key, vec in result.items():
        seen, m = divmod(key, _WATCH)
        by_watched.setdefault(seen, {})[m] = vec
    zero = [0] * (k + 1)
    counts: dict[int, ComponentCount] = {}
    for seen in sorted(by_watched):
        vecs = by_watched[seen]
        # one column per mine count (totals, then each group's mines); transposed into rows in C
        rows = tuple(zip(*[vecs.get(m, zero) for m in range(max(vecs) + 1)]))
        if any(rows[0]):
            counts[seen] = ComponentCount(ordered, rows[0], rows[1:])
    return ordered, counts


#: Result keys are ``mines + _WATCH * watched mines``; no component holds this many mines.
_WATCH: Final = 1 << 16


def _sweep_order(n: int, cons_groups: list[list[int]]) -> list[int]:
    """Breadth-first order from a far-away group, so the band of open numbers stays thin."""
    around: list[set[int]] = [set() for _ in range(n)]
    for gs in cons_groups:
        for g in gs:
            around[g].update(gs)
    adjacent = [sorted(a) for a in around]  # sorted once: every search walks them in this order
    order: list[int] = []
    placed = [False] * n
    for start in range(n):  # one pass per connected piece (callers normally pass one)
        if placed[start]:
            continue
        piece = _breadth_first(adjacent, _breadth_first(adjacent, start)[-1])
        order.extend(piece)
        for g in piece:
            placed[g] = True
    return order


def _breadth_first(adjacent: list[list[int]], start: int) -> list[int]:
    """The groups reachable from ``start`` in breadth-first order (the list is its own queue)."""
    seen = [False] * len(adjacent)
    seen[start] = True
    out = [start]
    head = 0
    while head < len(out):
        for h in adjacent[out[head]]:
            if not seen[h]:
                seen[h] = True
                out.append(h)
        head += 1
    return out


def _open_numbers(first: list[int], last: list[int], k: int, check: Callable[[], None]) -> list[list[int]]:
    """For each step i (0..k): the numbers touched by a group before i and by one at i or later, sorted.

    Swept once with open/close events, so the cost is the size of the answer, not groups x numbers;
    ``check`` is called every step so a deadline also bounds this set-up.
    """
    opens: list[list[int]] = [[] for _ in range(k + 1)]
    closes: list[list[int]] = [[] for _ in range(k + 1)]
    for c, (lo, hi) in enumerate(zip(first, last)):
        if lo < hi:
            opens[lo + 1].append(c)
            closes[hi + 1].append(c)
    current: set[int] = set()
    out: list[list[int]] = []
    for i in range(k + 1):
        if i % 64 == 0:
            check()
        current.difference_update(closes[i])
        current.update(opens[i])
        out.append(sorted(current))
    return out


class _Enumerator:
    """Memoised depth-first count over groups in sweep order (see the module docstring)."""

    CHECK_EVERY = 256

    def __init__(
        self,
        sizes: list[int],
        cons_groups: list[list[int]],
        needs: list[int],
        deadline: float | None,
        steps: list[int],
    ):
        self.sizes = sizes
        self.steps = steps
        self.deadline = deadline
        self.nodes = 0
        k = len(sizes)
        first = [min(gs) for gs in cons_groups]
        last = [max(gs) for gs in cons_groups]
        # for each group: the numbers touching it (ascending) and the room their other groups leave after it
        touching: list[list[tuple[int, int]]] = [[] for _ in range(k)]
        for c, gs in enumerate(cons_groups):
            after = 0
            for g in reversed(gs):
                touching[g].append((c, after))
                after += sizes[g]
        open_at = _open_numbers(first, last, k, self._check_deadline)
        position = [{c: p for p, c in enumerate(cs)} for cs in open_at]
        # for group i: (where its numbers' needs come from, their fresh value, capacity left after i)
        self.terms = []
        self.plans = []
        self.touches: list[tuple[int, ...]] = []
        for i in range(k):
            self._check_deadline()
            where = position[i]
            self.terms.append([(where.get(c, -1), needs[c], capacity_after) for c, capacity_after in touching[i]])
            here = {c for c, _capacity in touching[i]}
            plan = [(where.get(c, -1), needs[c], c in here) for c in open_at[i + 1]]
            self.plans.append(plan)
            self.touches.append(tuple(int(touched) for _src, _fresh, touched in plan))
        self.memo: dict[tuple[int, tuple[int, ...]], dict[int, list[int]]] = {}

    def _check_deadline(self) -> None:
        """Set-up is linear in the component but a 200x200 board's frontier is long: it is bounded too."""
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise BudgetExceeded

    def run(self) -> dict[int, list[int]]:
        return self._solve(0, ())

    def _solve(self, i: int, state: tuple[int, ...]) -> dict[int, list[int]]:
        if i == len(self.sizes):
            return {0: [1]}
        key = (i, state)
        cached = self.memo.get(key)
        if cached is not None:
            return cached
        self.nodes += 1
        if self.deadline is not None and self.nodes % self.CHECK_EVERY == 0 and time.perf_counter() > self.deadline:
            raise BudgetExceeded
        size = self.sizes[i]
        lo, hi = 0, size
        for src, fresh, capacity_after in self.terms[i]:
            need = fresh if src < 0 else state[src]
            if need - capacity_after > lo:
                lo = need - capacity_after
            if need < hi:
                hi = need
        out: dict[int, list[int]] = {}
        plan = self.plans[i]
        step = self.steps[i]
        # what each open number still needs before this group's mines, then less x where the group touches it
        before = tuple([fresh if src < 0 else state[src] for src, fresh, _touched in plan])
        touches = self.touches[i]
        for x in range(lo, hi + 1):
            if x:
                next_state = tuple([need - x * t for need, t in zip(before, touches)])
            else:
                next_state = before
            below = self._solve(i + 1, next_state)
            if not below:
                continue
            ways = comb(size, x)
            shift = x * step
            for m, vec in below.items():
                acc = out.get(m + shift)
                if acc is None:
                    if ways != 1:
                        new = [ways * v for v in vec]
                    else:
                        new = list(vec)
                    new.insert(1, new[0] * x)
                    out[m + shift] = new
                else:  # a list of this call's own making: added to in place, no new list per term
                    first = ways * vec[0]
                    acc[0] += first
                    acc[1] += first * x
                    for t in range(1, len(vec)):
                        acc[t + 1] += ways * vec[t]
        self.memo[key] = out
        return out
