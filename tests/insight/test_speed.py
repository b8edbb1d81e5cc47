"""The per-game figures play reports: 3BV from the finished board, checked against ms_toollib's."""

from __future__ import annotations

import random

import ms_toollib

from autoplay.board.model import Board
from autoplay.board.textformat import format_board
from autoplay.insight.speed import show, speed_figures


def finished(rows: int, cols: int, mines: set[tuple[int, int]], lost_at: tuple[int, int] | None = None) -> str:
    """The text of a finished board: won (mines left covered) or lost (every mine shown, one exploded)."""
    cells = []
    for r in range(rows):
        for c in range(cols):
            if (r, c) in mines:
                cells.append(("X" if (r, c) == lost_at else "*") if lost_at else ".")
            else:
                near = sum((r + dr, c + dc) in mines for dr in (-1, 0, 1) for dc in (-1, 0, 1))
                cells.append(str(near) if lost_at is None else ".")
    return format_board(Board(rows, cols, tuple(cells), len(mines)))


def numbers(rows: int, cols: int, mines: set[tuple[int, int]]) -> list[list[int]]:
    return [
        [
            -1 if (r, c) in mines else sum((r + dr, c + dc) in mines for dr in (-1, 0, 1) for dc in (-1, 0, 1))
            for c in range(cols)
        ]
        for r in range(rows)
    ]


def test_a_won_games_3bv_is_ms_toollibs_and_the_rates_follow_from_it():
    rng = random.Random(29)
    for _ in range(100):
        rows, cols, count = rng.choice([(9, 9, 10), (16, 16, 40), (16, 30, 99)])
        mines = {divmod(i, cols) for i in rng.sample(range(rows * cols), count)}
        figures = speed_figures(finished(rows, cols, mines), "won", 20.0, 200)
        total = ms_toollib.cal_bbbv(numbers(rows, cols, mines))
        assert figures["3bv"] == figures["3bv_solved"] == total
        assert figures["3bv_per_second"] == round(total / 20.0, 3)
        assert figures["efficiency"] == round(total / 200, 3)


def test_a_lost_game_showing_every_mine_counts_what_was_cleared():
    mines = {(0, 0), (2, 2)}
    board = finished(3, 3, mines, lost_at=(2, 2))  # nothing opened before the loss
    figures = speed_figures(board, "lost", 1.0, 1)
    assert figures["3bv"] == ms_toollib.cal_bbbv(numbers(3, 3, mines)) and figures["3bv_solved"] == 0


def test_figures_that_need_the_layout_are_unknown_when_the_end_board_hides_it():
    one_of_two = "mines=2\n1X.\n...\n..."  # a loss that shows only the mine stepped on
    assert speed_figures(one_of_two, "lost", 3.0, 4) == dict.fromkeys(
        ["3bv", "3bv_solved", "3bv_per_second", "efficiency"]
    )
    assert speed_figures(None, "won", 3.0, 4)["3bv"] is None
    assert speed_figures("not a board", "won", 3.0, 4)["3bv"] is None
    assert show(None) == "-"
