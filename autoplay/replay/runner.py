"""Replaying frames: decode, decide, annotate, and compare with what a recording says happened.

The screen side is behind :class:`FrameDecoder` so the same loop runs on the
real vision pipeline (:class:`VisionDecoder`) and, in unit tests, on boards
drawn from text.  A failure on one frame is an outcome, never an exception:
a long replay should report every bad frame, not stop at the first.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from autoplay.board.model import Board
from autoplay.board.rules import Rules
from autoplay.errors import AutoplayError
from autoplay.play.fresh_looks import with_covered
from autoplay.play.kept_flags import with_kept_flags
from autoplay.replay.decide import decide_move
from autoplay.replay.recording import RecordedDecision, RecordingFormatError
from autoplay.replay.sources import FrameSource
from autoplay.solver.unknown_cells import avoid_cells, with_unknown_covered

#: Frame states after which there is nothing to decide (as vision reports them).
FINISHED_STATES = frozenset({"won", "lost"})
#: Board cells listed in a board-mismatch message before "..." (enough to see the pattern).
MAX_LISTED_DIFFERENCES = 6


class FrameDecoder(Protocol):
    """Turns a frame file into vision's ``DecodedFrame`` (board, grid, state, readable, ...)."""

    def read(self, path: Path) -> np.ndarray: ...

    def decode(self, image: np.ndarray, grid_hint: dict[str, Any] | None) -> Any: ...

    @property
    def rules(self) -> Rules | None: ...


class VisionDecoder:
    """The live pipeline's own decoding, so a replay sees exactly what the player saw."""

    def __init__(self, skin_name: str, skin_root: Path | None = None):
        """``skin_root``: the folder holding ``calibration/`` and ``templates/`` (default: the skin homes)."""
        from autoplay.vision import load_skin
        from autoplay.vision.cell_memory import CellMemory
        from autoplay.vision.frame_delta import FrameReader

        self.skin = load_skin(skin_name, skin_root)
        self._frames = FrameReader()  # remembers the last frame, so each delta frame is decoded once
        self._memory = CellMemory()  # and its cells, so a frame's unchanged cells are not matched again

    @property
    def rules(self) -> Rules | None:
        return getattr(self.skin, "rules", None)

    def read(self, path: Path) -> np.ndarray:
        return self._frames.read(path)

    def decode(self, image: np.ndarray, grid_hint: dict[str, Any] | None) -> Any:
        from autoplay.vision import Grid, decode_frame

        grid = None
        if grid_hint:
            try:
                grid = Grid.from_dict(grid_hint)
            except (KeyError, TypeError, ValueError) as exc:
                raise RecordingFormatError(f"recorded grid is malformed: {exc}") from None
        return decode_frame(image, self.skin, grid=grid, memory=self._memory)


@dataclass
class FrameOutcome:
    """What happened on one frame.  ``status``: ok, over (game finished), mismatch, failed."""

    name: str
    path: Path
    status: str
    board: Board | None = None
    decision: Any = None
    problems: list[str] = field(default_factory=list)
    annotated: Path | None = None
    explanation: list[dict[str, Any]] | None = None
    #: What a caller drawing its own pictures needs (``keep_frames``): the frame as read, the grid it was
    #: decoded on and the solver's analysis of it (None on a fresh board or a finished game).
    image: np.ndarray | None = field(default=None, repr=False)
    grid: Any = field(default=None, repr=False)
    analysis: Any = field(default=None, repr=False)

    @property
    def move_text(self) -> str:
        return describe_moves(self.decision)

    def to_dict(self) -> dict[str, Any]:
        from autoplay.replay.position_report import decision_to_dict

        return {
            "name": self.name,
            "frame": str(self.path),
            "status": self.status,
            "board": self.board.to_text() if self.board is not None else None,
            "decision": decision_to_dict(self.decision),
            "problems": self.problems,
            "annotated": str(self.annotated) if self.annotated else None,
            "explanation": self.explanation,
        }


def describe_moves(decision: Any, limit: int = 4) -> str:
    """'reveal (3,4) [guess, mine 12.5%]' style summary used on the terminal and in image captions."""
    if decision is None or not decision.moves:
        return "-"
    shown = ", ".join(f"{m.action} ({m.row},{m.col})" for m in decision.moves[:limit])
    if len(decision.moves) > limit:
        shown += f" +{len(decision.moves) - limit} more"
    first = decision.moves[0]
    kind = f"guess, mine {100 * first.probability:.1f}%" if decision.guess else "certain"
    return f"{shown} [{kind}]"


def board_differences(recorded: Board, decoded: Board, unread: Iterable[tuple[int, int]] = ()) -> list[str]:
    """Cells where vision now reads something else than the live player recorded.

    ``unread`` are the cells the live player could not read (the recording's ``unknown``): their letters in the
    recording are only the decoder's best guesses, played as covered, so a skin that has since learnt the tile
    reading them otherwise is no difference (the replay plays them as covered too, as the player did).
    """
    if recorded.shape != decoded.shape:
        return [f"board size differs: recorded {recorded.rows}x{recorded.cols}, decoded {decoded.rows}x{decoded.cols}"]
    skip = set(unread)
    diffs = [
        (rc, recorded[rc], decoded[rc]) for rc in recorded.coords() if recorded[rc] != decoded[rc] and rc not in skip
    ]
    if not diffs:
        return []
    shown = ", ".join(f"({r},{c}) {a!r}->{b!r}" for (r, c), a, b in diffs[:MAX_LISTED_DIFFERENCES])
    more = f" ... ({len(diffs)} cells)" if len(diffs) > MAX_LISTED_DIFFERENCES else ""
    return [f"board differs from the recording (recorded->decoded): {shown}{more}"]


def decision_differences(recorded: RecordedDecision, decision: Any) -> list[str]:
    """Recorded and recomputed moves compared as sets: order within one decision carries no meaning."""
    before = {m.key for m in recorded.moves}
    now = {(m.action, m.row, m.col) for m in decision.moves}
    if before == now:
        return []
    message = f"decision differs: recorded {_move_keys(before)}; replayed {_move_keys(now)}"
    if "time limit" in f"{recorded.reason} {decision.reason}":
        message += " (a time limit cut the search short, so this decision depends on machine speed)"
    return [message]


def _move_keys(keys: set[tuple[str, int, int]]) -> str:
    ordered = sorted(keys, key=lambda k: (k[1], k[2], k[0]))
    return ", ".join(f"{a} ({r},{c})" for a, r, c in ordered) or "nothing"


def playable_unknown(decoded: Any) -> list[tuple[int, int]] | None:
    """The unreadable cells the live player would play around as covered; None when it would stop instead.

    The live player stops only when the unreadable area looks like something
    over the board (a popup, a covered board); any other unknown tile it plays
    as covered and never clicks (:mod:`autoplay.solver.unknown_cells`).
    """
    from autoplay.vision.obstruction import looks_obstructed

    unknown = [(int(r), int(c)) for r, c in getattr(decoded, "unreadable", [])]
    board = getattr(decoded, "board", None)
    if board is None or looks_obstructed(board.rows, board.cols, unknown):
        return None
    return unknown


def finished(decoded: Any, board: Board, rules: Rules) -> bool:
    """Nothing to decide: the game shows won or lost, or no cell is left to open.

    When the mine count came from outside the picture, vision judged the state
    without it (and cannot see a reveal-rule win); judge again, as the live
    player does after filling in the count.  With unknown cells, the state is
    judged from the readable ones, as the live player does.
    """
    from autoplay.play.player import shown_state

    state = shown_state(decoded)
    if board.mines is not None and decoded.board.mines is None:
        from autoplay.vision.state import game_state

        state = game_state(board, rules)
    return state in FINISHED_STATES or board.is_lost or not board.unknown_cells()


class Replayer:
    """Runs frames through decode -> solver -> annotation; one instance per replay run."""

    def __init__(
        self,
        decoder: FrameDecoder,
        out_dir: Path | None,
        *,
        rules: Rules | None = None,
        mines: int | None = None,
        time_limit: float = 1.0,
        keep_frames: bool = False,
        closed_batches: bool = False,
    ):
        """``out_dir``: where captioned PNGs go (None: none written); ``keep_frames``: put each frame, its
        grid and analysis on its outcome, for a caller that draws its own pictures (``autoplay report``);
        ``closed_batches``: decide as play did when it closed each certain batch (the recording says)."""
        self.decoder = decoder
        self.out_dir = out_dir
        self.keep_frames = keep_frames
        self.rules = rules or decoder.rules or Rules()
        self.mines = mines
        self.time_limit = time_limit
        self.closed_batches = closed_batches

    def run(self, frames: list[FrameSource]) -> Iterator[FrameOutcome]:
        for frame in frames:
            yield self.replay_frame(frame)

    def _mines_for(self, recorded: RecordedDecision | None, decoded: Board) -> int | None:
        """The mine count the live player would have used: recorded, then the user's, then vision's."""
        if recorded is not None and recorded.board.mines is not None:
            return recorded.board.mines
        return self.mines if self.mines is not None else decoded.mines

    def replay_frame(self, frame: FrameSource) -> FrameOutcome:
        outcome = FrameOutcome(frame.name, frame.path, "ok")
        recorded = frame.recorded
        try:
            image = self.decoder.read(frame.path)
            decoded = self.decoder.decode(image, recorded.grid if recorded else None)
            if recorded is not None and recorded.covered_by_look:  # as the live player read them
                decoded = with_covered(decoded, recorded.covered_by_look, self.rules)
            debug = str(self.out_dir / f"{frame.name}.unreadable.png") if self.out_dir else None
            unknown = playable_unknown(decoded)
            if unknown is None:
                decoded.require_readable(debug, self.out_dir)
                unknown = []
            if recorded is not None:  # cells play found read wrong by the rules were played as unknown too
                unknown = sorted(set(unknown) | set(recorded.unknown))
            read = decoded.board.with_mines(self._mines_for(recorded, decoded.board))
            board = with_unknown_covered(read, unknown, recorded.own_flags if recorded else ())
            board = with_kept_flags(board, recorded.kept_flags if recorded else ())
            outcome.board = board
            if recorded is not None:
                outcome.problems += board_differences(recorded.board, read, recorded.unknown)
            if finished(decoded, board, self.rules):
                outcome.status = "over"
                analysis = None
            else:
                opened = recorded.opened if recorded is not None else frozenset()
                outcome.decision = decide_move(
                    board, board.mines, self.rules, self.time_limit, closed=self.closed_batches, opened=opened
                )
                if unknown:
                    outcome.decision = avoid_cells(outcome.decision, board, unknown, opened)
                if recorded is not None:
                    outcome.problems += decision_differences(recorded, outcome.decision)
                    outcome.explanation = self._explanation(recorded, board, outcome.decision)
                analysis = self._analysis(board, outcome.decision)
            if outcome.problems:
                outcome.status = "mismatch"
            if self.keep_frames:
                outcome.image, outcome.grid, outcome.analysis = image, decoded.grid, analysis
            if self.out_dir is not None:
                outcome.annotated = self._save(self.annotate(image, decoded.grid, outcome, analysis), outcome)
        except AutoplayError as exc:
            outcome.status = "failed"
            outcome.problems.append(str(exc))
        return outcome

    @staticmethod
    def _explanation(recorded: RecordedDecision, board: Board, decision: Any) -> list[dict[str, Any]] | None:
        """What the recording says about why; decisions recorded before explanations existed are explained now."""
        if recorded.explanation is not None:
            return recorded.explanation
        from autoplay.insight.record import explanation_record

        return explanation_record(board, decision)

    def _analysis(self, board: Board, decision: Any) -> Any:
        """The probabilities to paint; cheap deductions decide without them, so compute them then."""
        if decision.analysis is not None:
            return decision.analysis
        if board.is_fresh:
            return None
        from autoplay.solver import analyze

        return analyze(board, board.mines, deadline=time.perf_counter() + self.time_limit)

    @staticmethod
    def annotate(
        image: np.ndarray, grid: Any, outcome: FrameOutcome, analysis: Any, grid_lines: bool = True
    ) -> np.ndarray:
        """``image`` with the grid, the heat map of ``analysis`` and the outcome's move drawn on it."""
        from autoplay.render import annotate_frame

        decision = outcome.decision
        move = decision.moves[0] if decision is not None and decision.moves else None
        probabilities = analysis.probabilities if analysis is not None else None
        safe = analysis.safe if analysis is not None else ()
        mines = analysis.mines if analysis is not None else ()
        return annotate_frame(image, grid, probabilities, move, safe, mines, board=outcome.board, grid_lines=grid_lines)

    def _save(self, picture: np.ndarray, outcome: FrameOutcome) -> Path:
        from autoplay.render import add_caption, save_png

        decision = outcome.decision
        lines = [f"{outcome.name}: {outcome.move_text}" if decision else f"{outcome.name}: game over"]
        if decision is not None:
            lines.append(decision.reason)
        if outcome.explanation:
            from autoplay.insight.record import explanation_lines

            lines += explanation_lines(outcome.explanation, limit=2)
        lines += outcome.problems
        assert self.out_dir is not None
        return save_png(self.out_dir / f"{outcome.name}.png", add_caption(picture, lines), root=self.out_dir)
