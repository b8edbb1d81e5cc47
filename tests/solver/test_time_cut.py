"""A guess the time limit changed says so in its reason: replay tells a busy core from a changed solver by it.

Replay decides every recorded position again and compares the moves.  A guess whose look-ahead, endgame or
depth-3 search was cut short live (a loaded core) can come out differently with time to spare; the live
reason then has to name the time limit, or the difference reads as a defect (an e2e replay check once failed
so: the depth-3 search was cut with nothing in the reason).  Here a clock that moves a fixed step per reading
cuts the searches of real expert positions at every point, and each choice unlike the unhurried one must
name the time limit.
"""

from __future__ import annotations

import time

import pytest

from autoplay.board.rules import PRESETS, Rules
from autoplay.sim.runner import GameSpec, play_game
from autoplay.solver.analysis import Analysis
from autoplay.solver.decide import Decision
from autoplay.solver.guess import choose_guess, clear_guess_cache

EXPERT = PRESETS["expert"]


def _searched_guesses(games: int) -> list[Analysis]:
    """Analyses of the guesses of seeded expert games that the look-ahead (and the depth-3 search) decided."""
    spec = GameSpec(EXPERT.rows, EXPERT.cols, EXPERT.mines, Rules("safe"), time_limit=60.0)
    found: list[Analysis] = []

    def keep(decision: Decision) -> None:
        choice = decision.guess_choice
        if choice is not None and choice.policy in ("look-ahead", "depth-3") and decision.analysis is not None:
            found.append(decision.analysis)

    for index in range(games):
        play_game(spec, 11, index, observe=keep)
    return found


class _StepClock:
    """``time.perf_counter`` that moves ``step`` seconds at every reading: the same cut at the same point each run."""

    def __init__(self, step: float) -> None:
        self.now, self.step = 1000.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def test_every_guess_the_time_limit_changed_names_the_time_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    positions = _searched_guesses(6)
    assert len(positions) >= 5, "the seeded games met too few searched guesses to test"
    depth3 = changed = 0
    for analysis in positions:
        clear_guess_cache()
        unhurried = choose_guess(analysis, EXPERT.mines, time.perf_counter() + 60.0)
        depth3 += unhurried.policy == "depth-3"
        for readings in (1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377):
            clock = _StepClock(0.001)
            with monkeypatch.context() as patch:
                patch.setattr(time, "perf_counter", clock)
                clear_guess_cache()
                hurried = choose_guess(analysis, EXPERT.mines, clock.now + readings * clock.step)
            if hurried.index != unhurried.index:
                changed += 1
                assert "time limit" in hurried.reason, (readings, hurried.reason, unhurried.reason)
    assert changed, "no deadline changed any guess: the test cut nothing"
