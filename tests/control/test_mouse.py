"""Click safety: the single click function refuses anything outside the board and notices a human hand."""

from __future__ import annotations

import pytest

from autoplay.control.mouse import ClickRefused, Mouse, UserTookOver, parking_spot
from autoplay.errors import ControlError


class RecordingBackend:
    def __init__(self) -> None:
        self.pos = (640, 512)
        self.clicks: list[tuple[int, int, str]] = []
        self.moves: list[tuple[int, int]] = []

    def position(self):
        return self.pos

    def move(self, x, y):
        self.pos = (x, y)
        self.moves.append((x, y))

    def click(self, x, y, button):
        self.pos = (x, y)
        self.clicks.append((x, y, button))

    def hotkey(self, *keys):
        pass

    def size(self):
        return 2560, 2048

    def failsafe_check(self):
        pass


BOARD = (100, 200, 300, 160)  # left, top, width, height


@pytest.mark.parametrize("x,y", [(99, 250), (400, 250), (150, 199), (150, 360), (0, 0), (-5, 300)])
def test_target_outside_board_raises_and_nothing_is_clicked(x, y):
    backend = RecordingBackend()
    mouse = Mouse(backend)
    with pytest.raises(ClickRefused) as info:
        mouse.click(x, y, "left", BOARD)
    assert isinstance(info.value, ControlError) and info.value.exit_code == 4
    assert backend.clicks == []
    assert (mouse.stats.attempted, mouse.stats.refused, mouse.stats.clicked) == (1, 1, 0)


def test_target_inside_board_is_clicked_at_the_scaled_position():
    backend = RecordingBackend()
    mouse = Mouse(backend, scale=(0.5, 0.5))
    mouse.click(100, 200, "left", BOARD)
    mouse.click(399, 359, "right", BOARD)
    assert backend.clicks == [(50, 100, "left"), (200, 180, "right")]
    assert (mouse.stats.attempted, mouse.stats.refused, mouse.stats.clicked) == (2, 0, 2)


def test_for_display_ratio_is_backend_over_captured_size(monkeypatch):
    backend = RecordingBackend()
    monkeypatch.setattr("autoplay.control.mouse.PyAutoGuiBackend", lambda display: backend)
    mouse = Mouse.for_display(":99", (1280, 1024))
    assert mouse.scale == (2.0, 2.0)


def test_pointer_moved_by_someone_else_stops_before_clicking():
    backend = RecordingBackend()
    mouse = Mouse(backend)
    mouse.click(150, 250, "left", BOARD)
    backend.pos = (700, 10)  # the user grabbed the mouse
    with pytest.raises(UserTookOver):
        mouse.click(160, 250, "left", BOARD)
    assert backend.clicks == [(150, 250, "left")]


def test_park_leaves_the_board_stays_in_the_window_and_avoids_the_origin():
    backend = RecordingBackend()
    mouse = Mouse(backend)
    window = (0, 0, 420, 400)
    mouse.park(window, BOARD)
    ((x, y),) = backend.moves
    assert not (100 <= x < 400 and 200 <= y < 360)
    assert 0 <= x < 420 and 0 <= y < 400 and (x, y) != (0, 0)
    # a board filling the whole window leaves nowhere to park: the pointer is not moved at all
    assert parking_spot((0, 0, 300, 160), (0, 0, 300, 160)) is None


class RefusingGuard:
    """A window guard that finds the board covered."""

    def __init__(self) -> None:
        self.held = 0

    def check_clear(self, board):
        from autoplay.control.guard import BoardCovered

        raise BoardCovered("the board is covered by window 'xmessage'")

    def holding(self, board):
        self.held += 1
        self.check_clear(board)

    def focus(self):
        pass

    def close(self):
        pass


def test_a_batch_is_clicked_only_after_the_guard_clears_it():
    from autoplay.control.guard import BoardCovered

    backend = RecordingBackend()
    guard = RefusingGuard()
    mouse = Mouse(backend, guard=guard)
    with pytest.raises(BoardCovered):
        mouse.click_batch([(150, 250, "left"), (160, 250, "right")], BOARD)
    assert backend.clicks == [] and guard.held == 1 and mouse.stats.clicked == 0


def test_one_target_outside_the_board_refuses_the_whole_batch():
    backend = RecordingBackend()
    mouse = Mouse(backend)
    with pytest.raises(ClickRefused):
        mouse.click_batch([(150, 250, "left"), (5, 5, "left")], BOARD)
    assert backend.clicks == [] and mouse.stats.refused == 1


def test_the_fail_safe_anywhere_in_pyautogui_is_the_user_stopping_us():
    """pyautogui trips its fail-safe in moves and key presses too; each becomes exit 4, never a traceback."""
    import types

    from autoplay.control.mouse import PyAutoGuiBackend

    class FailSafeException(Exception):
        pass

    def corner(*args, **kwargs):
        raise FailSafeException("corner")

    backend = object.__new__(PyAutoGuiBackend)
    backend._pg = types.SimpleNamespace(
        FailSafeException=FailSafeException, moveTo=corner, click=corner, hotkey=corner, failSafeCheck=corner
    )
    for call in (lambda: backend.move(1, 1), lambda: backend.hotkey("ctrl", "r"), backend.failsafe_check):
        with pytest.raises(UserTookOver, match="fail-safe"):
            call()


def test_before_the_board_is_known_the_pointer_rests_in_the_window_corner():
    backend = RecordingBackend()
    mouse = Mouse(backend)
    mouse.rest_in_corner((40, 30, 600, 400))
    assert backend.moves == [(48, 38)]
