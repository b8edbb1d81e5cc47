"""The grader's level counts on a known layout, and generated boards checked by an independent solve."""

from __future__ import annotations

import random

import pytest

from autoplay.board.model import Board
from autoplay.board.rules import Rules
from autoplay.insight.generate import GenerationFailed, generate
from autoplay.insight.grade import grade_game
from autoplay.insight.layout import default_first_click, layout_game
from autoplay.insight.proofs import level_rank
from autoplay.solver import analyze

LAYOUT = "mines=2\n000\n121\n*.*\n"


def test_grade_counts_each_level_on_a_known_layout():
    grade = grade_game(layout_game(Board.from_text(LAYOUT)), (0, 0))
    # the 1-2 pattern flags both mines (2 numbers), then the 1 reduced by its flag clears the middle (1 number)
    assert grade.moves["2"] == 2 and grade.moves["1"] == 1
    assert sum(grade.moves.values()) == 3
    assert grade.no_guess and grade.hardest == "2"


def test_grade_counts_a_guess_and_goes_on_when_it_hits_a_mine():
    # two cells, one mine, nothing to tell them apart: one guess, then the flagged mine clears the other cell
    board = Board.from_text("mines=1\n01*\n01.\n")
    grade = grade_game(layout_game(board), (0, 0))
    assert grade.guesses == 1 and not grade.no_guess
    assert sum(grade.moves.values()) == 1
    # the policy's pick is deterministic: (0,2) comes first in reading order, and it is the mine
    assert grade.guesses_hit == 1 and grade.moves["1"] == 1


def never_guessing_solve(layout: Board, first: tuple[int, int]) -> bool:
    """Clear the layout using only the exact engine's certain cells; False at the first position needing a guess."""
    game = layout_game(layout)
    game.reveal(*first)
    while not game.over:
        board = game.board()
        analysis = analyze(board)
        if not analysis.safe and not analysis.mines:
            return False
        for r, c in analysis.mines:
            game.flag(r, c)
        for r, c in analysis.safe:
            assert game.reveal(r, c), "a certain cell was a mine"
    return game.won


@pytest.mark.parametrize("size, rule", [((9, 9, 10), "zero"), ((8, 8, 12), "zero"), ((6, 7, 6), "safe")])
def test_generated_no_guess_boards_clear_without_a_guess(size, rule):
    rows, cols, mines = size
    rng = random.Random(7)
    first = (min(3, rows - 1), min(3, cols - 1)) if rule == "zero" else (0, 0)
    for _ in range(4):
        made = generate(rows, cols, mines, Rules(rule), first, rng, max_attempts=2000)
        assert made.layout.count("*") == mines and made.grade.no_guess
        assert never_guessing_solve(made.layout, first)
        text = made.to_text()
        assert f"# first click: ({first[0]},{first[1]})" in text
        assert Board.from_text(text) == made.layout


def test_min_level_is_met_and_reproduced_by_grading_the_written_board():
    made = generate(9, 9, 10, Rules("zero"), (3, 3), random.Random(3), min_level="2", max_attempts=5000)
    assert made.grade.reaches("2")
    again = grade_game(layout_game(made.layout), made.first_click)
    assert again.moves == made.grade.moves
    assert max((level for level, n in again.moves.items() if n), key=level_rank) == made.grade.hardest


def test_generation_gives_up_after_its_attempt_budget():
    with pytest.raises(GenerationFailed):
        generate(9, 9, 10, Rules("zero"), (3, 3), random.Random(1), min_level="engine", max_attempts=2)


def test_default_first_click_avoids_mines_and_prefers_a_zero():
    board = Board.from_text("mines=1\n*10\n110\n000\n")
    assert default_first_click(board, Rules("safe")) == (0, 2)
    assert default_first_click(board, Rules("zero")) == (2, 2)
