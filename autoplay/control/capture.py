"""Screen capture and "has the picture stopped changing?".

Games redraw asynchronously (a gnome-mines cascade lands over 2-3 frames and
takes ~60 ms, more on a loaded core), so instead of sleeping a fixed time we
poll until the board region has been identical for a short interval.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from autoplay.errors import ControlError

#: ``(left, top, width, height)`` in screen pixels.
Region = tuple[int, int, int, int]
#: ``(top, bottom, left, right)`` slice bounds inside a frame; only this part is compared when settling.
Roi = tuple[int, int, int, int]

_local = threading.local()


def _mss_for(display: str | None):
    """One mss instance per thread and display: they hold an X connection and are not thread-safe."""
    cache = getattr(_local, "grabbers", None)
    if cache is None:
        cache = _local.grabbers = {}
    if display not in cache:
        import mss

        try:
            cache[display] = mss.MSS(display=display) if display else mss.MSS()
        except Exception as exc:
            raise ControlError(f"cannot capture display {display or '$DISPLAY'}: {exc}") from None
    return cache[display]


def _forget(display: str | None) -> None:
    grabber = getattr(_local, "grabbers", {}).pop(display, None)
    if grabber is not None:
        with contextlib.suppress(Exception):
            grabber.close()


def on_screen(region: Region, screen: Region) -> Region | None:
    """The part of ``region`` that lies on ``screen`` (both ``(left, top, width, height)``), None if no part does.

    >>> on_screen((1000, -20, 400, 300), (0, 0, 1280, 1024))
    (1000, 0, 280, 280)
    >>> on_screen((1300, 0, 10, 10), (0, 0, 1280, 1024)) is None
    True
    """
    left, top = max(region[0], screen[0]), max(region[1], screen[1])
    right = min(region[0] + region[2], screen[0] + screen[2])
    bottom = min(region[1] + region[3], screen[1] + screen[3])
    return (left, top, right - left, bottom - top) if right > left and bottom > top else None


def _grab_visible(region: Region, display: str | None):  # mss types its shot loosely
    """mss's shot of the part of ``region`` on the screen, and that part as an mss box."""
    monitor = _mss_for(display).monitors[0]
    visible = on_screen(region, (monitor["left"], monitor["top"], monitor["width"], monitor["height"]))
    if visible is None:
        raise ControlError(f"the region {region} lies wholly off the screen of {display or '$DISPLAY'}")
    box = {"left": visible[0], "top": visible[1], "width": visible[2], "height": visible[3]}
    return _mss_for(display).grab(box), box


def grab(region: Region, display: str | None = None) -> np.ndarray:
    """The screen pixels of ``region`` as a contiguous BGR ``uint8`` array.

    A window may reach past the screen (a browser at 125% opened at its 100% size, a window dragged half off):
    what lies off the screen is black, so the frame keeps the window's shape and the board's coordinates, and a
    board cut by the screen's edge is refused by the locator as any cut board is.
    """
    left, top, width, height = region
    try:
        shot, box = _grab_visible(region, display)
    except ControlError:
        raise
    except Exception:
        _forget(display)
        try:
            shot, box = _grab_visible(region, display)
        except ControlError:
            raise
        except Exception as exc:
            raise ControlError(f"screen capture of {region} on {display or '$DISPLAY'} failed: {exc!r}") from None
    import cv2

    # cvtColor drops the alpha channel ~50x faster than copying a strided numpy slice (0.15 ms vs 8 ms here).
    pixels = cv2.cvtColor(np.frombuffer(shot.raw, np.uint8).reshape(box["height"], box["width"], 4), cv2.COLOR_BGRA2BGR)
    if (box["width"], box["height"]) == (width, height):
        return pixels
    frame = np.zeros((height, width, 3), np.uint8)
    x, y = box["left"] - left, box["top"] - top
    frame[y : y + box["height"], x : x + box["width"]] = pixels
    return frame


def screen_size(display: str | None = None) -> tuple[int, int]:
    """``(width, height)`` of the whole virtual screen in captured pixels (for the HiDPI ratio)."""
    monitor = _mss_for(display).monitors[0]
    return int(monitor["width"]), int(monitor["height"])


@dataclass
class Settled:
    """A frame that stopped changing, and whether it differs from the frame we compared against."""

    frame: np.ndarray
    changed: bool
    waited: float
    timed_out: bool
    #: The longest pause between two changes of the picture seen while it was still changing (0 with one change
    #: or none): how long this game may sit still in the middle of drawing one move.
    longest_pause: float = 0.0
    #: Seconds from the start of the wait to the window system's last report of the board being drawn, where
    #: the wait was on such reports (None otherwise): the game's own drawing time within ``waited``.
    drawn: float | None = None


def _part(frame: np.ndarray, roi: Roi | None) -> np.ndarray:
    if roi is None:
        return frame
    top, bottom, left, right = roi
    return frame[top:bottom, left:right]


def wait_settled(
    grab_fn: Callable[[], np.ndarray],
    interval: float = 0.035,
    timeout: float = 2.0,
    *,
    baseline: np.ndarray | None = None,
    change_timeout: float = 0.0,
    roi: Roi | None = None,
    poll: float = 0.004,
    clock: Callable[[], float] = time.perf_counter,
    sleep: Callable[[float], None] = time.sleep,
) -> Settled:
    """Grab until the ``roi`` part of the frame is unchanged for ``interval`` seconds.

    With ``baseline`` (the frame before a click) it first waits up to
    ``change_timeout`` for the picture to differ from it, since a settled frame
    captured before the game even processed the click would look like "nothing
    happened".  ``roi`` keeps the game's ticking clock out of the comparison.
    On ``timeout`` the latest frame is returned with ``timed_out`` set; callers
    decide whether an ever-changing picture is an error.
    """
    start = clock()
    frame = grab_fn()
    base = None if baseline is None else _part(baseline, roi)
    changed = base is not None and not np.array_equal(_part(frame, roi), base)
    if base is not None:
        while not changed and clock() - start < change_timeout:
            sleep(poll)
            frame = grab_fn()
            changed = not np.array_equal(_part(frame, roi), base)
    stable_since = clock()
    longest = 0.0
    while True:
        now = clock()
        if now - stable_since >= interval:
            return Settled(frame, changed, now - start, False, longest)
        if now - start >= timeout:
            return Settled(frame, changed, now - start, True, longest)
        sleep(poll)
        latest = grab_fn()
        if not np.array_equal(_part(latest, roi), _part(frame, roi)):
            if changed:
                longest = max(longest, clock() - stable_since)
            stable_since = clock()
            if base is not None and not changed:
                changed = not np.array_equal(_part(latest, roi), base)
        frame = latest
