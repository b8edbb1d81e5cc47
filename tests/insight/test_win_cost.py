"""The cost of a riskier step in win chance: exact where few layouts remain, and not guessed where many do."""

from __future__ import annotations

import pytest

from autoplay.board.rules import Rules
from autoplay.board.textformat import parse_board
from autoplay.insight.coach import Coach
from autoplay.insight.review import RISKIER, format_judged
from autoplay.insight.win_cost import win_cost
from autoplay.solver import analyze


def test_a_pure_fifty_fifty_costs_nothing_whichever_cell_is_clicked():
    board = parse_board("mines=1\n1.\n1.\n", source="test")
    analysis = analyze(board)
    assert analysis.probabilities[0][1] == pytest.approx(0.5)
    for cell in [(0, 1), (1, 1)]:
        win = win_cost(analysis, board.mines, cell, 1.0)
        assert win is not None and win.best == pytest.approx(0.5) and win.after == pytest.approx(0.5)


def test_the_best_cell_keeps_the_best_chance_and_no_cell_beats_it_or_its_own_survival():
    board = parse_board("mines=3\n1...\n....\n....\n", source="test")
    analysis = analyze(board)
    wins = {cell: win_cost(analysis, board.mines, cell, 1.0) for cell in board.unknown_cells()}
    assert all(w is not None for w in wins.values())
    best = {w.best for w in wins.values() if w is not None}
    assert len(best) == 1
    (value,) = best
    assert max(w.after for w in wins.values() if w is not None) == pytest.approx(value)
    for (r, c), w in wins.items():
        assert w is not None
        p = analysis.probabilities[r][c]
        assert p is not None and w.after <= 1 - p + 1e-12  # a click that finds a mine loses at once


def test_early_in_an_expert_game_the_cost_is_not_known():
    rows = ["." * 30 for _ in range(16)]
    rows[8] = "." * 13 + "101" + "." * 14
    rows[7] = "." * 13 + "111" + "." * 14
    rows[9] = "." * 13 + "111" + "." * 14
    board = parse_board("mines=99\n" + "\n".join(rows) + "\n", source="test")
    assert win_cost(analyze(board), board.mines, (0, 0), 1.0) is None


def test_the_coach_gives_a_riskier_step_its_cost():
    coach = Coach(Rules.from_names("zero"), time_limit=1.0)
    before = parse_board("mines=3\n1...\n....\n....\n", source="test")
    coach.see(before, "playing", 0.0)
    after = before.replace({(0, 1): "1"})  # opened a 1/3 cell where 1/4 ones were on offer
    (judged,) = coach.see(after, "playing", 1.0).steps
    assert judged.verdict == RISKIER and judged.win is not None
    assert judged.win.after < judged.win.best
    assert judged.to_dict()["win_chance"] == {"best": judged.win.best, "after": judged.win.after}
    assert "win chance 63.1% -> " in format_judged(judged)
