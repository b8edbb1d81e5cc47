"""The single place that clicks: every batch is checked against the board and the window system first.

Safety rules kept here so no caller can bypass them:
- a target outside the located board raises :class:`ClickRefused` and nothing is clicked;
- before each press the window guard asks the window system (not the last frame) whether the
  window is still where it was, still shown, and uncovered over the board; on X11 the check and
  the press happen under one server grab, so nothing can appear in between;
- pyautogui's fail-safe (pointer in a screen corner aborts) stays on;
- if the pointer is not where we last put it, a human has taken over and we stop;
- the pointer is parked off the board but inside the window, never at (0, 0),
  which is the fail-safe corner and also where headless windows sit.
Coordinates given to this module are captured-screen pixels; the ratio to
pyautogui's coordinate space (HiDPI) is applied here and nowhere else.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from types import FrameType
from typing import TYPE_CHECKING, Literal, Protocol, runtime_checkable

from autoplay.control.backend import captures_through_x11
from autoplay.control.guard import NoGuard, WindowGuard
from autoplay.errors import ControlError

if TYPE_CHECKING:
    from autoplay.control.window import Window

Button = Literal["left", "right", "middle"]
#: Seconds the reported pointer position may lag our own last move (a window manager's click-to-focus grab).
POINTER_LAG = 0.5
#: ``(left, top, width, height)`` in captured-screen pixels.
Rect = tuple[int, int, int, int]


class ClickRefused(ControlError):
    """A click target outside the board: refused before anything happened."""


class UserTookOver(ControlError):
    """The pointer moved without us: the user wants the mouse back."""


class MouseBackend(Protocol):
    """The few pointer/keyboard primitives the bot needs, in the backend's own coordinates."""

    def position(self) -> tuple[int, int]: ...
    def move(self, x: int, y: int) -> None: ...
    def click(self, x: int, y: int, button: Button) -> None: ...
    def hotkey(self, *keys: str) -> None: ...
    def size(self) -> tuple[int, int]: ...
    def failsafe_check(self) -> None: ...


@runtime_checkable
class ReportsArrival(Protocol):
    """A backend that can move the pointer and report where it then is in one exchange with the window system."""

    def move_and_report(self, x: int, y: int) -> tuple[int, int]: ...


#: One click of a batch: captured-screen ``x``, ``y`` and the button.
Target = tuple[float, float, Button]


def inside(rect: Rect, x: float, y: float) -> bool:
    left, top, width, height = rect
    return left <= x < left + width and top <= y < top + height


class PyAutoGuiBackend:
    """pyautogui on a given X display, imported lazily because it reads DISPLAY at import time."""

    def __init__(self, display: str | None) -> None:
        if display:
            current = os.environ.get("DISPLAY")
            if "pyautogui" in sys.modules and current != display:
                raise ControlError(f"pyautogui is already bound to display {current}; cannot drive {display}")
            os.environ["DISPLAY"] = display
        if not os.environ.get("DISPLAY") and captures_through_x11():  # Windows and macOS need none
            raise ControlError("no X display: set DISPLAY or pass --display")
        try:
            import pyautogui
        except (ImportError, SystemExit, KeyError) as exc:
            raise ControlError(f"pyautogui cannot start ({exc!r}); is python3-tk installed?") from None
        pyautogui.FAILSAFE = True
        pyautogui.PAUSE = 0  # we wait for the screen to settle instead of sleeping after every call
        self._pg = pyautogui

    def position(self) -> tuple[int, int]:
        x, y = self._pg.position()
        return int(x), int(y)

    @contextlib.contextmanager
    def _failsafe_stops(self) -> Iterator[None]:
        """Every pyautogui call may trip its fail-safe; that is the user stopping us, not a crash."""
        try:
            yield
        except self._pg.FailSafeException:
            raise UserTookOver("pyautogui fail-safe: pointer in a screen corner") from None

    def move(self, x: int, y: int) -> None:
        with self._failsafe_stops():
            self._pg.moveTo(x, y, _pause=False)

    def click(self, x: int, y: int, button: Button) -> None:
        with self._failsafe_stops():
            self._pg.click(x, y, button=button, _pause=False)

    def hotkey(self, *keys: str) -> None:
        with self._failsafe_stops():
            self._pg.hotkey(*keys, _pause=False)

    def size(self) -> tuple[int, int]:
        w, h = self._pg.size()
        return int(w), int(h)

    def failsafe_check(self) -> None:
        """pyautogui's own fail-safe test (pointer in a screen corner), asked before every batch."""
        with self._failsafe_stops():
            self._pg.failSafeCheck()


@dataclass
class ClickStats:
    attempted: int = 0
    clicked: int = 0
    refused: int = 0


class Mouse:
    """Guarded clicks on one board; ``scale`` maps captured pixels to backend coordinates."""

    def __init__(
        self,
        backend: MouseBackend,
        scale: tuple[float, float] = (1.0, 1.0),
        watch_user: bool = True,
        guard: WindowGuard | None = None,
    ) -> None:
        self.backend = backend
        self.scale = scale
        self.watch_user = watch_user
        self.guard: WindowGuard = guard if guard is not None else NoGuard()
        self.stats = ClickStats()
        self._last: tuple[int, int] | None = None

    @classmethod
    def for_display(cls, display: str | None, captured_size: tuple[int, int]) -> Mouse:
        """A pyautogui mouse with the HiDPI ratio between the captured screen and pyautogui's screen."""
        backend = PyAutoGuiBackend(display)
        bw, bh = backend.size()
        cw, ch = captured_size
        return cls(backend, (bw / cw, bh / ch))

    @classmethod
    def for_window(cls, window: Window, captured_size: tuple[int, int]) -> Mouse:
        """The mouse for one X11 window: XTEST clicks on the guard's own connection, keys through pyautogui."""
        from autoplay.control.xguard import connect_x11

        keys = PyAutoGuiBackend(window.display)
        guard, pointer = connect_x11(window.display, window.id, window.rect, window.title, keys)
        bw, bh = pointer.size()
        cw, ch = captured_size
        return cls(pointer, (bw / cw, bh / ch), guard=guard)

    def _to_backend(self, x: float, y: float) -> tuple[int, int]:
        return round(x * self.scale[0]), round(y * self.scale[1])

    def _check_user(self, wait: bool = True, seen: tuple[int, int] | None = None) -> None:
        """UserTookOver if the pointer is not where we put it, once it has had time to get there.

        A window manager that focuses windows on click holds the pointer in a synchronous grab
        after each press until it has handled it; meanwhile the server reports the position
        from before our last moves. So a mismatch is asked again for up to
        :data:`POINTER_LAG` seconds: our own move arrives, a user's hand does not go away.
        ``wait=False`` asks once (inside a server grab, where nothing could change the answer).  ``seen`` is a
        position the window system has just reported (with a move or a check), taken as the first answer.
        """
        if not self.watch_user or self._last is None:
            return
        deadline = time.monotonic() + (POINTER_LAG if wait else 0.0)
        position = seen if seen is not None else self.backend.position()
        while position != self._last and time.monotonic() < deadline:
            time.sleep(0.002)
            position = self.backend.position()
        if position != self._last:
            raise UserTookOver(f"the mouse moved to {position} (user took over); stopping")

    def click_batch(self, targets: Sequence[Target], board: Rect, still: Callable[[], bool] | None = None) -> int:
        """Click every target, all inside ``board``, after the guard's check: the one click function.

        Nothing is clicked unless every target lies inside ``board``, the fail-safe
        and the pointer say the user has not taken over, and the window guard finds
        the window in place, shown and uncovered; the guard holds that answer while
        each press is made (on X11 by grabbing the server around the check and the press).
        ``still`` is asked before every press but the first (which the caller has just checked): a board
        the window system cannot see move (a web page scrolled by its own script) is asked whether it is
        still where the targets were computed; once it says no, the rest of the batch is not clicked.
        Returns how many targets were clicked.
        """
        self.stats.attempted += len(targets)
        outside = [(x, y) for x, y, _ in targets if not inside(board, x, y)]
        if outside:
            self.stats.refused += len(outside)
            x, y = outside[0]
            raise ClickRefused(f"refused to click ({x:.0f}, {y:.0f}): outside the board {board}")
        if not targets:
            return 0
        self.backend.failsafe_check()
        for done, (x, y, button) in enumerate(targets):  # _arrive checks the pointer before each move
            bx, by = self._to_backend(x, y)
            self._arrive(bx, by)
            if done and still is not None and not still():  # asked before the guard grabs the server
                return done
            with self.guard.holding(board) as seen:
                self._check_user(wait=False, seen=seen)
                with ctrl_c_held():
                    self.backend.click(bx, by, button)
                    self.stats.clicked += 1
        return len(targets)

    def _arrive(self, bx: int, by: int) -> None:
        """Move to the next target and wait until the server reports the pointer there.

        Under a window manager that focuses on click, each press freezes the pointer
        until the manager has seen it; a press sent before our move arrived would land
        wherever the pointer was, or be lost. So the move happens outside the guard's
        server grab (which would keep the manager from thawing it) and the press waits
        for it; a pointer that never gets there means a hand on the mouse.
        """
        self._check_user()
        seen = None
        if isinstance(self.backend, ReportsArrival):  # the move and the question after it in one round trip
            seen = self.backend.move_and_report(bx, by)
        else:
            self.backend.move(bx, by)
        self._last = (bx, by)
        self._check_user(seen=seen)

    def click(self, x: float, y: float, button: Button, board: Rect) -> None:
        """One guarded click: a batch of one."""
        self.click_batch([(x, y, button)], board)

    def park(self, window: Rect, board: Rect) -> None:
        """Move the pointer inside the window but off the board (hover highlights tiles and would change the picture)."""
        self._check_user()
        spot = parking_spot(window, board)
        if spot is None:
            return
        bx, by = self._to_backend(*spot)
        self.backend.move(bx, by)
        self._last = (bx, by)

    def rest_in_corner(self, window: Rect) -> None:
        """Before the board is located: rest the pointer near the window's top-left corner, off any tile.

        A pointer left over the board (by the user, or a session stopped mid-way) makes
        gnome-mines highlight that tile, which then reads as unreadable.
        """
        self._check_user()
        left, top, _w, _h = window
        bx, by = self._to_backend(left + 8, top + 8)
        self.backend.move(bx, by)
        self._last = (bx, by)

    def hotkey(self, *keys: str) -> None:
        self._check_user()
        self.backend.hotkey(*keys)

    def close(self) -> None:
        """Close the guard's window-system connection, if it has one."""
        self.guard.close()

    def forget_position(self) -> None:
        """Call after a deliberate pause (e.g. a new window) so the next check starts fresh."""
        self._last = None


@contextlib.contextmanager
def ctrl_c_held() -> Iterator[None]:
    """Ctrl-C (SIGINT) held back while a press is sent and counted, and delivered right after.

    An interrupt between the press reaching the window system and the count made the report one press short of the
    X server's own record (a CI run: 35 against 36).  The interrupt is caught by a handler of our own for that
    moment, whichever thread the system hands the signal to, then passed to the handler that was there before.
    Only the main thread can set handlers; elsewhere nothing is held.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[FrameType | None] = []
    previous = signal.signal(signal.SIGINT, lambda _signum, frame: caught.append(frame))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if caught and callable(previous):
            previous(signal.SIGINT, caught[0])
        elif caught and previous == signal.SIG_DFL:
            os.kill(os.getpid(), signal.SIGINT)


def parking_spot(window: Rect, board: Rect) -> tuple[int, int] | None:
    """A pixel in ``window`` outside ``board`` and at least 2 px from the screen origin; None if there is none."""
    _wl, _wt, _ww, _wh = window
    bl, bt, bw, bh = board
    candidates = [
        (bl + bw // 2, bt + bh + 3),  # below the board
        (bl + bw + 3, bt + bh // 2),  # right of it
        (bl - 4, bt + bh // 2),  # left of it
        (bl + bw // 2, bt - 4),  # above it
    ]
    for x, y in candidates:
        if inside(window, x, y) and not inside(board, x, y) and (x > 1 or y > 1):
            return x, y
    return None
