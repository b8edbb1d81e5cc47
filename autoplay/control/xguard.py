"""The click guard and the pointer on X11, sharing one connection so a check and its clicks are one act.

The X server knows the truth the last frame may not: where the game window is
now, whether it is still mapped, and which windows lie above it (the root's
children come in stacking order, bottom first; no window manager is needed).
:meth:`X11Guard.holding` grabs the server, checks, and keeps the grab while the
batch is clicked through XTEST on the same connection: no other client's
request (a window mapped over the board, a window moved) is processed between
the check and the last button release, so a press cannot reach a window that
appeared after the check.  The grab lasts about a millisecond per batch.

The one thing a grab cannot hold off is the game's death: the server destroys a
dead client's windows even while another client grabs it.  A press made then
lands on :mod:`autoplay.control.xbackstop`'s window, autoplay's own, kept just
below the game's (inside a window manager's frame, when there is one), which is
put back in place inside every grab before the press and read after every click.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from autoplay.control.guard import (
    BoardCovered,
    GameNotResponding,
    Rect,
    WindowClosed,
    WindowMoved,
    change_message,
    intersects,
)
from autoplay.control.xbackstop import Backstop
from autoplay.control.xserver import XConnection
from autoplay.errors import ControlError

#: X button numbers of the buttons the bot uses.
BUTTONS = {"left": 1, "middle": 2, "right": 3}


def _closed_errors() -> tuple[type[Exception], ...]:
    from Xlib.error import BadDrawable, BadMatch, BadWindow

    return BadWindow, BadDrawable, BadMatch


class X11Guard:
    """Guards clicks on one top-level window located at ``expected`` (screen pixels)."""

    def __init__(self, xconn: XConnection, window_id: int, expected: Rect, title: str = "") -> None:
        self.x = xconn
        self.window_id = window_id
        self.expected = expected
        self.title = title
        self._top: int | None = None  # the root's child that holds the window (itself, or a manager's frame)
        self._board: Rect | None = None  # the board rectangle of the batch being held
        self._below_top: int | None = None  # the root child found directly below ``_top`` by the last check
        self._inside: tuple[int, int] = (0, 0)  # the game window's inside corner in its parent's pixels
        self.backstop = Backstop(xconn)

    # -- the check ---------------------------------------------------------------
    def check_clear(self, board: Rect) -> None:
        self._checked(board, pointer=False)

    def _checked(self, board: Rect, pointer: bool) -> tuple[int, int] | None:
        """:meth:`check_clear`, and with ``pointer`` where the pointer is, asked in the same round trip."""
        from Xlib.error import ConnectionClosedError, XError

        try:
            seen = self._check(board, pointer)  # its last request has a reply: the errors of all before it are in
            errors = self.x.errors_answered()
        except _closed_errors():
            raise WindowClosed("the window was closed") from None
        except ConnectionClosedError:
            raise WindowClosed("the X server closed the connection (was the display shut down?)") from None
        except XError as exc:
            raise WindowClosed(f"the window cannot be queried any more ({type(exc).__name__})") from None
        if errors:
            raise WindowClosed(f"the window was closed ({type(errors[0]).__name__})")
        return seen

    def _check(self, board: Rect, pointer: bool) -> tuple[int, int] | None:
        """The window's state, place and cover, each question sent before any answer is awaited.

        A press waits on every round trip to the server, and each one queues behind the game's drawing: the
        four questions about the window, the stacking order and the pointer go out together and cost one.
        """
        from Xlib import X
        from Xlib.protocol import request

        conn, root = self.x.conn, self.x.root
        wid, ask = self.window_id, conn.display
        window = conn.create_resource_object("window", wid)
        attributes = request.GetWindowAttributes(display=ask, defer=True, window=wid)
        origin = request.TranslateCoords(display=ask, defer=True, src_wid=root, dst_wid=wid, src_x=0, src_y=0)
        geometry = request.GetGeometry(display=ask, defer=True, drawable=wid)
        tree = request.QueryTree(display=ask, defer=True, window=root)
        where = request.QueryPointer(display=ask, defer=True, window=root) if pointer else None
        for question in (attributes, origin, geometry, tree) + ((where,) if where is not None else ()):
            question.reply()
        if attributes.map_state != X.IsViewable:
            raise WindowClosed("the window was hidden (unmapped)")
        now = (-origin.x, -origin.y, geometry.width, geometry.height)
        if now != self.expected:
            raise WindowMoved(change_message(self.expected, now))
        self._inside = (geometry.x + geometry.border_width, geometry.y + geometry.border_width)
        children = tree.children
        ids = [child.id for child in children]
        if self._top not in ids:
            self._top = self._top_level(window)
        place = ids.index(self._top)
        self._below_top = ids[place - 1] if place else None
        above = [child for child in children[place + 1 :] if child.id != self.backstop.id]
        # the backstop is our own, lifted by a restack of the game below it: put back under the game before a press
        asked = [
            (
                child,
                request.GetWindowAttributes(display=ask, defer=True, window=child.id),
                request.GetGeometry(display=ask, defer=True, drawable=child.id),
            )
            for child in above
        ]
        for child, child_attributes, child_geometry in asked:
            try:
                child_attributes.reply()
                child_geometry.reply()
            except _closed_errors():
                continue  # destroyed since the tree was read (a dialog closing): it covers nothing
            if child_attributes.map_state != X.IsViewable:
                continue
            g, border = child_geometry, 2 * child_geometry.border_width
            if intersects((g.x, g.y, g.width + border, g.height + border), board):
                client = self._client(child)
                raise BoardCovered(
                    f"the board is covered by window {self._name(child)!r}",
                    cover=int(client.id),
                    own=self._is_own(client, window),
                )
        return None if where is None else (int(where.root_x), int(where.root_y))

    def _top_level(self, window: Any) -> int:
        """The root's child that contains ``window`` (a window manager puts a frame around it)."""
        current = window
        while True:
            parent = current.query_tree().parent
            if parent is None or parent.id == self.x.root.id:
                return int(current.id)
            current = parent

    def _name(self, window: Any) -> str:
        """A covering window's title or class, looking into its children too (a manager's frame has none)."""
        from Xlib.error import XError

        for current in _descendants(window):
            try:
                name = current.get_wm_name()
                wm_class = current.get_wm_class()
            except XError:
                continue
            if name:
                return name.decode("latin-1") if isinstance(name, bytes) else str(name)
            if wm_class:
                return str(wm_class[0])
        return hex(window.id)

    def check_under_pointer(self) -> None:
        """Is the game's window (its top-level frame) what the pointer is over, right before a press?

        The grab keeps other clients' requests out, but not a client's death: a game killed a moment before is
        found dead when the server next writes to it (our own pointer motion can do that), and its window goes
        while the grab holds. A press then would land on whatever lies below (it once did, on the root).
        """
        from Xlib.error import ConnectionClosedError, XError

        try:
            child = self.x.root.query_pointer().child
            errors = self.x.errors_answered()  # answered after every earlier request
        except (XError, ConnectionClosedError):
            raise WindowClosed("the window was closed") from None
        if errors:
            raise WindowClosed("the window was closed")
        if child is None or int(child.id) != self._top:
            if self._board is not None:
                self.check_clear(self._board)  # names what happened (closed, moved, covered) when it can
            name = self._name(child) if child is not None else "the root window"
            raise BoardCovered(f"the press would land on {name!r}, not on the game", cover=None, own=False)

    # -- check and act as one ------------------------------------------------------
    @contextlib.contextmanager
    def holding(self, board: Rect) -> Iterator[tuple[int, int] | None]:
        """Grab the server, check, and hold the grab until the block's clicks have been processed.

        Yields where the pointer is, read with the check (inside the grab no other client can move it).
        """
        conn = self.x.conn
        try:  # the grab inside: a Ctrl-C right after it still reaches the ungrab (a grab left held blocks others)
            conn.grab_server()
            seen = self._checked(board, pointer=True)
            self._place_backstop(board)
            self._board = board
            yield seen  # no sync after it: the server processes the ungrab after the block's presses, in order
        finally:
            with contextlib.suppress(Exception):
                conn.ungrab_server()
                conn.flush()

    def _place_backstop(self, board: Rect) -> None:
        """Put the backstop just below the game's window, over ``board``, before any press of the batch."""
        from Xlib.error import ConnectionClosedError, XError

        if self._top is None:
            return
        try:
            if self._top == self.window_id:  # no window manager: the game's window is the root's child
                parent, below = self.x.root, self._below_top
            else:  # under the manager's frame, beside the game's window: the frame outlives a dead game
                parent = self.x.conn.create_resource_object("window", self.window_id).query_tree().parent
                siblings = [int(child.id) for child in parent.query_tree().children]
                place = siblings.index(self.window_id)
                below = siblings[place - 1] if place else None
            # the board in the parent's pixels: the game's inside corner is at self.expected on the screen
            dx, dy = self.expected[0] - self._inside[0], self.expected[1] - self._inside[1]
            rect = (board[0] - dx, board[1] - dy, board[2], board[3])
            if not self.backstop.place(parent, self.window_id, below, rect):
                return
            errors = self.x.sync_errors()
        except (ValueError, XError, ConnectionClosedError):
            raise WindowClosed("the window was closed") from None
        if errors:  # the game's top-level window went since the check: only its death can do that in a grab
            raise WindowClosed("the window was closed")

    def check_backstop(self) -> None:
        """After a click: did its press fall through a vanished game onto our backstop?  Then stop, naming why."""
        from Xlib.error import ConnectionClosedError, XError

        try:
            struck = self.backstop.struck()
        except (XError, ConnectionClosedError):
            raise WindowClosed("the X server closed the connection (was the display shut down?)") from None
        if not struck:
            return
        if self._board is not None:
            self.check_clear(self._board)  # names what happened (closed, moved) when it can
        raise WindowClosed("the window was closed (a press fell through to autoplay's own window below it)")

    def focus(self) -> None:
        from Xlib import X
        from Xlib.error import XError

        try:
            window = self.x.conn.create_resource_object("window", self.window_id)
            window.set_input_focus(X.RevertToParent, X.CurrentTime)
            errors = self.x.sync_errors()
        except XError:
            errors = [WindowClosed("")]
        if errors:
            raise WindowClosed("the window was closed")

    def caught_up(self, timeout: float) -> float | None:
        """The game's answer to a ``_NET_WM_PING`` (see :mod:`autoplay.control.xping`): seconds, or None."""
        from Xlib.error import XError

        from autoplay.control.xping import NoAnswer, WindowGone, ping

        try:
            return ping(self.x.name, self.window_id, timeout)
        except NoAnswer as exc:
            raise GameNotResponding(str(exc)) from None
        except (XError, WindowGone):
            raise WindowClosed("the window was closed") from None

    def dismiss(self, cover: BoardCovered, timeout: float = 2.0, attempts: int = 3) -> bool:
        """Give the game's own covering dialog the focus, press Escape, and wait for it to go.

        A game short of CPU may not have read the key (or given the dialog the focus) within ``timeout``: the
        key is pressed again, at most ``attempts`` times, each only while the dialog is still shown.
        """
        import time

        from Xlib import XK, X
        from Xlib.error import XError
        from Xlib.ext import xtest

        if not cover.own or cover.cover is None:
            return False
        conn = self.x.conn
        try:
            dialog = conn.create_resource_object("window", cover.cover)
            code = conn.keysym_to_keycode(XK.string_to_keysym("Escape"))
            for _ in range(attempts):
                dialog.set_input_focus(X.RevertToParent, X.CurrentTime)
                for kind in (X.KeyPress, X.KeyRelease):
                    xtest.fake_input(conn, kind, code)
                    conn.sync()
                deadline = time.monotonic() + timeout
                while time.monotonic() < deadline and dialog.get_attributes().map_state == X.IsViewable:
                    time.sleep(0.05)
                if dialog.get_attributes().map_state != X.IsViewable:
                    break
            else:
                return False
        except XError:
            pass  # destroyed while we looked: gone
        self.x.sync_errors()
        self.focus()
        return True

    def _client(self, top: Any) -> Any:
        """The window with a WM_CLASS inside a root child (the child itself without a window manager)."""
        from Xlib.error import XError

        for current in _descendants(top):
            try:
                if current.get_wm_class():
                    return current
            except XError:
                continue
        return top

    def _is_own(self, client: Any, game: Any) -> bool:
        """Is ``client`` a window of the game: transient for its window, or of the same process?"""
        from Xlib import Xatom
        from Xlib.error import XError

        try:
            transient = client.get_full_property(self.x.conn.intern_atom("WM_TRANSIENT_FOR"), Xatom.WINDOW)
            if transient is not None and self.window_id in list(transient.value):
                return True
            pid_atom = self.x.conn.intern_atom("_NET_WM_PID")
            theirs = client.get_full_property(pid_atom, Xatom.CARDINAL)
            ours = game.get_full_property(pid_atom, Xatom.CARDINAL)
        except XError:
            return False
        return theirs is not None and ours is not None and list(theirs.value) == list(ours.value)

    def close(self) -> None:
        self.backstop.remove()
        self.x.close()


def _descendants(window: Any, limit: int = 20) -> Iterator[Any]:
    """``window`` and the windows below it, breadth first, at most ``limit`` (a manager's frame holds the client)."""
    from Xlib.error import XError

    queue = [window]
    for _ in range(limit):
        if not queue:
            return
        current = queue.pop(0)
        yield current
        try:
            queue.extend(current.query_tree().children)
        except XError:
            continue


class XTestPointer:
    """The pointer through XTEST on the guard's connection, so clicks made inside ``holding`` are not blocked.

    Keys go through pyautogui (keysym tables), outside any grab; pyautogui's
    fail-safe (pointer in a screen corner) is asked before every batch.
    """

    def __init__(self, xconn: XConnection, keys: Any, guard: X11Guard | None = None) -> None:
        self.x = xconn
        self.keys = keys
        self.guard = guard  # asked, between the pointer's arrival and the press, that the press lands on the game
        self.gap = PressGap.from_env()

    def position(self) -> tuple[int, int]:
        pointer = self.x.root.query_pointer()
        return int(pointer.root_x), int(pointer.root_y)

    def move(self, x: int, y: int) -> None:
        from Xlib import X
        from Xlib.ext import xtest

        xtest.fake_input(self.x.conn, X.MotionNotify, x=x, y=y)
        self.x.conn.sync()

    def move_and_report(self, x: int, y: int) -> tuple[int, int]:
        """:meth:`move`, then :meth:`position`: the question is answered once the move was processed, in one round trip."""
        from Xlib import X
        from Xlib.ext import xtest

        xtest.fake_input(self.x.conn, X.MotionNotify, x=x, y=y)
        return self.position()

    def click(self, x: int, y: int, button: str) -> None:
        from Xlib import X
        from Xlib.ext import xtest

        # Each step is processed by the server before the next is sent, as pyautogui paces them: a game sees the
        # pointer arrive, then the press, then the release, never three events with one timestamp.
        # With a guard, the motion needs no sync of its own: the guard's pointer question right after it is answered
        # only once the server has processed the motion.
        number = BUTTONS[button]
        for kind, detail in ((X.MotionNotify, 0), (X.ButtonPress, number), (X.ButtonRelease, number)):
            if kind == X.MotionNotify:
                xtest.fake_input(self.x.conn, kind, x=x, y=y)
                if self.guard is not None:
                    continue
            else:
                if kind == X.ButtonPress and self.guard is not None:
                    self.guard.check_under_pointer()
                    self.gap.wait()
                xtest.fake_input(self.x.conn, kind, detail)
            self.x.conn.sync()
        if self.guard is not None:
            self.guard.check_backstop()

    def hotkey(self, *keys: str) -> None:
        self.keys.hotkey(*keys)

    def size(self) -> tuple[int, int]:
        screen = self.x.conn.screen()
        return int(screen.width_in_pixels), int(screen.height_in_pixels)

    def failsafe_check(self) -> None:
        self.keys.failsafe_check()


class PressGap:
    """A test hook: a pause between the last check and the press, so a fault test can kill the game inside it.

    Set only by tests, through ``AUTOPLAY_TEST_PRESS_GAP`` (seconds) and ``AUTOPLAY_TEST_PRESS_GAP_MARK`` (a file
    to which ``begin N`` and ``end N`` lines are appended around the N-th pause, so the test knows when to strike
    and can tell afterwards that it struck inside).  Unset, it costs one attribute test per press.
    """

    def __init__(self, seconds: float = 0.0, mark: Path | None = None) -> None:
        self.seconds, self.mark, self.count = seconds, mark, 0

    @classmethod
    def from_env(cls) -> PressGap:
        try:
            seconds = float(os.environ.get("AUTOPLAY_TEST_PRESS_GAP", "0") or 0)
        except ValueError:
            seconds = 0.0
        mark = os.environ.get("AUTOPLAY_TEST_PRESS_GAP_MARK")
        return cls(max(seconds, 0.0), Path(mark) if mark else None)

    def _note(self, word: str) -> None:
        if self.mark is not None:
            with self.mark.open("a", encoding="utf-8") as file:
                file.write(f"{word} {self.count}\n")

    def wait(self) -> None:
        if self.seconds <= 0:
            return
        self.count += 1
        self._note("begin")
        time.sleep(self.seconds)
        self._note("end")


def connect_x11(display: str | None, window_id: int, expected: Rect, title: str, keys: Any) -> tuple[X11Guard, Any]:
    """The guard and the pointer for one window, on one fresh connection with XTEST."""
    xconn = XConnection(display)
    if not xconn.conn.has_extension("XTEST"):
        xconn.close()
        raise ControlError(f"the X server on {display or '$DISPLAY'} has no XTEST extension to click with")
    guard = X11Guard(xconn, window_id, expected, title)
    return guard, XTestPointer(xconn, keys, guard)
