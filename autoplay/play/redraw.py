"""Waiting for the board to be redrawn: polling only the board's pixels, or the X server's damage reports.

Two ways, one answer (a :class:`~autoplay.control.capture.Settled` frame of the whole window):

- :func:`poll_board` polls only the board's rectangle (a tenth of the window's pixels for the desktop games)
  until it has stayed unchanged, then grabs the whole window once and checks that its board is the one that
  settled.  The frame that is read and recorded is always one real grab of the whole window, never pieces of
  several grabs stuck together: locating the board afresh and the page-move checks see the page as it is.
- :class:`DamageRhythm` waits for the server to report that the board was redrawn and has stopped being redrawn
  for the game's rhythm, then grabs once.  The first redraws of a session are waited for the long way (damage
  quiet for 0.3 s): each must show in both the reports and the pixels, and the middle one of their longest
  pauses is the rhythm.  A change the server did not report, or reports that do not pause for a second (a page
  animating, a caret), turn it off for the session (polling takes over); a board caught mid-redraw doubles the
  wait, which relaxes again after a run of clean redraws.  The pixels still decide whether anything changed.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from autoplay.control.capture import Roi, Settled, wait_settled
from autoplay.control.damage import AnswerWait, Area, Asked, DamageWatch, Heard

#: The shortest quiet after the last damage report: a game that draws a click in one burst (xdemineur: ~3 ms for
#: a whole board) is done well within it; scheduling hiccups of a loaded core are what it is for.
DAMAGE_QUIET = 0.008
#: The quiet wait is at least this many times the longest pause seen inside one redraw ...
RHYTHM_MARGIN = 1.5
#: ... up to this: longer waits are learnt only from boards taken as drawn that were not (``slower``).
LEARNT_CEILING = 0.06
#: The longest quiet wait that boards caught mid-redraw can teach (``slower``).
DAMAGE_CEILING = 0.1
#: Redraws settled without a board caught mid-redraw before a grown quiet wait shrinks again.
RELAX_AFTER = 25
#: Changes the server did not report before damage is no longer relied on this session.
MAX_MISSES = 2
#: Redraws watched the long way at the start of a session to confirm the reports and learn the rhythm.
LEARN_SAMPLES = 3
#: Damage to the board that has not paused for the quiet wait this long after the wait began is a window redrawn
#: without pause (a browser animating the page, a caret): its reports say nothing about the board's redraw, so
#: the pixels are polled for the rest of the session.  A game's own redraw of a click takes a small part of it.
RESTLESS = 1.0
#: Whole-window grabs that may disagree with the settled board before polling gives up re-checking.
RECHECKS = 3
#: Once the game has answered that it read our presses, the longest it takes to draw the frame that shows them
#: (gnome-mines: 0-44 ms after the answer over 4 games, often none after it) ...
ANSWER_PAINT = 0.045
#: ... and the pause after that frame's last report that ends it (a frame reported as several rectangles).  The frame
#: comes as one burst: of 506 gnome-mines frames read ahead 1 ms after their last report (10 games on an idle
#: machine, 10 with both cores kept busy), none had another report in the 8 ms after it, the wait this was before;
#: 4 ms keeps four times the pause the frame is read ahead at.
FRAME_QUIET = 0.004
#: Redraws in a row drawn within ``ANSWER_PAINT`` of the game's answer that let the answer end redraws after all,
#: where one of the first three did not (three times the first learning: a browser paints late now and then).
RELEARN = 10
#: The shortest pause after a report at which the board is grabbed and read ahead while the quiet wait runs on.
EARLY_QUIET = 0.001
#: The least time the reports are listened to after a look ahead, however long the look took.
LISTEN_AT_LEAST = 0.0002


def roi_area(roi: Roi) -> Area:
    """Slice bounds ``(top, bottom, left, right)`` as an ``(x, y, width, height)`` rectangle.

    >>> roi_area((10, 50, 20, 80))
    (20, 10, 60, 40)
    """
    top, bottom, left, right = roi
    return left, top, right - left, bottom - top


def board_part(frame: np.ndarray, roi: Roi) -> np.ndarray:
    """The board's pixels in a whole-window frame (a view, no copy)."""
    top, bottom, left, right = roi
    return frame[top:bottom, left:right]


def same_board(frame: np.ndarray, baseline: np.ndarray, roi: Roi) -> bool:
    """Whether two whole-window frames of the same size show the same board pixels."""
    return frame.shape == baseline.shape and np.array_equal(board_part(frame, roi), board_part(baseline, roi))


def poll_board(
    grab: Callable[[], np.ndarray],
    grab_area: Callable[[Area], np.ndarray],
    roi: Roi,
    interval: float,
    timeout: float,
    *,
    baseline: np.ndarray | None = None,
    change_timeout: float = 0.0,
    before_grab: Callable[[], None] = lambda: None,
) -> Settled:
    """:func:`wait_settled` on the board's rectangle only, then one whole-window grab whose board must match.

    A board that changed between its last poll and the whole grab is polled again (a few times at most).
    ``before_grab`` is called before each whole grab (the damage watch drops the reports that grab will show).
    """
    area = roi_area(roi)
    base = None if baseline is None else board_part(baseline, roi)
    changed = False
    waited = longest = 0.0
    for _ in range(RECHECKS - 1):
        part = wait_settled(lambda: grab_area(area), interval, timeout, baseline=base, change_timeout=change_timeout)
        changed, waited, longest = changed or part.changed, waited + part.waited, max(longest, part.longest_pause)
        before_grab()
        frame = grab()
        if part.timed_out:
            return Settled(frame, changed or _differs(frame, baseline, roi), waited, True, longest)
        if np.array_equal(board_part(frame, roi), part.frame):
            return Settled(frame, changed or _differs(frame, baseline, roi), waited, False, longest)
        base, change_timeout = None, 0.0  # a change was seen: now only its end is waited for
        changed = changed or _differs(frame, baseline, roi)
    part = wait_settled(lambda: grab_area(area), interval, timeout, baseline=base, change_timeout=change_timeout)
    before_grab()
    frame = grab()  # the last look: taken as it is
    changed = changed or part.changed or _differs(frame, baseline, roi)
    return Settled(frame, changed, waited + part.waited, part.timed_out, max(longest, part.longest_pause))


def _differs(frame: np.ndarray, baseline: np.ndarray | None, roi: Roi) -> bool:
    return baseline is not None and not same_board(frame, baseline, roi)


@dataclass
class DamageRhythm:
    """A session's damage watch on the game window and the redraw rhythm learnt from it (see module doc)."""

    watch: DamageWatch
    quiet: float = DAMAGE_QUIET
    confirmed: int = 0  # redraws seen both in the pixels and in damage reports while learning
    misses: int = 0  # changes of the pixels the server did not report
    pauses: list[float] = field(default_factory=list)  # the longest pause inside each redraw while learning
    floor: float = DAMAGE_QUIET  # the quiet wait learnt at the start: ``slower`` waits relax back towards it
    #: While learning: how long after the game's answer its last damage came, per redraw (inf: no answer by then).
    #: The answer ends later redraws only if every one drew within ``ANSWER_PAINT``: a browser answers from the
    #: process that reads input while another paints the page, later.
    after_answer: list[float] = field(default_factory=list)
    #: The same, measured on the quiet wait's redraws after learning while the answer does not end them: once the
    #: last :data:`RELEARN` of them were all drawn within ``ANSWER_PAINT``, they replace ``after_answer`` (a first
    #: redraw slowed by a loaded machine no longer keeps the rule off for the whole session).
    later_answers: list[float] = field(default_factory=list)
    clean: int = 0  # redraws settled since the quiet wait last had to grow
    #: The game's own rhythm learnt at the start, without the quiet wait's floor: a pause this long after a report
    #: usually ends the redraw, so the board is grabbed and read then, and the rest of the quiet wait only confirms
    #: it (``look`` in :meth:`settle`).  None until learnt.
    rhythm: float | None = None
    looked_again: int = 0  # frames read ahead that more drawing made stale: grabbed and read once more
    #: Whether a frame read ahead that already shows everything pressed ends the wait at once (see ``settle``):
    #: off for the session once such a frame turned out not to be the drawn board (``slower``).
    trust_shown: bool = True
    #: Clean redraws still to come before such frames end waits again: any board caught mid-redraw pauses them
    #: (``slower``).  A game short of CPU is still drawing leftovers when the next batch comes, and a wait that
    #: ends early hurries it more: on a machine kept busy, gnome-mines was caught mid-redraw three times as often.
    shown_pause: int = 0
    shown_early: int = 0  # waits ended by a frame that showed everything pressed
    ended_shown: bool = False  # whether the last wait ended so

    @property
    def usable(self) -> bool:
        return self.misses < MAX_MISSES and not self.watch.broken

    @property
    def answers_end_redraws(self) -> bool:
        """Whether the game's answer, then its next frame, may end a redraw (see ``after_answer``)."""
        return bool(self.after_answer) and max(self.after_answer) <= ANSWER_PAINT

    @property
    def asks_again(self) -> bool:
        """Whether the game is still asked after each batch though its answer does not end redraws: it answered
        while the rhythm was learnt, so its later redraws may show the answer can end them after all."""
        return not self.answers_end_redraws and any(x != float("inf") for x in self.after_answer)

    @property
    def ends_on_looks(self) -> bool:
        """Whether a frame read ahead that shows everything pressed may end the wait now (see ``shown_pause``)."""
        return self.trust_shown and self.shown_pause == 0

    @property
    def learning(self) -> bool:
        """The first redraws of a session are watched until damage has stopped for long (see ``settle``)."""
        return self.confirmed < LEARN_SAMPLES

    def slower(self, ceiling: float) -> None:
        """A board taken as drawn was not: the game draws in longer steps than learnt (or a busy machine keeps
        it from drawing on time)."""
        self.quiet = max(self.quiet, min(2 * self.quiet, ceiling))
        self.clean = 0
        if self.ended_shown:  # the board a look found showing every press was still being drawn: looks are not enough
            self.trust_shown = False
        self.shown_pause = RELAX_AFTER

    def settled_cleanly(self) -> None:
        """Another redraw settled without growing the wait: after :data:`RELAX_AFTER` of them the wait shrinks
        by a quarter, back towards the learnt one, so a spell of load does not slow the rest of the session (and
        frames that show everything pressed end waits again, ``shown_pause``)."""
        self.clean += 1
        self.shown_pause = max(0, self.shown_pause - 1)
        if self.clean >= RELAX_AFTER:
            self.quiet, self.clean = max(self.floor, 0.75 * self.quiet), 0

    def forget(self) -> None:
        """A frame is about to be grabbed: reports so far are of drawing it will show."""
        self.watch.forget()

    def settle(
        self,
        grab: Callable[[], np.ndarray],
        baseline: np.ndarray,
        roi: Roi,
        first: float,
        patience: float,
        timeout: float,
        learn_quiet: float,
        asked: Asked | None = None,
        look: Callable[[np.ndarray], bool | None] | None = None,
    ) -> tuple[Settled, float] | None:
        """Wait for the board's damage to start and stop, then grab once: the frame and the longest pause seen
        inside the redraw.  None when the pixels must be polled instead (damage reported yet the board is as it
        was, or a change that was not reported).

        While :attr:`learning`, the wait for damage to stop is ``learn_quiet`` (long), and each redraw both
        reported and seen in the pixels confirms the reports and teaches the rhythm: the quiet wait becomes
        ``RHYTHM_MARGIN`` times the longest pause inside one redraw, at least :data:`DAMAGE_QUIET`.

        ``asked``: the game is being asked, by another thread, whether it has read the presses.  While learning,
        how long after its answer it drew is noted; where every learnt redraw was drawn within ``ANSWER_PAINT`` of
        the answer, later redraws end with the frame drawn after it (:meth:`DamageWatch.wait_answered`), not after
        a quiet wait long enough for the pauses of a game still reading its input (gnome-mines: 76 ms learnt).

        ``look``: once the rhythm is learnt, the board is grabbed as soon as the reports have paused for the
        game's own rhythm (:attr:`rhythm`, far below the quiet wait's floor) and handed to ``look`` (the player
        decodes it) while the rest of the quiet wait runs.  The frame is kept only when no report came by the end
        of the quiet wait, exactly as if it had been grabbed then; a report after it means the board was still
        being drawn, and it is grabbed and looked at again once the reports pause once more.

        Where ``look`` answers True, the frame already shows everything pressed, drawn to its end (the player
        checks: :func:`~autoplay.play.batch_shown.shows_batch`): nothing is left for the game to draw, so the wait
        ends at once, unless a report came while it was looked at.  After the game's answer this also ends a wait
        with no frame after it, which would otherwise last the answer's whole paint time.
        """
        self.ended_shown = False
        learning = self.learning
        quiet = learn_quiet if learning else self.quiet * patience
        limit = min(timeout, first + RESTLESS)
        started = time.perf_counter()
        early = None if look is None or learning or self.rhythm is None else max(EARLY_QUIET, self.rhythm)
        ahead: np.ndarray | None = None
        area = roi_area(roi)
        if asked is not None and not learning and self.answers_end_redraws:
            if look is None:
                heard = self.watch.wait_answered(
                    area, asked, AnswerWait(first, quiet, ANSWER_PAINT, FRAME_QUIET, limit)
                )
            else:  # the frame drawn after the answer comes as one burst of reports: read it after the shortest pause
                heard, ahead = self._look_ahead(
                    grab,
                    lambda short, shown: self.watch.wait_answered(
                        area, asked, AnswerWait(first, quiet, ANSWER_PAINT, short, limit), shown
                    ),
                    area,
                    FRAME_QUIET,
                    EARLY_QUIET,
                    limit,
                    look,
                    asked,
                )
        elif early is not None and look is not None and early < quiet:
            heard, ahead = self._look_ahead(
                grab, lambda short, _shown: self.watch.wait(area, first, short, limit), area, quiet, early, limit, look
            )
        else:
            heard = self.watch.wait(area, first, quiet, limit)
        if heard.timed_out and heard.damaged:  # reports without pause: the pixels must tell instead
            self.misses = MAX_MISSES
            return None
        if ahead is None:
            self.watch.forget()  # before the grab: a report after this is of drawing the frame may not show yet
            frame = grab()
        else:
            frame = ahead
        changed = not same_board(frame, baseline, roi)
        if heard.damaged and changed:
            if learning:
                self.confirmed += 1
                self.pauses.append(heard.longest_gap)
                if asked is not None and not asked.cannot_tell:  # the last damage came a quiet wait before the end
                    answer = asked.at
                    drawn = started + heard.waited - quiet
                    self.after_answer.append(float("inf") if answer is None else max(0.0, drawn - answer))
                if not self.learning:  # the middle one: a scheduling hiccup in one sample is no rhythm
                    typical = sorted(self.pauses)[len(self.pauses) // 2]
                    self.rhythm = min(learn_quiet, RHYTHM_MARGIN * typical)
                    self.quiet = self.floor = max(self.quiet, self.rhythm)
            else:  # a pause inside a redraw close to the quiet wait means a longer one may come
                self.quiet = max(self.quiet, min(LEARNT_CEILING, RHYTHM_MARGIN * heard.longest_gap))
                if asked is not None and not asked.cannot_tell and heard.drawn is not None and not heard.timed_out:
                    self._learn_again(started + heard.drawn, asked.at)
        if heard.timed_out:
            return Settled(frame, changed, heard.waited, True, drawn=heard.drawn), heard.longest_gap
        if heard.damaged == changed:  # a redraw that ended, or a click without effect (nothing reported)
            if not learning:
                self.settled_cleanly()
            return Settled(frame, changed, heard.waited, False, drawn=heard.drawn), heard.longest_gap
        if changed and not self.watch.heard_since(area):  # not even reported since: a miss
            self.misses += MAX_MISSES if learning else 1
        return None  # (a redraw that began between the end of the wait and the grab is polled out)

    def _ended_on_look(self) -> None:
        """The wait ended on a frame that showed everything pressed (``slower`` learns whether it was right)."""
        self.ended_shown = True
        self.shown_early += 1

    def _learn_again(self, drawn: float, answer: float | None) -> None:
        """Note how long after the game's answer a quiet-wait redraw was drawn (see :attr:`later_answers`)."""
        if self.answers_end_redraws:
            return
        self.later_answers.append(float("inf") if answer is None else max(0.0, drawn - answer))
        del self.later_answers[:-RELEARN]
        if len(self.later_answers) == RELEARN and max(self.later_answers) <= ANSWER_PAINT:
            self.after_answer = list(self.later_answers)

    def _look_ahead(
        self,
        grab: Callable[[], np.ndarray],
        begin: Callable[[float, Callable[[], bool] | None], Heard],
        area: Area,
        quiet: float,
        early: float,
        limit: float,
        look: Callable[[np.ndarray], bool | None],
        asked: Asked | None = None,
    ) -> tuple[Heard, np.ndarray | None]:
        """A wait whose last ``quiet`` runs on while the board, grabbed after ``early`` of it, is looked at.

        ``begin(early, shown)`` is the wait itself, ending ``early`` after the last report instead of ``quiet``
        (``shown`` grabs and looks at the board for a wait that can end on it: :meth:`DamageWatch.wait_answered`).
        With ``asked``, only a redraw ended by a frame drawn after the game's answer is read ahead: the other ends
        of :meth:`DamageWatch.wait_answered` are final.  Returns what was heard and the frame grabbed ahead (None
        when nothing was drawn, the reports never paused, or the end was final: the caller grabs as before).  A
        report during the rest of the quiet wait makes the frame stale: the reports are waited out for ``early``
        again, and the board grabbed and looked at once more.  A look that answers True (the frame shows
        everything pressed) leaves only the reports already sent to listen to, not the rest of the quiet wait.
        """
        clock = time.perf_counter
        start = clock()
        taken: list[np.ndarray] = []

        def shown() -> bool:
            frame = grab()
            taken[:] = [frame]
            return look(frame) is True

        heard = begin(early, shown if self.ends_on_looks else None)
        if heard.shown:
            self._ended_on_look()
            return heard, taken[0]
        gap = heard.longest_gap
        if asked is not None and (asked.at is None or heard.drawn is None or start + heard.drawn <= asked.at):
            return heard, None  # no frame after the answer: ended by the answer's paint time, or by the quiet wait
        while heard.damaged and not heard.timed_out and heard.drawn is not None:
            last = start + heard.drawn  # the last report on the board so far
            self.watch.forget()  # reports after this are of drawing the grab may not show
            frame = grab()
            done = look(frame) is True and self.ends_on_looks
            spent = clock() - start
            # at least one look at the reports: those that came while looking are queued, not yet read
            rest = LISTEN_AT_LEAST if done else max(LISTEN_AT_LEAST, last + quiet - clock())
            more = self.watch.wait(area, rest, early, max(LISTEN_AT_LEAST, limit - spent))
            if not more.damaged:  # quiet until ``quiet`` after the last report (or shown): the frame is the drawn board
                if done:
                    self._ended_on_look()
                return Heard(True, clock() - start, False, gap, heard.drawn, done), frame
            self.looked_again += 1
            gap = max(gap, more.longest_gap)
            drawn = None if more.drawn is None else spent + more.drawn
            heard = Heard(True, spent + more.waited, more.timed_out, gap, drawn)
        return heard, None
