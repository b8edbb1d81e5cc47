"""Ctrl-C is held while python-xlib waits for the server, and raised as soon as the wait is over."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
import weakref

import pytest

from autoplay.control.interrupts import inside, interrupts_outside
from autoplay.control.xserver import VirtualDisplay

#: Code that runs as if it were python-xlib's own: a wait that must not be cut short.
LIBRARY_WAIT = textwrap.dedent(
    """
    def wait(seconds, done):
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            time.sleep(0.005)
        done.append(True)
    """
)


def library_wait():
    scope = {"__name__": "Xlib.protocol.fake", "time": time}
    exec(LIBRARY_WAIT, scope)
    return scope["wait"]


def interrupt_after(seconds: float) -> None:
    threading.Timer(seconds, lambda: os.kill(os.getpid(), signal.SIGINT)).start()


def test_a_ctrl_c_inside_the_library_is_raised_when_its_call_returns():
    wait, done = library_wait(), []
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt), interrupts_outside(("Xlib",)):
        interrupt_after(0.1)
        wait(0.5, done)
        time.sleep(5)  # the held interrupt is raised here, at once
    assert done == [True]  # the library's call ran to its end
    assert 0.5 <= time.monotonic() - started < 1.5


def test_a_ctrl_c_while_a_finalizer_runs_is_raised_after_it_not_dropped():
    """Python prints and drops an exception raised in a finalizer: a Ctrl-C raised there was lost, and play went on."""
    finished = []

    def cleanup():  # a weakref.finalize callback, run by the collector in the middle of other code
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.1)
        finished.append(True)

    class Resource:
        pass

    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt), interrupts_outside(("Xlib",)):
        resource = Resource()
        weakref.finalize(resource, cleanup)
        del resource  # the finalizer runs here, and the Ctrl-C comes inside it
        time.sleep(5)  # the held interrupt is raised here, at once
    assert finished == [True]
    assert time.monotonic() - started < 1.5


def test_a_ctrl_c_outside_the_library_is_raised_at_once():
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt), interrupts_outside(("Xlib",)):
        interrupt_after(0.1)
        time.sleep(5)
    assert time.monotonic() - started < 1.0


def test_more_ctrl_cs_while_one_is_held_still_give_one_clean_stop():
    wait, done = library_wait(), []
    with pytest.raises(KeyboardInterrupt), interrupts_outside(("Xlib",)):
        for delay in (0.1, 0.2, 0.3):
            interrupt_after(delay)
        wait(0.5, done)
        time.sleep(5)
    assert done == [True]


def test_a_ctrl_c_held_when_the_block_ends_is_raised_there():
    wait, done = library_wait(), []
    with pytest.raises(KeyboardInterrupt), interrupts_outside(("Xlib",)):
        interrupt_after(0.05)
        wait(0.3, done)
        signal.setitimer(signal.ITIMER_REAL, 0)  # the recheck never comes: the block's end raises it
    assert done == [True]


def test_the_handlers_are_put_back():
    before = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGALRM)
    with interrupts_outside():
        assert signal.getsignal(signal.SIGINT) is not before[0]
    assert (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGALRM)) == before


def test_inside_looks_at_the_whole_stack():
    scope = {"__name__": "Xlib.display"}
    exec("import sys\ndef me(f):\n    return f(sys._getframe())", scope)
    assert scope["me"](lambda frame: inside(frame, ("Xlib",)))
    assert not inside(sys._getframe(), ("Xlib",))


#: A Ctrl-C while python-xlib waits for a reply (another client holds the server): then the same connection
#: must still answer. Unprotected, python-xlib leaves the connection marked busy and the sync never returns.
REPLY_WAIT = textwrap.dedent(
    """
    import os, signal, sys, threading, time
    from Xlib import display
    from autoplay.control.interrupts import interrupts_outside

    holder, ours = display.Display(), display.Display()
    holder.grab_server()
    holder.sync()
    threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT)).start()

    def release():
        time.sleep(1.0)
        holder.ungrab_server()
        holder.sync()

    threading.Thread(target=release, daemon=True).start()
    protect = sys.argv[1] == "protected"
    try:
        with interrupts_outside(("Xlib",) if protect else ("nothing",)):
            ours.screen().root.get_geometry()
            time.sleep(5)
    except KeyboardInterrupt:
        pass
    ours.sync()
    print("answered")
    """
)


@pytest.mark.e2e
@pytest.mark.parametrize(("mode", "answers"), [("protected", True), ("unprotected", False)])
def test_a_connection_interrupted_in_a_reply_wait_still_answers_only_when_protected(mode, answers):
    with VirtualDisplay(320, 240) as server:
        env = {**os.environ, "DISPLAY": server.name}
        try:
            run = subprocess.run(
                [sys.executable, "-c", REPLY_WAIT, mode], env=env, capture_output=True, text=True, timeout=6
            )
            answered = run.stdout.strip() == "answered"
        except subprocess.TimeoutExpired:
            answered = False
    assert answered == answers
