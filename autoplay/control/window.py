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
from typing import Any

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
    _conn: Any = field(default=None, repr=False, compare=False)

    @property
    def rect(self) -> tuple[int, int, int, int]:
        """``(left, top, width, height)`` on screen."""
        return self.x, self.y, self.width, self.height

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
        now = self.current_geometry()
        if now != self.rect:
            old = self.rect
            self.x, self.y, self.width, self.height = now
            raise WindowMovedError(f"window moved or resized from {old} to {now}")
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


def _title_of(conn: Any, win: Any) -> str:
    try:
        net_name = win.get_full_property(conn.intern_atom("_NET_WM_NAME"), 0)
        if net_name is not None and net_name.value:
            return _decode_title(net_name.value)
        name = win.get_full_property(conn.intern_atom("WM_NAME"), 0)
        return _decode_title(name.value) if name is not None else ""
    except Exception:
        return ""


def list_windows(display: str | None) -> list[Window]:
    """Every mapped window that has a WM_CLASS, in stacking order (the topmost last)."""
    from Xlib import X
    from Xlib.error import XError

    conn = _open_display(display)
    found: list[Window] = []
    try:
        root = conn.screen().root
        stack = list(root.query_tree().children)
        while stack:
            win = stack.pop(0)
            try:
                if win.get_attributes().map_state != X.IsViewable:
                    continue
                wm_class = win.get_wm_class()
                if not wm_class:
                    stack.extend(win.query_tree().children)
                    continue
                geom = win.get_geometry()
                pos = win.translate_coords(root, 0, 0)
            except XError:
                continue
            found.append(
                Window(win.id, -pos.x, -pos.y, geom.width, geom.height, display, tuple(wm_class), _title_of(conn, win))
            )
    finally:
        conn.close()
    return found


def _matches(win: Window, wm_class: str | None, title: str | None) -> bool:
    # The instance part is argv[0] (xdemineur reports "/usr/games/xdemineur"), so compare its base name too.
    names = {c.lower() for c in win.wm_class} | {c.rsplit("/", 1)[-1].lower() for c in win.wm_class}
    if wm_class and wm_class.lower() not in names:
        return False
    return not (title and title.lower() not in win.title.lower())


def find_window(
    display: str | None, wm_class: str | None = None, title: str | None = None, timeout: float = 0.0
) -> Window:
    """The largest mapped window whose WM_CLASS equals ``wm_class`` (either part) and whose title contains ``title``.

    ``timeout`` keeps looking while a freshly launched game maps its window.
    """
    deadline = time.monotonic() + timeout
    while True:
        candidates = [w for w in list_windows(display) if _matches(w, wm_class, title)]
        if candidates:
            return max(candidates, key=lambda w: w.width * w.height)
        if time.monotonic() >= deadline:
            wanted = " and ".join(x for x in (wm_class and f"class {wm_class!r}", title and f"title {title!r}") if x)
            raise ControlError(f"no window with {wanted or 'a WM_CLASS'} on display {display or '$DISPLAY'}")
        time.sleep(0.05)
