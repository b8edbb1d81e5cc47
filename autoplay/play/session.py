"""Several games in a row and the numbers that describe them.

Starting the next game is the skin's business (a key, or a click on the face),
so it is passed in as a function; this module only sequences games and sums up.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from autoplay.play.memory import release_free_memory, resident_kib
from autoplay.play.player import UNDECIDED, GameResult, Player
from autoplay.sim.stats import wilson_interval


@dataclass
class SessionSummary:
    games: list[GameResult] = field(default_factory=list)
    clicks_attempted: int = 0
    clicks_refused: int = 0
    clicks_made: int = 0  # button presses actually sent (a batch stopped by the guard sends none)
    stopped: str | None = None  # why the session ended early, if it did
    unfinished: GameResult | None = None  # the game a stop interrupted: its decisions and moves still happened

    @property
    def wins(self) -> int:
        return sum(g.result == "won" for g in self.games)

    @property
    def losses(self) -> int:
        return sum(g.result == "lost" for g in self.games)

    def to_dict(self) -> dict[str, Any]:
        n = len(self.games)
        played = self.wins + self.losses
        low, high = wilson_interval(self.wins, played) if played else (0.0, 0.0)
        seconds = sum(g.seconds for g in self.games)
        played_games = self.games + ([self.unfinished] if self.unfinished is not None else [])
        moves = sum(g.moves for g in played_games)
        decisions = sum(g.decisions for g in played_games)
        phases: dict[str, float] = {}
        for g in played_games:
            for key, value in g.timing.items():
                phases[key] = phases.get(key, 0.0) + value
        return {
            "games": n,
            "wins": self.wins,
            "losses": self.losses,
            "undecided": sum(g.result == UNDECIDED for g in self.games),
            "win_rate": round(self.wins / played, 4) if played else None,
            "win_rate_ci95": [round(low, 4), round(high, 4)],
            "seconds_per_game": round(seconds / n, 3) if n else None,
            "moves_per_second": round(sum(g.moves for g in self.games) / seconds, 2) if seconds else None,
            "guesses": sum(g.guesses for g in self.games),
            "decisions": decisions,
            "moves": moves,
            "clicks_attempted": self.clicks_attempted,
            "clicks_refused": self.clicks_refused,
            "clicks_made": self.clicks_made,
            "click_retries": sum(g.retries for g in self.games),
            "rereads": sum(g.rereads for g in self.games),
            "losses_after_certain_move": sum(g.result == "lost" and not g.last_was_guess for g in self.games),
            # the median over the games whose layout is known (won, or lost with every mine shown)
            "3bv_per_second_median": _median([g.to_dict()["3bv_per_second"] for g in self.games]),
            "efficiency_median": _median([g.to_dict()["efficiency"] for g in self.games]),
            "ms_per_decision": {k: round(1000 * v / decisions, 2) for k, v in phases.items()} if decisions else {},
            "stopped": self.stopped,
            "unfinished_game": None
            if self.unfinished is None
            else {"game": self.unfinished.game, **self.unfinished.to_dict()},
            "per_game": [{"game": g.game, **g.to_dict()} for g in self.games],
        }


def _median(values: list[float | None]) -> float | None:
    """The median of the known values, None when there is none.

    >>> _median([2.0, None, 1.0, 4.0]), _median([None])
    (2.0, None)
    """
    known = [v for v in values if v is not None]
    return round(statistics.median(known), 3) if known else None


def play_session(
    player: Player,
    games: int,
    start_new_game: Callable[[], None],
    on_game: Callable[[GameResult], None] | None = None,
    first_state: str = "playing",
    summary: SessionSummary | None = None,
) -> SessionSummary:
    """Play ``games`` games; ``start_new_game`` is called before every game after the first.

    The first game is whatever the window shows (``first_state``): a fresh
    board, one in progress, or a finished one (then a new game is started first).
    Pass ``summary`` to keep the finished games when a later game stops with an error.
    """
    summary = summary if summary is not None else SessionSummary()
    try:
        for number in range(1, games + 1):
            if number > 1 or first_state in ("won", "lost", "unlocated"):
                start_new_game()
            result = player.play_game(number)
            summary.games.append(result)
            if player.recorder is not None:
                player.recorder.flush()  # the game's frames are on disk: none is held into the next game
            release_free_memory()
            result.rss_kib = resident_kib()  # the same point of every game: what a long session keeps
            if player.recorder is not None:
                player.recorder.game(
                    number, result.result, **{k: v for k, v in result.to_dict().items() if k != "result"}
                )
            if on_game is not None:
                on_game(result)
            # The final frame, the flags and the unread cells are for the hook (play --learn) only: kept in the
            # summary, they would grow a long session's memory by a window-sized array and kilobytes a game.
            result.drop_working_state()
            if result.result == "dry-run":
                break
    except BaseException as exc:  # Ctrl-C too: the report says what happened before it
        summary.stopped = str(exc) or ("interrupted" if isinstance(exc, KeyboardInterrupt) else type(exc).__name__)
        if player.in_progress is not None:
            player.in_progress.result = "stopped"
            summary.unfinished = player.in_progress
        raise
    finally:
        summary.clicks_attempted = player.mouse.stats.attempted
        summary.clicks_refused = player.mouse.stats.refused
        summary.clicks_made = player.mouse.stats.clicked
    return summary
