"""The X server's word on when a window was redrawn: the DAMAGE extension.

Polling pixels can only say "unchanged for so long", so every decision waited a fixed quiet interval (35 ms)
after the last change it saw, and grabbed the window a dozen times meanwhile.  The server knows better: every
drawing request that touches a window is reported as a damaged rectangle the moment it is processed.  A board
has been redrawn once damage to it has stopped for the game's own redraw rhythm (one burst for xdemineur, a
cascade of 16 ms frames for gnome-mines), and one grab then takes the finished picture.

Only rectangles that meet the board count, so a game's ticking clock does not keep the board "changing".  The
watch has its own connection: events are read with a select() on its socket, never mixed with the guard's or
the pointer's requests.  Anything that goes wrong (no DAMAGE extension, a closed window) makes the watch give
up (:attr:`DamageWatch.broken`) and play falls back to polling pixels, the portable path.
"""

from __future__ import annotations

import contextlib
import select
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

#: ``(x, y, width, height)`` in window pixels.
Area = tuple[int, int, int, int]
#: Seconds between looks at whether the game's answer has come, while waiting for it (its thread fills it in).
ANSWER_POLL = 0.004
#: The shortest listen (a select that returns at once would spin).
LISTEN_FLOOR = 0.0002


@dataclass(frozen=True)
class Heard:
    """What the server reported while waiting: board damage seen, when it stopped, whether it never did."""

    damaged: bool  # some rectangle meeting the area was redrawn
    waited: float  # seconds spent waiting
    timed_out: bool  # damage never stopped for ``quiet`` within the time-out
    #: the longest pause between two reports on the area while it was being redrawn, in seconds (as read: the
    #: events' own timestamps are the server's idea of time, which Xvfb advances only now and then)
    longest_gap: float = 0.0
    #: seconds from the start of the wait to the last report on the area (None when none came): the game's own
    #: drawing time, as far as the reports tell; the rest of ``waited`` is the wait for it to be over
    drawn: float | None = None
    #: the wait ended early because the caller's look found the board already showing everything (``shown``)
    shown: bool = False


@dataclass
class Asked:
    """The game's answer to "have you read every press sent so far?", filled in by the thread that asked.

    ``at`` is the clock time the answer came (None until then); ``cannot_tell`` is set where the game takes no
    such question (xdemineur) or gave no answer: then only the damage reports' pauses can say the redraw ended.
    """

    at: float | None = None
    cannot_tell: bool = False


@dataclass(frozen=True)
class AnswerWait:
    """The limits of :meth:`DamageWatch.wait_answered`, in seconds (see there)."""

    first: float  # for the first report, or the answer
    quiet: float  # the pause that ends a redraw where the game gives no answer
    paint: float  # after the answer, for a frame still to come
    short: float  # the pause that ends the frame drawn after the answer
    timeout: float  # in all


def _since(start: float, last: float | None) -> float | None:
    return None if last is None else last - start


def _answered_step(
    now: float,
    start: float,
    last: float | None,
    answer: float | None,
    asked: Asked,
    limits: AnswerWait,
    due: float | None,
) -> float:
    """How long :meth:`DamageWatch.wait_answered` listens next: until the nearest moment its rules could end the wait,
    and no longer than :data:`ANSWER_POLL` (the answer is filled in by another thread, which wakes nothing).

    Listening a whole poll past the end made every redraw ended by a short pause up to 4 ms longer than its rule.
    ``due`` is when the board is next to be looked at (``shown``): it may end the wait then.

    >>> limits = AnswerWait(first=0.5, quiet=0.076, paint=0.045, short=0.004, timeout=2.0)
    >>> round(_answered_step(0.060, 0.0, 0.059, 0.03, Asked(), limits, None), 6)  # 3 ms to go
    0.003
    >>> round(_answered_step(0.010, 0.0, None, None, Asked(), limits, None), 6)  # waiting: a poll
    0.004
    """
    if answer is not None:
        end = last + limits.short if last is not None and last > answer else answer + limits.paint
        if due is not None:
            end = min(end, due)
    elif asked.cannot_tell or now - start >= limits.first:
        end = last + limits.quiet if last is not None else start + limits.first
    else:
        end = min(now + ANSWER_POLL, start + limits.first)
    end = min(end, start + limits.timeout)
    return max(LISTEN_FLOOR, min(ANSWER_POLL, end - now))


def meets(a: Area, b: Area) -> bool:
    """Do two ``(x, y, width, height)`` rectangles share a pixel?

    >>> meets((0, 0, 10, 10), (9, 9, 5, 5)), meets((0, 0, 10, 10), (10, 0, 5, 5))
    (True, False)
    """
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


class DamageWatch:
    """Damage reports for one window on its own connection; see the module docstring."""

    def __init__(self, conn: Any, damage: int, clock: Callable[[], float] = time.perf_counter) -> None:
        self._conn = conn
        self._damage = damage
        self._clock = clock
        self.broken = False  # the connection failed: callers poll pixels instead

    @classmethod
    def open(cls, display: str | None, window_id: int) -> DamageWatch | None:
        """A watch on ``window_id``, or None where the server has no DAMAGE extension (or no display opens)."""
        try:
            from Xlib import display as xdisplay
            from Xlib.ext import damage
        except ImportError:
            return None
        try:
            conn = xdisplay.Display(display)
        except Exception:
            return None
        try:
            if not conn.has_extension("DAMAGE"):
                conn.close()
                return None
            conn.damage_query_version()  # the server wants the client's version before anything else
            errors: list[object] = []
            conn.set_error_handler(lambda error, request: errors.append(error))  # a gone window: no watch, no noise
            window = conn.create_resource_object("window", window_id)
            handle = window.damage_create(damage.DamageReportRawRectangles)
            conn.sync()
        except Exception:
            conn.close()
            return None
        if errors:
            conn.close()
            return None
        return cls(conn, handle)

    def _events(self, timeout: float) -> list[Area]:
        """The rectangles of the damage events that arrive within ``timeout`` seconds (those already queued at
        once)."""
        conn = self._conn
        if not conn.pending_events():
            ready, _, _ = select.select([conn.fileno()], [], [], max(timeout, 0.0))
            if not ready or not conn.pending_events():
                return []
        found = []
        while conn.pending_events():
            event = conn.next_event()
            area = getattr(event, "area", None)
            if area is not None:
                found.append((area.x, area.y, area.width, area.height))
        return found

    def forget(self) -> None:
        """Drop every report received so far: what follows is damage after this moment."""
        if self.broken:
            return
        try:
            self._events(0.0)
        except Exception:
            self.broken = True

    def wait(self, area: Area, first: float, quiet: float, timeout: float) -> Heard:
        """Wait for damage meeting ``area`` (up to ``first`` seconds), then until it has stopped for ``quiet``.

        Returns at once with ``damaged`` False when none came in time; ``timed_out`` when the area was still
        being redrawn after ``timeout`` seconds in all.
        """
        start = self._clock()
        last: float | None = None
        gap = 0.0
        while True:
            now = self._clock()
            if last is None:
                left = first - (now - start)
                if left <= 0:
                    return Heard(False, now - start, False)
            else:
                left = quiet - (now - last)
                if left <= 0:
                    return Heard(True, now - start, False, gap, last - start)
            if now - start >= timeout:
                return Heard(last is not None, now - start, True, gap, _since(start, last))
            listened = self._listen(area, min(left, timeout - (now - start)), last, gap)
            if listened is None:
                return Heard(last is not None, self._clock() - start, True, gap, _since(start, last))
            last, gap = listened

    def wait_answered(
        self, area: Area, asked: Asked, limits: AnswerWait, shown: Callable[[], bool] | None = None
    ) -> Heard:
        """Wait for the game's answer that it has read our presses, then for the frame it draws after it.

        A game draws while it is still reading a batch of presses, in frames tens of milliseconds apart, so a
        pause in the reports says little until the game has read them all; once it has (``asked.at``), what is
        left is the frame it draws next: board damage after the answer, then ``limits.short`` seconds without any;
        or, where none comes within ``limits.paint`` seconds, the last frame already showed everything.  Without an
        answer (``asked.cannot_tell``, or none within ``limits.first`` seconds) it is :meth:`wait`'s rule: damage
        paused for ``limits.quiet``, or none at all within ``limits.first``.

        ``shown``: once the game has answered and no frame has come after it, the board drawn so far is looked at
        (``limits.short`` after the last report, once per report): where it already shows everything pressed, no frame
        is still to come for it, and the wait ends at once (``Heard.shown``), unless a report came during the look.
        """
        start = self._clock()
        last: float | None = None
        gap = 0.0
        looked: float | None = None  # the last report after which the board was looked at (``shown``)
        while True:
            now = self._clock()
            answer = asked.at
            due = None
            if answer is not None:
                if last is not None and last > answer:  # the frame drawn after the answer
                    if now - last >= limits.short:
                        return Heard(True, now - start, False, gap, last - start)
                else:
                    if shown is not None and last is not None and last != looked:
                        due = last + limits.short
                        if now >= due:
                            ended = self._look(area, last, gap, shown)
                            if ended is None:
                                return Heard(True, self._clock() - start, True, gap, last - start)
                            if ended[0] == last and ended[2]:
                                return Heard(True, self._clock() - start, False, gap, last - start, True)
                            looked, due = last, None
                            last, gap = ended[0], ended[1]
                            continue
                    if now - answer >= limits.paint and (last is None or now - last >= limits.short):
                        return Heard(last is not None, now - start, False, gap, _since(start, last))
            elif asked.cannot_tell or now - start >= limits.first:
                if last is None and now - start >= limits.first:
                    return Heard(False, now - start, False)
                if last is not None and now - last >= limits.quiet:
                    return Heard(True, now - start, False, gap, last - start)
            if now - start >= limits.timeout:
                return Heard(last is not None, now - start, True, gap, _since(start, last))
            step = _answered_step(now, start, last, answer, asked, limits, due)
            listened = self._listen(area, step, last, gap)
            if listened is None:
                return Heard(last is not None, self._clock() - start, True, gap, _since(start, last))
            last, gap = listened

    def _look(
        self, area: Area, last: float, gap: float, shown: Callable[[], bool]
    ) -> tuple[float | None, float, bool] | None:
        """Ask ``shown`` whether the board is drawn, with no report queued before it nor come during it: the last
        report, the longest pause and the answer (False without asking when a report was queued); None when the
        connection failed."""
        before = self._listen(area, 0.0, last, gap)
        if before is None or before[0] != last:
            return None if before is None else (before[0], before[1], False)
        if not shown():
            return last, gap, False
        after = self._listen(area, 0.0, last, gap)  # a report during the look: the board looked at may be stale
        return None if after is None else (after[0], after[1], after[0] == last)

    def _listen(self, area: Area, timeout: float, last: float | None, gap: float) -> tuple[float | None, float] | None:
        """The reports arriving within ``timeout``: when damage to ``area`` last came and the longest pause between
        two such reports so far, updated; None when the connection failed (the watch is then broken)."""
        try:
            events = self._events(timeout)
        except Exception:
            self.broken = True
            return None
        if any(meets(rect, area) for rect in events):
            now = self._clock()
            gap = gap if last is None else max(gap, now - last)
            last = now
        return last, gap

    def heard_since(self, area: Area) -> bool:
        """Whether damage met ``area`` since the last read (the reports are consumed)."""
        if self.broken:
            return False
        try:
            return any(meets(rect, area) for rect in self._events(0.0))
        except Exception:
            self.broken = True
            return False

    def close(self) -> None:
        """Let the server drop the damage object with the connection; safe to call twice."""
        conn, self._conn = self._conn, None
        self.broken = True
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.close()
