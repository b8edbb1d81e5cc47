"""Is it still safe to click the board? The question every click batch asks the window system first.

A frame is a picture of the past: between its capture and the clicks it led to,
another window can open over the board, the game window can move or close, or
the game can pause.  So each batch is preceded by a check that asks the window
system itself (never the last frame) and raises :class:`WindowProblem` with one
line naming what happened.  The check sits behind :class:`WindowGuard` so each
platform backend can supply its own; X11's is :mod:`autoplay.control.xguard`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextlib import AbstractContextManager
from typing import Protocol

from autoplay.errors import ControlError

#: ``(left, top, width, height)`` in screen pixels.
Rect = tuple[int, int, int, int]


class WindowProblem(ControlError):
    """The game window can no longer receive clicks safely (exit code 4); the message says why."""


class WindowClosed(WindowProblem):
    """The game window was destroyed or unmapped."""


class WindowMoved(WindowProblem):
    """The game window moved or changed size: every located coordinate is stale."""


class BoardCovered(WindowProblem):
    """Another window lies over part of the board, so a click there would reach that window.

    ``cover`` identifies the covering window for :meth:`WindowGuard.dismiss`; ``own`` says it is the
    game's own (a dialog the game opened over itself: transient for its window, or of its process).
    """

    def __init__(self, message: str, cover: int | None = None, own: bool = False) -> None:
        super().__init__(message)
        self.cover, self.own = cover, own


class GameNotResponding(WindowProblem):
    """The game has not read its input for longer than play waits (frozen, hung, or starved of CPU)."""


class WindowGuard(Protocol):
    """What the one click function asks before it presses a button."""

    def check_clear(self, board: Rect) -> None:
        """Raise :class:`WindowProblem` unless the window is where it was, shown, and nothing covers ``board``."""
        ...

    def holding(self, board: Rect) -> AbstractContextManager[tuple[int, int] | None]:
        """``check_clear``, then keep its answer true until the block ends (as far as the platform allows).

        Yields the pointer's position when the check could read it at no extra cost (None otherwise).
        """
        ...

    def focus(self) -> None:
        """Give the game window the keyboard focus (gnome-mines pauses without it)."""
        ...

    def caught_up(self, timeout: float) -> float | None:
        """Wait until the game has read every click sent so far: the seconds that took, or None if the

        platform cannot tell.  Raises :class:`GameNotResponding` after ``timeout`` seconds without an answer.
        """
        ...

    def dismiss(self, cover: BoardCovered) -> bool:
        """Close a dialog of the game's own that covers the board, with the Escape key (never a click).

        True once it is gone; False when it is not the game's, cannot be closed so, or stays.
        """
        ...

    def close(self) -> None:
        """Let go of the window system (a connection, say); safe to call twice."""
        ...


class NoGuard:
    """For screens with no window system behind them (simulated tables in tests): nothing to check."""

    def check_clear(self, board: Rect) -> None:
        return None

    @contextlib.contextmanager
    def holding(self, board: Rect) -> Iterator[tuple[int, int] | None]:
        yield None

    def focus(self) -> None:
        return None

    def caught_up(self, timeout: float) -> float | None:
        return None

    def dismiss(self, cover: BoardCovered) -> bool:
        return False

    def close(self) -> None:
        return None


def intersects(a: Rect, b: Rect) -> bool:
    """Do two ``(left, top, width, height)`` rectangles share at least one pixel?"""
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    return ax < bx + bw and bx < ax + aw and ay < by + bh and by < ay + ah


def change_message(before: Rect, now: Rect) -> str:
    """One line for a window whose rectangle changed: "the window moved by (+120,+90)" or "... was resized ..."."""
    dx, dy = now[0] - before[0], now[1] - before[1]
    if (dx, dy) != (0, 0) and before[2:] == now[2:]:
        return f"the window moved by ({dx:+d},{dy:+d})"
    message = f"the window was resized from {before[2]}x{before[3]} to {now[2]}x{now[3]}"
    if (dx, dy) != (0, 0):
        message += f" and moved by ({dx:+d},{dy:+d})"
    return message
