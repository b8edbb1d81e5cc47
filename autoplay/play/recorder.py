"""Writing a session to disk in the format ``autoplay replay`` reads (see autoplay.replay.recording).

Frames stay pixel-exact, so replay decodes the same board, and small: most are
stored as their difference from the frame before (:mod:`autoplay.vision.frame_delta`),
about 5 KB for an expert frame instead of 60 KB, with a whole key frame at the
start, every :data:`KEYFRAME_EVERY` frames and for tagged frames (an unreadable
frame is kept whole, ready to calibrate on).  Encoding still costs ~15 ms, a
fifth of a decision, so frames are written by one background thread (OpenCV
releases the GIL while encoding); ``close()`` waits for the last of them, and a
failed write surfaces at the next call instead of being lost.  At most
:data:`MAX_PENDING` frames wait for that thread: on a loaded machine the live
loop can outpace it, and an unbounded queue of window-sized frames made a long
session's memory jump by megabytes at random moments.
"""

from __future__ import annotations

import json
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from autoplay.board.model import Board
from autoplay.board.rules import Rules
from autoplay.board.textformat import format_board
from autoplay.errors import ControlError
from autoplay.vision.frame_delta import DELTA_SUFFIX, KEYFRAME_EVERY, xor_delta

SESSION_FILE = "session.json"
DECISIONS_FILE = "decisions.jsonl"
FRAMES_DIR = "frames"
#: zlib level of the frame PNGs: 6 makes deltas a third of level 1's size for a few ms more, off the live thread.
PNG_LEVEL = 6
#: Frames queued for the writer thread at most; one more waits for the oldest to be written.
MAX_PENDING = 8


class Recorder:
    """Appends frames, decisions and game results under ``root``; ``close()`` finalises session.json."""

    def __init__(self, root: str | Path, skin: str, rules: Rules, **session: Any) -> None:
        self.root = Path(root)
        try:
            (self.root / FRAMES_DIR).mkdir(parents=True, exist_ok=True)
            self._log = (self.root / DECISIONS_FILE).open("a", encoding="utf-8")
        except OSError as exc:
            raise ControlError(f"cannot record into {self.root}: {exc}") from None
        self.session: dict[str, Any] = {
            "skin": skin,
            "rules": {"first_click": rules.first_click, "win": rules.win},
            "started": datetime.now(UTC).isoformat(timespec="seconds"),
            "games": 0,
            **session,
        }
        self._frames = len(list((self.root / FRAMES_DIR).glob("*.png")))
        self._previous: np.ndarray | None = None  # the last frame written: the base of the next delta
        self._since_key = 0
        self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="recorder")
        self._pending: list[Future[None]] = []
        self._write_session()

    def frame(self, image: np.ndarray, tag: str = "") -> str:
        """Save a captured frame; returns its path relative to the recording root.

        ``tag`` marks frames that are not decisions (e.g. "unreadable"), for calibration; such a frame is
        kept whole.  ``image`` must not be changed afterwards: it is the base of the next frame's delta
        (captures are fresh arrays, so the player never does).
        """
        self._check_writes()
        self._frames += 1
        previous, self._previous = self._previous, image
        key = (
            tag
            or previous is None
            or previous.shape != image.shape
            or previous.dtype != image.dtype
            or self._since_key + 1 >= KEYFRAME_EVERY
        )
        self._since_key = 0 if key else self._since_key + 1
        if key:
            name = f"{FRAMES_DIR}/{self._frames:06d}{'-' + tag if tag else ''}.png"
            self._pending.append(self._writer.submit(_write_png, self.root / name, image))
        else:
            assert previous is not None
            name = f"{FRAMES_DIR}/{self._frames:06d}{DELTA_SUFFIX}"
            self._pending.append(self._writer.submit(_write_delta, self.root / name, previous, image))
        while len(self._pending) > MAX_PENDING:
            self._pending.pop(0).result()
        return name

    def flush(self) -> None:
        """Wait until every frame handed over so far is on disk (between games: nothing is left in memory)."""
        self._check_writes(wait=True)

    def _check_writes(self, wait: bool = False) -> None:
        """Raise the first failed frame write; with ``wait``, after all pending writes finished."""
        pending, self._pending = self._pending, []
        for future in pending:
            if wait or future.done():
                future.result()
            else:
                self._pending.append(future)

    def decision(
        self,
        game: int,
        frame: str,
        board: Board,
        grid: dict[str, Any] | None,
        moves: list[Any],
        guess: bool,
        reason: str,
        state: str,
        timing: dict[str, float],
        explanation: list[dict[str, Any]] | None = None,
        unknown: list[tuple[int, int]] | None = None,
        own_flags: list[tuple[int, int]] | None = None,
        covered_by_look: list[tuple[int, int]] | None = None,
        extra: dict[str, Any] | None = None,
        opened: list[tuple[int, int]] | None = None,
        kept_flags: list[tuple[int, int]] | None = None,
    ) -> None:
        """One decision line; ``unknown`` names the cells no template matched (their letters in ``board`` are
        the decoder's best guesses, played as covered), so an audit does not take them for reads; ``own_flags``
        those of them the player had flagged itself, played as flags (so a replay decides as play did);
        ``covered_by_look`` the cells no template matched that looked exactly as on the game's fresh board, read
        as covered (``board`` shows them so); ``opened`` the unknown cells play knew open and decided as safe cells
        with no number (:func:`autoplay.play.proven_open.known_open`); ``kept_flags`` the mines play had proven and kept
        in mind instead of flagging (:mod:`autoplay.play.kept_flags`), decided on as flags; ``extra`` more keys for the line (a watch recording's ``steps``:
        readers ignore keys they do not know)."""
        record = {
            "type": "decision",
            "game": game,
            "frame": frame,
            "board": format_board(board),
            "grid": grid,
            "moves": [{"action": m.action, "row": m.row, "col": m.col, "probability": m.probability} for m in moves],
            "guess": guess,
            "reason": reason,
            "state": state,
            "timing": {k: round(v, 6) for k, v in timing.items()},
        }
        if explanation is not None:
            record["explanation"] = explanation
        if unknown:
            record["unknown"] = [list(cell) for cell in unknown]
        if own_flags:
            record["own_flags"] = [list(cell) for cell in own_flags]
        if covered_by_look:
            record["covered_by_look"] = [list(cell) for cell in covered_by_look]
        if opened:
            record["opened"] = [list(cell) for cell in opened]
        if kept_flags:
            record["kept_flags"] = [list(cell) for cell in kept_flags]
        if extra:
            record.update(extra)
        self._append(record)

    def game(self, game: int, result: str, **details: Any) -> None:
        self.session["games"] = game
        self._append({"type": "game", "game": game, "result": result, **details})

    def close(self, **summary: Any) -> None:
        try:
            self._check_writes(wait=True)
        finally:
            self._writer.shutdown(wait=True)
        self.session.update(summary)
        self.session["finished"] = datetime.now(UTC).isoformat(timespec="seconds")
        self._write_session()
        self._log.close()

    def _append(self, obj: dict[str, Any]) -> None:
        self._log.write(json.dumps(obj) + "\n")
        self._log.flush()

    def _write_session(self) -> None:
        (self.root / SESSION_FILE).write_text(json.dumps(self.session, indent=2) + "\n", encoding="utf-8")


def _write_png(path: Path, image: np.ndarray, *, filtered: bool = True) -> None:
    import cv2

    params = [cv2.IMWRITE_PNG_COMPRESSION, PNG_LEVEL]
    if not filtered and hasattr(cv2, "IMWRITE_PNG_FILTER"):  # OpenCV >= 4.11
        params += [cv2.IMWRITE_PNG_FILTER, cv2.IMWRITE_PNG_FILTER_NONE]
    if not cv2.imwrite(str(path), image, params):
        raise ControlError(f"cannot write {path}")


def _write_delta(path: Path, previous: np.ndarray, image: np.ndarray) -> None:
    # A delta is zero but where the board changed: libpng's choice of a filter for each row gains nothing there
    # and takes most of the time (137 deltas of an 1100x800 page: median 11-16 ms unfiltered, 28-30 ms filtered,
    # 4.7 KB against 5.2 KB)
    _write_png(path, xor_delta(previous, image), filtered=False)
