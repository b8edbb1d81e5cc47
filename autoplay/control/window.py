"""Finding a game's top-level window and noticing when it goes away or moves.

python-xlib is used instead of an EWMH library because headless Xvfb runs no
window manager, and those libraries list nothing without one.  A moved window is
reported separately from a vanished one: the first could be recovered from by
locating the board again, the second cannot.
"""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass, field
from typing import Any, Protocol

from autoplay.control.window_query import WindowFacts, WindowQuery, pick_one
from autoplay.errors import ControlError


class WindowGoneError(ControlError):
    """The window was closed or unmapped while we were playing."""


class WindowMovedError(ControlError):
    """The window's position or size changed, so every located coordinate is stale."""


def _open_display(display: str | None) -> Any:
    from Xlib import display as xdisplay
    from Xlib.error import DisplayError

    try:
        return xdisplay.Display(display)
    except (DisplayError, OSError, KeyError) as exc:
        raise ControlError(f"cannot open X display {display or '$DISPLAY'}: {exc}") from None


class Placed(Protocol):
    """Anything with a screen rectangle that can be updated: X11 windows and window-library windows."""

    x: int
    y: int
    width: int
    height: int


class GameWindow(Placed, Protocol):
    """What play and live calibration need of a game's window, whichever backend found it.

    An X11 :class:`Window`, a window-library window or the portable backend's screen area all qualify.
    """

    @property
    def rect(self) -> tuple[int, int, int, int]: ...

    def focus(self) -> None: ...


def follow_geometry(window: Placed, now: tuple[int, int, int, int]) -> None:
    """Store ``now`` as ``window``'s rectangle; WindowMovedError when it differs, since located cells are stale."""
    old = (window.x, window.y, window.width, window.height)
    if now != old:
        window.x, window.y, window.width, window.height = now
        raise WindowMovedError(f"window moved or resized from {old} to {now}")


@dataclass
class Window:
    """A top-level X window with its geometry in screen (root) coordinates."""

    id: int
    x: int
    y: int
    width: int
    height: int
    display: str | None = None
    wm_class: tuple[str, ...] = ()
    title: str = ""
    pid: int | None = None
    titles: tuple[str, ...] = ()
    _conn: Any = field(default=None, repr=False, compare=False)

    @property
    def rect(self) -> tuple[int, int, int, int]:
        """``(left, top, width, height)`` on screen."""
        return self.x, self.y, self.width, self.height

    def facts(self) -> WindowFacts:
        """This window as the backend-independent matcher sees it."""
        return WindowFacts(hex(self.id), self.rect, self.wm_class, self.titles or (self.title,), self.pid)

    def _connection(self) -> Any:
        if self._conn is None:
            self._conn = _open_display(self.display)
        return self._conn

    def current_geometry(self) -> tuple[int, int, int, int]:
        """Ask the X server where the window is now; WindowGoneError if it no longer exists or is unmapped."""
        from Xlib import X
        from Xlib.error import BadDrawable, BadWindow, XError

        conn = self._connection()
        try:
            win = conn.create_resource_object("window", self.id)
            if win.get_attributes().map_state != X.IsViewable:
                raise WindowGoneError(f"window {self.title or hex(self.id)} is no longer shown")
            geom = win.get_geometry()
            pos = win.translate_coords(conn.screen().root, 0, 0)
        except (BadWindow, BadDrawable):
            raise WindowGoneError(f"window {self.title or hex(self.id)} was closed") from None
        except XError as exc:
            raise WindowGoneError(f"window {self.title or hex(self.id)} is gone ({exc})") from None
        return -pos.x, -pos.y, geom.width, geom.height

    def refresh(self) -> Window:
        """Check the window is still where we located it; raise WindowGoneError / WindowMovedError if not."""
        follow_geometry(self, self.current_geometry())
        return self

    def focus(self) -> None:
        """Give the window keyboard focus: gnome-mines pauses and hides its board while unfocused."""
        from Xlib import X
        from Xlib.error import XError

        conn = self._connection()
        try:
            win = conn.create_resource_object("window", self.id)
            win.set_input_focus(X.RevertToParent, X.CurrentTime)
            conn.sync()
        except XError as exc:
            raise WindowGoneError(f"cannot focus window {hex(self.id)}: {exc}") from None

    def close_connection(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.close()


def _decode_title(raw: Any) -> str:
    if raw is None:
        return ""
    if isinstance(raw, bytes):
        # xdemineur sets a Latin-1 title; UTF-8 titles decode either way for ASCII.
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            return raw.decode("latin-1")
    return str(raw)


def _titles_of(conn: Any, win: Any) -> tuple[str, ...]:
    """_NET_WM_NAME then WM_NAME, each when set: a window may carry only one, or two that differ."""
    titles = []
    for atom in ("_NET_WM_NAME", "WM_NAME"):
        prop = win.get_full_property(conn.intern_atom(atom), 0)
        title = _decode_title(prop.value) if prop is not None else ""
        if title and title not in titles:
            titles.append(title)
    return tuple(titles)


def _net_wm_pid(conn: Any, win: Any) -> int | None:
    prop = win.get_full_property(conn.intern_atom("_NET_WM_PID"), 0)
    if prop is None or not len(prop.value):
        return None
    return int(prop.value[0])


def _client_pid(conn: Any, window_id: int) -> int | None:
    """The pid of the X client that created ``window_id``, from the X-Resource extension (local clients only)."""
    from Xlib.error import XError
    from Xlib.ext import res

    try:
        reply = conn.res_query_client_ids([{"client": window_id, "mask": res.LocalClientPIDMask}])
    except XError:
        return None
    for entry in reply.ids:
        if entry.spec.mask == res.LocalClientPIDMask and entry.value:
            return int(entry.value[0])
    return None


#: Why a pid can be unknown, for the "no window with pid N" message.
PIDS_NOTE = "some windows have no _NET_WM_PID and the X server has no X-Resource extension to ask"


def _named_window(conn: Any, win: Any) -> tuple[Any, tuple[str, ...]] | None:
    """The application's window in ``win``'s subtree: the shallowest mapped one with WM_CLASS, else the
    shallowest with a title or _NET_WM_PID (clones that set no WM_CLASS); None if nothing in it is named.

    Descending matters when a window manager reparents clients into frames.
    """
    from Xlib import X

    fallback = None
    level = [win]
    while level:
        below = []
        for node in level:
            if node.get_attributes().map_state != X.IsViewable:
                continue
            wm_class = node.get_wm_class()
            if wm_class:
                return node, tuple(wm_class)
            if fallback is None and (_titles_of(conn, node) or _net_wm_pid(conn, node) is not None):
                fallback = node
            below.extend(node.query_tree().children)
        level = below
    return None if fallback is None else (fallback, ())


def list_windows(display: str | None) -> list[Window]:
    """Every mapped application window, with or without WM_CLASS, in stacking order (the topmost last).

    A top-level window counts when it, or a window inside it, has a WM_CLASS,
    a title (WM_NAME or _NET_WM_NAME) or a _NET_WM_PID; its pid comes from
    _NET_WM_PID, else from the X-Resource extension when the server has it.
    """
    from Xlib.error import XError

    conn = _open_display(display)
    found: list[Window] = []
    try:
        root = conn.screen().root
        xres = conn.has_extension("X-Resource")
        for top in root.query_tree().children:
            try:
                named = _named_window(conn, top)
                if named is None:
                    continue
                win, wm_class = named
                geom = win.get_geometry()
                pos = win.translate_coords(root, 0, 0)
                titles = _titles_of(conn, win)
                pid = _net_wm_pid(conn, win)
            except XError:
                continue  # closed while we looked
            if pid is None and xres:
                pid = _client_pid(conn, win.id)
            found.append(
                Window(
                    win.id,
                    -pos.x,
                    -pos.y,
                    geom.width,
                    geom.height,
                    display,
                    wm_class,
                    titles[0] if titles else "",
                    pid=pid,
                    titles=titles,
                )
            )
    finally:
        conn.close()
    return found


def find_window(
    display: str | None,
    wm_class: str | None = None,
    title: str | None = None,
    timeout: float = 0.0,
    pid: int | None = None,
) -> Window:
    """The one mapped window whose WM_CLASS equals ``wm_class`` (either part), one of whose titles contains
    ``title`` (case-insensitive) and whose process is ``pid`` — every criterion given must hold.

    ``timeout`` keeps looking while a freshly launched game maps its window.
    None or several matching raise NoWindowError / AmbiguousWindowError, whose
    one-line message lists the candidates.
    """
    query = WindowQuery(wm_class, title, pid)
    where = f"display {display or '$DISPLAY'}"
    deadline = time.monotonic() + timeout
    while True:
        windows = list_windows(display)
        try:
            chosen = pick_one(query, [w.facts() for w in windows], where, PIDS_NOTE)
        except ControlError:
            if time.monotonic() >= deadline:
                raise
            time.sleep(0.05)
            continue
        return next(w for w in windows if w.facts().ident == chosen.ident)
