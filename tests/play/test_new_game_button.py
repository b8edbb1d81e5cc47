"""A new-game button that is not a face: cut around the user's point at calibration, found by its look at play.

The window is drawn here: a board of raised grey tiles beside a framed "New game" text button, the way a web
page shows one.  The button is cut through ``autoplay calibrate --new-game-click X,Y``, the skin is loaded
back, and the button is found and clicked (through the guarded mouse) on other frames of the page, at the same
zoom and at 125%, and refused where the page does not show it.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import pytest

from autoplay.cli.main import main
from autoplay.control.mouse import Mouse
from autoplay.errors import ControlError, UsageError
from autoplay.play.live import press_new_game
from autoplay.vision import load_skin
from autoplay.vision.button import NewGame, cut_button, find_button
from autoplay.vision.locate import locate_grid

PITCH = 20
BOARD_AT = (20, 70)
#: The button's outer rectangle (left, top, right, bottom) at zoom 1.
BUTTON = (230, 100, 340, 130)
#: A pixel on the button's "N" and one in the gap between its two words: the face is found from either.
ON_TEXT = (244, 116)
BETWEEN_WORDS = (283, 121)
WINDOW_AT = (300, 200)  # the window's place on the screen


def draw_window(button: bool = True, zoom: float = 1.0, shift: int = 0, rows: int = 9, cols: int = 9) -> np.ndarray:
    """A page with a 9x9 board of covered tiles and, right of it, a framed "New game" button ``shift`` px lower."""
    height, width = BOARD_AT[1] + rows * PITCH + 40, BOARD_AT[0] + cols * PITCH + 180
    image = np.full((height, width, 3), (200, 200, 200), np.uint8)
    for r in range(rows):
        for c in range(cols):
            x, y = BOARD_AT[0] + c * PITCH, BOARD_AT[1] + r * PITCH
            image[y : y + PITCH, x : x + PITCH] = (255, 255, 255)
            image[y + 2 : y + PITCH, x + 2 : x + PITCH] = (128, 128, 128)
            image[y + 2 : y + PITCH - 2, x + 2 : x + PITCH - 2] = (192, 192, 192)
    if button:
        x0, y0, x1, y1 = BUTTON
        y0, y1 = y0 + shift, y1 + shift
        cv2.rectangle(image, (x0, y0), (x1, y1), (60, 60, 60), 2)
        image[y0 + 2 : y1 - 1, x0 + 2 : x1 - 1] = (235, 225, 210)
        cv2.putText(image, "New game", (x0 + 10, y0 + 21), cv2.FONT_HERSHEY_SIMPLEX, 0.55, (20, 20, 20), 1, cv2.LINE_AA)
    if zoom != 1.0:
        image = cv2.resize(image, None, fx=zoom, fy=zoom, interpolation=cv2.INTER_LINEAR)
    return image


class RecordingBackend:
    """A pointer that only remembers: where it clicked and where it moved."""

    def __init__(self) -> None:
        self.pos = (5, 5)
        self.clicks: list[tuple[int, int, str]] = []
        self.moves: list[tuple[int, int]] = []

    def position(self) -> tuple[int, int]:
        return self.pos

    def move(self, x: int, y: int) -> None:
        self.pos = (x, y)
        self.moves.append((x, y))

    def click(self, x: int, y: int, button: str) -> None:
        self.pos = (x, y)
        self.clicks.append((x, y, button))

    def hotkey(self, *keys: str) -> None:
        raise AssertionError("a picture click presses no key")

    def size(self) -> tuple[int, int]:
        return 1920, 1080

    def failsafe_check(self) -> None:
        return None


@dataclass
class PlacedWindow:
    """The window as press_new_game sees it: its place on the screen and its rectangle."""

    x: int
    y: int
    width: int
    height: int

    @property
    def rect(self) -> tuple[int, int, int, int]:
        return self.x, self.y, self.width, self.height


@pytest.fixture
def calibrated(tmp_path: Path) -> tuple[Path, str]:
    """A skin calibrated from the drawn window with ``--new-game-click`` on the button's text; (home, name)."""
    shot = tmp_path / "page.png"
    cv2.imwrite(str(shot), draw_window())
    home = tmp_path / "home"
    x, y = ON_TEXT
    args = ["calibrate", str(shot), "--name", "webpage", "--out-root", str(home), "--new-game-click", f"{x},{y}"]
    assert main(args) == 0
    return home, "webpage"


def test_calibration_cuts_the_button_and_records_where_it_was_in_board_cells(calibrated: tuple[Path, str]) -> None:
    home, name = calibrated
    table = tomllib.loads((home / "calibration" / f"{name}.toml").read_text(encoding="utf-8"))["new_game"]
    assert table == {"click": "picture", "picture": "new-game.png", "pitch": 20.0, "offset": [10.5, 1.5]}
    picture = cv2.imread(str(home / "templates" / name / "new-game.png"))
    x0, y0, x1, y1 = BUTTON
    assert picture.shape[:2] == (y1 - y0 + 1, x1 - x0 + 1)  # the whole button, its frame included, no more
    skin = load_skin(name, home)
    assert isinstance(skin.new_game, NewGame) and skin.new_game.button is not None
    assert skin.new_game == {"click": "picture", "picture": "new-game.png"}
    assert np.array_equal(skin.new_game.button.image, picture) and skin.new_game.button.pitch == 20.0


def test_a_point_between_the_words_cuts_the_same_button() -> None:
    frame = draw_window()
    grid = locate_grid(frame)
    on_text = cut_button(frame, grid, *ON_TEXT)
    between = cut_button(frame, grid, *BETWEEN_WORDS)
    assert np.array_equal(on_text.image, between.image) and on_text.offset == between.offset


@pytest.mark.parametrize("zoom", [1.0, 1.25])
@pytest.mark.parametrize("shift", [0, 30])
def test_the_button_is_found_and_clicked_inside_its_rectangle(
    calibrated: tuple[Path, str], zoom: float, shift: int
) -> None:
    skin = load_skin(*reversed(calibrated))
    frame = draw_window(zoom=zoom, shift=shift)
    grid = locate_grid(frame)
    assert grid.pitch == (PITCH * zoom, PITCH * zoom)
    backend = RecordingBackend()
    window = PlacedWindow(*WINDOW_AT, frame.shape[1], frame.shape[0])
    press_new_game(Mouse(backend), window, grid, frame, skin.new_game)
    [(x, y, button)] = backend.clicks
    x0, y0, x1, y1 = BUTTON
    left, top = WINDOW_AT[0] + x0 * zoom, WINDOW_AT[1] + (y0 + shift) * zoom
    right, bottom = WINDOW_AT[0] + x1 * zoom, WINDOW_AT[1] + (y1 + shift) * zoom
    assert button == "left" and left + 10 < x < right - 10 and top + 5 < y < bottom - 5
    gx0, gy0, gx1, gy1 = grid.rect
    px, py = backend.pos  # parked: in the window, off the board
    assert not (WINDOW_AT[0] + gx0 <= px < WINDOW_AT[0] + gx1 and WINDOW_AT[1] + gy0 <= py < WINDOW_AT[1] + gy1)


@pytest.mark.parametrize("zoom", [1.0, 1.25])
def test_a_frame_without_the_button_clicks_nothing(calibrated: tuple[Path, str], zoom: float) -> None:
    skin = load_skin(*reversed(calibrated))
    frame = draw_window(button=False, zoom=zoom)
    backend = RecordingBackend()
    window = PlacedWindow(*WINDOW_AT, frame.shape[1], frame.shape[0])
    with pytest.raises(ControlError, match="cannot find the new-game button") as info:
        press_new_game(Mouse(backend), window, locate_grid(frame), frame, skin.new_game)
    assert info.value.exit_code == 4 and backend.clicks == [] and backend.moves == []


def test_two_buttons_alike_are_not_guessed_between() -> None:
    frame = draw_window()
    grid = locate_grid(frame)
    picture = cut_button(frame, grid, *ON_TEXT)
    x0, y0, x1, y1 = BUTTON
    twin = frame.copy()
    twin[y0 + 60 : y1 + 61, x0 : x1 + 1] = frame[y0 : y1 + 1, x0 : x1 + 1]
    assert find_button(frame, grid, picture) == (x0, y0, x1 - x0 + 1, y1 - y0 + 1)
    with pytest.raises(ControlError, match="cannot find the new-game button"):
        find_button(twin, grid, picture)


def test_the_board_itself_is_never_searched() -> None:
    """A look-alike drawn over the board's tiles (a game's picture there) neither wins nor makes the real one doubtful."""
    frame = draw_window()
    grid = locate_grid(frame)
    picture = cut_button(frame, grid, *ON_TEXT)
    x0, y0, x1, y1 = BUTTON
    frame[90 : 90 + y1 - y0 + 1, 40 : 40 + x1 - x0 + 1] = frame[y0 : y1 + 1, x0 : x1 + 1]  # on the board
    assert find_button(frame, grid, picture) == (x0, y0, x1 - x0 + 1, y1 - y0 + 1)


@pytest.mark.parametrize(
    "point,message",
    [
        ("50,100", "lies on the board"),
        ("300,200", "no button found there"),
        ("5,5", "no button found there"),
        ("9999,5", "outside the window's picture"),
        ("face,1", "expected face, or X,Y"),
    ],
)
def test_calibration_refuses_a_point_that_is_no_button_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], point: str, message: str
) -> None:
    shot = tmp_path / "page.png"
    cv2.imwrite(str(shot), draw_window())
    args = ["calibrate", str(shot), "--name", "webpage", "--out-root", str(tmp_path), "--new-game-click", point]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "calibration" / "webpage.toml").exists()


def test_face_still_means_the_face(tmp_path: Path) -> None:
    shot = tmp_path / "page.png"
    cv2.imwrite(str(shot), draw_window())
    args = ["calibrate", str(shot), "--name", "webpage", "--out-root", str(tmp_path), "--new-game-click", "face"]
    assert main(args) == 0
    assert load_skin("webpage", tmp_path).new_game == {"click": "face"}
    assert not (tmp_path / "templates" / "webpage" / "new-game.png").exists()


def test_a_skin_whose_picture_is_missing_says_so_in_one_line(calibrated: tuple[Path, str]) -> None:
    home, name = calibrated
    (home / "templates" / name / "new-game.png").unlink()
    with pytest.raises(UsageError, match=r"template .*new-game\.png") as info:
        load_skin(name, home)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    "edit,message",
    [
        (("pitch = 20.0", "pitch = 0"), "pitch = 0"),
        (("offset = [10.5, 1.5]", 'offset = "left"'), "offset = 'left'"),
        (('picture = "new-game.png"\n', ""), 'needs picture = "FILE.png"'),
    ],
)
def test_a_broken_picture_entry_is_a_one_line_error(
    calibrated: tuple[Path, str], edit: tuple[str, str], message: str
) -> None:
    home, name = calibrated
    path = home / "calibration" / f"{name}.toml"
    text = path.read_text(encoding="utf-8")
    assert edit[0] in text
    path.write_text(text.replace(*edit), encoding="utf-8")
    with pytest.raises(UsageError, match=message.replace("[", r"\[")):
        load_skin(name, home)
