"""Board location on real screenshots: whole desktops, window grabs, and boards that are not fully there."""

from __future__ import annotations

import numpy as np
import pytest

from autoplay.errors import UnreadableBoardError
from autoplay.vision import Grid, locate_grid, read_image

from .conftest import FIXTURES, SHARED

# Rows and columns counted by eye on each screenshot.
DESKTOPS = [
    ("minesweeperx_full_desktop.png", 8, 8),
    ("winxp_expert_won_1.png", 16, 30),
    ("winxp_expert_won_2.png", 16, 30),
    ("freeminesweeper_retina_beginner_fresh.png", 8, 8),
    ("freeminesweeper_retina_expert_lost_1.png", 16, 31),
]


@pytest.mark.parametrize("name,rows,cols", DESKTOPS)
def test_finds_board_on_shared_real_screenshots(name: str, rows: int, cols: int) -> None:
    grid = locate_grid(read_image(SHARED / name))
    assert (grid.rows, grid.cols) == (rows, cols)


@pytest.mark.parametrize("name", ["w7_mine2", "w7_mine3", "w7_mine4"])
def test_finds_win7_board_on_full_desktop(name: str) -> None:
    grid = locate_grid(read_image(FIXTURES / "win7" / f"{name}.png"))
    assert (grid.rows, grid.cols) == (16, 30)
    px, py = grid.pitch
    assert 50 < px < 52.5 and 50 < py < 52.5
    x0, _y0, x1, _y1 = grid.rect
    assert 185 <= x0 <= 200 and 1720 <= x1 <= 1740


@pytest.mark.parametrize(
    "game,name,rows,cols,pitch",
    [
        ("gnome-mines", "beginner_fresh", 8, 8, 77),
        ("gnome-mines", "intermediate_end", 16, 16, 38.4),
        ("gnome-mines", "expert_end", 16, 30, 28),
        ("xdemineur", "small_fresh", 9, 12, 21),
        ("xdemineur", "expert_end", 16, 30, 21),
    ],
)
def test_window_grabs_of_real_clones(game: str, name: str, rows: int, cols: int, pitch: float) -> None:
    grid = locate_grid(read_image(FIXTURES / game / f"{name}.png"))
    assert (grid.rows, grid.cols) == (rows, cols)
    assert abs(grid.pitch[0] - pitch) < 0.6 and abs(grid.pitch[1] - pitch) < 0.6


def test_xdemineur_edges_sit_on_its_exact_21_pixel_lattice() -> None:
    grid = locate_grid(read_image(FIXTURES / "xdemineur" / "expert_mid3.png"))
    assert set(np.diff(grid.xs)) == {21.0} and set(np.diff(grid.ys)) == {21.0}


@pytest.mark.parametrize("cut", ["left", "right", "top", "bottom"])
def test_board_cut_by_the_image_edge_is_refused(cut: str) -> None:
    image = read_image(FIXTURES / "xdemineur" / "expert_mid3.png")
    h, w = image.shape[:2]
    part = {"left": image[:, 110:], "right": image[:, : w - 110], "top": image[150:], "bottom": image[: h - 95]}[cut]
    with pytest.raises(UnreadableBoardError, match=f"runs off the {cut} edge"):
        locate_grid(part)


def test_image_without_board_is_refused() -> None:
    rng = np.random.default_rng(1)
    noise = cv2_blur(rng.integers(0, 255, (300, 400, 3), dtype=np.uint8))
    with pytest.raises(UnreadableBoardError, match="no Minesweeper board"):
        locate_grid(noise)
    with pytest.raises(UnreadableBoardError, match="no Minesweeper board"):
        locate_grid(np.full((200, 200, 3), 128, np.uint8))


def cv2_blur(image: np.ndarray) -> np.ndarray:
    import cv2

    return cv2.GaussianBlur(image, (7, 7), 3)


def test_grid_geometry_and_json_round_trip() -> None:
    grid = Grid(np.array([10.0, 30.0, 51.0, 71.0]), np.array([5.0, 25.0, 44.0]))
    assert (grid.rows, grid.cols) == (2, 3)
    assert grid.rect == (10, 5, 71, 44)
    assert grid.cell_rect(1, 1) == (30, 25, 51, 44)
    assert grid.cell_center(0, 2) == (61.0, 15.0)
    assert Grid.from_dict(grid.to_dict()) == grid
    with pytest.raises(IndexError):
        grid.cell_rect(2, 0)
    with pytest.raises(ValueError):
        Grid(np.array([0.0, 5.0, 4.0]), np.array([0.0, 1.0]))


def test_board_mostly_covered_by_a_dialog_is_refused() -> None:
    # gnome-mines' top-ten dialog leaves only two columns of the 8x8 board in view.
    with pytest.raises(UnreadableBoardError, match="only a 8x2 patch of tiles is visible"):
        locate_grid(read_image(FIXTURES / "gnome-mines" / "beginner_score_dialog.png"))


def test_gnome_mines_irregular_row_pitch_is_followed() -> None:
    """gnome-mines draws expert rows 28 px apart, except the last rows at 27 px: the edges must follow."""
    from autoplay.vision import load_skin

    image = read_image(FIXTURES / "gnome-mines" / "expert_open.png")
    grid = locate_grid(image, load_skin("gnome-mines"))
    # Independent measurement: where the window background shows between tiles in column 0.
    x = int(grid.cell_center(0, 0)[0])
    column = image[:, x].astype(int)
    background = np.abs(column - np.array([244, 245, 246])).sum(axis=1) < 12
    gap_starts = [
        y for y in range(int(grid.ys[0]) + 5, int(grid.ys[-1]) - 5) if background[y] and not background[y - 1]
    ]
    assert len(gap_starts) == grid.rows - 1
    assert {27.0, 28.0} <= set(np.diff(grid.ys))
    assert np.all(np.abs(grid.ys[1:-1] - np.array(gap_starts)) <= 1.5)


@pytest.mark.parametrize("name", [p.stem for p in sorted((FIXTURES / "xbomb").glob("*.png"))])
def test_a_board_of_stippled_tiles_is_found(name: str) -> None:
    """xbomb's covered tiles are a one-pixel stipple (edges everywhere to an edge detector) between 2 px lines."""
    grid = locate_grid(read_image(FIXTURES / "xbomb" / f"{name}.png"))
    pitch = 20 if name.startswith("tile20") else 32
    assert (grid.rows, grid.cols) == (16, 30)
    assert grid.pitch == (pitch, pitch)
    assert (grid.xs[0], grid.ys[0]) == (5, 28)  # the same pixels on every frame, both sizes: centred on the lines
