"""What ``autoplay report`` puts on its page for a session ``autoplay watch --record`` kept: the person's steps.

The page is the one a played session gets (:mod:`autoplay.render.report_page`),
but its filmstrips hold the person's steps instead of autoplay's decisions:
each card is the position before the step, with the solver's heat map of that
position and the step's cell ringed, and the verdict the step earned.  Every
frame is decoded and solved again as ``autoplay replay`` does, and each step is
judged again against the replayed odds; a verdict that comes out differently is
marked on the card, so the page shows what the frames say, not only what watch
wrote down while the game was going.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from autoplay.board.rules import Rules
from autoplay.insight.review import (
    CERTAIN,
    CERTAIN_MINE,
    FLAG_ON_SAFE,
    RISKIER,
    SAFEST,
    Judged,
    Step,
    format_judged,
    judge,
)
from autoplay.insight.win_cost import WinCost
from autoplay.render.board_image import render_board
from autoplay.render.report_page import PageFrame, PageGame, render_page
from autoplay.render.thumbnail import board_cutout, data_uri
from autoplay.replay.recording import RecordedDecision, Recording, RecordingFormatError
from autoplay.replay.runner import FrameOutcome, Replayer, VisionDecoder
from autoplay.replay.session_report import FINAL_BOARD_CELL_PX, THUMB_QUALITY, THUMB_WIDTH, ReportCounts
from autoplay.replay.session_stats import session_stats
from autoplay.replay.sources import collect_frames

GAME_COLUMNS = ["seconds", "steps", "3BV", "3BV/s", "clicks", "efficiency", "riskier than needed"]
#: The card's badge class for each verdict (report_page's colours: green, blue, orange, red, grey).
BADGES = {CERTAIN: "certain", SAFEST: "safest", RISKIER: "guess", CERTAIN_MINE: "mismatch", FLAG_ON_SAFE: "mismatch"}
LEGEND = (
    '<p class="legend">Each card is the position before one of your steps, with the mine probability of each '
    'hidden cell<i style="background:#28be3c"></i>safe<i style="background:#ffd700"></i>25%'
    '<i style="background:#dc2828"></i>mine; green dot: certainly safe, red cross: certainly a mine; ring: the '
    'cell you clicked (<span style="color:#00a0ff">blue</span> reveal, <span style="color:#c800c8">magenta</span> '
    "flag). Steps riskier than needed are outlined in orange, a certain mine opened or a flag on a safe cell in "
    "red.</p>"
)


@dataclass(frozen=True)
class RecordedStep:
    """One step as watch recorded it, with the verdict it was given then."""

    step: Step
    verdict: str
    probability: float | None
    lowest: float | None
    win: WinCost | None = None


def recorded_steps(decision: RecordedDecision, raw: list[dict[str, Any]]) -> list[RecordedStep]:
    """The ``steps`` of a position's line, read back (a line without them had no step)."""
    try:
        return [_recorded_step(s) for s in raw]
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        log = decision.frame.parent.parent / "decisions.jsonl"  # frames sit in DIR/frames/
        raise RecordingFormatError(f"{log}:{decision.line}: a malformed step ({exc})") from None


def _recorded_step(s: dict[str, Any]) -> RecordedStep:
    cell = s.get("cell")
    step = Step(
        str(s["action"]),
        (int(cell[0]), int(cell[1])) if cell is not None else None,
        tuple((int(c[0]), int(c[1])) for c in s.get("candidates", [])),
        tuple((int(c[0]), int(c[1])) for c in s.get("opened", [])),
        float(s.get("t", 0.0)),
    )
    win = s.get("win_chance")
    cost = None if win is None else WinCost(_chance(win["best"]), _chance(win["after"]))
    return RecordedStep(step, str(s["verdict"]), _odds(s.get("probability")), _odds(s.get("lowest")), cost)


def _chance(value: object) -> float:
    chance = _odds(value)
    if chance is None:
        raise ValueError("a win chance of null")
    return chance


def _odds(value: object) -> float | None:
    if value is None:
        return None
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        raise ValueError(f"odds {value!r}")
    return float(value)


def build_watch_report(
    recording: Recording,
    skin: str,
    *,
    time_limit: float,
    thumb_width: int = THUMB_WIDTH,
    on_frame: Callable[[], None] | None = None,
) -> tuple[str, ReportCounts]:
    """The page's HTML and what the replay of the positions found."""
    source = collect_frames(recording.path)
    lines = _raw_lines(recording)
    replayer = Replayer(
        VisionDecoder(skin), None, rules=recording.rules, mines=recording.mines, time_limit=time_limit, keep_frames=True
    )
    cards: dict[int, list[PageFrame]] = {}
    statuses: list[str] = []
    before: FrameOutcome | None = None
    before_game = -1
    before_decision: RecordedDecision | None = None
    for source_frame, outcome in zip(source.frames, replayer.run(source.frames)):
        decision = source_frame.recorded
        assert decision is not None  # a recording's frames all come from its lines
        # autoplay's own move is only advice here, and the replay avoids cells it could not read (a tile the
        # pointer lit) where watch kept what they were: a position is reproduced when its board reads the same
        outcome.problems = [p for p in outcome.problems if not p.startswith("decision differs")]
        if outcome.status == "mismatch" and not outcome.problems:
            outcome.status = "ok"
        statuses.append(outcome.status)
        same_game = before is not None and before_game == decision.game
        shown = before if same_game and before is not None else outcome
        for recorded in recorded_steps(decision, lines.get(decision.line, [])):
            game_cards = cards.setdefault(decision.game, [])
            previous = before_decision if same_game else None
            game_cards.append(
                step_card(recorded, shown, previous, len(game_cards) + 1, recording.rules, same_game, thumb_width)
            )
        if before is not None:
            before.image = None  # the full frame is no longer needed once its steps are drawn
        before, before_game, before_decision = outcome, decision.game, decision
        if on_frame is not None:
            on_frame()
    counts = ReportCounts(
        frames=len(statuses),
        reproduced=sum(s in ("ok", "over") for s in statuses),
        mismatched=statuses.count("mismatch"),
        failed=statuses.count("failed"),
    )
    stats = session_stats(recording)
    details = {g.game: g.details for g in recording.games}
    games = []
    for game in stats.games:
        final = None
        if game.final_board is not None:
            final = data_uri(render_board(game.final_board, cell_px=FINAL_BOARD_CELL_PX), "png")
        steps = cards.get(game.number, [])
        games.append(PageGame(game.number, game.result, _game_cells(details.get(game.number, {}), steps), final, steps))
    all_cards = [c for per_game in cards.values() for c in per_game]
    facts = [
        ("games", str(len(stats.games))),
        ("won / lost", f"{stats.wins} / {stats.losses}"),
        ("steps seen", str(len(all_cards))),
    ]
    for verdict in (CERTAIN, SAFEST, RISKIER, CERTAIN_MINE, FLAG_ON_SAFE):
        facts.append((verdict, str(sum(c.badge_text.startswith(verdict) for c in all_cards))))
    facts.append(("positions reproduced by replay", f"{counts.reproduced}/{counts.frames}"))
    html = render_page(
        f"autoplay watch: your games of {stats.skin or 'an unknown game'}",
        f"{recording.path.resolve()} · started {stats.started or 'unknown'} · "
        f"rules: first click {recording.rules.first_click}, win by {recording.rules.win}",
        facts,
        [],
        GAME_COLUMNS,
        games,
        steps_heading="Every step",
        legend=LEGEND,
        item="steps",
    )
    return html, counts


def step_card(
    recorded: RecordedStep,
    before: FrameOutcome,
    previous: RecordedDecision | None,
    number: int,
    rules: Rules,
    has_before: bool,
    thumb_width: int,
) -> PageFrame:
    """A card for one step: the position before it with its heat map and the step's cell, the verdict, and
    what autoplay would have done there."""
    step = recorded.step
    analysis = before.analysis if has_before else None
    image = None
    if before.image is not None and before.grid is not None:
        small, geometry = board_cutout(before.image, before.grid, thumb_width)
        ring = (step.cell[0], step.cell[1], "flag" if step.action == "flag" else "reveal") if step.cell else None
        from autoplay.render import annotate_frame

        picture = annotate_frame(
            small,
            geometry,
            analysis.probabilities if analysis is not None else None,
            ring,
            analysis.safe if analysis is not None else (),
            analysis.mines if analysis is not None else (),
            board=before.board,
            grid_lines=False,
        )
        image = data_uri(picture, "jpeg", THUMB_QUALITY)
    shown = Judged(step, recorded.verdict, recorded.probability, recorded.lowest, recorded.win)
    text = format_judged(shown)
    lines = []
    if previous is not None and previous.moves:
        move = previous.moves[0]
        kind = f"a guess, mine {100 * move.probability:.1f}%" if previous.guess and move.probability else "certain"
        lines.append(f"autoplay would {move.action} ({move.row},{move.col}) here ({kind})")
    problems = list(before.problems) if has_before else []
    if has_before and before.board is not None and before.status != "failed":
        again = judge(step, before.board, analysis.probabilities if analysis is not None else None, rules)
        if again.verdict != recorded.verdict:
            problems.append(f"judged again on the replayed frame: {again.verdict}")
    badge_text = recorded.verdict
    if recorded.verdict == RISKIER and recorded.probability is not None and recorded.lowest is not None:
        badge_text += f" · {100 * recorded.probability:.1f}% vs {100 * recorded.lowest:.1f}%"
        if recorded.win is not None:
            badge_text += f" · win chance -{100 * recorded.win.cost:.1f} points"
    title = f"step {number} · {step.t:.2f} s"
    return PageFrame(
        title, image, text.split(" s ", 1)[-1], BADGES.get(recorded.verdict, "over"), badge_text, lines, problems
    )


def _game_cells(details: dict[str, Any], steps: list[PageFrame]) -> list[str]:
    def show(key: str) -> str:
        value = details.get(key)
        return "-" if value is None else str(value)

    total, solved = details.get("3bv"), details.get("3bv_solved")
    bbbv_text = show("3bv") if solved is None or solved == total else f"{solved}/{total}"
    riskier = sum(c.badge_text.startswith(RISKIER) for c in steps)
    return [
        show("seconds"),
        str(len(steps)),
        bbbv_text,
        show("3bv_per_second"),
        show("clicks"),
        show("efficiency"),
        str(riskier),
    ]


def _raw_lines(recording: Recording) -> dict[int, list[dict[str, Any]]]:
    """Each decision line's ``steps``, by line number (the reader keeps only the keys a played session has)."""
    import json

    out: dict[int, list[dict[str, Any]]] = {}
    text = (recording.path / "decisions.jsonl").read_text(encoding="utf-8")
    for number, raw in enumerate(text.splitlines(), start=1):
        try:
            obj = json.loads(raw)
        except json.JSONDecodeError:
            continue  # the reader already warned about a cut last line
        if isinstance(obj, dict) and isinstance(obj.get("steps"), list):
            out[number] = obj["steps"]
    return out
