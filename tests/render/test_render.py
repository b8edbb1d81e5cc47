"""Pictures: right size, the move visibly marked, heat colours ordered, and clean one-line errors."""

import re

import cv2
import numpy as np
import pytest

from autoplay.board import Board
from autoplay.errors import AutoplayError
from autoplay.render import UniformGrid, add_caption, annotate_frame, render_board, save_png
from autoplay.render.overlay import wrap_text
from autoplay.render.palette import MOVE_REVEAL, heat_colour, percent_label
from autoplay.render.terminal import format_grid
from autoplay.render.thumbnail import board_cutout

BOARD = Board.from_text("mines=4\n..1F\n..21\n1100\n.?00\n")


def probabilities_for(board: Board, value: float = 0.3) -> list[list[float | None]]:
    return [
        [value if board.is_unknown(r, c) else (1.0 if board[r, c] == "F" else None) for c in range(board.cols)]
        for r in range(board.rows)
    ]


def cell_patch(image: np.ndarray, grid: UniformGrid, row: int, col: int) -> np.ndarray:
    x0, y0, x1, y1 = grid.cell_rect(row, col)
    return image[y0:y1, x0:x1]


def test_render_board_size_includes_label_margin():
    image = render_board(BOARD, cell_px=20)
    assert image.shape == (5 * 20, 5 * 20, 3) and image.dtype == np.uint8
    tiny = render_board(BOARD, cell_px=8)
    assert tiny.shape == (4 * 8, 4 * 8, 3)  # no margin: labels would be illegible


def test_render_board_marks_the_move_cell_and_nothing_far_away():
    probs = probabilities_for(BOARD)
    plain = render_board(BOARD, probs, cell_px=28)
    marked = render_board(BOARD, probs, move=(3, 0), cell_px=28)
    grid = UniformGrid(BOARD.rows, BOARD.cols, 28, 28, 28)
    changed = np.any(plain != marked, axis=2)
    assert cell_patch(changed, grid, 3, 0).mean() > 0.2
    assert not cell_patch(changed, grid, 0, 3).any()


def test_heat_map_paints_safe_cells_green_and_likely_mines_red():
    probs = probabilities_for(BOARD)
    probs[0][0], probs[1][1] = 0.0, 0.95
    image = render_board(BOARD, probs, cell_px=28)
    grid = UniformGrid(BOARD.rows, BOARD.cols, 28, 28, 28)
    _b0, g0, r0 = cell_patch(image, grid, 0, 0).reshape(-1, 3).mean(axis=0)
    _b1, g1, r1 = cell_patch(image, grid, 1, 1).reshape(-1, 3).mean(axis=0)
    assert g0 > r0 and r1 > g1
    # revealed cells and flags get no heat: they look the same with or without probabilities
    bare = render_board(BOARD, None, cell_px=28)
    for rc in [(2, 0), (0, 3), (3, 3)]:
        assert np.array_equal(cell_patch(image, grid, *rc), cell_patch(bare, grid, *rc))


def test_annotate_frame_keeps_size_accepts_bgra_and_marks_move():
    rng = np.random.default_rng(3)
    shot = rng.integers(80, 120, size=(200, 260, 4), dtype=np.uint8)
    grid = UniformGrid(BOARD.rows, BOARD.cols, 30, 40, 50)
    probs = probabilities_for(BOARD)
    without = annotate_frame(shot, grid, probs)
    with_move = annotate_frame(shot, grid, probs, move=(1, 0), safe=[(0, 0)], mines=[(0, 1)])
    assert without.shape == with_move.shape == (200, 260, 3)
    diff = np.any(without != with_move, axis=2)
    assert cell_patch(diff, grid, 1, 0).mean() > 0.2
    assert not cell_patch(diff, grid, 3, 3).any()
    assert np.array_equal(shot[:, :, :3][0:10, 0:10], without[0:10, 0:10])  # outside the grid: untouched
    assert shot.shape == (200, 260, 4)  # the caller's image is not modified


def test_move_may_be_a_solver_move_or_a_recorded_dict():
    class Move:
        action, row, col, probability = "flag", 2, 3, 1.0

    a = render_board(BOARD, move=Move())
    b = render_board(BOARD, move={"action": "flag", "row": 2, "col": 3})
    assert np.array_equal(a, b)
    assert not np.array_equal(a, render_board(BOARD, move=(2, 3)))  # flags and reveals look different


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"probabilities": [[0.5]]}, "probabilities are 1x1 but the grid is 4x4"),
        ({"move": (4, 0)}, "outside the 4x4 grid"),
    ],
)
def test_inconsistent_input_is_rejected(kwargs, message):
    with pytest.raises(ValueError, match=message):
        render_board(BOARD, **kwargs)


def test_caption_adds_a_strip_below_and_wraps_long_text_instead_of_widening():
    image = render_board(BOARD)
    captioned = add_caption(image, ["frame 1", "reveal (0,0)"])
    assert captioned.shape[1] == image.shape[1] and captioned.shape[0] > image.shape[0]
    assert np.array_equal(captioned[: image.shape[0]], image)
    long = add_caption(image, "reveal (12,18): safe by flag reduction - 1 piece of information " * 3 + "x" * 80)
    assert long.shape[1] == image.shape[1] and long.shape[0] > captioned.shape[0] + 3 * 18
    assert np.array_equal(long[: image.shape[0]], image)
    text = long[image.shape[0] :]
    # the text reaches the right half of the strip but never its last columns: wrapped, not cut off
    assert (text[:, image.shape[1] // 2 :] > 128).any() and not (text[:, -3:] > 128).any()


def test_wrap_text_breaks_at_spaces_and_inside_words_only_when_needed():
    lines = wrap_text("one two three four five six seven eight nine ten", 90)
    assert len(lines) > 1 and " ".join(lines) == "one two three four five six seven eight nine ten"
    pieces = wrap_text("x" * 50, 60)
    assert "".join(pieces) == "x" * 50 and len(pieces) > 1
    assert wrap_text("", 60) == [""]


def test_save_png_creates_folders_and_round_trips(tmp_path):
    image = render_board(BOARD)
    path = save_png(tmp_path / "a" / "board.png", image)  # one missing level: created
    assert np.array_equal(cv2.imread(str(path)), image)
    with pytest.raises(AutoplayError, match="does not exist"):  # two: a typo, nothing created
        save_png(tmp_path / "x" / "y" / "board.png", image)
    assert not (tmp_path / "x").exists()
    # below an output folder the user named, autoplay's own layout is created at any depth
    assert save_png(tmp_path / "out" / "frames" / "deep" / "b.png", image, root=tmp_path / "out").is_file()


def test_save_png_errors_are_one_line(tmp_path):
    with pytest.raises(AutoplayError, match="must be a .png"):
        save_png(tmp_path / "board.jpg", render_board(BOARD))
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(AutoplayError, match="is a file, not a folder"):
        save_png(blocker / "board.png", render_board(BOARD))


def test_heat_colour_and_percent_labels():
    assert heat_colour(0.0) == (60, 190, 40) and heat_colour(1.0) == (40, 40, 220)
    assert heat_colour(-1) == heat_colour(0.0) and heat_colour(2) == heat_colour(1.0)
    assert [percent_label(p) for p in (0, 0.004, 0.5, 0.996, 1)] == ["0", "<1", "50", ">99", "100"]


def test_terminal_grid_plain_and_coloured():
    probs = probabilities_for(BOARD, 0.25)
    plain = format_grid(BOARD, probs, move=(3, 0))
    assert "\x1b[" not in plain
    lines = plain.splitlines()
    assert lines[0].split() == ["0", "1", "2", "3"]
    assert lines[1].split() == ["0", "25", "25", "1", "F"]
    assert lines[4][4:8] == "> 25" and lines[4][8:12] == "  25"
    coloured = format_grid(BOARD, probs, move=(3, 0), colour=True)
    assert "\x1b[48;2;" in coloured
    stripped = [re.sub(r"\x1b\[[0-9;]*m", "", line) for line in coloured.splitlines()]
    assert stripped == lines


def test_board_cutout_is_annotated_at_its_small_size():
    grid = UniformGrid(BOARD.rows, BOARD.cols, 40, 100, 60)  # a board inside a bigger "window"
    frame = np.full((400, 400, 3), 90, np.uint8)
    frame[60:220, 100:260] = render_board(BOARD, cell_px=40)[40:, 40:]
    before = frame.copy()
    probabilities = [[0.5 if BOARD[r, c] == "." else None for c in range(BOARD.cols)] for r in range(BOARD.rows)]
    small, geometry = board_cutout(frame, grid, 80)
    thumb = annotate_frame(small, geometry, probabilities, (0, 0, "reveal"), board=BOARD, grid_lines=False)
    assert thumb.shape == (round((160 + 12) * 80 / (160 + 12)), 80, 3)
    assert np.array_equal(frame, before)  # the caller's frame is not painted on
    plain = annotate_frame(small, geometry, None, board=BOARD, grid_lines=False)
    assert not np.all(plain == MOVE_REVEAL, axis=2).any()  # no outline drawn
    ring = np.all(thumb == MOVE_REVEAL, axis=2)
    ys, xs = np.nonzero(ring)
    assert ring.any() and xs.max() < 40 and ys.max() < 40  # around cell (0,0), top-left quarter

    def centre(image, r, c):
        return image[round((60 + 40 * r + 20 - 54) * 80 / 172), round((100 + 40 * c + 20 - 94) * 80 / 172)]

    assert not np.array_equal(centre(thumb, 1, 1), centre(plain, 1, 1))  # hidden: heat painted
    assert np.array_equal(centre(thumb, 2, 2), centre(plain, 2, 2))  # revealed: untouched
