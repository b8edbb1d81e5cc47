"""The damage wait that ends with the frame a game draws after answering that it has read our presses."""

from __future__ import annotations

import pytest

from autoplay.control.damage import AnswerWait, Area, Asked, DamageWatch, Heard

BOARD: Area = (0, 0, 100, 100)


class Scripted(DamageWatch):
    """Damage reports on a clock of its own: ``reports`` are the times board damage comes; the game answers at
    ``answer`` (never, where None)."""

    def __init__(self, reports: list[float], asked: Asked, answer: float | None) -> None:
        self.now = 0.0
        super().__init__(conn=None, damage=0, clock=lambda: self.now)
        self.reports, self.asked, self.answer = sorted(reports), asked, answer

    def _events(self, timeout: float) -> list[Area]:
        due = [t for t in self.reports if t <= self.now + timeout]
        upto = min(due[0], self.now + timeout) if due and due[0] > self.now else self.now + timeout
        if self.answer is not None and self.now < self.answer <= upto:
            upto = self.answer  # the other thread fills the answer in then
        self.now = max(self.now, upto)
        if self.answer is not None and self.now >= self.answer:
            self.asked.at = self.answer
        came = [t for t in self.reports if t <= self.now]
        self.reports = [t for t in self.reports if t > self.now]
        return [BOARD] * len(came)


def wait(reports: list[float], answer: float | None, cannot_tell: bool = False) -> tuple[bool, float]:
    asked = Asked(cannot_tell=cannot_tell)
    watch = Scripted(reports, asked, answer)
    heard = watch.wait_answered(BOARD, asked, AnswerWait(first=0.5, quiet=0.076, paint=0.045, short=0.008, timeout=2.0))
    assert not heard.timed_out
    return heard.damaged, heard.waited


def test_the_frame_drawn_after_the_answer_ends_the_wait():
    """gnome-mines: drawn while it reads the batch (0 and 21 ms), answers at 29 ms, draws its last frame at 54 ms."""
    damaged, waited = wait([0.0, 0.021, 0.054], answer=0.029)
    assert damaged and waited == pytest.approx(0.062, abs=0.005)  # where the learnt quiet wait ended at 130 ms


def test_no_frame_after_the_answer_ends_the_wait_a_paint_later():
    damaged, waited = wait([0.0, 0.035], answer=0.036)
    assert damaged and waited == pytest.approx(0.081, abs=0.005)


def test_a_frame_reported_in_pieces_is_waited_out_whole():
    damaged, waited = wait([0.0, 0.04, 0.043], answer=0.03)
    assert damaged and waited == pytest.approx(0.051, abs=0.005)


def test_a_game_that_cannot_tell_is_waited_for_by_the_quiet_rule():
    damaged, waited = wait([0.0, 0.02], answer=None, cannot_tell=True)
    assert damaged and waited == pytest.approx(0.096, abs=0.005)


def test_no_answer_and_no_damage_ends_after_the_first_wait():
    damaged, waited = wait([], answer=None)
    assert not damaged and waited == pytest.approx(0.5, abs=0.005)


@pytest.mark.parametrize(
    "reports, answer, cannot_tell, last",
    [
        ([0.0, 0.021, 0.054], 0.029, False, 0.054),  # the frame drawn after the answer
        ([0.0, 0.02], None, True, 0.02),  # the quiet rule
        ([], None, False, None),  # nothing drawn
    ],
)
def test_the_game_s_own_drawing_is_told_apart_from_the_wait_after_it(reports, answer, cannot_tell, last):
    """``drawn`` is when the last report came: what the game took; the rest of ``waited`` is the wait to be sure."""
    asked = Asked(cannot_tell=cannot_tell)
    watch = Scripted(reports, asked, answer)
    heard = watch.wait_answered(BOARD, asked, AnswerWait(first=0.5, quiet=0.076, paint=0.045, short=0.008, timeout=2.0))
    assert heard.drawn == (None if last is None else pytest.approx(last, abs=0.001))


def test_the_quiet_rule_tells_the_drawing_apart_too():
    heard = Scripted([0.002, 0.005], Asked(), None).wait(BOARD, first=0.5, quiet=0.008, timeout=2.0)
    assert heard.damaged and heard.drawn == pytest.approx(0.005, abs=0.001)
    assert heard.waited == pytest.approx(0.013, abs=0.001)


@pytest.mark.parametrize(
    "reports, answer, short, ends",
    [
        ([0.0, 0.021, 0.054], 0.029, 0.001, 0.055),  # the frame after the answer, read ahead after 1 ms
        ([0.0, 0.021, 0.054], 0.029, 0.004, 0.058),
        ([0.0, 0.035], 0.036, 0.004, 0.081),  # no frame after the answer: a paint later
    ],
)
def test_the_wait_ends_when_its_rule_says_not_a_poll_later(reports, answer, short, ends):
    """Listening in whole polls of 4 ms kept every such wait up to 4 ms past its end."""
    asked = Asked()
    watch = Scripted(reports, asked, answer)
    heard = watch.wait_answered(BOARD, asked, AnswerWait(first=0.5, quiet=0.076, paint=0.045, short=short, timeout=2.0))
    assert heard.damaged and heard.waited == pytest.approx(ends, abs=0.0005)


def looked_wait(reports: list[float], answer: float, shows: bool, during: int = 0) -> tuple[Heard, list[float]]:
    """``wait_answered`` with a look that answers ``shows``; ``during`` reports come while the first look runs."""
    asked = Asked()
    watch = Scripted(reports, asked, answer)
    looks: list[float] = []

    def shown() -> bool:
        looks.append(watch.now)
        if len(looks) == 1:
            watch.reports = sorted(watch.reports + [watch.now + 0.0001 * (k + 1) for k in range(during)])
        watch.now += 0.002  # the grab and decode
        return shows

    heard = watch.wait_answered(BOARD, asked, AnswerWait(0.5, 0.076, 0.045, 0.001, 2.0), shown)
    return heard, looks


def test_a_board_that_already_shows_the_batch_ends_the_wait_at_the_answer_not_a_paint_later():
    """gnome-mines drew its last frame before it answered (a third of its batches): the paint wait had nothing to
    wait for."""
    heard, looks = looked_wait([0.0, 0.035], answer=0.036, shows=True)
    assert heard.shown and heard.damaged and not heard.timed_out
    assert looks == [pytest.approx(0.036, abs=0.0005)]  # looked at once answered: the last report was 1 ms before
    assert heard.waited == pytest.approx(0.038, abs=0.0005) and heard.drawn == pytest.approx(0.035, abs=0.0005)


def test_a_board_that_does_not_show_the_batch_yet_is_waited_for_as_before():
    heard, looks = looked_wait([0.0, 0.035], answer=0.036, shows=False)
    assert not heard.shown and len(looks) == 1  # looked at once, not again without a new report
    assert heard.waited == pytest.approx(0.081, abs=0.0005)


def test_a_report_while_the_board_was_looked_at_makes_the_look_stale():
    heard, looks = looked_wait([0.0, 0.035], answer=0.036, shows=True, during=1)
    assert not heard.shown and len(looks) == 1  # that report is a frame after the answer: its own rule ends it
    assert heard.waited == pytest.approx(0.0391, abs=0.0005)


def test_the_board_is_looked_at_only_after_the_answer():
    """Before it, the game may still be reading presses whose frames are still to come."""
    heard, looks = looked_wait([0.0, 0.010, 0.020], answer=0.030, shows=True)
    assert heard.shown and looks == [pytest.approx(0.030, abs=0.0005)]
