"""Exact mine probabilities for a whole board: the public :func:`analyze`.

Independent frontier components are counted separately (:mod:`count`), then
joined.  With the total mine count known ("global" mode) each component's
mine-count distribution is convolved with the others, and every total is
weighted by ``C(off-frontier cells, mines left)``, so cells touching no
number are handled in closed form and never enumerated.  Without the count
("local" mode) each consistent frontier assignment counts once and the
off-frontier cells get no probability at all.

Counts are Python ints and exact probabilities are Fractions; floats appear
only in the reported grid.
"""

from __future__ import annotations

import time
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from math import comb
from operator import mul
from typing import Final

from autoplay.board.model import Board, neighbour_table
from autoplay.errors import ContradictionError
from autoplay.solver.count import (
    BudgetExceeded,
    ComponentCount,
    SiblingCounter,
    count_by_watched,
    count_component,
    nonzero_places,
)
from autoplay.solver.lowest import FloatKept, contenders, kept_floats
from autoplay.solver.position import Position, read_position

Coord = tuple[int, int]

#: Component counts keyed by their constraints; consecutive decisions of one game share most components.
_CACHE: Final[dict[tuple[tuple[tuple[int, ...], int], ...], ComponentCount]] = {}
#: Components repeat between the decisions of one game, rarely across games; a small bound keeps a long session's
#: memory flat (at 4096, and 4096 cached ``_room`` tuples of big binomials, RSS still grew after 500 games).
_CACHE_LIMIT: Final = 256
#: Counts split by the mines on a guess candidate's neighbours, keyed by (constraints, watched cells).
_WATCHED: Final[dict[tuple[tuple[tuple[tuple[int, ...], int], ...], tuple[int, ...]], dict[int, ComponentCount]]] = {}
#: Counters shared by sibling positions (:class:`SiblingCounter`), keyed like :data:`_WATCHED` with the free
#: number's need written as -1.  Siblings are asked about within one decision: a few suffice, and each holds a memo.
_SIBLINGS: Final[dict[tuple[tuple[tuple[tuple[int, ...], int], ...], tuple[int, ...]], SiblingCounter]] = {}
_SIBLINGS_LIMIT: Final = 32


@dataclass
class Component:
    """One independent subsystem of the frontier.

    ``mine_counts[m]`` is the number of assignments of its cells holding ``m``
    mines; ``exact`` is False when enumeration ran out of time and the
    component's probabilities are estimates.
    """

    cells: list[Coord]
    mine_counts: dict[int, int]
    exact: bool = True


@dataclass
class Analysis:
    """Everything the engine knows about one position.

    Beyond the documented core fields:
    ``mine_count_weights`` (global mode) maps the number of mines on the
    frontier to the count of full-board configurations with that many, which
    the endgame and the guess search use; ``off_frontier`` is the exact mine
    probability of any unknown cell touching no number (None in local mode or
    when there is none); ``approximate`` says some component was estimated
    because its enumeration hit the deadline.  In the several-mines-per-cell
    variant ``probabilities`` is each cell's chance of holding at least one
    mine and ``expected_mines`` its mean count.
    """

    rows: int
    cols: int
    mode: str
    probabilities: list[list[float | None]]
    exact: Mapping[Coord, Fraction]
    safe: list[Coord]
    mines: list[Coord]
    solutions: int
    components: list[Component]
    mine_count_weights: dict[int, int] = field(default_factory=dict)
    off_frontier: Fraction | None = None
    approximate: bool = False
    position: Position | None = field(default=None, repr=False)
    #: mean mines per cell; only the several-mines-per-cell variant (:mod:`multimine`) fills these in,
    #: since with one mine a cell the mean is the probability
    expected_mines: list[list[float | None]] | None = None
    exact_expected: dict[Coord, Fraction] = field(default_factory=dict)
    max_per_cell: int = 1

    def probability(self, row: int, col: int) -> float | None:
        return self.probabilities[row][col]


def analyze(
    board: Board,
    mines: int | None = None,
    *,
    deadline: float | None = None,
    opened: Collection[tuple[int, int]] = (),
) -> Analysis:
    """Exact mine probabilities of ``board``; see the module docstring for the two modes.

    ``mines`` defaults to ``board.mines``; ``opened`` are covered-looking cells known to be open
    (:func:`~autoplay.solver.position.read_position`).  Raises :class:`ContradictionError`
    naming the cells involved when no placement of mines explains the board.
    """
    mines = board.mines if mines is None else mines
    return analyze_position(read_position(board, opened), mines, deadline=deadline)


def analyze_position(pos: Position, mines: int | None, *, deadline: float | None = None) -> Analysis:
    """:func:`analyze` on an already-read position."""
    return _build(pos, tally(pos, mines, deadline=deadline))


@dataclass
class Tally:
    """Exact counts before any Fraction or float grid is made.

    Every unknown cell that has a probability appears in exactly one entry of
    ``shares`` as ``(cells, num, den)``: each of those cells is a mine with
    probability ``num / den``.  The guess search reads tallies directly
    because building the public :class:`Analysis` for every look-ahead would
    cost more than the counting itself.
    """

    is_global: bool
    shares: list[tuple[tuple[int, ...], int, int]]
    solutions: int
    weights: dict[int, int]
    off_frontier: tuple[int, int] | None
    counts: list[ComponentCount]
    estimates: dict[int, float]
    estimated: list[list[int]]
    #: False when the components were counted but joining them under the mine count ran out of time
    joined: bool = True

    @property
    def approximate(self) -> bool:
        return bool(self.estimated) or not self.joined

    def safe_cell_count(self) -> int:
        return sum(len(cells) for cells, num, _den in self.shares if num == 0)

    def lowest_probability(self) -> float:
        risks = [num / den for _cells, num, den in self.shares]
        risks.extend(self.estimates.values())
        return min(risks, default=1.0)


def tally(pos: Position, mines: int | None, *, deadline: float | None = None) -> Tally:
    """Count ``pos``: each component separately (cached), then joined globally or locally."""
    mines_left = None if mines is None else mines - len(pos.known_mines)
    if mines_left is not None and mines_left < 0:
        raise ContradictionError(
            f"too few mines: {len(pos.known_mines)} cells are flagged or shown as mines but the game has {mines}",
            pos.coords(pos.known_mines),
        )
    pieces = _split(pos)
    counts: list[ComponentCount] = []
    estimates: dict[int, float] = {}
    estimated: list[list[int]] = []
    for piece in pieces:
        try:
            count = _count_cached(piece, deadline)
        except BudgetExceeded:
            guess = _estimate(piece)
            estimates.update(guess)
            estimated.append(sorted(guess))
            continue
        if not any(count.totals):
            raise _no_placement(pos, count)
        counts.append(count)
    if mines_left is None:
        shares, solutions = _local(counts)
        return Tally(False, shares, solutions, {}, None, counts, estimates, estimated)
    frontier = {j for piece in pieces for cells, _ in piece for j in cells}
    off = tuple(sorted(set(pos.unknown).difference(frontier)))
    expected = round(sum(estimates.values()))
    try:
        shares, solutions, weights, off_share = _global(pos, counts, off, mines_left - expected, deadline=deadline)
    except BudgetExceeded:
        # the components are exact but their join under the mine count did not fit in the time: each keeps its
        # own (local) probabilities and the cells off the frontier get the mean density left for them
        shares, solutions, off_share = _unjoined(counts, off, mines_left - expected)
        return Tally(True, shares, solutions, {}, off_share, counts, estimates, estimated, joined=False)
    except ContradictionError:
        if not estimated:
            raise
        # the rounded estimate, not the board, made the count impossible: fall back to local shares
        shares, solutions, off_share = _unjoined(counts, off, mines_left - expected)
        weights = {}
    return Tally(True, shares, solutions, weights, off_share, counts, estimates, estimated)


def layout_count(pos: Position, mines: int) -> int:
    """``tally(pos, mines).solutions`` without working out any cell's share: 0 where no layout fits.

    The trap test (:mod:`traps`) needs only the number of layouts of many slightly changed positions;
    every share would cost a product of big counts per component and group.  No deadline applies, as in
    a :func:`tally` without one.
    """
    left = mines - len(pos.known_mines)
    if left < 0:
        return 0
    pieces = _split(pos)
    full: list[int] = [1]
    frontier: set[int] = set()
    for piece in pieces:
        count = _count_cached(piece, None)
        if not any(count.totals):
            return 0
        full = _convolve(full, count.totals)
        for cells, _need in piece:
            frontier.update(cells)
    n_off = sum(1 for j in pos.unknown if j not in frontier)
    room = _room(n_off, left, len(full))
    return sum([w * r for w, r in zip(full, room) if w and r])


def _unjoined(
    counts: list[ComponentCount], off: tuple[int, ...], left: int
) -> tuple[list[tuple[tuple[int, ...], int, int]], int, tuple[int, int] | None]:
    """Approximate global shares: each component's local ones, and the remaining density off the frontier."""
    shares, solutions = _local(counts)
    on_frontier = sum(Fraction(num, den) * len(cells) for cells, num, den in shares)
    share = max(0, min(left - round(on_frontier), len(off)))
    off_share = (share, len(off)) if off else None
    if off:
        shares.append((off, share, len(off)))
    return shares, solutions, off_share


def reveal_outcomes(
    pos: Position, mines: int, index: int, *, deadline: float | None = None, sibling_of: int = -1
) -> Outcomes:
    """The global tally after ``index`` is revealed, for every number it can show.

    Equal to ``tally(with_reveal(pos, index, value), mines)`` for each value that can occur, but the
    changed part of the board is counted once for all values: only the components touching the cell
    or its neighbours change, and one enumeration that watches the mines among those neighbours
    splits its counts by the number the cell would show.  Each number's tally is joined only when
    asked for (:class:`Outcomes`).  Raises :class:`BudgetExceeded` at ``deadline``, here or when a
    tally is read.

    ``sibling_of`` names a cell whose number was just written in (``pos`` is ``with_reveal(parent,
    sibling_of, v)``): the depth-3 search asks about the same ``index`` for several ``v``, so the
    changed part is counted once for all of them with that number left free (:func:`count_by_free_need`)
    and each sibling reads its own slice; the answer is the same.
    """
    layout = _layout(pos)
    nbrs = neighbour_table(pos.rows, pos.cols)[index]
    kind, piece_of = layout.kind, layout.piece_of
    watched = tuple([j for j in nbrs if kind[j] == _UNKNOWN])
    base = 0
    for j in nbrs:
        if kind[j] == _KNOWN_MINE:
            base += 1
    hit: set[int] = set()
    touches_off = False  # whether the cell or a watched neighbour is off the frontier
    for j in (*watched, index):
        if piece_of[j] >= 0:
            hit.add(piece_of[j])
        elif kind[j] == _UNKNOWN:
            touches_off = True
    kept_at: list[int] = []
    changed: list[tuple[tuple[int, ...], int]] = []
    for k, piece in enumerate(layout.pieces):
        if k in hit:
            for cells, need in piece:
                if index in cells:
                    cells = tuple(j for j in cells if j != index)
                    if len(cells) < need:
                        return Outcomes(pos, [], (), 0, {}, deadline)  # the cell is a certain mine
                if cells:
                    changed.append((cells, need))
        else:
            kept_at.append(k)
    counts = [_piece_count(layout, k, deadline) for k in kept_at]
    off = layout.off
    if touches_off:  # the off-frontier cells less those touched, cut out by place (no set, no new int per cell)
        places = sorted([layout.off_place[j] for j in (*watched, index) if layout.off_place[j] >= 0])
        off = layout.off[: places[0]]
        for a, b in zip(places, [*places[1:], len(layout.off)]):
            off += layout.off[a + 1 : b]
    free = _free_place(pos, changed, sibling_of, index) if sibling_of >= 0 else -1
    if free >= 0:
        counted = _count_sibling_cached(changed, free, watched, deadline)
    else:
        counted = _count_watched_cached(changed, watched, deadline)
    by_number = {base + seen: count for seen, count in counted.items()}
    return Outcomes(pos, counts, off, mines - len(pos.known_mines), by_number, deadline)


class Outcomes(Mapping[int, Tally]):
    """:func:`reveal_outcomes`' tallies by the number shown, each joined under the mine count on first use.

    The guess look-ahead reads the numbers one by one and stops as soon as a candidate cannot win, so
    the join (most of a look-ahead's cost once the enumeration is cached) is paid only for the numbers
    it reads.  A number whose join finds no placement is absent, as if it had never been counted.
    """

    def __init__(
        self,
        pos: Position,
        counts: list[ComponentCount],
        off: tuple[int, ...],
        left: int,
        by_number: dict[int, ComponentCount],
        deadline: float | None,
    ) -> None:
        self._pos, self._counts, self._off, self._left = pos, counts, off, left
        self._by_number = by_number
        self._deadline = deadline
        self._kept: tuple[list[list[int]], list[int]] | None = None
        self._kept_supports: list[int] | None = None
        self._kept_all_support = -1
        self._tallies: dict[int, Tally | None] = {}
        self._safe: dict[int, tuple[int, int] | None] = {}  # safe_cells' answers: the depth-3 search asks again
        self._lowest: dict[int, float] = {}
        self._first_safe: dict[int, int] = {}
        self._full: dict[int, tuple[list[int], tuple[int, ...], int]] = {}  # _weights' answers
        self._float_kept: FloatKept | None = None  # the kept components in floats (lowest_probability)
        self._floats_made = False

    def safe_cells(self, number: int) -> tuple[int, int] | None:
        """(layouts, certainly safe cells) after the cell shows ``number``, or None when it cannot.

        What the guess look-ahead reads first; it asks for the full join (:meth:`joined`) only where no
        cell is safe, to read the lowest probability.  Every count is a sum of products of non-negative
        integers, so whether a cell's share is zero depends only on which counts are non-zero: that is
        worked out on bitmasks of the non-zero places (:func:`_support`), without one product of the
        huge counts; only the number of layouts needs one exact sum.  Equal to the joined tally's
        ``solutions`` and ``safe_cell_count()`` (``tests/solver/test_reveal_outcomes.py``).
        """
        if number in self._safe:
            return self._safe[number]
        found = self._count_safe(number)
        self._safe[number] = found
        return found

    def _count_safe(self, number: int) -> tuple[int, int] | None:
        if number not in self._by_number:
            return None
        done = self._tallies.get(number)
        if done is not None:
            safe_cells = [j for cells, num, _den in done.shares if num == 0 for j in cells]
            self._first_safe[number] = safe_cells[0] if safe_cells else -1
            return done.solutions, len(safe_cells)
        if number in self._tallies:
            return None
        count = self._by_number[number]
        kept_apart, kept_all = self._kept_apart()
        if self._kept_supports is None:
            self._kept_supports = [_support(e) for e in kept_apart]
        full, _room_off, total = self._weights(number)
        n_off = len(self._off)
        if total == 0:
            return None
        room_support = _room_support(n_off, self._left, len(full))
        mine_support = count.total_support
        if self._kept_all_support < 0:
            self._kept_all_support = _support(kept_all)
        others = [_sumset(e, mine_support) for e in self._kept_supports] + [self._kept_all_support]
        safe = 0
        first = -1  # the first safe cell in the order of the joined tally's shares
        for i, component in enumerate([*self._counts, count]):
            _check(self._deadline)
            # places m where the rest of the board can hold the other mines: some k with others[k] and room[m+k]
            live = 0
            for m in range(len(component.totals)):
                if (others[i] << m) & room_support:
                    live |= 1 << m
            for cells, group_support in zip(component.groups, component.group_support):
                if not group_support & live:
                    if not safe:
                        first = cells[0]
                    safe += len(cells)
        if n_off and not _support(full) & _room_support(n_off - 1, self._left - 1, len(full)):
            if not safe:
                first = self._off[0]
            safe += n_off
        self._first_safe[number] = first
        return total, safe

    def first_safe(self, number: int) -> int:
        """The first certainly safe cell after ``number`` (in the joined tally's order of shares), -1 for none.

        Read from :meth:`safe_cells`' own work, so the depth-3 search needs no join to follow a lone safe cell.
        """
        if self.safe_cells(number) is None:
            return -1
        return self._first_safe[number]

    def _join(self, number: int) -> Tally | None:
        if number in self._tallies:
            return self._tallies[number]
        count = self._by_number[number]
        kept_apart, kept_all = self._kept_apart()
        joined = self._counts + [count]
        apart = [_convolve(e, count.totals) for e in kept_apart] + [kept_all], self._weights(number)[0]
        found: Tally | None
        try:
            shares, solutions, weights, off_share = _global(
                self._pos, joined, self._off, self._left, apart, self._deadline
            )
            found = Tally(True, shares, solutions, weights, off_share, joined, {}, [])
        except ContradictionError:
            found = None
        self._tallies[number] = found
        return found

    def _kept_apart(self) -> tuple[list[list[int]], list[int]]:
        """:func:`_leave_one_out` of the components the cell does not touch: the same for every number."""
        if self._kept is None:
            self._kept = _leave_one_out([c.totals for c in self._counts], self._deadline)
        return self._kept

    def lowest_probability(self, number: int) -> float:
        """The joined tally's :meth:`Tally.lowest_probability` after ``number``, worked out once.

        Without the joined tally at hand, the shares are made in floats and only those that could be the
        least are joined exactly (:mod:`lowest`): the same float, without the rest of the exact join.
        """
        found = self._lowest.get(number)
        if found is None:
            done = self._tallies.get(number)
            found = done.lowest_probability() if done is not None else self._lowest_of(number)
            self._lowest[number] = found
        return found

    def _weights(self, number: int) -> tuple[list[int], tuple[int, ...], int]:
        """(mines on the frontier convolved, the room off it, the layouts in all) after ``number``, made once."""
        found = self._full.get(number)
        if found is None:
            _kept_apart, kept_all = self._kept_apart()
            full = _convolve(kept_all, self._by_number[number].totals)
            room = _room(len(self._off), self._left, len(full))
            found = self._full[number] = (full, room, sum([w * r for w, r in zip(full, room) if w and r]))
        return found

    def _lowest_of(self, number: int) -> float:
        count = self._by_number[number]
        if not self._floats_made:
            self._float_kept, self._floats_made = kept_floats(self._counts), True
        kept_apart, kept_all = self._kept_apart()
        full, room, total = self._weights(number)
        n_off, left = len(self._off), self._left
        close = None if self._float_kept is None else contenders(self._float_kept, count, room, n_off, left)
        if close is None:  # not in floats (pure Python, or not scaled safely): the exact join
            after = self._join(number)
            assert after is not None
            return after.lowest_probability()
        if not close:
            return 0.0  # a share of exactly 0 in floats is exactly 0
        _check(self._deadline)
        joined = [*self._counts, count]
        rests: dict[int, list[int]] = {}
        best = 2.0
        for i, g in close:  # each as _global writes it, to the same correctly rounded quotient
            if i < 0:
                num, den = _off_mined(full, n_off, left), total
            else:
                rest = rests.get(i)
                if rest is None:
                    others = _convolve(kept_apart[i], count.totals) if i < len(self._counts) else kept_all
                    rest = rests[i] = _rest(others, room, len(joined[i].totals))
                num, den = sum(map(mul, joined[i].group_mines[g], rest)), total * len(joined[i].groups[g])
            share = num / den
            if share < best:
                best = share
        return best

    def joined(self, number: int) -> Tally | None:
        """The tally after the cell shows ``number``, or None when it cannot (``get`` without a Python frame)."""
        return self._join(number) if number in self._by_number else None

    def numbers(self) -> list[int]:
        """Every number the enumeration found possible, ascending, none of them joined yet (some may be absent)."""
        return list(self._by_number)

    def __getitem__(self, number: int) -> Tally:
        found = self._join(number) if number in self._by_number else None
        if found is None:
            raise KeyError(number)
        return found

    def __iter__(self) -> Iterator[int]:
        return iter([n for n in self._by_number if self._join(n) is not None])

    def __len__(self) -> int:
        return sum(1 for _ in self)


@dataclass
class _Layout:
    """What every candidate of one guess search shares: the components, where each cell sits, the rest."""

    pos: Position
    pieces: list[list[tuple[tuple[int, ...], int]]]
    #: by cell: the index of its piece, -1 for none (lists by cell: the compiled solver reads them without hashing)
    piece_of: list[int]
    off: tuple[int, ...]
    #: by cell: :data:`_UNKNOWN`, :data:`_KNOWN_MINE` or 0 for a shown cell
    kind: list[int]
    #: by cell: its place in ``off``, -1 for none
    off_place: list[int]
    #: each piece's count once asked for (:func:`_piece_count`): every candidate keeps most pieces as they are
    counts: dict[int, ComponentCount]


_UNKNOWN: Final = 1
_KNOWN_MINE: Final = 2
_LAST_LAYOUT: Final[list[_Layout]] = []


def _layout(pos: Position) -> _Layout:
    """The split of ``pos``, kept for the position the guess search is weighing candidates on."""
    if _LAST_LAYOUT and _LAST_LAYOUT[0].pos is pos:
        return _LAST_LAYOUT[0]
    pieces = _split(pos)
    size = pos.rows * pos.cols
    piece_of = [-1] * size
    for k, piece in enumerate(pieces):
        for cells, _need in piece:
            for j in cells:
                piece_of[j] = k
    kind = [0] * size
    for j in pos.unknown:
        kind[j] = _UNKNOWN
    for j in pos.known_mines:
        kind[j] = _KNOWN_MINE
    off = tuple([j for j in pos.unknown if piece_of[j] < 0])
    off_place = [-1] * size
    for place, j in enumerate(off):
        off_place[j] = place
    found = _Layout(pos, pieces, piece_of, off, kind, off_place, {})
    _LAST_LAYOUT[:] = [found]
    return found


def _piece_count(layout: _Layout, k: int, deadline: float | None) -> ComponentCount:
    """:func:`_count_cached` of piece ``k``, kept with the layout: the cache's key hashes every number of the piece."""
    found = layout.counts.get(k)
    if found is None:
        found = layout.counts[k] = _count_cached(layout.pieces[k], deadline)
    return found


# -- splitting and counting -------------------------------------------------
def _split(pos: Position) -> list[list[tuple[tuple[int, ...], int]]]:
    """Constraints grouped into components that share no unknown cell (union-find on cells)."""
    parent: dict[int, int] = {}

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for con in pos.constraints:
        first = con.unknowns[0]
        parent.setdefault(first, first)
        root = find(first)
        for j in con.unknowns[1:]:
            parent.setdefault(j, j)
            other = find(j)
            if other != root:
                parent[other] = root
    pieces: dict[int, list[tuple[tuple[int, ...], int]]] = {}
    for con in pos.constraints:
        pieces.setdefault(find(con.unknowns[0]), []).append((con.unknowns, con.mines))
    return [sorted(p) for p in pieces.values()]


def _count_cached(piece: list[tuple[tuple[int, ...], int]], deadline: float | None) -> ComponentCount:
    key = tuple(piece)
    found = _CACHE.get(key)
    if found is None:
        _check(deadline)  # a board of a thousand small components never reaches the enumerator's own check
        found = count_component(piece, deadline)
        if len(_CACHE) >= _CACHE_LIMIT:
            _CACHE.clear()
        _CACHE[key] = found
    return found


def _count_watched_cached(
    changed: list[tuple[tuple[int, ...], int]], watched: tuple[int, ...], deadline: float | None
) -> dict[int, ComponentCount]:
    """:func:`count_by_watched`, remembered: a game's next guess weighs the same untouched areas again."""
    key = (tuple(changed), watched)
    found = _WATCHED.get(key)
    if found is None:
        found = count_by_watched(changed, watched, deadline)
        if len(_WATCHED) >= _CACHE_LIMIT:
            _WATCHED.clear()
        _WATCHED[key] = found
    return found


def _free_place(pos: Position, changed: list[tuple[tuple[int, ...], int]], cell: int, index: int) -> int:
    """Where in ``changed`` the number at ``cell`` stands (without ``index``, which opens), or -1 if nowhere."""
    for con in pos.constraints:
        if con.cell == cell:
            mine = (tuple(j for j in con.unknowns if j != index), con.mines)
            for k, entry in enumerate(changed):
                if entry == mine:
                    return k
            return -1
    return -1


def _count_sibling_cached(
    changed: list[tuple[tuple[int, ...], int]], free: int, watched: tuple[int, ...], deadline: float | None
) -> dict[int, ComponentCount]:
    """:func:`count_by_watched` of ``changed``, counted with the siblings that differ only in its ``free`` need.

    A count made already for any caller is read from :data:`_WATCHED`; a sibling's own counts stay with its
    :class:`SiblingCounter` (their groups may come in another order, which only the depth-3 search's sums
    and minima may see).
    """
    found = _WATCHED.get((tuple(changed), watched))
    if found is not None:
        return found
    family = (tuple(changed[:free]) + ((changed[free][0], -1),) + tuple(changed[free + 1 :]), watched)
    counter = _SIBLINGS.get(family)
    if counter is None:
        _check(deadline)
        counter = SiblingCounter(changed, free, watched, deadline)
        if len(_SIBLINGS) >= _SIBLINGS_LIMIT:
            _SIBLINGS.clear()
        _SIBLINGS[family] = counter
    return counter.counts(changed[free][1], deadline)


def clear_component_cache() -> None:
    """Forget cached component counts (tests use it to force a fresh enumeration)."""
    _CACHE.clear()
    _WATCHED.clear()
    _SIBLINGS.clear()


def _estimate(piece: list[tuple[tuple[int, ...], int]]) -> dict[int, float]:
    """Fallback for a component too big to count in time: each cell gets the mean density of its numbers."""
    shares: dict[int, list[float]] = {}
    for cells, need in piece:
        for j in cells:
            shares.setdefault(j, []).append(need / len(cells))
    return {j: sum(v) / len(v) for j, v in shares.items()}


def _no_placement(pos: Position, count: ComponentCount) -> ContradictionError:
    cells = {j for g in count.groups for j in g}
    numbers = [con.cell for con in pos.constraints if cells.intersection(con.unknowns)]
    return ContradictionError("no placement of mines satisfies these numbers", pos.coords(numbers))


def _check(deadline: float | None) -> None:
    if deadline is not None and time.perf_counter() > deadline:
        raise BudgetExceeded


# -- joining components -----------------------------------------------------
def _choose(n: int, k: int) -> int:
    return comb(n, k) if 0 <= k <= n else 0


@lru_cache(maxsize=4096)
def _room(n_off: int, left: int, size: int) -> tuple[int, ...]:
    """Ways to place the rest off the frontier when m = 0..size-1 mines are on it (the guess search asks often).

    One binomial, then each next one from the last by an exact small multiply and divide
    (C(n, k-1) = C(n, k) * k / (n - k + 1)): on a 150x150 board each costs thousands of digits.
    """
    out: list[int] = []
    current: int | None = None
    for m in range(size):
        k = left - m
        if not 0 <= k <= n_off:
            out.append(0)
            current = None
        elif current is None:
            current = comb(n_off, k)
            out.append(current)
        else:
            current = current * (k + 1) // (n_off - k)
            out.append(current)
    return tuple(out)


def _room_support(n_off: int, left: int, size: int) -> int:
    """:func:`_support` of :func:`_room` without its binomials: ``room[m]`` is non-zero exactly where
    ``0 <= left - m <= n_off``.

    >>> all(_room_support(n, k, s) == _support(_room(n, k, s)) for n in range(4) for k in range(-1, 6) for s in range(8))
    True
    """
    lo = max(0, left - n_off)
    hi = min(left, size - 1)
    if hi < lo:
        return 0
    return ((1 << (hi - lo + 1)) - 1) << lo


def _convolve(a: list[int] | tuple[int, ...], b: list[int] | tuple[int, ...]) -> list[int]:
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                if y:
                    out[i + j] += x * y
    return out


def _local(counts: list[ComponentCount]) -> tuple[list[tuple[tuple[int, ...], int, int]], int]:
    """Each component on its own: every consistent assignment of its cells counts once."""
    shares = []
    solutions = 1
    for count in counts:
        total = sum(count.totals)
        solutions *= total
        for cells, per_m in zip(count.groups, count.group_mines):
            shares.append((cells, sum(per_m), total * len(cells)))
    return shares, solutions


def _leave_one_out(dists: list[tuple[int, ...]], deadline: float | None = None) -> tuple[list[list[int]], list[int]]:
    """(for each i the convolution of every distribution but the i-th, the convolution of all).

    Raises :class:`BudgetExceeded` past ``deadline``: with a thousand components the exact products have
    thousands of digits and this join, not the enumeration, is what takes the time.
    """
    prefix: list[list[int] | tuple[int, ...]] = [[1]]
    for d in dists:
        _check(deadline)
        prefix.append(_convolve(prefix[-1], d))
    suffix: list[list[int] | tuple[int, ...]] = [[1]]
    for d in reversed(dists):
        _check(deadline)
        suffix.append(_convolve(suffix[-1], d))
    suffix.reverse()  # suffix[i] = convolution of dists[i:]
    apart = []
    for i in range(len(dists)):
        _check(deadline)
        apart.append(_convolve(prefix[i], suffix[i + 1]))
    return apart, list(prefix[-1])


def _global(
    pos: Position,
    counts: list[ComponentCount],
    off: tuple[int, ...],
    left: int,
    apart: tuple[list[list[int]], list[int]] | None = None,
    deadline: float | None = None,
) -> tuple[list[tuple[tuple[int, ...], int, int]], int, dict[int, int], tuple[int, int] | None]:
    """Convolve the components' mine counts and weight each total by the off-frontier binomial.

    ``apart`` is :func:`_leave_one_out` of the components' totals when the caller has it already.
    Raises :class:`BudgetExceeded` past ``deadline``.
    """
    n_off = len(off)
    excluding, full = apart or _leave_one_out([c.totals for c in counts], deadline)
    room = _room(n_off, left, len(full))
    weights = {m: w * room[m] for m, w in enumerate(full) if w and room[m]}
    total = sum(weights.values())
    if total == 0:
        raise _count_mismatch(pos, [c.totals for c in counts], n_off, left)
    shares = []
    for i, count in enumerate(counts):
        _check(deadline)
        rest = _rest(excluding[i], room, len(count.totals))
        for cells, per_m in zip(count.groups, count.group_mines):
            shares.append((cells, sum(map(mul, per_m, rest)), total * len(cells)))
    off_share = None
    if n_off:
        off_share = (_off_mined(full, n_off, left), total)
        shares.append((off, *off_share))
    return shares, total, weights, off_share


def _rest(others: Sequence[int], room: tuple[int, ...], length: int) -> list[int]:
    """For m = 0..length-1 mines in one component: the layouts of everything else (the other components'
    convolved counts ``others`` times the room off the frontier) that complete it."""
    width = len(others)
    return [sum(map(mul, others, room[m : m + width])) for m in range(length)]


def _off_mined(full: Sequence[int], n_off: int, left: int) -> int:
    """Layouts with a mine on one given off-frontier cell (``full``: the frontier's convolved counts)."""
    return sum(map(mul, full, _room(n_off - 1, left - 1, len(full))))


def _support(values: Sequence[int]) -> int:
    """Bit m set where ``values[m]`` is not zero (:func:`count.nonzero_places` for any sequence).

    >>> bin(_support([0, 5, 0, 2]))
    '0b1010'
    """
    return nonzero_places(list(values))


def _sumset(a: int, b: int) -> int:
    """The non-zero places of a convolution, from those of its two factors (non-negative, so none cancel).

    >>> bin(_sumset(0b101, 0b11))  # {0, 2} + {0, 1}
    '0b1111'
    """
    out = 0
    while a:
        low = a & -a
        out |= b << (low.bit_length() - 1)
        a ^= low
    return out


def _count_mismatch(pos: Position, dists: Sequence[Sequence[int]], n_off: int, left: int) -> ContradictionError:
    least = sum(next(m for m, w in enumerate(d) if w) for d in dists)
    most = sum(max(m for m, w in enumerate(d) if w) for d in dists) + n_off
    numbers = [con.cell for con in pos.constraints]
    if left < least:
        return ContradictionError(
            f"too few mines: the numbers need at least {least} more mines but only {left} remain",
            pos.coords(numbers or pos.known_mines),
        )
    if left > most:
        return ContradictionError(
            f"too many mines: {left} mines remain but the unknown cells can hold at most {most}",
            pos.coords(numbers or pos.unknown),
        )
    return ContradictionError(f"no placement of the {left} remaining mines fits the numbers", pos.coords(numbers))


# -- the result ---------------------------------------------------------------
def _build(pos: Position, t: Tally) -> Analysis:
    rows, cols = pos.rows, pos.cols
    flat: list[float | None] = [None] * (rows * cols)
    for j in pos.known_mines:
        flat[j] = 1.0
    for cells, num, den in t.shares:
        value = num / den  # int / int rounds correctly however large the counts are
        for j in cells:
            flat[j] = value
    for j, value in t.estimates.items():
        flat[j] = value
    grid = [flat[r * cols : (r + 1) * cols] for r in range(rows)]
    exact: Mapping[Coord, Fraction]
    if t.approximate:
        # the global coupling is no longer exact; keep only what each exact component proves on its own
        exact = {}
        safe, mines = _locally_certain(t.counts)
    else:
        exact = ExactShares(t.shares, cols)
        safe = [j for cells, num, _den in t.shares if num == 0 for j in cells]
        mines = [j for cells, num, den in t.shares if num == den for j in cells]
    components = [
        Component(pos.coords(j for g in c.groups for j in g), {m: w for m, w in enumerate(c.totals) if w})
        for c in t.counts
    ] + [Component(pos.coords(cells), {}, exact=False) for cells in t.estimated]
    return Analysis(
        rows=rows,
        cols=cols,
        mode="global" if t.is_global else "local",
        probabilities=grid,
        exact=exact,
        safe=pos.coords(safe),
        mines=pos.coords(mines),
        solutions=t.solutions,
        components=components,
        mine_count_weights=t.weights,
        off_frontier=Fraction(*t.off_frontier) if t.off_frontier else None,
        approximate=t.approximate,
        position=pos,
    )


class ExactShares(Mapping[Coord, Fraction]):
    """Each counted cell's exact mine probability, made into a :class:`Fraction` only when asked for.

    A position's shares hold one ``(cells, num, den)`` per group of cells with the same probability; most
    callers want the float grid, so building a Fraction (a gcd of numbers with hundreds of digits) and a
    dictionary entry for every one of the few hundred hidden cells of an expert board is left to those that
    read ``Analysis.exact``.

    >>> shares = ExactShares([((0, 1), 1, 4), ((5,), 0, 1)], cols=3)
    >>> shares[(0, 1)], shares[(1, 2)], len(shares)
    (Fraction(1, 4), Fraction(0, 1), 3)
    """

    def __init__(self, shares: list[tuple[tuple[int, ...], int, int]], cols: int) -> None:
        self._shares = shares
        self._cols = cols
        self._where: dict[int, int] | None = None
        self._fractions: dict[int, Fraction] = {}

    def _index(self) -> dict[int, int]:
        """Each counted cell's group, by flat index: no coordinate pair is made until one is asked for."""
        if self._where is None:
            self._where = {j: k for k, (cells, _n, _d) in enumerate(self._shares) for j in cells}
        return self._where

    def _flat(self, rc: object) -> int:
        """The flat index of ``(row, col)``, or -1 for anything that is no cell of a board this wide."""
        if isinstance(rc, tuple) and len(rc) == 2:
            r, c = rc
            if isinstance(r, int) and isinstance(c, int) and r >= 0 and 0 <= c < self._cols:
                return r * self._cols + c
        return -1

    def __getitem__(self, rc: Coord) -> Fraction:
        k = self._index().get(self._flat(rc))
        if k is None:
            raise KeyError(rc)
        found = self._fractions.get(k)
        if found is None:
            _cells, num, den = self._shares[k]
            found = self._fractions[k] = Fraction(num, den)
        return found

    def __contains__(self, rc: object) -> bool:
        return self._flat(rc) in self._index()

    def __iter__(self) -> Iterator[Coord]:
        cols = self._cols
        return iter([divmod(j, cols) for j in self._index()])

    def __len__(self) -> int:
        return len(self._index())


def _locally_certain(counts: list[ComponentCount]) -> tuple[list[int], list[int]]:
    safe: list[int] = []
    mines: list[int] = []
    for count in counts:
        total = sum(count.totals)
        for cells, per_m in zip(count.groups, count.group_mines):
            held = sum(per_m)
            if held == 0:
                safe.extend(cells)
            elif held == total * len(cells):
                mines.extend(cells)
    return safe, mines
