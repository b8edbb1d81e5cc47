"""What a riskier step cost in chance of winning, where the solver knows it: late in a game, when few layouts remain.

With every layout of the mines that fits the position listed (at most the
endgame search's ``MAX_LAYOUTS``), the endgame search (:mod:`autoplay.solver.endgame`)
knows the exact chance of winning with best play from the position, and from
each position a click on a cell leads to: the layouts without a mine there,
split by the number the cell would show.  The cost of a step is the first
minus the second.  Earlier in a game there are too many layouts to list and
the cost is not known; nothing is guessed then.

The search's own recursion (``EndgameSearch._value``) is used as it is: a public
method in the solver would have meant changing a module that is shipped
compiled, for a question only the coach asks.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from autoplay.board.model import Coord
from autoplay.solver.analysis import Analysis
from autoplay.solver.endgame import MAX_LAYOUTS, EndgameSearch, SearchTimeout, list_layouts

#: Frontier assignments a listing may walk (the guess search's bound: listing walks them all, even those the
#: mine count rules out).
FRONTIER_WALK_LIMIT = 50 * MAX_LAYOUTS


@dataclass(frozen=True)
class WinCost:
    """The chance of winning with best play, and after the step (then best play)."""

    best: float
    after: float

    @property
    def cost(self) -> float:
        return max(0.0, self.best - self.after)


def win_cost(analysis: Analysis, mines: int | None, cell: Coord, time_limit: float) -> WinCost | None:
    """The win chance with best play before a reveal of ``cell`` and after it; None when it is not known (too
    many layouts, no mine count, the search out of time)."""
    pos = analysis.position
    if pos is None or mines is None:
        return None
    walk = 1
    for component in analysis.components:
        walk *= sum(component.mine_counts.values())
    if walk > FRONTIER_WALK_LIMIT:
        return None
    flat = cell[0] * pos.cols + cell[1]
    if flat not in pos.unknown:
        return None
    deadline = time.perf_counter() + time_limit
    layouts = list_layouts(pos, mines)
    if not layouts:
        return None
    search = EndgameSearch(pos, deadline)
    everything = tuple(sorted(layouts))
    bit = 1 << pos.unknown.index(flat)
    parts: dict[int, list[int]] = {}
    around = search.around[pos.unknown.index(flat)]
    for layout in everything:
        if not layout & bit:  # the cell is safe in this layout: it shows the mines around it
            parts.setdefault((layout & around).bit_count(), []).append(layout)
    try:
        best = search._value(everything, 0)[0]
        won = sum(len(p) * (1.0 if len(p) == 1 else search._value(tuple(p), bit)[0]) for p in parts.values())
    except SearchTimeout:
        return None
    return WinCost(best, won / len(everything))
