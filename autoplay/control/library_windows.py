"""Windows named through a cross-platform window library, for the portable backend (optional).

pywinctl (Windows, macOS, Linux with a window manager) is tried first, then
pygetwindow (Windows; pyautogui installs it there).  Neither is a dependency:
when none imports, or the library lists no window at all (Linux without a
window manager), :func:`find_library_window` returns None and the caller looks
for the board on the whole screen instead.

Library coordinates are taken to be pyautogui's (the pointer's) coordinates,
and are divided by the mouse's capture/click ratio to become captured pixels,
the unit every other rectangle in autoplay uses.  Nothing here has been run
on Windows or macOS; the unit tests drive it with a stand-in library.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Protocol

from autoplay.control.window import WindowGoneError, follow_geometry
from autoplay.control.window_query import WindowFacts, WindowQuery, pick_one
from autoplay.errors import ControlError

#: Libraries tried in order; the first that imports and lists windows is used.
LIBRARIES = ("pywinctl", "pygetwindow")


class LibraryHandle(Protocol):
    """The part of a pywinctl / pygetwindow window object used here."""

    title: str
    left: int
    top: int
    width: int
    height: int

    def activate(self) -> object: ...


def load_library(names: Sequence[str] = LIBRARIES) -> ModuleType | None:
    """The first window library that imports here; None when there is none (that is not an error)."""
    for name in names:
        try:
            return importlib.import_module(name)
        except Exception:  # ImportError, or NotImplementedError: pygetwindow refuses Linux at import
            continue
    return None


def _facts(index: int, handle: LibraryHandle, scale: tuple[float, float]) -> WindowFacts:
    sx, sy = scale
    rect = (round(handle.left / sx), round(handle.top / sy), round(handle.width / sx), round(handle.height / sy))
    app = getattr(handle, "getAppName", None)
    get_pid = getattr(handle, "getPID", None)
    try:
        classes = (str(app()),) if app else ()
        pid = get_pid() if get_pid else None
    except Exception:  # a window that closed while we asked
        classes, pid = (), None
    return WindowFacts(f"#{index}", rect, classes, (str(handle.title or ""),), int(pid) if pid else None)


@dataclass
class LibraryWindow:
    """A game window found by a window library, in captured pixels; the portable stand-in for an X11 window."""

    handle: LibraryHandle
    facts: WindowFacts
    scale: tuple[float, float]
    x: int = field(init=False)
    y: int = field(init=False)
    width: int = field(init=False)
    height: int = field(init=False)

    def __post_init__(self) -> None:
        self.x, self.y, self.width, self.height = self.facts.rect

    @property
    def rect(self) -> tuple[int, int, int, int]:
        return self.x, self.y, self.width, self.height

    def refresh(self) -> LibraryWindow:
        """WindowGoneError if the library no longer sees the window, WindowMovedError if its box changed."""
        try:
            now = _facts(0, self.handle, self.scale).rect
            alive = getattr(self.handle, "isAlive", True)
            alive = alive() if callable(alive) else alive
        except Exception as exc:
            raise WindowGoneError(f"window {self.facts.describe()} is gone ({exc})") from None
        if not alive:
            raise WindowGoneError(f"window {self.facts.describe()} was closed")
        follow_geometry(self, now)
        return self

    def focus(self) -> None:
        """Bring the window to the front with the keyboard focus, as far as the library can."""
        try:
            self.handle.activate()
        except Exception as exc:
            raise ControlError(f"cannot activate window {self.facts.describe()}: {exc}") from None

    def close_connection(self) -> None:
        """Nothing to close: the library keeps no connection of ours."""


def find_library_window(
    query: WindowQuery, scale: tuple[float, float], library: ModuleType | None = None
) -> LibraryWindow | None:
    """The one window matching ``query`` as the window library sees it; None when no library can list windows.

    ``scale`` is the mouse's (pointer / captured) ratio.  None or several
    matching among listed windows raise the same one-line errors as on X11.
    """
    library = library if library is not None else load_library()
    if library is None:
        return None
    try:
        handles = list(library.getAllWindows())
    except Exception:
        return None
    if not handles:
        return None
    facts = [_facts(i, h, scale) for i, h in enumerate(handles)]
    chosen = pick_one(query, facts, f"the screen ({library.__name__})", f"{library.__name__} gives no pid")
    return LibraryWindow(handles[facts.index(chosen)], chosen, scale)
