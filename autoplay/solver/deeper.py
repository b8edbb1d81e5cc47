"""A third move of look-ahead for the guess search, spent only where the two-move scores are close.

The two-move look-ahead (:mod:`guess`) scores a candidate by surviving it and the best next move.
When the best few candidates score about the same, that horizon cannot tell them apart, yet which
one is guessed decides many expert games (a third of the losses come at the first guess).  Here
each of them is scored by the chance of surviving three moves: for every number ``v`` it could
show, the position after it is valued by its best two-move survival ``V2``:

- 1 when it has at least two certainly safe cells (progress is assured for a while);
- with exactly one safe cell, that cell's own two-move survival (a free move uses up a level);
- otherwise the best two-move survival among its few safest candidate cells.

Sibling positions share most frontier components, which the engine's component cache already
keys by their constraints, so the re-counts are mostly look-ups.  Any deadline or budget hit
abandons the deeper search and the two-move choice stands.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from autoplay.solver.analysis import Tally, reveal_outcomes
from autoplay.solver.count import BudgetExceeded
from autoplay.solver.position import Position, with_reveal

if TYPE_CHECKING:  # guess.py imports this module
    from autoplay.solver.guess import Scored

#: Candidates (best two-move scores first) weighed three moves deep.
TOP_CANDIDATES = 3
#: Follow-up cells weighed in a position with no safe cell.
FOLLOW_UPS = 4
#: Only candidates whose two-move score is within this of the best one are weighed.
MARGIN = 0.05
#: A deeper value must beat the incumbent's by more than this to change the choice.
_TIE = 1e-9


class _OutOfTime(Exception):
    pass


Candidates = Callable[[Position, dict[int, float]], list[int]]


class _Search:
    """The three-move value of cells in one decision: the mine total, the deadline, how candidates are picked."""

    def __init__(self, mines: int, deadline: float, candidates: Candidates):
        self.mines, self.deadline, self.candidates = mines, deadline, candidates

    def survive_three(self, pos: Position, solutions: int, index: int, beat: float | None = None) -> float | None:
        """The chance of surviving ``index`` and the two best moves after it; None when the deadline passed.

        With ``beat``, the sum stops once the numbers still to come cannot lift it above ``beat``
        (each adds at most its own chance), and the partial, losing value is returned.
        """
        try:
            return self._value(pos, solutions, index, self._after_first, beat)
        except (_OutOfTime, BudgetExceeded):
            return None

    def _value(
        self, pos: Position, solutions: int, index: int, rest: Callable[..., float], beat: float | None = None
    ) -> float:
        """Sum over the numbers ``index`` can show of their chance times ``rest`` of the position after it.

        ``solutions`` counts the layouts of ``pos``; each outcome's own count over it is its chance.
        """
        if time.perf_counter() > self.deadline:
            raise _OutOfTime
        outcomes = reveal_outcomes(pos, self.mines, index, deadline=self.deadline)
        left = sum(after.solutions for after in outcomes.values()) / solutions  # the chance ``index`` is safe
        total = 0.0
        for value, after in outcomes.items():
            chance = after.solutions / solutions
            total += chance * rest(pos, index, value, after)
            left -= chance
            if beat is not None and total + left <= beat + _TIE:
                break
        return total

    def _after_first(self, pos: Position, index: int, value: int, after: Tally) -> float:
        """V2 of the position after ``index`` showed ``value`` (see the module docstring)."""
        safe = [j for cells, num, _den in after.shares if num == 0 for j in cells]
        if len(safe) >= 2:
            return 1.0
        child = with_reveal(pos, index, value)
        if safe:
            return self._value(child, after.solutions, safe[0], self._after_second)
        risk = {j: num / den for cells, num, den in after.shares for j in cells}
        best = 0.0
        for cell in self.candidates(child, risk)[:FOLLOW_UPS]:
            if 1.0 - risk[cell] <= best:
                break
            best = max(best, self._value(child, after.solutions, cell, self._after_second))
        return best

    @staticmethod
    def _after_second(pos: Position, index: int, value: int, after: Tally) -> float:
        """The last move's survival: 1 when a safe cell appeared, else the safest cell's chance."""
        return 1.0 if after.safe_cell_count() else 1.0 - after.lowest_probability()


def deeper_pick(
    pos: Position, solutions: int, mines: int, ranked: list[Scored], deadline: float, candidates: Candidates
) -> tuple[int, float] | None:
    """(position in ``ranked`` of the candidate to play, its three-move survival), or None to keep the first.

    ``ranked`` is the look-ahead's order (best first, each with ``score()`` and ``survive_two``);
    only its leading candidates within :data:`MARGIN` of the best are weighed, and ties keep the
    earlier one.  ``solutions`` counts the layouts of ``pos``.
    """
    if len(ranked) < 2 or ranked[1].survive_two < 0:
        return None
    top = ranked[0].score()
    close = [k for k, s in enumerate(ranked[:TOP_CANDIDATES]) if s.survive_two >= 0 and s.score() >= top - MARGIN]
    if len(close) < 2:
        return None
    search = _Search(mines, deadline, candidates)
    best_k, best_value = -1, -1.0
    for k in close:
        if ranked[k].safety <= best_value + _TIE:
            continue  # surviving three moves is no likelier than surviving the first
        value = search.survive_three(pos, solutions, ranked[k].index, None if best_k < 0 else best_value)
        if value is None:
            return None
        if value > best_value + _TIE:
            best_k, best_value = k, value
    return best_k, best_value
