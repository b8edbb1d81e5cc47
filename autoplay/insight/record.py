"""Explanations as recordings store them: cheap enough for the live loop, never fatal to it.

The live player explains a decision only when it records, after choosing
the move, within ``RECORD_BUDGET`` seconds; past the budget a cell gets the
engine fallback (true, not minimal).  A failure to explain costs the
explanation, never the game.
"""

from __future__ import annotations

from typing import Any

from autoplay.board.model import Board
from autoplay.errors import AutoplayError

#: Seconds of proof search per recorded decision (a decision itself takes about a millisecond).
RECORD_BUDGET = 0.05
#: Largest set of numbers searched on the live path: sets of 4 are rare and the dearest to find.
RECORD_MAX_NUMBERS = 3


def explanation_record(board: Board, decision: Any) -> list[dict[str, Any]] | None:
    """One explanation object per move of ``decision`` (the ``explanation`` field of a decision record)."""
    from autoplay.insight.explain import explain_decision

    try:
        explained = explain_decision(board, decision, max_numbers=RECORD_MAX_NUMBERS, time_limit=RECORD_BUDGET)
    except AutoplayError:
        return None
    return [{"action": e.action, "row": e.row, "col": e.col, **e.to_dict()} for e in explained]


def explanation_lines(explanation: list[dict[str, Any]] | None, limit: int = 3) -> list[str]:
    """The recorded texts, at most ``limit`` of them plus a count of the rest (for ``autoplay replay``)."""
    texts = [str(item.get("text", "")) for item in explanation or [] if isinstance(item, dict)]
    if len(texts) > limit:
        texts = texts[:limit] + [f"... and {len(texts) - limit} more"]
    return texts
