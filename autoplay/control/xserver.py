"""A private Xvfb display, so games and tests never touch the user's screen.

The display number is chosen by Xvfb itself (``-displayfd``) instead of guessed,
which avoids races between parallel test runs on one machine.
"""

from __future__ import annotations

import contextlib
import os
import select
import shutil
import subprocess
import tempfile
import time
from typing import IO

from autoplay.errors import ControlError

#: How long Xvfb may take to announce its display (it usually needs ~75 ms).
START_TIMEOUT = 10.0

#: Servers started before giving up on one that announces a display and then refuses clients.
START_ATTEMPTS = 3


class VirtualDisplay:
    """An Xvfb server for the lifetime of a ``with`` block; ``.name`` is the ``:N`` to pass as DISPLAY.

    Nothing global is changed: callers hand ``.name`` to the processes and
    functions that need it.
    """

    def __init__(self, width: int = 1280, height: int = 1024, depth: int = 24, options: tuple[str, ...] = ()) -> None:
        self.width, self.height, self.depth = width, height, depth
        self.options = options  # more Xvfb arguments, e.g. ("-extension", "Composite") for a server without it
        self.name: str = ""
        self._process: subprocess.Popen[bytes] | None = None
        self._log: IO[bytes] | None = None  # Xvfb's stderr, for the error that says why it would not serve

    def start(self) -> VirtualDisplay:
        """Start Xvfb and return once a client can connect to it.

        A display is proven by a real connection before it is handed out, and a server that refuses it is
        replaced (at most :data:`START_ATTEMPTS` times); the error then carries Xvfb's own last line. The server
        runs with ``-noreset``: by default Xvfb resets whenever its last client disconnects, and a client that
        connects during the reset is refused ("cannot open display", "connection reset by peer"), which a
        loaded test run met between one short-lived client (a capture, a window query) and the next.
        """
        binary = shutil.which("Xvfb")
        if binary is None:
            raise ControlError("Xvfb is not installed (Debian package: xvfb)")
        for attempt in range(1, START_ATTEMPTS + 1):
            self._launch(binary)
            failure = self._refusal()
            if failure is None:
                return self
            self.stop()
            if attempt == START_ATTEMPTS:
                raise ControlError(failure)
        return self  # not reached: the last attempt returns or raises

    def _launch(self, binary: str) -> None:
        read_fd, write_fd = os.pipe()
        self._log = tempfile.TemporaryFile()  # noqa: SIM115 (lives as long as the server; stop() closes it)
        try:
            self._process = subprocess.Popen(
                [
                    binary,
                    "-displayfd",
                    str(write_fd),
                    "-screen",
                    "0",
                    f"{self.width}x{self.height}x{self.depth}",
                    "-dpi",
                    "96",
                    "-nolisten",
                    "tcp",
                    "-noreset",  # else the server resets whenever its last client leaves, refusing the next one
                    *self.options,
                ],
                pass_fds=(write_fd,),
                stdout=subprocess.DEVNULL,
                stderr=self._log,
            )
        finally:
            os.close(write_fd)
        try:
            self.name = ":" + _read_display_number(read_fd, self._process)
        except ControlError as exc:
            words = self._last_words()
            self.stop()
            raise ControlError(f"{exc}{words}") from None
        finally:
            os.close(read_fd)

    def _refusal(self) -> str | None:
        """Why the announced display cannot be used, or None when a client connects to it."""
        try:
            XConnection(self.name).close()
        except ControlError as exc:
            exited = self._process.poll() if self._process is not None else None
            state = f"exited with code {exited}" if exited is not None else "running"
            return f"Xvfb announced {self.name} but refuses clients ({state}): {exc}{self._last_words()}"
        return None

    def _last_words(self) -> str:
        """Xvfb's own last line on stderr, as ' (Xvfb: line)', or nothing."""
        if self._log is None:
            return ""
        self._log.seek(0)
        text = self._log.read()[-4000:].decode("utf-8", "replace")
        lines = [line.strip().removeprefix("(EE)").strip() for line in text.splitlines()]  # "(EE)" marks errors
        lines = [line for line in lines if line and line != "Fatal server error:"]
        return f" (Xvfb: {lines[-1]})" if lines else ""

    def stop(self) -> None:
        """Terminate the server; safe to call twice."""
        process, self._process = self._process, None
        log, self._log = self._log, None
        if log is not None:
            log.close()
        if process is None or process.poll() is not None:
            return
        process.terminate()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

    def env(self) -> dict[str, str]:
        """A copy of the environment pointing at this display, for child processes."""
        return {**os.environ, "DISPLAY": self.name}

    def __enter__(self) -> VirtualDisplay:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _read_display_number(fd: int, process: subprocess.Popen[bytes]) -> str:
    """Xvfb writes the number followed by a newline once it accepts connections."""
    deadline = time.monotonic() + START_TIMEOUT
    data = b""
    while not data.endswith(b"\n"):
        left = deadline - time.monotonic()
        if left <= 0:
            raise ControlError(f"Xvfb did not start within {START_TIMEOUT:.0f} s")
        ready, _, _ = select.select([fd], [], [], min(left, 0.2))
        if ready:
            chunk = os.read(fd, 64)
            if not chunk:
                break
            data += chunk
        elif process.poll() is not None:
            break
    number = data.strip().decode("ascii", "replace")
    if not number.isdigit():
        raise ControlError(f"Xvfb exited without announcing a display (exit code {process.poll()})")
    return number


def start_window_manager(display: str, command: str = "openbox", timeout: float = 10.0) -> subprocess.Popen[bytes]:
    """Start a window manager on ``display`` and return once it manages the screen (EWMH check window set).

    Users play under one; a click-to-focus manager changes how presses are delivered, so the
    tests and benchmarks that say so run under a real one rather than a bare X server.
    """
    if shutil.which(command) is None:
        raise ControlError(f"{command} is not installed (Debian: apt-get install {command})")
    env = {**os.environ, "DISPLAY": display}
    process = subprocess.Popen([command], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    conn = XConnection(display)
    try:
        atom = conn.conn.intern_atom("_NET_SUPPORTING_WM_CHECK")
        deadline = time.monotonic() + timeout
        while conn.root.get_full_property(atom, 0) is None:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                raise ControlError(f"{command} did not start on {display}")
            time.sleep(0.05)
    finally:
        conn.close()
    return process


class XConnection:
    """A python-xlib connection whose asynchronous X errors are kept, not printed.

    python-xlib prints an error that arrives for a request without a reply
    (``X protocol error: BadWindow`` after focusing a window that was just
    killed) and carries on.  Here such errors are collected, and
    :meth:`raise_errors` turns them into the caller's own one-line error once
    the requests have been answered (``sync``).
    """

    def __init__(self, display: str | None) -> None:
        from Xlib import display as xdisplay
        from Xlib.error import DisplayError

        self.name = display
        try:
            self.conn = xdisplay.Display(display)
        except (DisplayError, OSError, KeyError) as exc:
            raise ControlError(f"cannot open X display {display or '$DISPLAY'}: {exc}") from None
        self.errors: list[Exception] = []
        self.conn.set_error_handler(self._keep)
        self.root = self.conn.screen().root

    def _keep(self, error: Exception, request: object = None) -> None:
        self.errors.append(error)

    def sync_errors(self) -> list[Exception]:
        """Wait until the server has answered everything sent so far; return (and forget) the errors it sent."""
        self.conn.sync()
        return self.errors_answered()

    def errors_answered(self) -> list[Exception]:
        """The errors the server has sent so far, returned and forgotten, without asking it anything.

        Right after a request with a reply this is :meth:`sync_errors` without its round trip: the server answers
        requests in order, so the reply came after the answer (an error, or nothing) to every earlier request, and
        the library reads the errors on its way to the reply.  A press cost about twenty round trips, each one
        waiting behind the game's own drawing; this saves two of them (with the two syncs
        :mod:`autoplay.control.xguard` no longer sends, four).
        """
        errors, self.errors = self.errors, []
        return errors

    def close(self) -> None:
        """Close the connection; safe to call twice."""
        conn, self.conn = self.conn, None
        if conn is not None:
            with contextlib.suppress(Exception):  # a dead server has nothing left to close
                conn.close()
