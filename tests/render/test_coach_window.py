"""Where ``autoplay watch`` puts its window: beside the game, never over its board, or nowhere."""

from __future__ import annotations

from autoplay.render.coach_window import overlaps, place_beside

GAME = (0, 0, 1060, 706)  # gnome-mines' expert window as the launcher opens it
BOARD = (19, 136, 1020, 560)


def test_beside_the_game_on_the_side_with_room_at_the_largest_cell_that_fits():
    placed = place_beside(GAME, BOARD, 16, 30, (1920, 1080))
    assert placed is not None and placed.x >= GAME[0] + GAME[2] and not overlaps(placed.rect, GAME)
    assert placed.x + placed.width <= 1920 and placed.y + placed.height <= 1080
    moved = place_beside((860, 300, 1060, 706), (879, 436, 1020, 560), 16, 30, (1920, 1080))
    assert moved is not None and moved.x + moved.width <= 860  # the room is on the left now


def test_over_the_games_frame_but_never_its_board_when_the_window_leaves_no_room():
    game, board = (0, 0, 900, 1000), (20, 100, 300, 300)
    placed = place_beside(game, board, 10, 10, (1200, 1000))
    assert placed is not None and overlaps(placed.rect, game) and not overlaps(placed.rect, board)


def test_no_place_at_all_rather_than_over_the_board():
    assert place_beside(GAME, BOARD, 16, 30, (1280, 1024)) is None


def test_the_terminal_view_shows_the_odds_the_move_and_why_and_the_steps():
    from autoplay.board.model import Board
    from autoplay.board.rules import Rules
    from autoplay.insight.coach import Coach
    from autoplay.render.coach_text import HOME_AND_CLEAR, format_view

    coach = Coach(Rules.from_names("zero"), time_limit=0.2, explain_limit=0.2)
    coach.see(Board.from_rows(["....", "....", "...."], 2), "playing", 0.0)
    coached = coach.see(Board.from_rows(["001.", "112.", "...."], 2), "playing", 1.5, (0, 0))
    text = format_view(coached, 1.5, coached.steps, None)
    assert HOME_AND_CLEAR not in text and "3x4, 2 mines, playing" in text
    assert "autoplay would" in text and "why: " in text
    assert "1.50 s reveal (0,0), opened 6: certain" in text
    assert "%" not in text.splitlines()[1]  # the grid: percent numbers without the sign, as analyze prints them
