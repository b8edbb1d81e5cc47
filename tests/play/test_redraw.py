"""Settling on the board's pixels only, and on damage reports: the frame is always one whole-window grab."""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from autoplay.control.damage import AnswerWait, Area, Asked, Heard
from autoplay.play.redraw import (
    ANSWER_PAINT,
    DAMAGE_QUIET,
    EARLY_QUIET,
    FRAME_QUIET,
    LEARN_SAMPLES,
    LISTEN_AT_LEAST,
    MAX_MISSES,
    RELAX_AFTER,
    RELEARN,
    RESTLESS,
    DamageRhythm,
    poll_board,
    roi_area,
)

ROI = (10, 30, 5, 45)  # top, bottom, left, right: a 20x40 board at (5, 10) in a 50x60 window


def window(board: int, outside: int = 0) -> np.ndarray:
    frame = np.full((50, 60, 3), outside, np.uint8)
    top, bottom, left, right = ROI
    frame[top:bottom, left:right] = board
    return frame


class Screen:
    """Frames in a row: each whole grab or area grab takes the next frame (the last one stays)."""

    def __init__(self, frames: list[np.ndarray]) -> None:
        self.frames = frames
        self.whole = 0
        self.areas: list[Area] = []

    def _next(self) -> np.ndarray:
        frame = self.frames[0] if len(self.frames) == 1 else self.frames.pop(0)
        return frame

    def grab(self) -> np.ndarray:
        self.whole += 1
        return self._next().copy()

    def grab_area(self, area: Area) -> np.ndarray:
        self.areas.append(area)
        x, y, w, h = area
        return self._next()[y : y + h, x : x + w].copy()


def test_polling_grabs_only_the_board_and_returns_one_whole_window_grab():
    screen = Screen([window(1), window(1), window(2), window(2, outside=9)])
    settled = poll_board(screen.grab, screen.grab_area, ROI, 0.01, 1.0, baseline=window(1), change_timeout=0.5)
    assert settled.changed and not settled.timed_out
    assert set(screen.areas) == {roi_area(ROI)}  # every poll: the board's rectangle only
    assert settled.frame.shape == (50, 60, 3) and settled.frame[0, 0, 0] == 9  # the page as it is now
    assert screen.whole == 1  # the settled frame only


def test_a_board_that_changed_before_the_whole_grab_is_polled_again():
    wholes: list[np.ndarray] = []
    polls = {"n": 0}

    def grab() -> np.ndarray:
        wholes.append(window(3))  # the whole grab already shows a later board than the polls settled on
        return wholes[-1]

    def grab_area(area: Area) -> np.ndarray:
        polls["n"] += 1
        x, y, w, h = area
        return (window(1) if polls["n"] <= 3 else window(3))[y : y + h, x : x + w].copy()

    settled = poll_board(grab, grab_area, ROI, 0.005, 1.0)
    assert np.array_equal(settled.frame, window(3)) and len(wholes) == 2


class Watch:
    """A stand-in for DamageWatch: scripted answers to ``wait`` and ``heard_since``."""

    def __init__(self, answers: list[Heard]) -> None:
        self.answers = answers
        self.broken = False
        self.quiet: list[float] = []
        self.first: list[float] = []
        self.short: list[float] = []  # the frame quiet asked of ``wait_answered``
        self.timeouts: list[float] = []
        self.late = False  # whether damage came between the end of the wait and the grab

    def wait(self, area: Area, first: float, quiet: float, timeout: float) -> Heard:
        self.quiet.append(quiet)
        self.first.append(first)
        self.timeouts.append(timeout)
        return self.answers.pop(0)

    def wait_answered(
        self, area: Area, asked: Asked, limits: AnswerWait, shown: Callable[[], bool] | None = None
    ) -> Heard:
        self.short.append(limits.short)
        heard = self.answers.pop(0)
        if heard.shown:  # the wait ends on the caller's look
            assert shown is not None and shown()
        return heard

    def forget(self) -> None:
        pass

    def heard_since(self, area: Area) -> bool:
        return self.late


def rhythm(answers: list[Heard]) -> tuple[DamageRhythm, Watch]:
    watch = Watch(answers)
    return DamageRhythm(watch), watch  # type: ignore[arg-type]


def test_learning_waits_long_then_takes_the_middle_pause_as_the_rhythm():
    pauses = [0.2, 0.016, 0.0]  # one scheduling hiccup in three redraws
    damage, watch = rhythm([Heard(True, 0.3, False, p) for p in pauses] + [Heard(True, 0.03, False)])
    for _ in range(LEARN_SAMPLES):
        heard = damage.settle(lambda: window(2), window(1), ROI, 0.5, 1.0, 3.0, 0.3)
        assert heard is not None and heard[0].changed
    assert watch.quiet == [0.3] * LEARN_SAMPLES and not damage.learning
    assert damage.quiet == max(DAMAGE_QUIET, 1.5 * 0.016)
    damage.settle(lambda: window(2), window(1), ROI, 0.5, 1.0, 3.0, 0.3)
    assert watch.quiet[-1] == damage.quiet


def test_a_change_the_server_did_not_report_turns_damage_off():
    damage, _ = rhythm([Heard(False, 0.5, False)])
    assert damage.settle(lambda: window(2), window(1), ROI, 0.5, 1.0, 3.0, 0.3) is None  # polled instead
    assert damage.misses >= MAX_MISSES and not damage.usable


def test_a_redraw_reported_just_after_the_wait_is_polled_out_and_no_miss():
    damage, watch = rhythm([Heard(False, 0.5, False)])
    watch.late = True
    assert damage.settle(lambda: window(2), window(1), ROI, 0.5, 1.0, 3.0, 0.3) is None
    assert damage.misses == 0 and damage.usable


def test_damage_on_an_unchanged_board_is_polled_and_a_click_without_effect_is_not():
    damage, _ = rhythm([Heard(True, 0.01, False), Heard(False, 0.5, False)])
    damage.confirmed = LEARN_SAMPLES
    assert damage.settle(lambda: window(1), window(1), ROI, 0.5, 1.0, 3.0, 0.3) is None
    nothing = damage.settle(lambda: window(1), window(1), ROI, 0.5, 1.0, 3.0, 0.3)
    assert nothing is not None and not nothing[0].changed and damage.usable


def test_the_quiet_wait_grows_when_boards_were_caught_mid_redraw_and_relaxes_later():
    damage, _ = rhythm([Heard(True, 0.01, False)] * RELAX_AFTER)
    damage.confirmed = LEARN_SAMPLES
    damage.slower(0.1)
    damage.slower(0.1)
    assert damage.quiet == 4 * DAMAGE_QUIET
    for _ in range(RELAX_AFTER):
        damage.settle(lambda: window(2), window(1), ROI, 0.5, 1.0, 3.0, 0.3)
    assert damage.quiet == 3 * DAMAGE_QUIET


def test_a_mid_redraw_catch_never_shortens_a_wait_learnt_longer_than_the_ceiling():
    damage, _ = rhythm([])
    damage.quiet = 0.134  # learnt on a loaded machine
    damage.slower(0.1)
    assert damage.quiet == 0.134


def test_reports_that_never_pause_turn_damage_off_within_a_second():
    """Seen in CI: a Firefox page at 125% was reported redrawn without pause, and each move waited the whole
    settle time-out (3.5 s) for a quiet that never came."""
    damage, watch = rhythm([Heard(True, 1.0, True, 0.016)])
    assert damage.settle(lambda: window(2), window(1), ROI, 0.5, 1.0, 3.5, 0.3) is None  # polled instead
    assert watch.timeouts == [0.5 + RESTLESS] and not damage.usable


def learnt(answers: list[Heard], pause: float) -> tuple[DamageRhythm, Watch]:
    damage, watch = rhythm(answers)
    damage.confirmed, damage.rhythm = LEARN_SAMPLES, pause
    return damage, watch


def test_the_board_is_read_ahead_at_the_games_rhythm_and_kept_when_the_quiet_wait_ends_without_a_report():
    damage, watch = learnt([Heard(True, 0.004, False, 0.0, 0.003), Heard(False, 0.007, False)], 0.0005)
    screen, looked = Screen([window(2)]), []
    heard = damage.settle(screen.grab, window(1), ROI, 0.5, 1.0, 3.0, 0.3, look=looked.append)
    assert heard is not None and heard[0].changed and not heard[0].timed_out
    assert len(looked) == 1 and heard[0].frame is looked[0] and screen.whole == 1  # the frame read ahead, kept
    assert watch.quiet == [EARLY_QUIET, EARLY_QUIET]  # the game's rhythm (a pause of 0.5 ms: the floor, 1 ms) ...
    assert 0 < watch.first[1] <= 0.003 + DAMAGE_QUIET  # ... then the rest of the quiet wait after the last report
    assert heard[0].drawn == 0.003 and damage.looked_again == 0


def test_a_report_after_the_board_was_read_ahead_makes_it_stale_and_it_is_grabbed_and_read_again():
    answers = [Heard(True, 0.004, False, 0.0, 0.003), Heard(True, 0.003, False, 0.0, 0.002), Heard(False, 0.007, False)]
    damage, _ = learnt(answers, 0.002)
    screen, looked = Screen([window(2), window(3)]), []
    heard = damage.settle(screen.grab, window(1), ROI, 0.5, 1.0, 3.0, 0.3, look=looked.append)
    assert heard is not None and heard[0].changed
    assert len(looked) == 2 and heard[0].frame is looked[1] and int(heard[0].frame[ROI[0], ROI[2], 0]) == 3
    assert damage.looked_again == 1


def test_no_read_ahead_while_learning_nor_where_the_rhythm_is_the_quiet_wait():
    for damage, watch in (
        rhythm([Heard(True, 0.3, False, 0.0, 0.01)]),  # still learning
        learnt([Heard(True, 0.3, False, 0.0, 0.01)], 0.02),  # a rhythm as long as the wait: nothing to gain
    ):
        looked: list[np.ndarray] = []
        damage.quiet = max(damage.quiet, damage.rhythm or 0.0)
        assert damage.settle(lambda: window(2), window(1), ROI, 0.5, 1.0, 3.0, 0.3, look=looked.append) is not None
        assert looked == [] and len(watch.quiet) == 1


def test_the_frame_drawn_after_the_games_answer_is_read_ahead_and_a_final_end_is_not():
    damage, watch = learnt([Heard(True, 0.004, False, 0.0, 0.003), Heard(False, 0.007, False)], 0.05)
    damage.after_answer = [0.01] * LEARN_SAMPLES  # the game's answer ends its redraws
    answered = Asked(at=time.perf_counter() - 1.0)  # the last report, 3 ms into the wait, came after it
    screen, looked = Screen([window(2)]), []
    heard = damage.settle(screen.grab, window(1), ROI, 0.5, 1.0, 3.0, 0.3, answered, looked.append)
    assert heard is not None and heard[0].frame is looked[0] and screen.whole == 1
    assert watch.short == [EARLY_QUIET] and 0 < watch.first[-1] <= 0.003 + FRAME_QUIET  # then the frame's quiet
    # no frame after the answer: the paint time ended the wait, nothing is left to confirm, the board grabbed then
    damage, watch = learnt([Heard(True, ANSWER_PAINT, False, 0.0, 0.003)], 0.05)
    damage.after_answer = [0.01] * LEARN_SAMPLES
    looked.clear()
    later = Asked(at=time.perf_counter() + 1.0)
    assert damage.settle(lambda: window(2), window(1), ROI, 0.5, 1.0, 3.0, 0.3, later, looked.append) is not None
    assert looked == [] and watch.quiet == []


def test_an_answer_rule_a_slow_first_redraw_kept_off_comes_on_after_ten_redraws_drawn_in_time():
    damage, watch = learnt([Heard(True, 0.02, False, 0.0, 0.003)] * (RELEARN + 1), 0.05)
    damage.after_answer = [0.01, 0.2, 0.01]  # one of the three learnt redraws was drawn late: the rule is off
    assert not damage.answers_end_redraws and damage.asks_again
    for k in range(RELEARN):
        assert not damage.answers_end_redraws
        asked = Asked(at=time.perf_counter() + (1.0 if k == 0 else 0.0))  # the first redraw drawn before its answer
        assert damage.settle(lambda: window(2), window(1), ROI, 0.5, 1.0, 3.0, 0.3, asked) is not None
    assert damage.answers_end_redraws and not damage.asks_again and watch.short == []
    assert damage.settle(lambda: window(2), window(1), ROI, 0.5, 1.0, 3.0, 0.3, Asked(at=0.0)) is not None
    assert watch.short == [FRAME_QUIET]  # the answer ends this one


def test_a_late_redraw_keeps_the_answer_rule_off_and_a_game_that_never_answered_is_not_asked_again():
    damage, _ = learnt([Heard(True, 0.02, False, 0.0, 0.003)] * RELEARN, 0.05)
    damage.after_answer = [0.01, 0.2, 0.01]
    for k in range(RELEARN):
        late = 1.0 if k == 5 else 0.0  # drawn a second after the answer
        asked = Asked(at=time.perf_counter() - late)
        damage.settle(lambda: window(2), window(1), ROI, 0.5, 1.0, 3.0, 0.3, asked)
    assert not damage.answers_end_redraws
    never, _ = learnt([], 0.05)
    never.after_answer = [float("inf")] * LEARN_SAMPLES
    assert not never.asks_again


def test_a_frame_read_ahead_that_shows_the_whole_batch_ends_the_wait_without_the_rest_of_the_quiet():
    damage, watch = learnt([Heard(True, 0.004, False, 0.0, 0.003), Heard(False, 0.0002, False)], 0.0005)
    screen, looked = Screen([window(2)]), []

    def look(frame: np.ndarray) -> bool:
        looked.append(frame)
        return True  # every press of the batch shows, drawn to its end

    heard = damage.settle(screen.grab, window(1), ROI, 0.5, 1.0, 3.0, 0.3, look=look)
    assert heard is not None and heard[0].frame is looked[0] and heard[0].changed and screen.whole == 1
    assert watch.first[1] == LISTEN_AT_LEAST  # only the reports already sent are listened to, not the quiet wait
    assert damage.shown_early == 1 and damage.ended_shown and heard[0].drawn == 0.003


def test_after_the_answer_a_board_that_shows_the_batch_ends_the_wait_with_no_frame_after_it():
    damage, watch = learnt([Heard(True, 0.004, False, 0.0, 0.003, True)], 0.05)
    damage.after_answer = [0.01] * LEARN_SAMPLES
    screen, looked = Screen([window(2)]), []
    answered = Asked(at=time.perf_counter() + 1.0)  # the last report came before the answer

    def look(frame: np.ndarray) -> bool:
        looked.append(frame)
        return True

    heard = damage.settle(screen.grab, window(1), ROI, 0.5, 1.0, 3.0, 0.3, answered, look)
    assert heard is not None and heard[0].frame is looked[0] and screen.whole == 1 and damage.shown_early == 1
    assert watch.short == [EARLY_QUIET] and watch.quiet == []  # the look ended the answered wait: nothing after it


def test_a_board_taken_on_its_look_that_was_still_drawn_turns_the_looks_off_for_the_session():
    answers = [Heard(True, 0.004, False, 0.0, 0.003), Heard(False, 0.0002, False)]
    damage, watch = learnt(answers + [Heard(True, 0.004, False, 0.0, 0.003), Heard(False, 0.007, False)], 0.0005)
    assert damage.settle(Screen([window(2)]).grab, window(1), ROI, 0.5, 1.0, 3.0, 0.3, look=lambda f: True)
    damage.slower(0.1)  # the board changed before the presses: the look was wrong
    assert not damage.trust_shown
    assert damage.settle(Screen([window(2)]).grab, window(1), ROI, 0.5, 1.0, 3.0, 0.3, look=lambda f: True)
    assert watch.first[3] > LISTEN_AT_LEAST and damage.shown_early == 1  # the whole quiet wait again


def test_a_board_caught_mid_redraw_pauses_the_looks_until_the_redraws_are_clean_again():
    """A game short of CPU still draws leftovers when the next batch comes: ending waits early hurries it more."""
    answers = [Heard(True, 0.004, False, 0.0, 0.003), Heard(False, 0.0002, False)] * (RELAX_AFTER + 1)
    damage, _ = learnt(answers, 0.0005)
    damage.slower(0.1)  # a frame with a tile no template matches, on a wait that did not end on a look
    assert damage.trust_shown and not damage.ends_on_looks
    for _ in range(RELAX_AFTER):
        assert damage.settle(Screen([window(2)]).grab, window(1), ROI, 0.5, 1.0, 3.0, 0.3, look=lambda f: True)
    assert damage.shown_early == 0 and damage.ends_on_looks
    assert damage.settle(Screen([window(2)]).grab, window(1), ROI, 0.5, 1.0, 3.0, 0.3, look=lambda f: True)
    assert damage.shown_early == 1
