"""What ``watch --overlay`` draws: a mark on each covered cell with its odds, frames on the certain ones and the move,
and a window shape that is exactly the marks (the game shows between them)."""

from __future__ import annotations

import numpy as np

from autoplay.board.model import Board
from autoplay.board.rules import Rules
from autoplay.insight.coach import Coach, Coached
from autoplay.render.overlay_marks import MOVE_COLOUR, MOVE_FRAME, Marks, marks_of, mask_rectangles, paint
from autoplay.render.palette import heat_colour
from autoplay.vision.grid import Grid

PITCH = 20
GRID = Grid(np.arange(4 + 1) * PITCH + 30.0, np.arange(3 + 1) * PITCH + 50.0)  # 3x4 cells at (30, 50) in the window


def coached_position() -> Coached:
    coach = Coach(Rules.from_names("zero"), time_limit=0.2, explain_limit=0.2)
    coach.see(Board.from_rows(["....", "....", "...."], 2), "playing", 0.0)
    return coach.see(Board.from_rows(["001.", "112.", "...."], 2), "playing", 1.5, (0, 0))


def test_marks_cover_the_covered_cells_only_with_the_solvers_odds_certain_cells_and_move():
    coached = coached_position()
    marks = marks_of(coached, GRID)
    analysis = coached.advice.analysis
    assert analysis is not None and coached.advice.decision is not None
    covered = {(0, 3), (1, 3), (2, 0), (2, 1), (2, 2), (2, 3)}
    assert set(marks.odds) == covered
    for (r, c), p in marks.odds.items():
        assert p == analysis.probabilities[r][c]
    assert marks.safe == {cell for cell in covered if marks.odds[cell] == 0.0}
    assert marks.mines == {cell for cell in covered if marks.odds[cell] == 1.0}
    assert marks.safe and marks.mines  # this position has both: the test sees both kinds of frame
    first = coached.advice.decision.moves[0]
    assert marks.move == (first.row, first.col)
    assert marks.origin == (30, 50) and marks.size == (4 * PITCH, 3 * PITCH)


def test_a_board_of_another_size_than_the_grid_gets_no_marks():
    marks = marks_of(coached_position(), Grid(np.arange(6) * 10.0, np.arange(6) * 10.0))
    assert marks.odds == {} and marks.move is None


def test_paint_puts_each_mark_on_its_cell_and_nothing_on_open_cells():
    marks = Marks(GRID, {(0, 3): 0.25, (2, 0): 0.0, (2, 1): 1.0}, frozenset({(2, 0)}), frozenset({(2, 1)}), (2, 0))
    image, mask = paint(marks)
    assert image.shape == (3 * PITCH, 4 * PITCH, 3) and mask.shape == (3 * PITCH, 4 * PITCH)

    def cell(r: int, c: int) -> np.ndarray:
        return mask[r * PITCH : (r + 1) * PITCH, c * PITCH : (c + 1) * PITCH]

    for r in range(3):
        for c in range(4):
            assert cell(r, c).any() == ((r, c) in marks.odds), (r, c)
    # the label box sits in the middle of its cell, in the cell's heat colour, and leaves the tile's corners free
    middle = (0 * PITCH + 6, 3 * PITCH + 3)  # just inside the box's outline, above the text
    assert tuple(int(v) for v in image[middle]) == heat_colour(0.25)
    assert not cell(0, 3)[:3, :3].any()
    # the move's frame is on its cell's edge, in blue
    assert tuple(int(v) for v in image[2 * PITCH, 0]) == MOVE_COLOUR
    assert cell(2, 0)[:MOVE_FRAME, :].all() and cell(2, 0)[:, :MOVE_FRAME].all()


def test_the_shape_rectangles_are_exactly_the_mask():
    marks = marks_of(coached_position(), GRID)
    _, mask = paint(marks)
    rebuilt = np.zeros_like(mask)
    rects = mask_rectangles(mask)
    for x, y, w, h in rects:
        assert not rebuilt[y : y + h, x : x + w].any()  # no two overlap
        rebuilt[y : y + h, x : x + w] = 255
    assert np.array_equal(rebuilt > 0, mask > 0)
    assert len(rects) < mask.size // 20  # merged into boxes and frames, not one per pixel row


def test_an_empty_mask_has_no_rectangles():
    assert mask_rectangles(np.zeros((5, 7), np.uint8)) == []
