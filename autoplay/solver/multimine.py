"""Exact probabilities and moves for the several-mines-per-cell variant (up to ``K`` mines a cell).

The counting is the one-mine engine's (:mod:`count`, :mod:`analysis`) with the weights of
:mod:`multiweights`: cells touching the same numbers form a group, the frontier splits into
independent components swept group by group with memoised open-number states, the components'
weights by mine count are convolved, and the cells touching no number are one outer group whose
weight for ``m`` mines is a coefficient of ``P(t)^n`` computed without enumerating them.  What
changes is the weight of a group of ``s`` cells holding ``x`` mines (``[t^x] P^s`` instead of
``C(s, x)``), its capacity (``K s`` mines) and one more sum per group: the weight of the layouts
that leave a given cell of the group empty, because what decides safety is the chance that a cell
holds *at least one* mine, which is no longer its expected count.

The one-mine game never comes here: its code path and its decisions stay exactly as they were.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction

from autoplay.board.model import neighbour_table
from autoplay.board.multiformat import MultiBoard
from autoplay.errors import ContradictionError
from autoplay.solver.analysis import Analysis, Component, _leave_one_out, _split
from autoplay.solver.count import BudgetExceeded, _Enumerator, _sweep_order, group_cells
from autoplay.solver.decide import Decision, Move
from autoplay.solver.multiweights import cell_polynomial, group_weights, power_coefficients
from autoplay.solver.position import Constraint, Position, useful_constraints

Coord = tuple[int, int]
Constraints = list[tuple[tuple[int, ...], int]]


@dataclass(frozen=True)
class MultiCount:
    """Exact weights of one component, by the number of mines ``m`` in it.

    ``totals[m]``: summed weight of its layouts.  ``group_mines[g][m]``: the same sum with each
    layout multiplied by the mines in group ``g``.  ``group_empty[g][m]``: the sum over layouts with
    one given cell of ``g`` empty (the same for every cell of the group, by symmetry).
    """

    groups: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]
    group_mines: tuple[tuple[int, ...], ...]
    group_empty: tuple[tuple[int, ...], ...]


def count_multi(constraints: Constraints, max_per_cell: int, deadline: float | None = None) -> MultiCount:
    """Weigh every layout of the constraints' cells with at most ``max_per_cell`` mines a cell.

    Raises :class:`BudgetExceeded` once ``time.perf_counter()`` passes ``deadline``.
    """
    groups = group_cells(constraints)
    group_of = {j: g for g, cells in enumerate(groups) for j in cells}
    cons_groups = [sorted({group_of[j] for j in cells}) for cells, _need in constraints]
    order = _sweep_order(len(groups), cons_groups)
    rank = {g: i for i, g in enumerate(order)}
    ordered = tuple(groups[g] for g in order)
    enumerator = _WeightedEnumerator(
        [len(cells) for cells in ordered],
        [sorted(rank[g] for g in gs) for gs in cons_groups],
        [need for _cells, need in constraints],
        deadline,
        max_per_cell,
    )
    result = enumerator.run()
    size = max(result, default=-1) + 1
    k = len(ordered)
    totals = [0] * size
    mines = [[0] * size for _ in range(k)]
    empty = [[0] * size for _ in range(k)]
    for m, vec in result.items():
        totals[m] = vec[0]
        for g in range(k):
            mines[g][m] = vec[1 + 2 * g]
            empty[g][m] = vec[2 + 2 * g]
    return MultiCount(ordered, tuple(totals), tuple(map(tuple, mines)), tuple(map(tuple, empty)))


class _WeightedEnumerator(_Enumerator):
    """The one-mine sweep (same open-number states and bounds) with the variant's group weights.

    The parent is given each group's capacity (``K`` times its cells) as its size, so its bounds
    and capacity bookkeeping hold unchanged; only how a group's choice is weighed and summed differs.
    """

    def __init__(
        self, cells: list[int], cons_groups: list[list[int]], needs: list[int], deadline: float | None, k: int
    ):
        super().__init__([k * s for s in cells], cons_groups, needs, deadline, [1] * len(cells))
        self.weights = [group_weights(k, s) for s in cells]

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
        lo, hi = 0, self.sizes[i]
        for src, fresh, capacity_after in self.terms[i]:
            need = fresh if src < 0 else state[src]
            lo, hi = max(lo, need - capacity_after), min(hi, need)
        ways, empty = self.weights[i]
        out: dict[int, list[int]] = {}
        for x in range(lo, hi + 1):
            after = tuple((fresh if src < 0 else state[src]) - x * touched for src, fresh, touched in self.plans[i])
            for m, vec in self._solve(i + 1, after).items():
                rest = vec[0]
                new = [rest * ways[x], rest * ways[x] * x, rest * empty[x]] + [v * ways[x] for v in vec[1:]]
                acc = out.get(m + x)
                if acc is None:
                    out[m + x] = new
                else:
                    for p, v in enumerate(new):
                        acc[p] += v
        self.memo[key] = out
        return out


# -- a position of the variant ------------------------------------------------
def read_multi_position(board: MultiBoard) -> Position:
    """The solver's view of ``board``: a flagged or shown cell is listed in ``known_mines`` once per mine.

    Raises :class:`ContradictionError` for a number that its neighbours cannot satisfy.
    """
    rows, cols, k = board.rows, board.cols, board.max_per_cell
    nbrs = neighbour_table(rows, cols)
    unknown = tuple(i for i in range(rows * cols) if board.is_unknown(i))
    unknown_set = set(unknown)
    known = tuple(i for i in range(rows * cols) for _ in range(board.mines_at(i)))
    constraints = []
    for i in range(rows * cols):
        number = board.number(i)
        if number is None:
            continue
        around = tuple(j for j in nbrs[i] if j in unknown_set)
        need = number - sum(board.mines_at(j) for j in nbrs[i])
        if need < 0 or need > k * len(around):
            r, c = divmod(i, cols)
            raise ContradictionError(
                f"the {number} at ({r},{c}) needs {need} more mines among {len(around)} unknown cells "
                f"holding at most {k} each",
                [(r, c)] + [divmod(j, cols) for j in around],
            )
        if around:
            constraints.append(Constraint(i, around, need))
    return Position(rows, cols, unknown, known, useful_constraints(constraints, cols))


# -- the whole board ------------------------------------------------------------
@dataclass
class MultiShare:
    """Cells that share one chance of being empty and one expected count (a group, or the outer cells)."""

    cells: tuple[int, ...]
    empty: Fraction
    expected: Fraction


def analyze_multi(pos: Position, mines: int | None, max_per_cell: int, *, deadline: float | None = None) -> Analysis:
    """Exact chance of at least one mine and expected mines of every unknown cell of ``pos``.

    With ``mines`` (the game's total) the off-frontier cells are weighed too ("global");
    without it each component counts alone and the off-frontier cells get nothing ("local").
    A component that cannot be counted before ``deadline`` gets its numbers' mean density instead
    (``approximate``).  Raises :class:`ContradictionError` when no layout explains the board.
    """
    k = max_per_cell
    pieces = _split(pos)
    counts: list[MultiCount] = []
    guessed: dict[int, float] = {}
    for piece in pieces:
        try:
            count = count_multi(piece, k, deadline)
        except BudgetExceeded:
            guessed.update(_density(piece, k))
            continue
        if not any(count.totals):
            cells = {j for cells, _ in piece for j in cells}
            numbers = [con.cell for con in pos.constraints if cells.intersection(con.unknowns)]
            raise ContradictionError("no placement of mines satisfies these numbers", pos.coords(numbers))
        counts.append(count)
    frontier = {j for piece in pieces for cells, _ in piece for j in cells}
    off = tuple(j for j in pos.unknown if j not in frontier)
    if mines is None:
        shares, solutions = _local_shares(counts)
    else:
        left = mines - len(pos.known_mines) - round(sum(guessed.values()))
        shares, solutions = _global_shares(pos, counts, off, left, k)
    return _result(pos, shares, guessed, counts, solutions, mines is not None, k)


def _local_shares(counts: list[MultiCount]) -> tuple[list[MultiShare], int]:
    shares = []
    solutions = 1
    for count in counts:
        total = sum(count.totals)
        solutions *= total
        for cells, mined, empty in zip(count.groups, count.group_mines, count.group_empty):
            shares.append(MultiShare(cells, Fraction(sum(empty), total), Fraction(sum(mined), total * len(cells))))
    return shares, solutions


def _global_shares(
    pos: Position, counts: list[MultiCount], off: tuple[int, ...], left: int, k: int
) -> tuple[list[MultiShare], int]:
    """Convolve the components and weigh each frontier total by the outer cells holding the rest."""
    if left < 0:
        raise ContradictionError(
            f"too few mines: the flags and shown mines already hold {-left} more than the game has"
        )
    n_off = len(off)
    excluding, full = _leave_one_out([c.totals for c in counts])
    outer = power_coefficients(k, n_off, left)
    room = [outer[left - m] if m <= left else 0 for m in range(len(full))]
    total = sum(w * r for w, r in zip(full, room))
    if total == 0:
        numbers = [con.cell for con in pos.constraints]
        raise ContradictionError(
            f"no placement of the {left} remaining mines fits the numbers (at most {k} a cell)",
            pos.coords(numbers or pos.unknown),
        )
    shares = []
    for i, count in enumerate(counts):
        others = [(j, w) for j, w in enumerate(excluding[i]) if w]
        rest = [sum(w * room[m + j] for j, w in others if m + j < len(room)) for m in range(len(count.totals))]
        for cells, mined, empty in zip(count.groups, count.group_mines, count.group_empty):
            held = sum(x * r for x, r in zip(mined, rest))
            shares.append(
                MultiShare(
                    cells, Fraction(sum(e * r for e, r in zip(empty, rest)), total), Fraction(held, total * len(cells))
                )
            )
    if n_off:
        one_empty = power_coefficients(k, n_off - 1, left)
        factor = cell_polynomial(k)[0]  # K!: the weight of the empty cell itself
        off_empty = sum(w * factor * one_empty[left - m] for m, w in enumerate(full) if m <= left)
        off_held = sum(w * room[m] * (left - m) for m, w in enumerate(full))
        shares.append(MultiShare(off, Fraction(off_empty, total), Fraction(off_held, total * n_off)))
    return shares, total


def _density(piece: Constraints, k: int) -> dict[int, float]:
    """Fallback for a component too big to count in time: each cell's expected mines = its numbers' mean density."""
    seen: dict[int, list[float]] = {}
    for cells, need in piece:
        for j in cells:
            seen.setdefault(j, []).append(need / len(cells))
    return {j: min(float(k), sum(v) / len(v)) for j, v in seen.items()}


def _result(
    pos: Position,
    shares: list[MultiShare],
    guessed: dict[int, float],
    counts: list[MultiCount],
    solutions: int,
    is_global: bool,
    k: int,
) -> Analysis:
    rows, cols = pos.rows, pos.cols
    risk: list[list[float | None]] = [[None] * cols for _ in range(rows)]
    expected: list[list[float | None]] = [[None] * cols for _ in range(rows)]
    for j in pos.known_mines:
        r, c = divmod(j, cols)
        risk[r][c] = 1.0
        expected[r][c] = (expected[r][c] or 0.0) + 1.0
    exact: dict[Coord, Fraction] = {}
    exact_expected: dict[Coord, Fraction] = {}
    safe, certain = [], []
    for share in shares:
        p = 1 - share.empty
        for j in share.cells:
            r, c = divmod(j, cols)
            risk[r][c], expected[r][c] = float(p), float(share.expected)
            exact[(r, c)], exact_expected[(r, c)] = p, share.expected
            if p == 0:
                safe.append(j)
            elif p == 1:
                certain.append(j)
    for j, mean in guessed.items():
        r, c = divmod(j, cols)
        risk[r][c], expected[r][c] = min(1.0, mean), mean
    approximate = bool(guessed)
    components = [
        Component(pos.coords(j for g in c.groups for j in g), {m: w for m, w in enumerate(c.totals) if w})
        for c in counts
    ]
    return Analysis(
        rows=rows,
        cols=cols,
        mode="global" if is_global else "local",
        probabilities=risk,
        exact={} if approximate else exact,
        safe=pos.coords(safe),
        mines=pos.coords(certain),
        solutions=solutions,
        components=components,
        approximate=approximate,
        position=pos,
        expected_mines=expected,
        exact_expected={} if approximate else exact_expected,
        max_per_cell=k,
    )


# -- moves ------------------------------------------------------------------------
def decide_multi(pos: Position, mines: int | None, max_per_cell: int, *, time_limit: float = 1.0) -> Decision:
    """Reveal every cell certain to be empty; otherwise the cell least likely to hold a mine.

    No flags: a flag would have to say how many mines a cell holds, and winning by revealing never
    needs one.  Ties between equally safe cells go to the lower expected count, then the lower index.
    Without the mine total, cells off the frontier have no probability and are guessed last.
    """
    started = time.perf_counter()
    if not pos.unknown:
        return Decision([], False, None, "nothing to do: no unknown cells left")
    cols = pos.cols
    free = sorted({j for con in pos.constraints if con.mines == 0 for j in con.unknowns})
    if mines is not None and mines == len(pos.known_mines):
        free = list(pos.unknown)
    if free:
        return Decision(
            [Move("reveal", *divmod(j, cols), 0.0) for j in free],
            False,
            None,
            "certain: a number's mines are all known",
        )
    analysis = analyze_multi(pos, mines, max_per_cell, deadline=started + time_limit)
    if analysis.safe:
        moves = [Move("reveal", r, c, 0.0) for r, c in analysis.safe]
        return Decision(moves, False, analysis, "certain: exact probabilities")
    expected = analysis.expected_mines
    assert expected is not None

    def key(j: int) -> tuple[float, float, int]:
        r, c = divmod(j, cols)
        p, e = analysis.probabilities[r][c], expected[r][c]
        return (2.0 if p is None else p, 0.0 if e is None else e, j)

    best = min(pos.unknown, key=key)
    r, c = divmod(best, cols)
    p = analysis.probabilities[r][c] or 0.0
    return Decision([Move("reveal", r, c, p)], True, analysis, f"guess: lowest chance of a mine {p:.3f}")
