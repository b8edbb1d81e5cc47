"""One explanation per move of a solver decision: the proof of a certain move, the odds of a guess.

The explanation is built after the decision and never changes it, so the
solver stays the single source of moves; this module only reads the same
position again.  ``time_limit`` caps the proof search per decision (the live
recorder passes a small one): cells not proved in time are explained by the
engine fallback, which is still true, only not minimal.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from autoplay.board.model import Board
from autoplay.insight.guesses import GuessReport, explain_guess
from autoplay.insight.patterns import Cited, cite, name_pattern
from autoplay.insight.proofs import ENGINE, GUESS, MAX_NUMBERS, Proof, Prover
from autoplay.solver.decide import Decision, Move
from autoplay.solver.position import read_position


@dataclass
class Explanation:
    """Why one move was made; ``kind`` is ``certain``, ``guess`` or ``first`` (the opening click)."""

    action: str
    row: int
    col: int
    kind: str
    text: str
    level: str | None = None
    pieces: int | None = None
    numbers: list[Cited] = field(default_factory=list)
    uses_count: bool = False
    minimal: bool = True
    timed_out: bool = False
    pattern: str | None = None
    guess: GuessReport | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "text": self.text}
        if self.kind == "certain":
            out.update(
                {
                    "level": self.level,
                    "pieces": self.pieces,
                    "pattern": self.pattern,
                    "uses_mine_count": self.uses_count,
                    "minimal": self.minimal,
                    "timed_out": self.timed_out,
                    "numbers": [{"row": n.row, "col": n.col, "shown": n.shown, "needs": n.needs} for n in self.numbers],
                }
            )
        if self.guess is not None:
            out.update(self.guess.to_dict())
        return out


def explain_decision(
    board: Board,
    decision: Decision,
    mines: int | None = None,
    *,
    max_numbers: int = MAX_NUMBERS,
    time_limit: float | None = None,
    also: list[Move] | None = None,
) -> list[Explanation]:
    """Explanations for ``decision.moves``, in the same order; ``mines`` defaults to ``board.mines``.

    ``also`` adds more certain moves (cells the decision left for later) to a
    certain decision's list; they share its proof search.
    """
    if mines is None:
        mines = board.mines
    if not decision.moves:
        return []
    if board.is_fresh:
        move = decision.moves[0]
        return [
            Explanation(
                move.action,
                move.row,
                move.col,
                "first",
                f"{move.action} ({move.row},{move.col}): opening click ({decision.reason})",
            )
        ]
    if decision.guess:
        move = decision.moves[0]
        report = explain_guess(board, decision)
        return [Explanation(move.action, move.row, move.col, GUESS, report.text, level=GUESS, guess=report)]
    pos = read_position(board)
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    prover = Prover(pos, None if mines is None else mines - len(pos.known_mines), max_numbers, deadline)
    return [_certain(board, prover, move) for move in [*decision.moves, *(also or [])]]


def later_certain_moves(decision: Decision, analysis: Any) -> list[Move]:
    """Certain cells of ``analysis`` the decision does not play yet (its cheap rules stop at the first finding)."""
    if decision.guess or analysis is None:
        return []
    played = {(m.row, m.col) for m in decision.moves}
    moves = [Move("reveal", r, c, 0.0) for r, c in analysis.safe if (r, c) not in played]
    return moves + [Move("flag", r, c, 1.0) for r, c in analysis.mines if (r, c) not in played]


def _certain(board: Board, prover: Prover, move: Move) -> Explanation:
    proof = prover.prove(board.index(move.row, move.col), move.action == "flag")
    pattern = name_pattern(board, prover.pos, proof)
    numbers = cite(board, proof)
    text = describe(move, proof, numbers, pattern, prover.max_numbers)
    return Explanation(
        move.action,
        move.row,
        move.col,
        "certain",
        text,
        level=proof.level,
        pieces=proof.pieces,
        numbers=numbers,
        uses_count=proof.uses_count,
        minimal=proof.minimal,
        timed_out=proof.timed_out,
        pattern=pattern,
    )


def describe(
    move: Move, proof: Proof, numbers: list[Cited], pattern: str | None, max_numbers: int = MAX_NUMBERS
) -> str:
    """One line a player can check by hand: the verdict, the pattern, and every cited number."""
    verdict = "mine" if proof.mine else "safe"
    head = f"{move.action} ({move.row},{move.col}): {verdict}"
    if proof.level == ENGINE:
        scope = f"{len(numbers)} numbers" if numbers else "no number"
        count = " and the mine count" if proof.uses_count else ""
        why = (
            "the search for a smaller set ran out of time"
            if proof.timed_out
            else f"no set of up to {max_numbers} numbers forces it alone"
        )
        return f"{head} by the full analysis of its subsystem ({scope}{count}); {why}"
    cited = ", ".join(_number_text(n) for n in numbers)
    parts = [cited] if cited else []
    if proof.uses_count:
        parts.append("the mine count")
    pieces = f"{proof.pieces} piece{'s' if proof.pieces != 1 else ''} of information"
    label = f" by {pattern}" if pattern else ""
    return f"{head}{label} - {pieces}: {'; '.join(parts)}"


def _number_text(n: Cited) -> str:
    if n.reduced:
        return f"({n.row},{n.col})={n.shown} needing {n.needs} after {n.shown - n.needs} flag(s)"
    return f"({n.row},{n.col})={n.shown}"


def format_explanations(explanations: list[Explanation], limit: int | None = None) -> str:
    """The text ``solve --explain`` prints: one line per move, a count of the rest beyond ``limit``."""
    shown = explanations if limit is None else explanations[:limit]
    lines = [e.text for e in shown]
    if limit is not None and len(explanations) > limit:
        lines.append(f"... and {len(explanations) - limit} more (all of them are in --json)")
    return "\n".join(lines)
