"""What the user asked for when naming a game window, and how a found window is compared with it.

Every backend that lists windows (X11 through python-xlib, or a cross-platform
window library) turns each window into a :class:`WindowFacts` and asks the same
:class:`WindowQuery`, so ``--window-class``, ``--window-title`` and ``--pid``
mean the same thing everywhere, and the error that names the candidates reads
the same whichever backend produced it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from autoplay.errors import ControlError

#: How many candidate windows an error message names before it says "and N more".
SHOWN_CANDIDATES = 8


class NoWindowError(ControlError):
    """No window matches the query (exit code 4)."""


class AmbiguousWindowError(ControlError):
    """Several windows match the query and nothing says which one is the game (exit code 4)."""

    def __init__(self, message: str, matches: Sequence[WindowFacts]) -> None:
        super().__init__(message)
        self.matches = list(matches)


@dataclass(frozen=True)
class WindowFacts:
    """What a backend knows about one window: enough to match it and to name it in a message.

    ``classes`` are the class names (X11: both parts of WM_CLASS; a window
    library: the application's name); ``titles`` every title the window
    carries (X11: WM_NAME and _NET_WM_NAME, which can differ); ``pid`` is None
    when the backend cannot tell.  ``rect`` is ``(left, top, width, height)``.
    """

    ident: str
    rect: tuple[int, int, int, int]
    classes: tuple[str, ...] = ()
    titles: tuple[str, ...] = ()
    pid: int | None = None

    def describe(self) -> str:
        """``0x600007 'Mines' (class gnome-mines, pid 14648) 1060x706+0+0`` — one window, one short phrase."""
        title = next((t for t in self.titles if t), "")
        about = [f"class {self.classes[0]}" if self.classes else "no class", f"pid {self.pid or '?'}"]
        x, y, w, h = self.rect
        named = f" {title!r}" if title else " (no title)"
        return f"{self.ident}{named} ({', '.join(about)}) {w}x{h}{x:+d}{y:+d}"


def _class_names(classes: Sequence[str]) -> set[str]:
    # X11's instance part is argv[0] (xdemineur reports "/usr/games/xdemineur"); Windows apps end in ".exe".
    names = set()
    for name in classes:
        base = name.rsplit("/", 1)[-1].rsplit("\\", 1)[-1]
        names |= {name.lower(), base.lower(), base.lower().removesuffix(".exe")}
    return names


@dataclass(frozen=True)
class WindowQuery:
    """The window the user means: every criterion given must hold (class exactly, title as a substring, pid)."""

    wm_class: str | None = None
    title: str | None = None
    pid: int | None = None

    def __bool__(self) -> bool:
        return bool(self.wm_class or self.title or self.pid is not None)

    def matches(self, window: WindowFacts) -> bool:
        """Class equal to either part (case-insensitive), title contained in any of its titles, pid equal."""
        if self.wm_class and self.wm_class.lower() not in _class_names(window.classes):
            return False
        if self.title and not any(self.title.lower() in t.lower() for t in window.titles):
            return False
        return self.pid is None or window.pid == self.pid

    def describe(self) -> str:
        """``class 'gnome-mines' and title containing 'Mines'``; what the query asks, for messages."""
        parts = [
            self.wm_class and f"class {self.wm_class!r}",
            self.title and f"title containing {self.title!r}",
            self.pid is not None and f"pid {self.pid}",
        ]
        return " and ".join(p for p in parts if p) or "no criteria"


def describe_windows(windows: Sequence[WindowFacts]) -> str:
    """The candidates as one line: ``0x1 'A' (...) ..., 0x2 ... and 3 more``, or ``none`` if there are none."""
    if not windows:
        return "none"
    shown = "; ".join(w.describe() for w in windows[:SHOWN_CANDIDATES])
    more = len(windows) - SHOWN_CANDIDATES
    return shown + (f"; and {more} more" if more > 0 else "")


def pick_one(query: WindowQuery, windows: Sequence[WindowFacts], where: str, pids_note: str = "") -> WindowFacts:
    """The single window matching ``query``; NoWindowError / AmbiguousWindowError (one line, with candidates) if not.

    ``where`` names the place looked in (``display :3``); ``pids_note`` explains
    why some pids are unknown when the query asks for one.
    """
    if not query:
        raise NoWindowError("no window named: pass --window-class, --window-title or --pid")
    matching = [w for w in windows if query.matches(w)]
    if len(matching) == 1:
        return matching[0]
    if matching:
        raise AmbiguousWindowError(
            f"{len(matching)} windows with {query.describe()} on {where}: {describe_windows(matching)}; "
            "name one with --window-title or --pid",
            matching,
        )
    note = ""
    if query.pid is not None and pids_note and any(w.pid is None for w in windows):
        note = f" ({pids_note})"
    raise NoWindowError(
        f"no window with {query.describe()} on {where}{note}; windows there: {describe_windows(windows)}"
    )
