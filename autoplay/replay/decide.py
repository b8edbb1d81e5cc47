"""The one way replay and ``analyze`` ask the solver for a move, so both give the live player's answer."""

from __future__ import annotations

import random
from collections.abc import Collection
from typing import Any

from autoplay.board.model import Board
from autoplay.board.rules import Rules

#: Seed of the generator handed to the solver.  Its guess policy draws nothing
#: today; if it ever does, a fixed seed keeps "same board -> same move", which
#: is what lets a replay reproduce a recording.
SOLVER_SEED = 0


def decide_move(
    board: Board,
    mines: int | None,
    rules: Rules | None = None,
    time_limit: float = 1.0,
    *,
    closed: bool = False,
    opened: Collection[tuple[int, int]] = (),
) -> Any:
    """The solver's :class:`~autoplay.solver.decide.Decision` for ``board`` (ContradictionError if impossible).

    ``closed``: with the moves a certain batch implies added, as ``autoplay play`` clicks them
    (:func:`~autoplay.solver.closure.closed_batch`); ``opened``: cells shown covered that play knew open
    (a recording's ``opened``), decided as safe cells with no number.
    """
    from autoplay.solver.closure import closed_batch
    from autoplay.solver.decide import choose_move

    rng = random.Random(SOLVER_SEED)
    decision = choose_move(board, mines, rules or Rules(), time_limit=time_limit, rng=rng, opened=opened)
    return closed_batch(board, decision, mines, opened) if closed else decision
