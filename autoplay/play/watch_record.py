"""``autoplay watch --record DIR``: the person's session kept in the format ``play --record`` writes.

Each position watch showed is one ``decision`` line of the recording (its
frame, board, grid and the move autoplay would have made), so ``autoplay
replay`` and ``autoplay report`` read it as they read a played session.  Two
keys only a watch recording has say what the person did: ``steps``, their
steps that led to this position, each with its verdict (as ``watch --json``
prints them), and ``t``, when the position was first seen.  ``session.json``
says ``"kind": "watch"``, which is how ``autoplay report`` knows to make a page
of the person's steps rather than of autoplay's decisions.
"""

from __future__ import annotations

from pathlib import Path

from autoplay.board.rules import Rules
from autoplay.board.textformat import format_board
from autoplay.insight.coach import Coached
from autoplay.play.recorder import Recorder
from autoplay.play.watch import Seen

#: ``session.json``'s ``kind`` for a recording of a person's games (a played session has no ``kind``).
WATCH_KIND = "watch"


class WatchRecorder:
    """Writes each position watch shows, and each game's summary, under ``root``."""

    def __init__(self, root: str | Path, skin: str, rules: Rules, mines: int | None, time_limit: float) -> None:
        self._recorder = Recorder(root, skin, rules, kind=WATCH_KIND, mines=mines, time_limit=time_limit)
        self.game = 0
        self._positions = 0

    def keep(self, seen: Seen, coached: Coached) -> None:
        """The frame, the position read from it, autoplay's move there and the person's steps that led to it."""
        if coached.new_game or self.game == 0:
            self.game += 1
        self._positions += 1
        advice = coached.advice
        decision = advice.decision
        frame = self._recorder.frame(seen.frame)
        self._recorder.decision(
            self.game,
            frame,
            seen.board,
            seen.grid.to_dict(),
            list(decision.moves) if decision is not None else [],
            bool(decision.guess) if decision is not None else False,
            decision.reason if decision is not None else (advice.problem or ""),
            coached.state,
            {"settle": seen.settled_in},
            unknown=sorted(seen.unreadable),
            extra={"t": round(seen.t, 3), "steps": [j.to_dict() for j in coached.steps]},
        )
        if coached.summary is not None:
            details = {k: v for k, v in coached.summary.items() if k != "result"}
            details["final_board"] = format_board(seen.board)
            self._recorder.game(self.game, coached.state, **details)

    def close(self) -> None:
        """Wait for the last frames to be written and finish session.json."""
        self._recorder.close(positions=self._positions)
