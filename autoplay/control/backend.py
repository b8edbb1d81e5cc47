"""Which way windows are found: X11 (python-xlib) or portable (a window library, or the whole screen).

X11 is the first-class path: it names windows without a window manager, knows
their stacking order and can give a window keyboard focus.  The portable path
needs only mss and pyautogui, which run on Windows, macOS and X11 alike; it is
what runs where python-xlib or an X display is missing, and it can be forced on
Linux (``--backend portable`` or ``AUTOPLAY_BACKEND=portable``) to test it.
Missing pieces become one-line :class:`ControlError` messages, never tracebacks.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Literal

from autoplay.errors import ControlError, UsageError

Backend = Literal["x11", "portable"]
#: What ``--backend`` accepts; ``auto`` picks x11 when it can run.
CHOICES = ("auto", "x11", "portable")


@dataclass(frozen=True)
class BackendChoice:
    """The backend to use and, when auto-selection had to settle for less than X11, why (for a note)."""

    name: Backend
    note: str | None = None


def captures_through_x11() -> bool:
    """On Linux and the BSDs mss and pyautogui talk to an X server, so even the portable path needs a display."""
    return sys.platform not in ("win32", "cygwin", "darwin")


def xlib_missing() -> str | None:
    """Why python-xlib cannot be used (one line), or None when it can."""
    try:
        import Xlib.display  # noqa: F401 - only checking that it imports
    except ImportError as exc:
        return f"python-xlib is not installed ({exc})"
    return None


def choose_backend(requested: str, display: str | None) -> BackendChoice:
    """The backend for ``requested`` (one of :data:`CHOICES`) on ``display`` (None: no X display known).

    Raises ControlError when the requested backend cannot run here.
    """
    if requested not in CHOICES:
        raise UsageError(f"unknown backend {requested!r}; choose from {', '.join(CHOICES)}")
    no_display = "no X display: set DISPLAY or pass --display"
    if requested == "x11":
        if not display:
            raise ControlError(f"the x11 backend needs an X display; {no_display}")
        missing = xlib_missing()
        if missing:
            raise ControlError(f"the x11 backend needs python-xlib: {missing}; use --backend portable without it")
        return BackendChoice("x11")
    if captures_through_x11() and not display:
        raise ControlError(f"{no_display} (on this system capture and clicks go through X11 on every backend)")
    if requested == "portable":
        return BackendChoice("portable")
    if not captures_through_x11():
        return BackendChoice("portable")
    missing = xlib_missing()
    if missing:
        return BackendChoice("portable", f"{missing}; finding the board on the whole screen instead (portable)")
    return BackendChoice("x11")
