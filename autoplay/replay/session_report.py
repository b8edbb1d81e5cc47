"""What ``autoplay report`` puts on its page: a recording replayed, summed up and shrunk to thumbnails.

Every frame is decoded and solved again, exactly as ``autoplay replay`` does,
so the heat map on each thumbnail is the solver's view of that very frame and
a decision that no longer reproduces is marked on the page.  Pictures are
shrunk as they come, so memory stays at one frame however long the session.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from autoplay.insight.record import explanation_lines
from autoplay.insight.speed import show
from autoplay.render.board_image import render_board
from autoplay.render.report_page import PageFrame, PageGame, PageSection, render_page
from autoplay.render.thumbnail import board_cutout, data_uri
from autoplay.render.timing_chart import stacked_bars_svg
from autoplay.replay.recording import Recording
from autoplay.replay.runner import FrameOutcome, Replayer, VisionDecoder
from autoplay.replay.session_stats import GameStats, SessionStats, session_stats
from autoplay.replay.sources import collect_frames

#: Thumbnail width and JPEG quality: an expert board stays legible (cells of 14 px) at ~26 KB a frame.
THUMB_WIDTH = 420
THUMB_QUALITY = 60
#: Cell size of the drawn last board in the games table.
FINAL_BOARD_CELL_PX = 8
#: Explanation lines shown under a thumbnail before "... and N more".
EXPLANATION_LINES = 4
GAME_COLUMNS = ["seconds", "3BV", "3BV/s", "clicks", "efficiency", "decisions", "moves", "guesses", "replayed"]


@dataclass(frozen=True)
class ReportCounts:
    """How the replay behind the page went: frames reproduced, not reproduced, unreadable."""

    frames: int
    reproduced: int
    mismatched: int
    failed: int


def build_report(
    recording: Recording,
    skin: str,
    *,
    time_limit: float,
    thumb_width: int = THUMB_WIDTH,
    on_frame: Callable[[], None] | None = None,
) -> tuple[str, ReportCounts]:
    """The page's HTML and what the replay found."""
    source = collect_frames(recording.path)
    replayer = Replayer(
        VisionDecoder(skin),
        None,
        rules=recording.rules,
        mines=recording.mines,
        time_limit=time_limit,
        keep_frames=True,
        closed_batches=recording.closed_batches,
    )
    frames: dict[int, list[PageFrame]] = {}
    statuses: dict[int, list[str]] = {}
    for source_frame, outcome in zip(source.frames, replayer.run(source.frames)):
        game = source_frame.recorded.game if source_frame.recorded is not None else 0
        frames.setdefault(game, []).append(page_frame(outcome, len(frames.get(game, [])) + 1, thumb_width))
        statuses.setdefault(game, []).append(outcome.status)
        if on_frame is not None:
            on_frame()
    all_statuses = [s for per_game in statuses.values() for s in per_game]
    counts = ReportCounts(
        frames=len(all_statuses),
        reproduced=sum(s in ("ok", "over") for s in all_statuses),
        mismatched=all_statuses.count("mismatch"),
        failed=all_statuses.count("failed"),
    )
    stats = session_stats(recording)
    games = [_page_game(g, frames.get(g.number, []), statuses.get(g.number, [])) for g in stats.games]
    html = render_page(
        f"autoplay session: {stats.skin or 'unknown game'}",
        f"{recording.path.resolve()} · started {stats.started or 'unknown'} · "
        f"rules: first click {recording.rules.first_click}, win by {recording.rules.win}",
        _facts(stats, counts),
        [_timing_section(stats)],
        GAME_COLUMNS,
        games,
    )
    return html, counts


def page_frame(outcome: FrameOutcome, step: int, thumb_width: int = THUMB_WIDTH) -> PageFrame:
    """A thumbnail and its caption; the outcome's full-size frame is dropped once shrunk."""
    image = None
    decision = outcome.decision
    if outcome.image is not None and outcome.grid is not None:
        small, geometry = board_cutout(outcome.image, outcome.grid, thumb_width)
        picture = Replayer.annotate(small, geometry, outcome, outcome.analysis, grid_lines=False)
        image = data_uri(picture, "jpeg", THUMB_QUALITY)
        outcome.image = None
    lines: list[str] = []
    if decision is not None:
        lines.append(str(decision.reason))
        lines += explanation_lines(outcome.explanation, limit=EXPLANATION_LINES)
    title = f"decision {step} · frame {outcome.name}"
    badge, badge_text = _badge(outcome)
    problems = list(outcome.problems)
    return PageFrame(title, image, _moves_text(decision, outcome), badge, badge_text, lines, problems)


def _badge(outcome: FrameOutcome) -> tuple[str, str]:
    if outcome.status == "failed":
        return "failed", "not readable"
    if outcome.status == "mismatch":
        return "mismatch", "not reproduced"
    decision = outcome.decision
    if decision is None:
        return "over", "game over"
    if decision.guess and decision.moves:
        return "guess", f"guess · mine {100 * decision.moves[0].probability:.1f}%"
    return "certain", "certain"


def _moves_text(decision: Any, outcome: FrameOutcome, limit: int = 6) -> str:
    if outcome.status == "failed":
        return "frame could not be read"
    if decision is None:
        return "nothing to decide: the game is over"
    moves = [f"{m.action} ({m.row},{m.col})" for m in decision.moves]
    shown = ", ".join(moves[:limit])
    return shown + (f" and {len(moves) - limit} more" if len(moves) > limit else "") if moves else "no move"


def _page_game(game: GameStats, frames: list[PageFrame], statuses: list[str]) -> PageGame:
    final = None
    if game.final_board is not None:
        final = data_uri(render_board(game.final_board, cell_px=FINAL_BOARD_CELL_PX), "png")
    reproduced = sum(s in ("ok", "over") for s in statuses)
    cells = [
        f"{game.seconds:.2f}" if game.seconds is not None else "-",
        _bbbv_text(game),
        show(game.figures.get("3bv_per_second")),
        "-" if game.clicks is None else str(game.clicks),
        show(game.figures.get("efficiency")),
        str(game.decisions),
        str(game.moves),
        str(game.guesses),
        f"{reproduced}/{len(statuses)}",
    ]
    return PageGame(game.number, game.result, cells, final, frames)


def _bbbv_text(game: GameStats) -> str:
    """The layout's 3BV; for a lost game the part cleared too ("41/160"), as the community writes it."""
    total, solved = game.figures.get("3bv"), game.figures.get("3bv_solved")
    if total is None or solved is None or solved == total:
        return show(total)
    return f"{show(solved)}/{show(total)}"


def _facts(stats: SessionStats, counts: ReportCounts) -> list[tuple[str, str]]:
    low, high = stats.win_rate_ci95
    rate = "n/a" if stats.win_rate is None else f"{100 * stats.win_rate:.1f}%"
    per_game = stats.seconds_per_game
    facts = [
        ("games", str(len(stats.games))),
        ("won / lost", f"{stats.wins} / {stats.losses}"),
        (f"win rate (95% interval {100 * low:.1f}-{100 * high:.1f}%)", rate),
    ]
    if per_game is not None:
        facts.append((f"seconds per game, median (mean {per_game[1]:.2f})", f"{per_game[0]:.2f}"))
    facts += [
        ("decisions", str(stats.decisions)),
        ("guesses", str(sum(g.guesses for g in stats.games))),
        ("decisions reproduced by replay", f"{counts.reproduced}/{counts.frames}"),
    ]
    return facts


def _timing_section(stats: SessionStats) -> PageSection:
    per_decision = stacked_bars_svg([("per decision", stats.ms_per_decision)], "ms")
    per_game = stacked_bars_svg([(f"game {g.number}", g.phase_seconds) for g in stats.games], "s")
    return PageSection(
        "Where the time went",
        "The live loop per decision: capture the window, wait for the redraw to settle, decode the board, "
        "solve, click. Above: milliseconds per decision over the session; below: seconds per game.",
        per_decision + "<br>" + per_game,
    )
