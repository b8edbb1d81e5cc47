"""Exhaustive game-tree search when few configurations of the mines remain.

Late in a game the heuristic guess can be beaten by playing out every
possibility: with the consistent layouts listed explicitly (as bitmasks over
the unknown cells), the search reveals every cell that is safe in all of them
for free, then tries each undetermined cell, splits the layouts by the number
it would show, and recurses.  The value of a position is the exact chance of
winning with best play.  Cells are tried safest first and a cell whose safety
cannot beat the best value found is never expanded, which prunes most of the
tree.  Positions are remembered by their layouts and the revealed cells that could
still show something new (those beside an undetermined cell): a cell whose number
is the same in every layout left tells nothing, so positions differing only in
such cells are searched once.  A node budget bounds the rest, so whether a search completes does not
depend on the machine's load (simulated games replay identically anywhere);
the deadline is the safety net for slow machines.

Where the compiled solver is in use, :meth:`EndgameSearch.best_move` runs the same search in C
(``_endgame.c``, :mod:`autoplay.solver.native`): the same cells in the same order, the same float operations
and the same node count, so it decides exactly as the Python recursion here, only faster.
"""

from __future__ import annotations

import time
from itertools import combinations
from types import ModuleType
from typing import TYPE_CHECKING, Final, cast

from autoplay.board.model import neighbour_table
from autoplay.solver.native import load
from autoplay.solver.position import Position

if TYPE_CHECKING:
    from autoplay.solver import _endgame

#: Search only when at most this many layouts remain (DavidNHill's bound is about 1000).
MAX_LAYOUTS: Final = 1000


#: Positions a search may expand (about 0.2 s of one core) before it gives up for the heuristic.
MAX_NODES: Final = 20_000
#: Rounding room when a branch is cut because it cannot beat the best one.
_SLACK: Final = 1e-9

#: The search in C where the compiled solver is in use (None: search in Python).
_ENDGAME = load("_endgame")


class SearchTimeout(Exception):
    """The tree search ran out of time or nodes; the caller keeps its heuristic guess."""


def list_layouts(pos: Position, mines: int, limit: int = MAX_LAYOUTS) -> list[int] | None:
    """Every consistent mine layout as a bitmask over ``pos.unknown`` (bit k = k-th unknown cell).

    Returns None when there are more than ``limit``.
    """
    bit = {j: k for k, j in enumerate(pos.unknown)}
    left = mines - len(pos.known_mines)
    on_frontier = {j for con in pos.constraints for j in con.unknowns}
    frontier = sorted(on_frontier)
    off = [bit[j] for j in pos.unknown if j not in on_frontier]
    touching: dict[int, list[int]] = {j: [] for j in frontier}
    for k, con in enumerate(pos.constraints):
        for j in con.unknowns:
            touching[j].append(k)
    need = [con.mines for con in pos.constraints]
    room = [len(con.unknowns) for con in pos.constraints]
    out: list[int] = []

    def place(i: int, mask: int, placed: int) -> None:
        if len(out) > limit:
            return
        if i == len(frontier):
            rest = left - placed
            if 0 <= rest <= len(off):
                for chosen in combinations(off, rest):
                    extra = 0
                    for b in chosen:
                        extra |= 1 << b
                    out.append(mask | extra)
                    if len(out) > limit:
                        return
            return
        j = frontier[i]
        cons = touching[j]
        for x in (0, 1):
            ok = True
            for k in cons:
                room[k] -= 1
                need[k] -= x
                if need[k] < 0 or need[k] > room[k]:
                    ok = False
            if ok and placed + x <= left:
                place(i + 1, mask | (x << bit[j]), placed + x)
            for k in cons:
                room[k] += 1
                need[k] += x

    place(0, 0, 0)
    return out if len(out) <= limit else None


class EndgameSearch:
    """Best-play win probability over an explicit list of layouts."""

    CHECK_EVERY = 64

    def __init__(self, pos: Position, deadline: float, max_nodes: int = MAX_NODES):
        self.cells = pos.unknown
        n = len(self.cells)
        bit = {j: k for k, j in enumerate(self.cells)}
        nbrs = neighbour_table(pos.rows, pos.cols)
        known = set(pos.known_mines)
        # a cell's number = mines among its unknown neighbours (a bitmask) + known mines around it
        self.around = [sum(1 << bit[i] for i in nbrs[j] if i in bit) for j in self.cells]
        self.base = [sum(1 for i in nbrs[j] if i in known) for j in self.cells]
        self.all_bits = (1 << n) - 1
        self.deadline = deadline
        self.memo: dict[tuple[tuple[int, ...], int], float] = {}
        self.nodes = 0
        self.max_nodes = max_nodes
        #: the C search, made at the first best_move that uses it; it keeps its own memo from call to call
        self.native: _endgame.Search | None = None

    def best_move(self, layouts: list[int]) -> tuple[int, float]:
        """(flat index of the best cell to reveal, win probability with best play).

        In C where it is built, else by :meth:`_value`.  A search begun in Python (a call of ``_value``, as
        :mod:`autoplay.insight.win_cost` makes) goes on in Python: its memo is there.
        """
        if _ENDGAME is not None and (self.native is not None or self.nodes == 0):
            cell, value = self._best_in_c(_ENDGAME, layouts)
        else:
            value, cell = self._value(tuple(sorted(layouts)), 0, root=True)
        return self.cells[cell], value

    def _best_in_c(self, endgame: ModuleType, layouts: list[int]) -> tuple[int, float]:
        """(bit of the best cell, its value) from the C search, which counts its nodes into :attr:`nodes`."""
        native = self.native
        if native is None:
            native = self.native = endgame.Search(self.around, len(self.cells), self.deadline, self.max_nodes)
        try:
            return native.best_move(layouts, time.perf_counter)
        except endgame.Timeout:
            raise SearchTimeout from None
        finally:
            self.nodes = native.nodes

    def _value(self, layouts: tuple[int, ...], revealed: int, root: bool = False) -> tuple[float, int]:
        if len(layouts) == 1 and not root:
            return 1.0, -1
        union = 0
        inter = self.all_bits
        for s in layouts:
            union |= s
            inter &= s
        undetermined = union & ~inter
        # a revealed cell matters only while it could still show something new: with no undetermined
        # neighbour its number is known in every layout left, so positions differing only there are one
        relevant = 0
        rest = undetermined
        while rest:
            low = rest & -rest
            relevant |= self.around[low.bit_length() - 1]
            rest ^= low
        revealed &= relevant
        key = (layouts, revealed)
        if not root:
            known = self.memo.get(key)
            if known is not None:
                return known, -1
        self.nodes += 1
        if self.nodes > self.max_nodes or (self.nodes % self.CHECK_EVERY == 0 and time.perf_counter() > self.deadline):
            raise SearchTimeout
        free = relevant & ~union & ~revealed  # safe in every layout, not yet revealed, and able to tell something
        if free and not root:
            value = self._reveal_free(layouts, revealed, free, undetermined)
            self.memo[key] = value
            return value, -1
        if not undetermined:
            return 1.0, -1
        total = len(layouts)
        # how many layouts hold a mine in each undetermined cell, for all cells at once: bit planes of a
        # binary counter per cell (plane i holds bit i of every cell's count), so adding a layout costs a
        # carry chain of about two steps instead of one step per cell
        planes: list[int] = []
        for s in layouts:
            carry = s & undetermined
            i = 0
            while carry:
                if i == len(planes):
                    planes.append(carry)
                    break
                plane = planes[i]
                planes[i] = plane ^ carry
                carry &= plane
                i += 1
        mine_counts: list[tuple[int, int]] = []
        rest = undetermined
        while rest:  # lowest bit first, as the cell order of ties
            b = rest & -rest
            k = b.bit_length() - 1
            mined = 0
            for i, plane in enumerate(planes):
                if plane & b:
                    mined += 1 << i
            mine_counts.append((mined, k))
            rest ^= b
        mine_counts.sort()
        best, best_cell = -1.0, mine_counts[0][1]
        for mined, k in mine_counts:
            safety = (total - mined) / total
            if safety <= best:
                break
            b = 1 << k
            # each part is worth at most its size: stop once the rest cannot lift this cell above the best
            won = 0.0
            left = total - mined
            for p in _split_by_numbers(layouts, [self.around[k]], b):
                if won + left < best * total - _SLACK:
                    break
                won += 1.0 if len(p) == 1 else len(p) * self._value(tuple(p), revealed | b)[0]
                left -= len(p)
            else:
                value = won / total
                if value > best:
                    best, best_cell = value, k
        self.memo[key] = best
        return best, best_cell

    def _reveal_free(self, layouts: tuple[int, ...], revealed: int, free: int, undetermined: int) -> float:
        """Reveal every certainly-safe cell at once and average over what their numbers show.

        Only the undetermined cells around a free cell can change its number, so cells seeing none of them
        are skipped and cells seeing the same ones are read once: the split of the layouts is the same.
        """
        around = self.around
        seen: set[int] = set()
        rest = free
        while rest:
            low = rest & -rest
            seen.add(around[low.bit_length() - 1] & undetermined)
            rest ^= low
        seen.discard(0)
        masks = sorted(seen)
        now = revealed | free
        won = 0.0
        groups = _split_by_numbers(layouts, masks, 0)
        # a part of one layout is won outright (what _value says of it, without the call)
        for p in groups:
            won += 1.0 if len(p) == 1 else len(p) * self._value(tuple(p), now)[0]
        return won / len(layouts)


def _split_by_numbers(layouts: tuple[int, ...], masks: list[int], mined: int) -> list[list[int]]:
    """The layouts without a mine on ``mined``, split by how many mines they hold in each of ``masks``.

    The parts come in first-seen order.  Several masks (the numbers of several revealed cells) make one key,
    four bits each (a number is at most 8).  The layouts are regrouped as the objects they are: compiled code
    holds a number unboxed, and putting it back into a list would box it again, one allocation per layout.

    >>> _split_by_numbers((0b0011, 0b0101, 0b1001, 0b0110), [0b0011], 0b1000)
    [[3], [5, 6]]
    """
    parts: dict[int, list[object]] = {}
    items: tuple[object, ...] = layouts
    first, others = masks[0], masks[1:]
    for s, item in zip(layouts, items):
        if s & mined:
            continue
        key = _mines_in(s & first)
        for m in others:
            key = (key << 4) | _mines_in(s & m)
        part = parts.get(key)
        if part is None:
            parts[key] = [item]
        else:
            part.append(item)
    return cast(list[list[int]], list(parts.values()))


def _mines_in(x: int) -> int:
    """The set bits of ``x``: mines among one cell's neighbours here, so at most eight turns of the loop.

    A loop rather than ``int.bit_count``: compiled, it runs on the machine word, where calling the method
    would first box the number into a Python object.

    >>> _mines_in(0b1011)
    3
    """
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


# Code run by the interpreter (this module from its source, or Python calling in) looks ``_mines_in`` up at each
# call and gets the method, which is faster there than the loop; compiled callers were bound to the loop.
globals()["_mines_in"] = int.bit_count
