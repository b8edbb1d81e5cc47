"""Ctrl-C that never lands inside python-xlib: a connection it interrupts would hang the cleanup that follows.

python-xlib marks a connection busy while it waits for the server's reply and clears the mark only when the
wait ends normally. A KeyboardInterrupt raised inside that wait leaves the mark set, and the next request on
the connection (the ungrab, the button release and the close that every ``finally`` sends) waits for it
forever: ``play`` then never ends after Ctrl-C. Here SIGINT is turned into a KeyboardInterrupt only where the
main thread is outside the protected libraries; inside one, it is held and raised as soon as the call has
returned (checked every :data:`RECHECK` seconds with a timer signal); so is one that comes while a finalizer runs,
where Python would drop it. Every wait of autoplay's own on an X
connection has a time limit, so the delay is bounded by the slowest single request.

>>> import signal
>>> with interrupts_outside(("Xlib",)):
...     signal.getsignal(signal.SIGINT).__name__
'on_interrupt'
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

#: Libraries whose own state an exception raised inside them would corrupt.
PROTECTED = ("Xlib",)

#: Seconds between looks at whether a held Ctrl-C can be raised yet.
RECHECK = 0.02
#: Where Python drops an exception after printing it: a finalizer that the garbage collector runs in the middle of
#: any code (a ``weakref.finalize`` callback, a ``__del__``).  A Ctrl-C raised there was lost, and a CI run's ``play``
#: went on for its 50 games ("Exception ignored in: <finalize object ...> KeyboardInterrupt").
FINALIZERS = ("weakref",)


def inside(frame: FrameType | None, prefixes: tuple[str, ...]) -> bool:
    """Is any frame of this stack running code of a module whose name starts with one of ``prefixes``?"""
    while frame is not None:
        if str(frame.f_globals.get("__name__", "")).startswith(prefixes):
            return True
        frame = frame.f_back
    return False


def in_finalizer(frame: FrameType | None) -> bool:
    """Is this stack inside a finalizer, where an exception raised is printed and dropped (see :data:`FINALIZERS`)?"""
    while frame is not None:
        if frame.f_code.co_name == "__del__" or str(frame.f_globals.get("__name__", "")).startswith(FINALIZERS):
            return True
        frame = frame.f_back
    return False


@contextmanager
def interrupts_outside(prefixes: tuple[str, ...] = PROTECTED) -> Iterator[None]:
    """Within the block, a Ctrl-C (SIGINT) is raised as KeyboardInterrupt only outside ``prefixes``' code.

    More Ctrl-Cs while one is held change nothing: a user who presses twice still gets a clean stop. Off the
    main thread (where Python allows no signal handlers) and where there is no interval timer (Windows), the
    block changes nothing. A Ctrl-C still held when the block ends is raised there.
    """
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield
        return
    held = False

    def raise_when_outside(frame: FrameType | None) -> None:
        nonlocal held
        if inside(frame, prefixes) or in_finalizer(frame):
            held = True
            signal.setitimer(signal.ITIMER_REAL, RECHECK)
            return
        held = False
        raise KeyboardInterrupt

    def on_interrupt(_signum: int, frame: FrameType | None) -> None:
        if not held:
            raise_when_outside(frame)

    def on_timer(_signum: int, frame: FrameType | None) -> None:
        if held:
            raise_when_outside(frame)

    previous_int = signal.signal(signal.SIGINT, on_interrupt)
    previous_alarm = signal.signal(signal.SIGALRM, on_timer)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous_alarm)
        signal.signal(signal.SIGINT, previous_int)
    if held:
        raise KeyboardInterrupt
