"""Why a guess went where it went: its risk, the cells it beat, and the rule that broke the tie.

The guess policy already scores its candidates (:mod:`autoplay.solver.guess`);
the decision carries those scores, so explaining a guess costs nothing extra.
A decision without them (an older solver, or the opening click) is explained
from the probabilities alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from autoplay.board.model import Board
from autoplay.solver.decide import Decision
from autoplay.solver.guess import PROGRESS_BONUS

#: Runner-up cells listed per guess.
RUNNERS_UP = 3
#: Two safeties closer than this are a tie.
TIE = 1e-9


@dataclass
class Candidate:
    """A cell the policy weighed: its mine probability and, when it looked ahead, what it found."""

    row: int
    col: int
    probability: float
    survive_two: float | None = None
    progress: float | None = None
    expected_safe: float | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"row": self.row, "col": self.col, "probability": round(self.probability, 6)}
        for key in ("survive_two", "progress", "expected_safe"):
            value = getattr(self, key)
            if value is not None:
                out[key] = round(value, 6)
        return out


@dataclass
class GuessReport:
    """``policy``: fifty-fifty, endgame, pseudo-50/50, safest, look-ahead or depth-3; ``why`` says what decided it."""

    chosen: Candidate
    policy: str
    why: str
    runners_up: list[Candidate] = field(default_factory=list)

    @property
    def text(self) -> str:
        c = self.chosen
        others = ", ".join(f"({r.row},{r.col}) {r.probability:.3f}" for r in self.runners_up)
        tail = f"; runners-up {others}" if others else ""
        return f"reveal ({c.row},{c.col}): guess, mine probability {c.probability:.3f} - {self.why}{tail}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "probability": round(self.chosen.probability, 6),
            "policy": self.policy,
            "why": self.why,
            "chosen": self.chosen.to_dict(),
            "runners_up": [r.to_dict() for r in self.runners_up],
        }


def explain_guess(board: Board, decision: Decision) -> GuessReport:
    move = decision.moves[0]
    choice = getattr(decision, "guess_choice", None)
    if choice is not None:
        return _from_choice(board, choice)
    return _from_probabilities(decision, move.row, move.col, move.probability)


def _candidate(board: Board, scored: Any, probability: float) -> Candidate:
    r, c = board.at(scored.index)
    looked = scored.survive_two >= 0
    return Candidate(
        r,
        c,
        probability,
        scored.survive_two if looked else None,
        scored.progress if looked else None,
        scored.expected_safe if looked else None,
    )


def _from_choice(board: Board, choice: Any) -> GuessReport:
    ranked = [_candidate(board, s, 1.0 - s.safety) for s in choice.ranked]
    chosen = next((c for c in ranked if board.index(c.row, c.col) == choice.index), None)
    if chosen is None:
        chosen = Candidate(*board.at(choice.index), choice.probability)
    others = [c for c in ranked if c is not chosen][:RUNNERS_UP]
    return GuessReport(chosen, choice.policy, _why(choice.policy, chosen, others, choice), others)


def _why(policy: str, chosen: Candidate, others: list[Candidate], choice: Any) -> str:
    if policy == "fifty-fifty":
        return (
            "an unavoidable 50/50: no number can ever tell these two cells apart, so it must be guessed some "
            "time and waiting only adds risk elsewhere"
        )
    if policy == "pseudo-50/50":
        return (
            "a 50/50 in the making: this cell is a mine only where it and a neighbour can never be told apart, "
            "so that coin toss is due anyway; guessed now, a safe answer splits them"
        )
    if policy == "endgame":
        return f"exhaustive endgame search over every remaining layout: best chance to win {choice.win_chance:.3f}"
    if policy == "depth-3":
        return (
            f"the look-ahead scores were too close to call; best chance to survive three moves "
            f"({choice.win_chance:.3f}) among them"
        )
    if not others:
        return "the only candidate"
    best_other = others[0]
    if policy == "safest":
        return f"lowest mine probability (next best {best_other.probability:.3f})"
    return _tie_break(chosen, best_other)


def _tie_break(chosen: Candidate, other: Candidate) -> str:
    """The first score of the policy's key on which the winner beats the runner-up, in words."""
    mine = _score(chosen)
    theirs = _score(other)
    where = f"({other.row},{other.col})"
    if chosen.probability < other.probability - TIE and mine >= theirs - TIE:
        return f"lowest mine probability and best look-ahead (next best {where} at {other.probability:.3f})"
    if chosen.probability > other.probability + TIE:
        return (
            f"riskier than {where} ({chosen.probability:.3f} vs {other.probability:.3f}) but more likely to "
            f"survive the next move and make progress (score {mine:.3f} vs {theirs:.3f})"
        )
    if mine > theirs + TIE:
        return (
            f"as safe as {where}; higher chance to survive the next move too and make progress "
            f"(survive-two {chosen.survive_two or 0:.3f} vs {other.survive_two or 0:.3f}, "
            f"progress {chosen.progress or 0:.3f} vs {other.progress or 0:.3f})"
        )
    if (chosen.expected_safe or 0) > (other.expected_safe or 0) + TIE:
        return (
            f"as safe and as promising as {where}; opens more safe cells on average "
            f"({chosen.expected_safe or 0:.2f} vs {other.expected_safe or 0:.2f})"
        )
    return f"level with {where} on every score; the first in reading order"


def _score(c: Candidate) -> float:
    """The policy's own score (two-move survival plus the progress bonus)."""
    return (c.survive_two or 0.0) + PROGRESS_BONUS * (c.progress or 0.0)


def _from_probabilities(decision: Decision, row: int, col: int, probability: float) -> GuessReport:
    """Without the policy's scores: the safest other cells, and the policy named from the decision's reason."""
    chosen = Candidate(row, col, probability)
    others: list[Candidate] = []
    analysis = decision.analysis
    if analysis is not None:
        cells = [
            (p, r, c)
            for r, line in enumerate(analysis.probabilities)
            for c, p in enumerate(line)
            if p is not None and 0 < p < 1 and (r, c) != (row, col)
        ]
        others = [Candidate(r, c, p) for p, r, c in sorted(cells)[:RUNNERS_UP]]
    reason = decision.reason
    if "in the making" in reason:
        policy, why = "pseudo-50/50", _why("pseudo-50/50", chosen, others, None)
    elif "50/50" in reason:
        policy, why = "fifty-fifty", _why("fifty-fifty", chosen, others, None)
    elif "endgame" in reason:
        policy, why = "endgame", f"exhaustive endgame search ({reason.removeprefix('guess: ')})"
    else:
        policy, why = "safest", reason.removeprefix("guess: ")
    return GuessReport(chosen, policy, why, others)
