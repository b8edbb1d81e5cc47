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

The search plays exactly as the plain sum would, only doing less: the first move's outcomes are the
look-ahead's own (counted once per candidate); a number's tally is joined only where its safe cells
do not settle the value; a challenger stops as soon as a ceiling on what its remaining numbers can
add (1, or the safest cell's chance where no cell is safe) cannot lift it past the leader; and a
follow-up stops once it cannot beat an earlier one.  Every bound keeps a margin (:data:`_SURE`) far
above float rounding, so no choice and no tie-break moves (``tests/sim/test_decision_hashes.py``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from autoplay.solver.analysis import Outcomes, reveal_outcomes
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


#: Far above the rounding error of a sum of a few dozen chances below 1 (about 1e-16 each), far below any
#: difference the search tells apart (:data:`_TIE`): a bound this far below a value is below it exactly.
_SURE = 1e-12


class _OutOfTime(Exception):
    pass


Candidates = Callable[[Position, dict[int, float]], list[int]]


class _Search:
    """The three-move value of cells in one decision: the mine total, the deadline, how candidates are picked."""

    def __init__(self, mines: int, deadline: float, candidates: Candidates, seen: dict[int, Outcomes] | None = None):
        self.mines, self.deadline, self.candidates = mines, deadline, candidates
        self.seen: dict[int, Outcomes] = {} if seen is None else seen

    def survive_three(self, pos: Position, solutions: int, index: int, beat: float | None = None) -> float | None:
        """The chance of surviving ``index`` and the two best moves after it; None when the deadline passed.

        With ``beat``, the sum stops once the numbers still to come cannot lift it above ``beat``
        (each adds at most its own chance, or the ceiling of :meth:`_ceiling`), and the partial, losing
        value is returned.
        """
        try:
            if beat is None:
                return self._value(pos, solutions, index, self._after_first, None, self.seen.get(index))
            return self._challenge(pos, solutions, index, beat)
        except (_OutOfTime, BudgetExceeded):
            return None

    def _challenge(self, pos: Position, solutions: int, index: int, beat: float) -> float:
        """:meth:`_value` of a challenger to ``beat``: the same sum when it wins, a partial one when it cannot.

        Its numbers are weighed costliest-to-settle first: a number leaving two or more safe cells is worth
        its chance at no cost, and the others in falling order of their ceiling (the chance, or the chance
        times the safest cell's chance where no cell is safe), since those pull the bound on the whole down
        the most.  It stops once what is known plus the ceilings of the numbers not yet weighed cannot lift
        it past ``beat`` (with :data:`_SURE` to spare for the sum's order); a challenger that wins has every
        number weighed and its value summed in the plain order, to the same float as :meth:`_value`.
        """
        if time.perf_counter() > self.deadline:
            raise _OutOfTime
        outcomes = self.seen.get(index)
        if outcomes is None:
            outcomes = reveal_outcomes(pos, self.mines, index, deadline=self.deadline)
        found: list[tuple[int, int, int]] = []
        for value in outcomes.numbers():
            counted = outcomes.safe_cells(value)
            if counted is not None:
                found.append((value, counted[0], counted[1]))
        chances = [layouts / solutions for _value, layouts, _safe in found]
        factors = [1.0] * len(found)
        caps: list[float] = []
        known = 0.0
        for k, (value, _layouts, safe) in enumerate(found):
            if safe >= 2:  # the value of the position after is 1 (see _after_first): exact, no count
                caps.append(0.0)
                known += chances[k]
            else:
                caps.append(chances[k] if safe else chances[k] * (1.0 - outcomes.lowest_probability(value)))
        costly = sorted((k for k, (_v, _l, safe) in enumerate(found) if safe < 2), key=lambda k: (-caps[k], k))
        open_cap = sum(caps)
        for k in costly:
            if known + open_cap <= beat + _TIE - _SURE:
                return known  # below the leader, as the full sum would be
            open_cap -= caps[k]
            # the least V2 after this number with which the challenger could still pass the leader
            need = (beat + _TIE - 2 * _SURE - known - open_cap) / chances[k]
            value, _layouts, safe = found[k]
            factors[k] = self._after_first(pos, index, value, outcomes, safe, floor=need)
            if factors[k] < need:  # V2 is below need as well: the whole stays below the leader
                return known
            known += chances[k] * factors[k]
        total = 0.0
        for k in range(len(found)):
            total += chances[k] * factors[k]
        return total

    def _value(
        self,
        pos: Position,
        solutions: int,
        index: int,
        rest: Callable[..., float],
        beat: float | None = None,
        outcomes: Outcomes | None = None,
        floor: float = 0.0,
        sibling_of: int = -1,
    ) -> float:
        """Sum over the numbers ``index`` can show of their chance times ``rest`` of the position after it.

        ``solutions`` counts the layouts of ``pos``; each outcome's own count over it is its chance.
        Each number's layouts and certainly safe cells are read without joining its tally
        (:meth:`Outcomes.safe_cells`); ``rest`` joins it only when the safe cells do not settle the value.
        ``outcomes`` is ``index``'s, when the look-ahead counted them already.  With ``floor``, the sum
        stops once the numbers still to come cannot lift it to ``floor`` even with every float's
        rounding against it (:data:`_SURE`): the partial value returned is then below ``floor``, and so
        is the full one, so a caller keeping the larger of the two values reads the same as without it.
        """
        if time.perf_counter() > self.deadline:
            raise _OutOfTime
        if outcomes is None:
            outcomes = reveal_outcomes(pos, self.mines, index, deadline=self.deadline, sibling_of=sibling_of)
        found: list[tuple[int, int, int]] = []
        possible = 0
        for value in outcomes.numbers():
            counted = outcomes.safe_cells(value)
            if counted is not None:
                found.append((value, counted[0], counted[1]))
                possible += counted[0]
        left = possible / solutions  # the chance ``index`` is safe
        # only the first move's sum has a ``beat`` (:meth:`survive_three`)
        ceiling = 2.0 if beat is None else self._ceiling(outcomes, found, solutions)
        total = 0.0
        for value, layouts, safe in found:
            if beat is not None and total + ceiling <= beat + _TIE - _SURE:
                break
            chance = layouts / solutions
            total += chance * rest(pos, index, value, outcomes, safe)
            left -= chance
            if beat is not None and total + left <= beat + _TIE:
                break
            if total + left < floor - _SURE:
                break
            if safe:
                ceiling -= chance
            else:
                ceiling -= chance * (1.0 - outcomes.lowest_probability(value))
        return total

    @staticmethod
    def _ceiling(outcomes: Outcomes, found: list[tuple[int, int, int]], solutions: int) -> float:
        """At most what the numbers in ``found`` can add to a three-move value: their chances, each times 1 when
        some cell is certainly safe after it, else times the safest cell's chance (no follow-up beats that).

        Checked before each number, it drops a losing candidate before its follow-ups are counted, where the
        plain sum of chances (``left``) cannot tell yet.
        """
        ceiling = 0.0
        for value, layouts, safe in found:
            chance = layouts / solutions
            ceiling += chance if safe else chance * (1.0 - outcomes.lowest_probability(value))
        return ceiling

    def _after_first(
        self, pos: Position, index: int, value: int, outcomes: Outcomes, safe_count: int, floor: float = 0.0
    ) -> float:
        """V2 of the position after ``index`` showed ``value`` (see the module docstring).

        With ``floor``, an answer of at least ``floor`` is exact, and one below it says only that V2 is below
        ``floor`` too (follow-ups stop once none can reach it): a challenger needs no more to be sure it loses.
        """
        if safe_count >= 2:
            return 1.0
        child = with_reveal(pos, index, value)
        if safe_count:
            counted = outcomes.safe_cells(value)
            assert counted is not None
            return self._value(
                child, counted[0], outcomes.first_safe(value), self._after_second, floor=floor, sibling_of=index
            )
        after = outcomes.joined(value)
        assert after is not None
        risk: dict[int, float] = {}
        for cells, num, den in after.shares:
            p_mine = num / den  # once a group: the division of the huge counts costs more than the dictionary
            for j in cells:
                risk[j] = p_mine
        best = 0.0
        for cell in self.candidates(child, risk)[:FOLLOW_UPS]:
            safety = 1.0 - risk[cell]
            if safety <= best or safety < floor - _SURE:
                break
            value_here = self._value(
                child, after.solutions, cell, self._after_second, floor=max(best, floor), sibling_of=index
            )
            best = max(best, value_here)
        return best

    @staticmethod
    def _after_second(pos: Position, index: int, value: int, outcomes: Outcomes, safe_count: int) -> float:
        """The last move's survival: 1 when a safe cell appeared, else the safest cell's chance."""
        return 1.0 if safe_count else 1.0 - outcomes.lowest_probability(value)


def deeper_pick(
    pos: Position,
    solutions: int,
    mines: int,
    ranked: list[Scored],
    deadline: float,
    candidates: Candidates,
    seen: dict[int, Outcomes] | None = None,
) -> tuple[int, float] | None:
    """(position in ``ranked`` of the candidate to play, its three-move survival), or None to keep the first.

    ``ranked`` is the look-ahead's order (best first, each with ``score()`` and ``survive_two``);
    only its leading candidates within :data:`MARGIN` of the best are weighed, and ties keep the
    earlier one.  ``solutions`` counts the layouts of ``pos``; ``seen`` holds the look-ahead's outcomes
    of candidates (by cell), so their numbers are not counted again.
    """
    if len(ranked) < 2 or ranked[1].survive_two < 0:
        return None
    top = ranked[0].score()
    close = [k for k, s in enumerate(ranked[:TOP_CANDIDATES]) if s.survive_two >= 0 and s.score() >= top - MARGIN]
    if len(close) < 2:
        return None
    search = _Search(mines, deadline, candidates, seen)
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
