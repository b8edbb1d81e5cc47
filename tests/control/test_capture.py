"""Settle detection with a scripted clock: no real sleeping, no timing assumptions."""

from __future__ import annotations

import numpy as np

from autoplay.control.capture import wait_settled


class Script:
    """Frames that change at given (virtual) times; ``sleep`` advances the virtual clock."""

    def __init__(self, changes: list[tuple[float, np.ndarray]]) -> None:
        self.changes = changes
        self.now = 0.0
        self.grabs = 0

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds

    def grab(self) -> np.ndarray:
        self.grabs += 1
        current = self.changes[0][1]
        for t, frame in self.changes:
            if t <= self.now:
                current = frame
        return current.copy()


def frame(value: int, corner: int = 0) -> np.ndarray:
    f = np.full((20, 30, 3), value, np.uint8)
    f[0, 0] = corner
    return f


def settle(script: Script, **kw):
    return wait_settled(script.grab, clock=script.clock, sleep=script.sleep, poll=0.005, **kw)


def test_returns_the_frame_after_the_last_change_once_stable():
    script = Script([(0.0, frame(1)), (0.02, frame(2)), (0.05, frame(3))])
    result = settle(script, interval=0.03, timeout=1.0)
    assert result.frame[5, 5, 0] == 3
    assert not result.timed_out
    assert script.now >= 0.08  # stable for the whole interval after the change at 0.05


def test_waits_for_a_change_from_the_baseline_before_settling():
    base = frame(1)
    script = Script([(0.0, frame(1)), (0.2, frame(7))])  # the click shows only after 0.2 s
    result = settle(script, interval=0.03, timeout=1.0, baseline=base, change_timeout=0.5)
    assert result.changed and result.frame[5, 5, 0] == 7


def test_no_change_within_change_timeout_reports_unchanged():
    base = frame(1)
    script = Script([(0.0, frame(1))])
    result = settle(script, interval=0.03, timeout=1.0, baseline=base, change_timeout=0.1)
    assert not result.changed and not result.timed_out
    assert script.now < 0.2


def test_changes_outside_the_roi_are_ignored():
    script = Script([(0.0, frame(1, corner=0))] + [(0.01 * i, frame(1, corner=i)) for i in range(1, 100)])
    result = settle(script, interval=0.03, timeout=1.0, roi=(5, 20, 5, 30))
    assert not result.timed_out and script.now < 0.1


def test_a_picture_that_never_settles_times_out_with_the_latest_frame():
    script = Script([(0.01 * i, frame(i % 250)) for i in range(0, 300)])
    result = settle(script, interval=0.03, timeout=0.5)
    assert result.timed_out
    assert 0.5 <= script.now < 0.6
