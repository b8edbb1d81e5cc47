"""Saved frames of a real gnome-mines game played back as a window, for ``autoplay watch``'s unit tests.

The frames (tests/fixtures/watch, made by its ``capture.py``) are whole window
grabs of one intermediate game, one after each step; ``steps.json`` says which
step led to each and on which cell it was.  :class:`FramesWindow` shows each
frame in turn with the pointer on that step's cell, and reports the window
closed after the last.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import numpy as np

from autoplay.control.window import WindowGoneError
from autoplay.play.watch import MAX_QUIET
from autoplay.vision import decode_frame, load_skin, read_image

FRAMES = Path(__file__).resolve().parents[1] / "fixtures" / "watch"
#: Seconds each frame stays on show from its first grab: longer than the longest quiet spell the watcher may
#: learn to wait for (a grab late on a loaded machine looks like a slow game's redraw), so no frame is passed
#: over while the watcher waits for the one before it to settle, and time for the coach.
SHOWN_FOR = 1.5 * MAX_QUIET


def load_steps() -> list[dict[str, Any]]:
    """``steps.json``: each frame's file, the step that led to it (action, cell) or None for the first."""
    return json.loads((FRAMES / "steps.json").read_text())


class FramesWindow:
    """The watcher's view of a window (``grab``, ``where``, ``pointer``) that plays the saved frames once.

    Each frame stays from its first grab for ``shown_for`` seconds, and the next one comes only at a grab after
    that, so a watcher busy elsewhere (solving) misses no frame; after the last one the window closes.
    """

    def __init__(self, shown_for: float = SHOWN_FOR) -> None:
        self.steps = load_steps()
        self.frames = [read_image(FRAMES / s["frame"]) for s in self.steps]
        self.grid = decode_frame(self.frames[0], load_skin("gnome-mines")).grid
        self.shown_for = shown_for
        self.index = 0
        self.since: float | None = None
        height, width = self.frames[0].shape[:2]
        self.rect = (0, 0, width, height)

    def grab(self) -> np.ndarray:
        now = time.perf_counter()
        if self.since is None:
            self.since = now
        elif now - self.since >= self.shown_for and self.index < len(self.frames) - 1:
            self.index, self.since = self.index + 1, now
        return self.frames[self.index]

    def where(self) -> tuple[int, int, int, int]:
        last = self.index == len(self.frames) - 1
        if last and self.since is not None and time.perf_counter() - self.since >= self.shown_for:
            raise WindowGoneError("window 'Mines' was closed")
        return self.rect

    def pointer(self) -> tuple[int, int] | None:
        cell = self.steps[self.index]["cell"]
        if cell is None:
            return None
        x, y = self.grid.cell_center(*cell)
        return int(x), int(y)

    def close(self) -> None:
        pass
