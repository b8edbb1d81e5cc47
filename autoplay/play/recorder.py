"""Writing a session to disk in the format ``autoplay replay`` reads (see autoplay.replay.recording).

Frames are PNGs with light compression, so they stay pixel-exact and replay
decodes the same board.  Encoding one expert frame still costs ~20 ms, about a
third of a decision, so frames are written by one background thread (OpenCV
releases the GIL while encoding); ``close()`` waits for the last of them, and a
failed write surfaces at the next call instead of being lost.
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

SESSION_FILE = "session.json"
DECISIONS_FILE = "decisions.jsonl"
FRAMES_DIR = "frames"


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
        self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="recorder")
        self._pending: list[Future[None]] = []
        self._write_session()

    def frame(self, image: np.ndarray, tag: str = "") -> str:
        """Save a captured frame; returns its path relative to the recording root.

        ``tag`` marks frames that are not decisions (e.g. "unreadable"), for calibration.
        """
        self._check_writes()
        self._frames += 1
        name = f"{FRAMES_DIR}/{self._frames:06d}{'-' + tag if tag else ''}.png"
        self._pending.append(self._writer.submit(_write_png, self.root / name, image))
        return name

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
    ) -> None:
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


def _write_png(path: Path, image: np.ndarray) -> None:
    import cv2

    if not cv2.imwrite(str(path), image, [cv2.IMWRITE_PNG_COMPRESSION, 1]):
        raise ControlError(f"cannot write {path}")
