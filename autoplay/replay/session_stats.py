"""The numbers that describe a recorded session, computed from the recording itself.

``session.json`` holds the player's own summary only when the session ended
normally; a killed session still has every decision and game line, so the
report counts from those and never needs the summary.
"""

from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import dataclass, field

from autoplay.board.model import Board
from autoplay.board.textformat import parse_board
from autoplay.errors import BoardFormatError
from autoplay.insight.speed import speed_figures
from autoplay.replay.recording import RecordedDecision, Recording
from autoplay.sim.stats import wilson_interval

#: The live loop's phases, in the order a decision goes through them (autoplay.play.player.PHASES).
PHASES = ("capture", "settle", "decode", "solve", "click")


@dataclass(frozen=True)
class GameStats:
    """One game: its result (``unfinished`` when the recording stops inside it) and what it cost."""

    number: int
    result: str
    seconds: float | None
    decisions: int
    moves: int
    guesses: int
    phase_seconds: dict[str, float]
    final_board: Board | None = None
    clicks: int | None = None  # the presses the game took (None in recordings that did not say)
    #: 3BV, 3BV cleared, 3BV/s and efficiency (autoplay.insight.speed); None where the layout is not known
    figures: dict[str, float | None] = field(default_factory=dict)


@dataclass(frozen=True)
class SessionStats:
    skin: str | None
    started: str | None
    games: list[GameStats] = field(default_factory=list)

    @property
    def results(self) -> Counter[str]:
        """Games per result: won, lost, and unfinished for a recording that stops inside a game."""
        return Counter(g.result for g in self.games)

    @property
    def wins(self) -> int:
        return self.results["won"]

    @property
    def losses(self) -> int:
        return self.results["lost"]

    @property
    def win_rate(self) -> float | None:
        played = self.wins + self.losses
        return self.wins / played if played else None

    @property
    def win_rate_ci95(self) -> tuple[float, float]:
        """Wilson interval over the games that ended won or lost."""
        return wilson_interval(self.wins, self.wins + self.losses)

    @property
    def seconds_per_game(self) -> tuple[float, float] | None:
        """Median and mean seconds of the games that report their time."""
        times = [g.seconds for g in self.games if g.seconds is not None]
        return (statistics.median(times), statistics.fmean(times)) if times else None

    @property
    def decisions(self) -> int:
        return sum(g.decisions for g in self.games)

    @property
    def ms_per_decision(self) -> dict[str, float]:
        """Where the time went: milliseconds per decision in each phase, over the whole session."""
        if not self.decisions:
            return {}
        return {p: 1000 * sum(g.phase_seconds.get(p, 0.0) for g in self.games) / self.decisions for p in PHASES}


def session_stats(recording: Recording) -> SessionStats:
    """Per-game rows from the decision and game lines; a game's own timing is used when it was recorded."""
    by_game: dict[int, list[RecordedDecision]] = {}
    for decision in recording.decisions:
        by_game.setdefault(decision.game, []).append(decision)
    ended = {g.game: g for g in recording.games}
    games = []
    for number in sorted(set(by_game) | set(ended)):
        decisions = by_game.get(number, [])
        record = ended.get(number)
        details = record.details if record is not None else {}
        phases = _phase_seconds(details.get("timing"))
        if phases is None:
            phases = {p: sum(float(d.timing.get(p, 0.0)) for d in decisions) for p in PHASES}
        seconds = _number(details.get("seconds"))
        clicks = details.get("clicks") if isinstance(details.get("clicks"), int) else None
        games.append(
            GameStats(
                number=number,
                result=record.result if record is not None else "unfinished",
                seconds=seconds,
                decisions=len(decisions),
                moves=sum(len(d.moves) for d in decisions),
                guesses=sum(d.guess for d in decisions),
                phase_seconds=phases,
                final_board=_board(details.get("final_board")),
                clicks=clicks,
                figures=speed_figures(
                    _text(details.get("final_board")), record.result if record else "", seconds or 0.0, clicks or 0
                ),
            )
        )
    skin = recording.skin
    started = recording.session.get("started")
    return SessionStats(skin, str(started) if started else None, games)


def _phase_seconds(value: object) -> dict[str, float] | None:
    if not isinstance(value, dict):
        return None
    return {p: float(value.get(p, 0.0)) for p in PHASES if isinstance(value.get(p, 0.0), (int, float))}


def _number(value: object) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _board(text: object) -> Board | None:
    """The game's last board as recorded; a malformed one is left out of the picture, not fatal."""
    if not isinstance(text, str):
        return None
    try:
        return parse_board(text, source="final_board")
    except BoardFormatError:
        return None


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None
