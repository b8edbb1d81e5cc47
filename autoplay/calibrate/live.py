"""Calibrating against a running game: autoplay takes its own screenshots.

Unsupervised calibration wants a fresh board and a few finished ones (a lost
board shows its mines, which name the numbers).  Here they are collected from
the live window: autoplay clicks covered cells at random, through the same
guarded mouse as play (inside the located board only, fail-safe on), until a
click changes nothing, which means the game is over, and keeps the fresh and
the final frame of each game.  The tiles cannot be read yet, so "covered"
means "looks like the fresh board's tile".
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from autoplay.control.capture import wait_settled
from autoplay.control.mouse import Mouse
from autoplay.control.window import GameWindow
from autoplay.errors import ControlError
from autoplay.play.player import board_rect_on_screen, board_roi
from autoplay.vision.features import cell_patches, patch_vectors
from autoplay.vision.grid import Grid
from autoplay.vision.locate import locate_grid

#: RMS distance (0..1) under which a cell still looks like the fresh board's covered tile.
COVERED_DISTANCE = 0.05


@dataclass
class Collected:
    frames: list[np.ndarray]
    games: int
    clicks: int


def looks_covered(vectors: np.ndarray, covered: np.ndarray) -> np.ndarray:
    """Per cell patch vector: does it still look like ``covered`` (the fresh board's tile)?"""
    return np.sqrt(((vectors - covered) ** 2).mean(axis=1)) < COVERED_DISTANCE


def covered_cells(frame: np.ndarray, grid: Grid, covered: np.ndarray) -> list[int]:
    """Indices of the cells of ``frame`` that still look covered."""
    return [int(i) for i in np.flatnonzero(looks_covered(patch_vectors(cell_patches(frame, grid)), covered))]


def play_blind(
    grab: Callable[[], np.ndarray],
    mouse: Mouse,
    window: GameWindow,
    rng: random.Random,
    max_clicks: int = 500,
    settle: float = 0.15,
) -> tuple[np.ndarray, np.ndarray, int]:
    """One game of random clicks on covered cells; returns (fresh frame, final frame, clicks)."""
    fresh = wait_settled(grab, interval=settle, timeout=5).frame
    grid = locate_grid(fresh)
    vectors = patch_vectors(cell_patches(fresh, grid))
    covered = np.median(vectors, axis=0)
    share = float(looks_covered(vectors, covered).mean())
    if share < 0.5:
        raise ControlError(
            f"the window does not show a fresh game ({share:.0%} of the cells look alike); "
            "start a new game and try again"
        )
    board = board_rect_on_screen(grid, window.rect)
    mouse.park(window.rect, board)
    frame = fresh
    clicks = 0
    for clicks in range(1, max_clicks + 1):  # noqa: B007 - the count is returned
        targets = covered_cells(frame, grid, covered)
        if not targets:
            break
        row, col = divmod(rng.choice(targets), grid.cols)
        x, y = grid.cell_center(row, col)
        mouse.click(window.x + x, window.y + y, "left", board)
        mouse.park(window.rect, board)
        settled = wait_settled(
            grab, interval=settle, timeout=5, baseline=frame, change_timeout=1.0, roi=board_roi(grid)
        )
        if not settled.changed:  # the board ignores clicks: the game has ended
            break
        frame = settled.frame
    return fresh, frame, clicks


def collect_frames(
    grab: Callable[[], np.ndarray],
    mouse: Mouse,
    window: GameWindow,
    games: int,
    new_game: Callable[[np.ndarray], None] | None,
    seed: int = 1,
    progress: Callable[[int], None] | None = None,
) -> Collected:
    """Fresh and final frames of ``games`` games; ``new_game(last_frame)`` starts each game after the first."""
    if games > 1 and new_game is None:
        raise ControlError("more than one game needs a way to start a new one (--new-game-key or --new-game-click)")
    rng = random.Random(seed)
    frames: list[np.ndarray] = []
    clicks = 0
    for number in range(games):
        if number and new_game is not None:
            new_game(frames[-1])
            mouse.forget_position()
            wait_settled(grab, baseline=frames[-1], change_timeout=2.0, timeout=5)
        fresh, final, used = play_blind(grab, mouse, window, rng)
        frames += [fresh, final]
        clicks += used
        if progress:
            progress(number + 1)
    return Collected(frames, games, clicks)
