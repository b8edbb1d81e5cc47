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
from dataclasses import dataclass, field
from math import comb
from typing import Final

from autoplay.solver.native import PREPARE, SWEEP_OUT_OF_TIME, NativeSweep


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
    #: bit m set where ``totals[m]`` is non-zero, and the same for each group's ``group_mines``: whether a cell
    #: is certainly safe depends only on these (:meth:`analysis.Outcomes.safe_cells`), made once per count here
    total_support: int = field(default=0, compare=False, repr=False)
    group_support: tuple[int, ...] = field(default=(), compare=False, repr=False)


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
    return by_watched.get(0) or ComponentCount(groups, (), tuple(() for _ in groups), 0, tuple(0 for _ in groups))


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
    ordered, enumerator = _prepare(constraints, watched, deadline)
    return ordered, enumerator.counts(ordered)


def _prepare(
    constraints: list[tuple[tuple[int, ...], int]],
    watched: tuple[int, ...],
    deadline: float | None,
    early: int = -1,
) -> tuple[tuple[tuple[int, ...], ...], _Enumerator | _NativeCounter]:
    """The groups in sweep order and a counter over them, ready to count (``early``: see :func:`_sweep_order`).

    In C where it is built (:mod:`native`: the same groups in the same order, the same counts), else in Python.
    """
    if PREPARE is not None:
        ordered, sweep = PREPARE(constraints, watched, early)
        return ordered, _NativeCounter(sweep, constraints, watched, deadline, early)
    return _prepare_python(constraints, watched, deadline, early)


def _prepare_python(
    constraints: list[tuple[tuple[int, ...], int]],
    watched: tuple[int, ...],
    deadline: float | None,
    early: int = -1,
) -> tuple[tuple[tuple[int, ...], ...], _Enumerator]:
    """:func:`_prepare` in Python: the groups in sweep order and the enumerator over them."""
    pseudo = [(watched, -1)] if watched else []
    groups = group_cells(constraints + pseudo)
    group_of = {j: g for g, cells in enumerate(groups) for j in cells}
    cons_groups = [sorted({group_of[j] for j in cells}) for cells, _need in constraints]
    watched_groups = {group_of[j] for j in watched}
    first_swept = cons_groups[early] if early >= 0 else None
    order = _sweep_order(len(groups), cons_groups + [sorted(watched_groups)] if watched else cons_groups, first_swept)
    rank = {g: i for i, g in enumerate(order)}
    sizes = [len(groups[g]) for g in order]
    cons_groups = [sorted(rank[g] for g in gs) for gs in cons_groups]
    needs = [need for _cells, need in constraints]
    steps = [1 + _WATCH * (g in watched_groups) for g in order]
    enumerator = _Enumerator(sizes, cons_groups, needs, deadline, steps)
    return tuple(groups[g] for g in order), enumerator


class _NativeCounter:
    """The C set-up and sweep of one component (``_sweep.c``), with the Python sweep behind it.

    A count past the C sweep's 128 bits hands this and every later count of the component to a Python
    enumerator set up from the same numbers (the same groups in the same order), which is exact on any size.
    """

    def __init__(
        self,
        sweep: NativeSweep,
        constraints: list[tuple[tuple[int, ...], int]],
        watched: tuple[int, ...],
        deadline: float | None,
        early: int,
    ) -> None:
        self.native: NativeSweep | None = sweep
        self.constraints = list(constraints)
        self.watched, self.deadline, self.early = watched, deadline, early
        self.python: _Enumerator | None = None

    def set_need(self, c: int, need: int) -> None:
        """Number ``c`` needs ``need`` from now on (:class:`SiblingCounter`)."""
        self.constraints[c] = (self.constraints[c][0], need)
        if self.native is not None:
            self.native.set_need(c, need)
        if self.python is not None:
            self.python.set_need(c, need)

    def counts(self, ordered: tuple[tuple[int, ...], ...]) -> dict[int, ComponentCount]:
        """:meth:`_Enumerator.counts`; raises :class:`BudgetExceeded` past the deadline."""
        native = self.native
        if native is not None:
            try:
                found = native.counts(self.deadline, time.perf_counter)
            except SWEEP_OUT_OF_TIME:
                raise BudgetExceeded from None
            if found is not None:
                return {
                    seen: ComponentCount(ordered, totals, rows, support, supports)
                    for seen, (totals, rows, support, supports) in found.items()
                }
            self.native = None
        python = self.python
        if python is None:
            python = self.python = _prepare_python(self.constraints, self.watched, self.deadline, self.early)[1]
        python.deadline = self.deadline
        return python.counts(ordered)


def _by_watched(ordered: tuple[tuple[int, ...], ...], result: dict[int, list[int]]) -> dict[int, ComponentCount]:
    """The enumerator's vectors, keyed ``mines + _WATCH * watched mines``, as one count per watched mines."""
    k = len(ordered)
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
            supports = tuple([nonzero_places(per_m) for per_m in rows[1:]])
            counts[seen] = ComponentCount(ordered, rows[0], rows[1:], nonzero_places(rows[0]), supports)
    return counts


class SiblingCounter:
    """:func:`count_by_watched` of constraints that differ only in what one of them (``free``) needs.

    The depth-3 search counts the same follow-up cell in sibling positions: the positions after a
    candidate showed each of its numbers differ only in that number's need.  One enumerator serves
    them all: the groups, the sweep and the set-up are made once, and the memo of every sub-count
    that starts after the free number's first group (there its need is part of the memo's key, as
    what it still needs, and nothing below depends on its starting need) is kept from one sibling to
    the next; only the sub-counts that start at or before that group are counted again, and the sweep
    starts at whichever far end of the component reaches that group sooner.  Each answer holds
    :func:`count_by_watched`'s counts for that sibling, its groups possibly in another order
    (``tests/solver/test_sibling_counter.py``); the depth-3 search reads only sums and minima of them.
    """

    def __init__(
        self,
        constraints: list[tuple[tuple[int, ...], int]],
        free: int,
        watched: tuple[int, ...],
        deadline: float | None,
    ) -> None:
        self.ordered, self.enumerator = _prepare(constraints, watched, deadline, free)
        self.free = free
        self.need = constraints[free][1]
        self.answers: dict[int, dict[int, ComponentCount]] = {}

    def counts(self, need: int, deadline: float | None) -> dict[int, ComponentCount]:
        """The counts with the free number needing ``need``; raises :class:`BudgetExceeded` at ``deadline``."""
        found = self.answers.get(need)
        if found is None:
            enumerator = self.enumerator
            enumerator.deadline = deadline
            if need != self.need:
                enumerator.set_need(self.free, need)
                self.need = need
            found = self.answers[need] = enumerator.counts(self.ordered)
        return found


def nonzero_places(values: tuple[int, ...] | list[int]) -> int:
    """Bit m set where ``values[m]`` is not zero.

    >>> bin(nonzero_places([0, 5, 0, 2]))
    '0b1010'
    """
    mask = 0
    for m, v in enumerate(values):
        if v:
            mask |= 1 << m
    return mask


#: Result keys are ``mines + _WATCH * watched mines``; no component holds this many mines.
_WATCH: Final = 1 << 16


def _sweep_order(n: int, cons_groups: list[list[int]], early: list[int] | None = None) -> list[int]:
    """Breadth-first order from a far-away group, so the band of open numbers stays thin.

    With ``early`` (groups of a number whose need will change, :class:`SiblingCounter`), its piece is swept
    first, from whichever of the piece's two far ends reaches one of those groups sooner.
    """
    around: list[set[int]] = [set() for _ in range(n)]
    for gs in cons_groups:
        for g in gs:
            around[g].update(gs)
    adjacent = [sorted(a) for a in around]  # sorted once: every search walks them in this order
    order: list[int] = []
    placed = [False] * n
    starts = list(range(n)) if not early else [early[0], *range(n)]
    for start in starts:  # one pass per connected piece (callers normally pass one)
        if placed[start]:
            continue
        piece = _breadth_first(adjacent, _breadth_first(adjacent, start)[-1])
        if early and start == early[0]:
            other = _breadth_first(adjacent, piece[-1])
            if min(other.index(g) for g in early) < min(piece.index(g) for g in early):
                piece = other
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
        self.first = first
        self.needs = list(needs)
        self.open_at = open_at
        self.position = position
        self.touching = touching
        self.memo: dict[tuple[int, tuple[int, ...]], dict[int, list[int]]] = {}
        #: sub-counts from groups up to ``split``, where some number's starting need may still change (set_need)
        self.top: dict[tuple[int, tuple[int, ...]], dict[int, list[int]]] = {}
        self.split = -1

    def set_need(self, c: int, need: int) -> None:
        """Make number ``c`` need ``need``: its starting need enters only at its first group, so only the
        sub-counts from groups up to that one are forgotten (the rest of the memo holds for any need)."""
        self.needs[c] = need
        i = self.first[c]
        if i > self.split:  # the sub-counts from groups after i were kept with the others: move them apart
            self.split = i
            for key in [key for key in self.memo if key[0] <= i]:
                del self.memo[key]
        self.top.clear()
        where = self.position[i]
        needs = self.needs
        self.terms[i] = [(where.get(d, -1), needs[d], capacity_after) for d, capacity_after in self.touching[i]]
        self.plans[i] = [
            (where.get(d, -1), needs[d], touched) for (_s, _n, touched), d in zip(self.plans[i], self.open_at[i + 1])
        ]

    def _check_deadline(self) -> None:
        """Set-up is linear in the component but a 200x200 board's frontier is long: it is bounded too."""
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise BudgetExceeded

    def run(self) -> dict[int, list[int]]:
        """Every count of the component, by ``mines + _WATCH * watched mines``: [total, each group's mines]."""
        return self._solve(0, ())

    def counts(self, ordered: tuple[tuple[int, ...], ...]) -> dict[int, ComponentCount]:
        """:meth:`run` as one count per watched mines (``ordered``: the groups in sweep order)."""
        return _by_watched(ordered, self.run())

    def _solve(self, i: int, state: tuple[int, ...]) -> dict[int, list[int]]:
        if i == len(self.sizes):
            return {0: [1]}
        key = (i, state)
        memo = self.top if i <= self.split else self.memo
        cached = memo.get(key)
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
        memo[key] = out
        return out
