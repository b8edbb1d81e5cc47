"""What ``autoplay watch`` tells the person about each position: the odds, the move and why, and their steps.

The solver's answer for a position is the one ``autoplay solve --explain``
gives (same ``choose_move``, ``analyze`` and ``explain_decision``), with the
game's own rules; the review of the person's steps (:mod:`autoplay.insight.review`)
judges each step against the answer for the position before it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import Any

from autoplay.board.model import DIGITS, EXPLODED, MINE, Board
from autoplay.board.rules import Rules
from autoplay.errors import ContradictionError
from autoplay.insight.explain import Explanation, explain_decision
from autoplay.insight.review import REVEAL, RISKIER, GameReview, Judged, judge, steps_between
from autoplay.insight.win_cost import win_cost
from autoplay.solver import analyze, choose_move
from autoplay.solver.analysis import Analysis
from autoplay.solver.decide import Decision

FINISHED = ("won", "lost")


@dataclass
class Advice:
    """The solver's answer for one position, or why there is none (the game is over, the board impossible)."""

    board: Board
    analysis: Analysis | None = None
    decision: Decision | None = None
    explanations: list[Explanation] | None = None
    problem: str | None = None


def advise(board: Board, rules: Rules, time_limit: float, explain_limit: float) -> Advice:
    """The exact odds, the move autoplay would make and why, for a position of a game in play.

    ``time_limit`` bounds the decision and the odds together, as in ``solve``; ``explain_limit`` the proof
    search of the "why".  A position no layout explains (a misread, a wrong flag of the person's) gets none.
    """
    if not board.unknown_cells():
        return Advice(board, problem="no covered cell left")
    started = time.perf_counter()
    try:
        decision = choose_move(board, board.mines, rules, time_limit=time_limit)
        analysis = decision.analysis or analyze(board, deadline=started + time_limit)
    except ContradictionError as exc:
        return Advice(board, problem=f"no mine layout explains this board: {exc}")
    if not decision.moves:
        return Advice(board, analysis, problem=decision.reason)
    # the "why" of the moves shown; solve --explain's proofs of the cells left for later would cost more than they
    # tell a person looking at one move
    return Advice(board, analysis, decision, explain_decision(board, decision, time_limit=explain_limit))


def restarted(before: Board, after: Board, before_state: str, after_state: str) -> bool:
    """Whether ``after`` belongs to another game than ``before``: another size, a finished game followed by one in
    play, or an opened cell covered again (a new game started in the middle of one)."""
    if (before.rows, before.cols) != (after.rows, after.cols):
        return True
    if before_state in FINISHED and after_state not in FINISHED:
        return True
    opened = set(DIGITS) | {MINE, EXPLODED}
    return any(was in opened and now not in opened for was, now in zip(before.cells, after.cells, strict=True))


@dataclass
class Coached:
    """What one new position brings: the advice for it, the steps that led to it, and the summary of an ended game."""

    advice: Advice
    state: str
    steps: list[Judged]
    new_game: bool
    summary: dict[str, Any] | None = None


@dataclass
class Coach:
    """Follows one person's games position by position; ``see`` returns what to show for each new one."""

    rules: Rules
    time_limit: float = 0.5
    explain_limit: float = 0.5
    review: GameReview = field(default_factory=GameReview)
    _last: tuple[Advice, str] | None = None

    def see(
        self,
        board: Board,
        state: str,
        t: float,
        pointer_cell: tuple[int, int] | None = None,
    ) -> Coached:
        """Judge the steps since the last position, then advise on this one; a game's end gives its summary."""
        last = self._last
        new_game = last is None or restarted(last[0].board, board, last[1], state)
        if new_game:
            self.review = GameReview()
        if last is None:
            before = Advice(board)  # the start: watching may begin in the middle of a game
        elif new_game:
            # a click made before the fresh board was seen still counts: compared with a covered board of that size
            before = advise(Board.empty(board.rows, board.cols, board.mines), self.rules, self.time_limit, 0.0)
        else:
            before = last[0]
        finished = state in FINISHED
        steps = steps_between(before.board, board, t, finished=finished, pointer_cell=pointer_cell)
        probabilities = before.analysis.probabilities if before.analysis is not None else None
        judged = [self._costed(judge(step, before.board, probabilities, self.rules), before) for step in steps]
        self.review.judged.extend(judged)
        summary = None
        if finished:
            self.review.result = state
            summary = self.review.summary(board)
            advice = Advice(board, problem=f"the game is {state}")
        else:
            advice = advise(board, self.rules, self.time_limit, self.explain_limit)
        self._last = (advice, state)
        return Coached(advice, state, judged, new_game, summary)

    def _costed(self, judged: Judged, before: Advice) -> Judged:
        """A reveal riskier than needed, with what it cost in win chance where the solver knows it."""
        step = judged.step
        if judged.verdict != RISKIER or step.action != REVEAL or step.cell is None or before.analysis is None:
            return judged
        win = win_cost(before.analysis, before.board.mines, step.cell, self.time_limit)
        return judged if win is None else replace(judged, win=win)
