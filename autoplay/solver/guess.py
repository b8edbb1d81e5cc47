"""Choosing a guess when nothing is certain.

The policy, in the order it is applied:

0. An unavoidable 50/50 (two cells, one mine, nothing else can ever tell them
   apart) is taken at once: it must be guessed some day and its odds never
   improve, so guessing it before other risks wastes nothing.
1. With at most ``MAX_LAYOUTS`` layouts left, an exhaustive search
   (:mod:`endgame`) plays the position perfectly (within its node budget).
1b. A pseudo-50/50 (a cell that is a mine only where a pair or 2x2 block
   around it can never be split, :mod:`traps`) is taken next: whenever it
   is a mine the game needs that coin toss anyway, and when it is safe it
   splits the trap.  Over 300,000 paired expert games it won +0.02 ± 0.02 points.
2. Otherwise candidates are the safest cells (within ``WINDOW`` of the best
   safety, at most ``MAX_CANDIDATES``), plus a few cells off the frontier when
   those are competitive (corners and edges first: they open more often).
3. Each candidate is scored by looking one move ahead: for every number it
   could show, the exact chance of that number and the best safety available
   afterwards (1 when the number makes some cell certain), all numbers from
   one enumeration of the changed component (:func:`analysis.reveal_outcomes`).  The score is the chance of surviving this guess
   *and* the best next move, plus a small bonus (``PROGRESS_BONUS``) times
   the chance of making progress; ties go to the expected number of cells
   made certainly safe, then to plain safety.

4. With ``depth=3`` (the default), when the best two or three scores are
   within ``deeper.MARGIN`` of each other, those candidates are weighed once
   more by their chance of surviving three moves (:mod:`deeper`); a strictly
   better one replaces the leader.

Scoring stops at the deadline and the best candidate scored so far wins; the
safest cell is always scored first, so a timeout degrades to "lowest
probability".
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Final

from autoplay.board.model import neighbour_table
from autoplay.solver.analysis import Analysis, Outcomes, reveal_outcomes
from autoplay.solver.count import BudgetExceeded
from autoplay.solver.deeper import deeper_pick
from autoplay.solver.endgame import MAX_LAYOUTS, EndgameSearch, SearchTimeout, list_layouts
from autoplay.solver.position import Position
from autoplay.solver.traps import pseudo_fifty_fifty

#: Candidates need safety at least this fraction of the best safety.
WINDOW = 0.9
MAX_CANDIDATES = 8
MAX_OFF_FRONTIER: Final = 3
#: Weight of "this guess makes some cell certain" on top of the two-move survival chance: progress
#: keeps paying after the next move, which the two-move horizon does not see.
PROGRESS_BONUS: Final = 0.1
#: Slack for float rounding when the look-ahead gives up on a candidate that cannot win.
_MARGIN: Final = 1e-6
#: Moves the look-ahead weighs by default: 3 weighs the closest candidates once more (:mod:`deeper`), 2 does not.
#: Measured in BENCHMARKS.md: +0.12 +- 0.07 points on expert (500,000 paired games) and +0.08 +- 0.05 on
#: intermediate (200,000), none on beginner, at half the simulator's speed on expert.
DEFAULT_DEPTH = 3
#: Share of the remaining time the endgame search may use before the heuristic takes over.
ENDGAME_SHARE = 0.6
#: Skip the search when listing the layouts would walk more frontier assignments than this.
FRONTIER_WALK_LIMIT = 50 * MAX_LAYOUTS


@dataclass
class Scored:
    """One candidate cell and what looking ahead found."""

    index: int
    safety: float
    survive_two: float = -1.0
    progress: float = -1.0
    expected_safe: float = -1.0

    def score(self) -> float:
        return self.survive_two + PROGRESS_BONUS * self.progress

    def key(self) -> tuple[float, float, float]:
        return (round(self.score(), 9), round(self.expected_safe, 9), self.safety)


@dataclass
class GuessChoice:
    """The guess and what decided it, kept on the decision so explaining it never redoes the look-ahead.

    ``policy`` is ``fifty-fifty``, ``endgame``, ``pseudo-50/50``, ``safest``, ``look-ahead`` or ``depth-3``
    (``win_chance`` is then the endgame's chance to win, or the three-move survival);
    ``ranked`` lists the candidates best first (look-ahead fields stay -1
    for cells the policy did not score; a score cut short by ``beat`` is a
    partial, losing one).
    """

    index: int
    probability: float
    reason: str
    policy: str
    ranked: list[Scored]
    win_chance: float | None = None


def choose_guess(analysis: Analysis, mines: int | None, deadline: float, depth: int = DEFAULT_DEPTH) -> GuessChoice:
    """The guess to make, with the candidates it beat (see the module docstring for the policy).

    A position met before gets the same answer from :data:`_CHOICES` without the search: the
    corner opening's few shapes recur in game after game, and the search's answer depends on the
    position alone when it finished before the deadline.  Positions the endgame search may play
    are not kept, since that search gives up on time.
    """
    pos = analysis.position
    assert pos is not None
    keep = analysis.mode == "global" and not analysis.approximate and analysis.solutions > MAX_LAYOUTS
    key = (pos, mines, depth)
    if keep:
        found = _CHOICES.get(key)
        if found is not None:
            return found
    choice = _choose(analysis, pos, mines, deadline, depth)
    if keep and time.perf_counter() <= deadline:
        if len(_CHOICES) >= _CHOICES_LIMIT:
            _CHOICES.clear()
        _CHOICES[key] = choice
    return choice


#: Guesses already worked out, by (position, mine total, depth); see :func:`choose_guess`.
_CHOICES: Final[dict[tuple[Position, int | None, int], GuessChoice]] = {}
#: An entry (a position and its ranked candidates) holds ~11 KB; at 2048 a session gains ~1.4 a game for 1,500
#: games (simulated expert RSS +12% from game 50 to 500).  The openings that recur are met within a few games:
#: at 256, 300 simulated xdemineur games keep 186 of its 198 hits, and RSS moves 4% from game 50 to 500.
_CHOICES_LIMIT: Final = 256


def clear_guess_cache() -> None:
    """Forget worked-out guesses (a benchmark of cold decisions needs the search to run)."""
    _CHOICES.clear()


def _choose(analysis: Analysis, pos: Position, mines: int | None, deadline: float, depth: int) -> GuessChoice:
    risk = _risks(analysis)
    candidates = _candidates(pos, risk)
    by_safety = [Scored(j, 1.0 - risk[j]) for j in candidates]
    pair = _dead_fifty_fifty(analysis, risk)
    if pair is not None:
        return GuessChoice(pair, risk[pair], "guess: unavoidable 50/50", "fifty-fifty", by_safety)
    cut = ""  # which search the time limit cut short, named in the reason: a replay may then decide otherwise
    if analysis.mode == "global" and not analysis.approximate and 1 < analysis.solutions <= MAX_LAYOUTS:
        try:
            found = _endgame(analysis, mines, deadline)
        except SearchTimeout:
            found, cut = None, "; the endgame search was cut short by the time limit"
        if found is not None:
            index, win = found
            return GuessChoice(
                index, risk[index], f"guess: endgame search, win chance {win:.3f}", "endgame", by_safety, win
            )
    best = by_safety[0]
    exact_counts = analysis.mode == "global" and not analysis.approximate and analysis.solutions > 0
    if not exact_counts or len(candidates) == 1:
        reason = f"guess: lowest probability {risk[best.index]:.3f}{cut}"
        return GuessChoice(best.index, risk[best.index], reason, "safest", by_safety)
    pseudo = _pseudo(analysis, pos, mines, risk)
    if pseudo is not None:
        reason = f"guess: a 50/50 in the making, probability {risk[pseudo]:.3f}{cut}"
        return GuessChoice(pseudo, risk[pseudo], reason, "pseudo-50/50", by_safety)
    scored: list[Scored] = []
    seen: dict[int, Outcomes] = {}  # each candidate's outcomes, read again by the depth-3 search
    for index in candidates:
        if time.perf_counter() > deadline:
            break
        entry = _look_ahead(pos, analysis, mines, index, risk[index], deadline, beat=best.score(), keep=seen)
        if entry is None:
            break
        scored.append(entry)
        if entry.key() > best.key():
            best = entry
    note = (
        ""
        if len(scored) == len(candidates)
        else (f", look-ahead cut at {len(scored)}/{len(candidates)} by the time limit")
    )
    ranked = sorted(scored, key=Scored.key, reverse=True)  # stable: the winner leads its ties
    ranked += by_safety[len(scored) :]
    if best not in ranked[:1]:
        ranked = [best] + [s for s in ranked if s is not best]
    reason = (
        f"guess: probability {risk[best.index]:.3f}, survive-two {max(best.survive_two, 0):.3f}, "
        f"progress {max(best.progress, 0):.3f}{note}"
    )
    deeper = None
    if depth >= 3 and mines is not None and len(scored) == len(candidates):
        deeper = deeper_pick(pos, analysis.solutions, mines, ranked, deadline, _candidates, seen)
        if deeper is None and time.perf_counter() > deadline:
            cut += "; the depth-3 search was cut short by the time limit"
    reason += cut
    if deeper is not None:
        k, survive_three = deeper
        if k:
            best = ranked[k]
            ranked = [best] + [s for s in ranked if s is not best]
            reason = (
                f"guess: probability {risk[best.index]:.3f}, survive-three {survive_three:.3f} "
                f"(depth-3 search among the closest look-ahead scores), survive-two {best.survive_two:.3f}{cut}"
            )
            return GuessChoice(best.index, risk[best.index], reason, "depth-3", ranked, survive_three)
    return GuessChoice(best.index, risk[best.index], reason, "look-ahead", ranked)


def _endgame(analysis: Analysis, mines: int | None, deadline: float) -> tuple[int, float] | None:
    """Best cell by exhaustive search, or None when the layouts are too many; SearchTimeout when time runs short."""
    pos = analysis.position
    assert pos is not None
    # listing walks every frontier assignment, even those the mine count rules out: bound that walk too
    frontier_assignments = 1
    for comp in analysis.components:
        frontier_assignments *= sum(comp.mine_counts.values())
    if mines is None or frontier_assignments > FRONTIER_WALK_LIMIT:
        return None
    now = time.perf_counter()
    layouts = list_layouts(pos, mines)
    if not layouts:
        return None
    return EndgameSearch(pos, now + ENDGAME_SHARE * (deadline - now)).best_move(layouts)


def _pseudo(analysis: Analysis, pos: Position, mines: int | None, risk: dict[int, float]) -> int | None:
    """A cell that is a mine only inside a trap that needs a coin toss anyway (:func:`traps.pseudo_fifty_fifty`).

    A count that does not fit the engine's budget gives up on the rule: the look-ahead still decides.
    """
    if mines is None:
        return None
    try:
        return pseudo_fifty_fifty(pos, mines, analysis.solutions, risk, analysis.exact)
    except BudgetExceeded:
        return None


def _risks(analysis: Analysis) -> dict[int, float]:
    """Mine probability of every unknown cell; local mode estimates off-frontier cells by the frontier's mean."""
    pos = analysis.position
    assert pos is not None
    cols = pos.cols
    risk: dict[int, float] = {}
    missing = []
    for j in pos.unknown:
        p = analysis.probabilities[j // cols][j % cols]
        if p is None:
            missing.append(j)
        else:
            risk[j] = p
    if missing:
        fill = sum(risk.values()) / len(risk) if risk else 0.2
        for j in missing:
            risk[j] = fill
    return risk


def _dead_fifty_fifty(analysis: Analysis, risk: dict[int, float]) -> int | None:
    """One cell of a pair that holds exactly one mine and that nothing can ever tell apart.

    A number seeing just the two cells and needing one mine makes the pair a 50/50.  It is dead when
    the two cells are interchangeable for everything still to come: every number and every unknown
    cell that touches one of them touches both, so no reveal, count or deduction can favour either.
    """
    pos = analysis.position
    assert pos is not None
    nbrs = neighbour_table(pos.rows, pos.cols)
    unknown = set(pos.unknown)
    for con in pos.constraints:
        if len(con.unknowns) != 2 or con.mines != 1:
            continue
        a, b = con.unknowns
        if any((a in other.unknowns) != (b in other.unknowns) for other in pos.constraints):
            continue
        around_a = {j for j in nbrs[a] if j in unknown and j != b}
        around_b = {j for j in nbrs[b] if j in unknown and j != a}
        if around_a == around_b:
            return min(a, b)
    return None


def _candidates(pos: Position, risk: dict[int, float]) -> list[int]:
    """Safest frontier cells and a few off-frontier cells, safest first."""
    on_frontier = [False] * (pos.rows * pos.cols)  # by cell: a list the compiled solver reads without boxing
    for con in pos.constraints:
        for j in con.unknowns:
            on_frontier[j] = True
    best_safety = 1.0 - min(risk.values())
    floor = WINDOW * best_safety
    close = [j for j in pos.unknown if 1.0 - risk[j] >= floor]
    on = sorted((j for j in close if on_frontier[j]), key=lambda j: (risk[j], j))[:MAX_CANDIDATES]
    off = [j for j in close if not on_frontier[j]]
    # fewer unknown neighbours (corners, then edges): more likely to show a zero and open an area
    if len(off) > MAX_OFF_FRONTIER:
        off = _fewest_hidden_around(pos, off)
    chosen = on + off[:MAX_OFF_FRONTIER]
    chosen.sort(key=lambda j: (risk[j], j))
    return chosen


def _fewest_hidden_around(pos: Position, cells: list[int]) -> list[int]:
    """The first :data:`MAX_OFF_FRONTIER` of ``cells`` by (unknown neighbours, index): ``sorted`` by that key.

    The depth-3 search asks for every position it weighs, and the off-frontier cells are most of the board:
    each key is one small integer (unknown neighbours times the board's size, plus the index), counted only
    for these cells, and only the few smallest are kept.
    """
    size = pos.rows * pos.cols
    hidden = [0] * size  # a list of small ints: the compiled solver indexes it without boxing
    for j in pos.unknown:
        hidden[j] = 1
    nbrs = neighbour_table(pos.rows, pos.cols)
    past = 9 * size  # above every key
    least = [past] * MAX_OFF_FRONTIER  # the smallest keys so far, ascending (heapq.nsmallest runs interpreted)
    for j in cells:
        around = 0
        for i in nbrs[j]:
            around += hidden[i]
        key = around * size + j
        if key < least[-1]:
            k = len(least) - 1
            while k > 0 and least[k - 1] > key:
                least[k] = least[k - 1]
                k -= 1
            least[k] = key
    return [key % size for key in least if key < past]


def _look_ahead(
    pos: Position,
    analysis: Analysis,
    mines: int | None,
    index: int,
    p_mine: float,
    deadline: float,
    beat: float | None = None,
    keep: dict[int, Outcomes] | None = None,
) -> Scored | None:
    """Score one candidate by every number it could show; None when the deadline passed mid-way.

    With ``beat``, scoring stops as soon as the outcomes still to come cannot lift the score to ``beat``
    (each can add at most its chance times ``1 + PROGRESS_BONUS``); the partial, losing score is returned.
    ``keep`` receives the candidate's outcomes (counted and partly joined) for the depth-3 search.
    """
    # Every chance is (an outcome's layouts) / (this position's layouts), so the sums are kept as exact
    # numerators over that one denominator; only the chance of surviving an outcome that opens nothing
    # carries a float's exact binary fraction.  Each float read below is the correctly rounded value of the
    # exact sum, as reducing Fractions at every step gave, without a gcd of huge counts at every step.
    whole = analysis.solutions
    opening = 0  # layouts of the outcomes that make some cell certainly safe
    # layouts of the others, each times its chance of surviving the next move: risky / 2**shift exactly
    risky, shift = 0, 0
    cells_opened = 0
    seen = 0
    safety = 1.0 - p_mine
    if mines is None or time.perf_counter() > deadline:
        return None
    try:
        outcomes = reveal_outcomes(pos, mines, index, deadline=deadline)
        if keep is not None:
            keep[index] = outcomes
        for value in outcomes.numbers():  # ascending; a number the join rules out is skipped
            found = outcomes.safe_cells(value)  # counted only now, so numbers after a cut cost nothing
            if found is None:
                continue
            solutions, opened = found
            if opened:
                opening += solutions
                cells_opened += solutions * opened
            else:  # the chance of surviving the next move: the lowest probability after it
                survive, power = (1 - outcomes.lowest_probability(value)).as_integer_ratio()  # a power of two
                grow = power.bit_length() - 1 - shift
                if grow > 0:
                    risky, shift = risky << grow, shift + grow
                risky += (solutions * survive) << (shift - power.bit_length() + 1)
            if beat is not None:
                seen += solutions
                ceiling = (
                    _ratio(opening, risky, shift, whole)
                    + PROGRESS_BONUS * (opening / whole)
                    + (1 + PROGRESS_BONUS) * (safety - seen / whole)
                )
                if ceiling < beat - _MARGIN:
                    break
    except BudgetExceeded:
        return None
    return Scored(index, 1.0 - p_mine, _ratio(opening, risky, shift, whole), opening / whole, cells_opened / whole)


def _ratio(opening: int, risky: int, shift: int, whole: int) -> float:
    """``(opening + risky / 2**shift) / whole``, correctly rounded (Python's int division rounds exactly).

    >>> _ratio(1, 3, 2, 2)  # (1 + 3/4) / 2
    0.875
    """
    return ((opening << shift) + risky) / (whole << shift)
