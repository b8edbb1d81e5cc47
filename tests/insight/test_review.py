"""The review of a person's game: steps worked out from two boards, each judged, and the game's summary."""

from __future__ import annotations

import random

import ms_toollib
import pytest

from autoplay.board.model import Board
from autoplay.board.rules import Rules
from autoplay.insight.bbbv import bbbv
from autoplay.insight.coach import Coach
from autoplay.insight.review import (
    CERTAIN,
    CERTAIN_MINE,
    FLAG_ON_SAFE,
    RISKIER,
    SAFEST,
    UNCERTAIN_FLAG,
    GameReview,
    Judged,
    Step,
    format_judged,
    format_summary,
    judge,
    known_layout,
    steps_between,
)
from autoplay.solver import analyze

ZERO = Rules.from_names("zero")


def board(*rows: str, mines: int | None = None) -> Board:
    return Board.from_rows(rows, mines)


def test_a_click_on_a_zero_opens_a_region_and_the_pointer_names_the_cell():
    before = board("....", "....", "....")
    after = board("....", "2...", "....")
    (step,) = steps_between(before, after, 1.0)
    assert (step.action, step.cell, step.opened) == ("reveal", (1, 0), ((1, 0),))
    before, after = board("....", "....", "...."), board("0001", "0012", "001.")
    (step,) = steps_between(before, after, 2.0)
    assert step.cell is None and set(step.candidates) == {(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (2, 0), (2, 1)}
    (step,) = steps_between(before, after, 2.0, pointer_cell=(2, 1))
    assert step.cell == (2, 1) and len(step.opened) == 11


def test_flags_unflags_and_two_clicks_seen_at_once_are_separate_steps():
    before = board("F....", ".....", ".....")
    after = board(".F..1", ".....", "2....")
    steps = steps_between(before, after, 3.0, pointer_cell=(0, 4))
    assert [(s.action, s.cell) for s in steps] == [
        ("flag", (0, 1)),
        ("unflag", (0, 0)),
        ("reveal", (2, 0)),
        ("reveal", (0, 4)),
    ]


def test_at_a_loss_only_the_exploded_mine_is_a_step_and_the_games_mines_and_flags_are_not():
    before = board("1..", "...", "...")
    after = board("1X*", "*..", "..F")
    steps = steps_between(before, after, 4.0, finished=True)
    assert [(s.action, s.cell) for s in steps] == [("reveal", (0, 1))]


def test_each_verdict_against_the_exact_odds_of_the_position_before():
    # (0,1) is a certain mine, (0,2) certainly safe (the 1 at (1,1) is satisfied by (0,1)); the rest is open odds
    before = board("1.....", "11....", "......", mines=5)
    odds = analyze(before).probabilities

    def verdict(action: str, cell: tuple[int, int]) -> Judged:
        return judge(Step(action, cell, (cell,), (cell,) if action == "reveal" else (), 0.0), before, odds, ZERO)

    assert odds[0][1] == 1.0 and odds[2][0] == 0.0
    assert verdict("reveal", (2, 0)).verdict == CERTAIN
    assert verdict("reveal", (0, 1)).verdict == CERTAIN_MINE
    assert verdict("flag", (0, 1)).verdict == CERTAIN
    assert verdict("flag", (2, 0)).verdict == FLAG_ON_SAFE
    assert verdict("flag", (2, 5)).verdict == UNCERTAIN_FLAG
    risky = verdict("reveal", (2, 5))
    assert risky.verdict == RISKIER and risky.probability == odds[2][5] and risky.lowest == 0.0
    assert "where 0.0% was on offer" in format_judged(risky)
    # with no certain cell left, the lowest odds on offer are "safest available"
    guess = board("1.....", "F1....", "......", mines=5)
    odds = analyze(guess).probabilities
    lowest = min(p for r, c in guess.unknown_cells() if (p := odds[r][c]) is not None)
    cell = next((r, c) for r, c in guess.unknown_cells() if odds[r][c] == lowest)
    assert judge(Step("reveal", cell, (cell,), (cell,), 0.0), guess, odds, ZERO).verdict in (SAFEST, CERTAIN)


def test_a_region_opened_from_the_cell_the_pointer_names_is_judged_for_that_cell():
    # (2,0) is certainly safe; a click on (2,5) that happens to open a region is as risky as (2,5) was, though the
    # region also opened the certain cell: the pointer names the cell, and only without it is the kindest taken
    before = board("1.....", "11....", "......", mines=5)
    odds = analyze(before).probabilities
    region = ((2, 0), (2, 5))
    named = judge(Step("reveal", (2, 5), region, region, 0.0), before, odds, ZERO)
    assert named.verdict == RISKIER and named.probability == odds[2][5]
    unnamed = judge(Step("reveal", None, region, region, 0.0), before, odds, ZERO)
    assert unnamed.verdict == CERTAIN


def test_the_first_click_is_certain_where_the_game_protects_it():
    fresh = board("....", "....", mines=2)
    step = Step("reveal", (0, 0), ((0, 0),), ((0, 0),), 0.0)
    odds = analyze(fresh).probabilities
    assert judge(step, fresh, odds, ZERO).verdict == CERTAIN
    assert judge(step, fresh, odds, Rules.from_names("none")).verdict == SAFEST


@pytest.mark.parametrize(
    ("rows", "cols", "mines", "expected"),
    [
        (3, 3, {(0, 0)}, 1),  # one opening, its border numbers included
        (1, 5, {(0, 2)}, 2),  # two openings
        (3, 3, {(0, 0), (0, 2), (2, 0), (2, 2)}, 5),  # no opening: every safe cell is a click
    ],
)
def test_3bv_of_small_layouts(rows, cols, mines, expected):
    assert bbbv(rows, cols, mines) == expected


def test_3bv_is_ms_toollibs_on_random_layouts():
    rng = random.Random(28)
    for _ in range(200):
        rows, cols, count = rng.choice([(9, 9, 10), (16, 16, 40), (16, 30, 99), (8, 8, 30)])
        mines = {divmod(i, cols) for i in rng.sample(range(rows * cols), count)}
        numbers = [
            [
                -1 if (r, c) in mines else sum((r + dr, c + dc) in mines for dr in (-1, 0, 1) for dc in (-1, 0, 1))
                for c in range(cols)
            ]
            for r in range(rows)
        ]
        assert bbbv(rows, cols, mines) == ms_toollib.cal_bbbv(numbers)


def test_the_summary_of_a_won_game_counts_3bv_per_second_and_efficiency():
    final = board("2F", "F2", mines=2)  # won: every cell not opened is a mine
    assert known_layout(final, "won") == {(0, 1), (1, 0)}
    review = GameReview(result="won")
    review.judged = [
        Judged(Step("reveal", (0, 0), ((0, 0),), ((0, 0),), 1.0), CERTAIN),
        Judged(Step("reveal", (1, 1), ((1, 1),), ((1, 1),), 3.0), SAFEST),
    ]
    summary = review.summary(final)
    assert summary["3bv"] == 2 and summary["seconds"] == 2.0 and summary["3bv_per_second"] == 1.0
    assert summary["clicks"] == 2 and summary["efficiency"] == 1.0
    assert summary["verdicts"] == {CERTAIN: 1, SAFEST: 1}
    assert format_summary(summary).startswith("game won: 2.0 s, 3BV 2, 3BV/s 1.0, 2 clicks")


def test_the_coach_reviews_a_game_from_positions_and_sums_it_up_at_the_loss():
    coach = Coach(ZERO, time_limit=0.2, explain_limit=0.2)
    positions = [
        board("....", "....", "....", "....", mines=2),
        board("001.", "001.", "112.", "....", mines=2),
        board("001.", "001F", "112.", "....", mines=2),
        board("001*", "001F", "112.", "X...", mines=2),
    ]
    states = ["playing", "playing", "playing", "lost"]
    seen = [coach.see(b, s, float(t)) for t, (b, s) in enumerate(zip(positions, states, strict=True))]
    steps = [j for c in seen for j in c.steps]
    assert [(j.step.action, j.verdict) for j in steps][:2] == [("reveal", CERTAIN), ("flag", CERTAIN)]
    assert steps[-1].step.cell == (3, 0)
    assert seen[0].advice.decision is not None and seen[-1].summary is not None
    assert seen[-1].summary["result"] == "lost" and seen[-1].summary["clicks"] == 3
