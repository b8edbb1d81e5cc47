"""Reading a live-play recording back: the contract between ``autoplay play --record`` and replay.

On-disk format (written by :mod:`autoplay.play`; keep both sides in step)::

    DIR/session.json      one JSON object: {"skin": NAME, "rules": {"first_click": ..., "win": ...}, ...}
                          ("rules" may also be just the first-click name; other keys are kept as-is,
                          e.g. "mines", "time_limit", "seed")
    DIR/frames/NNNNNN.png the captured screenshots, numbered in capture order
    DIR/decisions.jsonl   one JSON object per line, in the order things happened:
        {"type": "decision", "game": 1, "frame": "frames/000001.png",
         "board": "<board text, with a mines=N header when known>",
         "grid": {...Grid.to_dict()...},
         "moves": [{"action": "reveal"|"flag"|..., "row": R, "col": C, "probability": P|null}, ...],
         "guess": true|false, "reason": "...", "state": "playing", "timing": {...},
         "explanation": [{"action": ..., "row": R, "col": C, "kind": "certain"|"guess"|"first",
                          "text": "...", ...}, ...]}   (optional: why each move was made, see autoplay.insight)
        {"type": "game", "game": 1, "result": "won"|"lost"|..., ...}

Paths inside the recording are relative to DIR.  Unknown keys are ignored so
the writer can add fields without breaking older readers; a missing required
key is an error naming the file and line.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from autoplay.board.model import Board
from autoplay.board.rules import Rules
from autoplay.board.textformat import parse_board
from autoplay.errors import AutoplayError, BoardFormatError

SESSION_FILE = "session.json"
DECISIONS_FILE = "decisions.jsonl"


class RecordingFormatError(AutoplayError):
    """A recording folder that does not follow the documented format (exit code 2)."""

    exit_code = 2


@dataclass(frozen=True)
class RecordedMove:
    action: str
    row: int
    col: int
    probability: float | None = None

    @property
    def key(self) -> tuple[str, int, int]:
        """What makes two moves the same move (the probability is a float and may differ in the last bit)."""
        return self.action, self.row, self.col


@dataclass(frozen=True)
class RecordedDecision:
    """One decision the live player made, with the frame it saw."""

    game: int
    frame: Path
    board: Board
    grid: dict[str, Any] | None
    moves: tuple[RecordedMove, ...]
    guess: bool
    reason: str
    state: str | None
    timing: dict[str, Any]
    line: int
    explanation: list[dict[str, Any]] | None = None
    #: cells no template matched: played as covered, their letters in ``board`` only best guesses
    unknown: frozenset[tuple[int, int]] = frozenset()
    #: the unknown cells the player had flagged itself: played as flags, whatever their tile looked like
    own_flags: frozenset[tuple[int, int]] = frozenset()
    #: cells no template matched that looked exactly as on the game's fresh board: read (and shown) as covered
    covered_by_look: frozenset[tuple[int, int]] = frozenset()
    #: unknown cells play knew open (a number read there before, a 0 beside, a reveal of ours): decided as safe
    #: cells with no number
    opened: frozenset[tuple[int, int]] = frozenset()
    #: mines play had proven and kept in mind instead of flagging on screen: decided on as flags
    kept_flags: frozenset[tuple[int, int]] = frozenset()


@dataclass(frozen=True)
class RecordedGame:
    game: int
    result: str
    details: dict[str, Any]


@dataclass
class Recording:
    path: Path
    session: dict[str, Any]
    decisions: list[RecordedDecision] = field(default_factory=list)
    games: list[RecordedGame] = field(default_factory=list)
    #: what the reader tolerated (a last line cut by a crash), one line each, for the command to print
    warnings: list[str] = field(default_factory=list)

    @property
    def skin(self) -> str | None:
        return self.session.get("skin")

    @property
    def rules(self) -> Rules:
        return rules_from_json(self.session.get("rules"), self.path / SESSION_FILE)

    @property
    def mines(self) -> int | None:
        value = self.session.get("mines")
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    @property
    def time_limit(self) -> float | None:
        """The solver's per-decision limit during play: a guess cut short by it replays only with the same limit."""
        value = self.session.get("time_limit")
        return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0 else None

    @property
    def closed_batches(self) -> bool:
        """Whether play added to each certain batch the moves it implies (:mod:`autoplay.solver.closure`);
        recordings made before it did not, and replay decides as they did."""
        return self.session.get("closed_batches") is True


def is_recording(path: str | Path) -> bool:
    """A folder is a recording when it has a decisions log; session.json alone is not enough to replay."""
    return (Path(path) / DECISIONS_FILE).is_file()


def rules_from_json(value: Any, source: Path) -> Rules:
    if value is None:
        return Rules()
    try:
        if isinstance(value, str):
            return Rules.from_names(value)
        if isinstance(value, dict):
            return Rules(**{k: value[k] for k in ("first_click", "win") if k in value})
    except ValueError as exc:
        raise RecordingFormatError(f"{source}: {exc}") from None
    raise RecordingFormatError(f"{source}: 'rules' must be an object or a first-click name, got {value!r}")


def _load_json(path: Path, text: str, line: int | None = None) -> Any:
    where = f"{path}:{line}" if line else str(path)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordingFormatError(f"{where}: not valid JSON ({exc.msg})") from None


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except json.JSONDecodeError:
        return False
    return True


def _need(obj: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if key not in obj:
        raise RecordingFormatError(f"{where}: missing {key!r}")
    value = obj[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise RecordingFormatError(f"{where}: {key!r} has the wrong type ({type(value).__name__})")
    return value


def _parse_move(obj: Any, where: str) -> RecordedMove:
    if not isinstance(obj, dict):
        raise RecordingFormatError(f"{where}: each move must be an object")
    prob = obj.get("probability")
    return RecordedMove(
        action=str(_need(obj, "action", str, where)),
        row=_need(obj, "row", int, where),
        col=_need(obj, "col", int, where),
        probability=None if prob is None else float(prob),
    )


def _parse_decision(root: Path, obj: dict[str, Any], where: str, line: int) -> RecordedDecision:
    frame = _need(obj, "frame", str, where)
    text = _need(obj, "board", str, where)
    unknown = parse_cells(obj.get("unknown"), where)
    try:
        board = parse_board(text, source=f"{where} board")
    except BoardFormatError as exc:
        # The letters of cells no template matched are only the decoder's best guesses (played as covered), and a
        # guess may be no number the cell could show (a 6 at the board's edge): read such a board with them covered.
        if not unknown:
            raise RecordingFormatError(str(exc)) from None
        try:
            board = parse_board(_covered(text, unknown), source=f"{where} board")
        except BoardFormatError:
            raise RecordingFormatError(str(exc)) from None
    grid = obj.get("grid")
    moves = _need(obj, "moves", list, where)
    explanation = obj.get("explanation")
    return RecordedDecision(
        game=int(obj.get("game", 0)),
        frame=root / frame,
        board=board,
        grid=grid if isinstance(grid, dict) else None,
        moves=tuple(_parse_move(m, where) for m in moves),
        guess=bool(obj.get("guess", False)),
        reason=str(obj.get("reason", "")),
        state=obj.get("state"),
        timing=dict(obj.get("timing") or {}),
        line=line,
        explanation=explanation if isinstance(explanation, list) else None,
        unknown=unknown,
        own_flags=parse_cells(obj.get("own_flags"), where),
        covered_by_look=parse_cells(obj.get("covered_by_look"), where),
        opened=parse_cells(obj.get("opened"), where),
        kept_flags=parse_cells(obj.get("kept_flags"), where),
    )


def _covered(text: str, cells: frozenset[tuple[int, int]]) -> str:
    r"""A board in the text format with ``cells`` shown covered (``.``); header and comment lines stay as they are.

    >>> _covered("mines=3\n.16\n111", frozenset({(0, 2)}))
    'mines=3\n.1.\n111'
    """
    lines = text.split("\n")
    rows = [i for i, line in enumerate(lines) if line and not line.startswith("#") and "=" not in line]
    for r, c in cells:
        if r < len(rows) and c < len(lines[rows[r]]):
            line = lines[rows[r]]
            lines[rows[r]] = line[:c] + "." + line[c + 1 :]
    return "\n".join(lines)


def parse_cells(value: Any, where: str) -> frozenset[tuple[int, int]]:
    """A recorded list of ``[row, col]`` pairs (absent: none)."""
    if value is None:
        return frozenset()
    if not isinstance(value, list) or not all(
        isinstance(c, list) and len(c) == 2 and all(isinstance(v, int) and v >= 0 for v in c) for c in value
    ):
        raise RecordingFormatError(f"{where}: 'unknown' must be a list of [row, col] pairs")
    return frozenset((c[0], c[1]) for c in value)


def read_recording(path: str | Path) -> Recording:
    """Load a recording folder; every malformation is a :class:`RecordingFormatError` naming file and line."""
    root = Path(path)
    if not root.is_dir():
        raise RecordingFormatError(f"{root}: not a recording folder")
    log = root / DECISIONS_FILE
    if not log.is_file():
        raise RecordingFormatError(f"{root}: no {DECISIONS_FILE}, so not a recording")
    session_path = root / SESSION_FILE
    session: dict[str, Any] = {}
    if session_path.is_file():
        session = _load_json(session_path, session_path.read_text(encoding="utf-8"))
        if not isinstance(session, dict):
            raise RecordingFormatError(f"{session_path}: must hold one JSON object")
    recording = Recording(root, session)
    _ = recording.rules  # validate now, not halfway through a replay
    try:
        text = log.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordingFormatError(f"{log}: cannot read: {exc}") from None
    lines = text.splitlines()
    for lineno, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        where = f"{log}:{lineno}"
        if lineno == len(lines) and not text.endswith("\n") and not _is_json(raw):
            # the writer flushes every line whole, so only a crash mid-write leaves a line without its newline
            recording.warnings.append(f"{where}: last line cut short (the recording was interrupted); ignored")
            break
        obj = _load_json(log, raw, lineno)
        if not isinstance(obj, dict):
            raise RecordingFormatError(f"{where}: each line must be a JSON object")
        kind = obj.get("type")
        if kind == "decision":
            recording.decisions.append(_parse_decision(root, obj, where, lineno))
        elif kind == "game":
            details = {k: v for k, v in obj.items() if k not in ("type", "game", "result")}
            recording.games.append(RecordedGame(int(obj.get("game", 0)), str(obj.get("result", "")), details))
        else:
            raise RecordingFormatError(f"{where}: unknown record type {kind!r} (expected 'decision' or 'game')")
    return recording
