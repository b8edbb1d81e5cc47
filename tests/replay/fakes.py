"""A stand-in for the vision pipeline in unit tests: frames are PNGs drawn from board text beside them.

Only the screen is faked; the solver, the comparison and the annotation are real.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import cv2

from autoplay.board import Board, read_board
from autoplay.errors import UnreadableBoardError
from autoplay.render import UniformGrid, render_board, save_png

CELL_PX = 20


@dataclass
class FakeDecoded:
    board: Board | None
    grid: UniformGrid | None
    state: str = "playing"

    def require_readable(self, debug_path: str | None = None, debug_root: str | None = None) -> None:
        if self.board is None:
            raise UnreadableBoardError("no board found in the frame", debug_image=debug_path)


class TextDecoder:
    """Reads the board from ``frame.txt`` next to ``frame.png``; no text file means an unreadable frame."""

    rules = None

    def __init__(self) -> None:
        self._current: Path | None = None

    def read(self, path: Path):
        image = cv2.imread(str(path))
        if image is None:
            raise UnreadableBoardError(f"{path}: not an image")
        self._current = path
        return image

    def decode(self, image, grid_hint):
        text = self._current.with_suffix(".txt")
        if not text.exists():
            return FakeDecoded(None, None)
        board = read_board(text)
        state = "lost" if board.is_lost else "playing"
        return FakeDecoded(board, UniformGrid(board.rows, board.cols, CELL_PX, CELL_PX, CELL_PX), state)


def write_frame(folder: Path, name: str, board_text: str | None) -> Path:
    """A frame picture and, unless None, the board text the fake decoder will 'read' from it."""
    board = Board.from_text(board_text or "..\n")  # any picture will do for a frame vision cannot read
    path = save_png(folder / f"{name}.png", render_board(board, cell_px=CELL_PX), root=folder.parent)
    if board_text is not None:
        (folder / f"{name}.txt").write_text(board_text)
    return path


def write_recording(folder: Path, session: dict, records: list[dict]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "session.json").write_text(json.dumps(session))
    (folder / "decisions.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    return folder
