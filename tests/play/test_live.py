"""The skin-driven new-game step: finding the face button and refusing to guess when there is none."""

from __future__ import annotations

import numpy as np
import pytest

from autoplay.errors import ControlError
from autoplay.play.live import find_face, new_game_starter
from autoplay.vision.grid import Grid

pytestmark = pytest.mark.spread  # independent tests that wait on the clock: any worker may take each


def test_face_is_the_yellow_blob_above_the_board():
    frame = np.full((200, 300, 3), 180, np.uint8)
    frame[20:46, 140:166] = (0, 255, 255)  # yellow in BGR
    frame[120:140, 10:30] = (0, 255, 255)  # yellow on the board must not count
    grid = Grid(np.arange(10, 291, 20), np.arange(80, 181, 20))
    assert find_face(frame, grid) == (140, 20, 26, 26)


def test_no_face_means_none():
    frame = np.full((200, 300, 3), 180, np.uint8)
    grid = Grid(np.arange(10, 291, 20), np.arange(80, 181, 20))
    assert find_face(frame, grid) is None


class FakeWindow:
    def __init__(self, table):
        self.table = table
        self.focused = 0

    @property
    def rect(self):
        return self.table.window_rect()

    @property
    def x(self):
        return self.table.origin[0]

    @property
    def y(self):
        return self.table.origin[1]

    def focus(self):
        self.focused += 1


def finished_table_and_player(lost_keys: int):
    from functools import partial

    from autoplay.control.mouse import Mouse
    from autoplay.play.player import Player, PlayerSettings
    from autoplay.solver import choose_move
    from tests.play.fakes import FakeBackend, FakeGuard, FakeTable

    table = FakeTable(9, 9, 10, seed=2)
    backend = FakeBackend(table)
    backend.lost_keys = lost_keys
    settings = PlayerSettings(settle_interval=0.002, change_timeout=0.05, late_redraw=0.05)
    mouse = Mouse(backend, guard=FakeGuard(table))
    player = Player(table, mouse, table.decode, partial(choose_move, mines=10, rules=table.rules), settings)
    player.play_game(1)
    assert table.state in ("won", "lost")
    return table, backend, player


def test_new_game_key_is_pressed_again_while_the_old_game_is_still_shown():
    table, backend, player = finished_table_and_player(lost_keys=1)
    window = FakeWindow(table)
    new_game_starter(player, window, {"key": "ctrl+r"})()
    assert backend.keys == [("ctrl", "r"), ("ctrl", "r")]
    assert table.state == "playing" and table.focused == 2


def test_a_game_that_never_restarts_is_an_error_not_a_fake_game():
    table, backend, player = finished_table_and_player(lost_keys=99)
    with pytest.raises(ControlError, match="still shows the last game"):
        new_game_starter(player, FakeWindow(table), {"key": "ctrl+r"}, attempts=2)()
    assert len(backend.keys) == 2


def test_a_new_game_key_the_game_has_not_read_yet_is_waited_for_not_pressed_again():
    table, backend, player = finished_table_and_player(lost_keys=0)
    backend.unread = True  # the game is starved of CPU: it reads the key only when asked whether it has
    new_game_starter(player, FakeWindow(table), {"key": "ctrl+r"})()
    assert backend.keys == [("ctrl", "r")] and player.mouse.guard.pings == 1
    assert table.state == "playing"


def test_a_dialog_of_the_games_own_after_a_game_is_closed_before_the_next_one_starts():
    """kmines opens its "High Scores" over the board after a win: the new-game step closes it (Escape) first."""
    table, _backend, player = finished_table_and_player(lost_keys=0)
    table.covered_by, table.cover_is_own = "High Scores", True
    new_game_starter(player, FakeWindow(table), {"key": "ctrl+r"})()
    assert table.dismissed == 1 and table.state == "playing"


def test_a_dialog_whose_owner_is_named_a_moment_late_is_still_closed_as_the_games_own():
    """gnome-mines under load mapped its "start a new game?" dialog before the properties naming its owner: the
    cover is looked at once more before play stops over it."""
    table, _backend, player = finished_table_and_player(lost_keys=0)
    table.covered_by, table.cover_is_own, table.owner_named_after = "gnome-mines", True, 1
    new_game_starter(player, FakeWindow(table), {"key": "ctrl+r"})()
    assert table.dismissed == 1 and table.state == "playing"


def test_a_window_not_of_the_game_over_the_board_stops_the_next_game():
    from autoplay.control.guard import BoardCovered

    table, backend, player = finished_table_and_player(lost_keys=0)
    table.covered_by = "xmessage"
    with pytest.raises(BoardCovered):
        new_game_starter(player, FakeWindow(table), {"key": "ctrl+r"})()
    assert table.dismissed == 0 and backend.keys == []


def test_a_high_scores_dialog_after_every_game_is_closed_every_time():
    """kmines shows "High Scores" after each win with a new best time: the budget of dialogs is per game, so a
    long session is not stopped after its twentieth win (it was, once, after 46 games)."""
    table, _backend, player = finished_table_and_player(lost_keys=0)
    start = new_game_starter(player, FakeWindow(table), {"key": "ctrl+r"})
    for game in range(2, 30):
        table.covered_by, table.cover_is_own = "High Scores", True
        start()
        player.play_game(game)
    assert table.dismissed == 28


def test_a_dialog_the_game_keeps_reopening_stops_play():
    from autoplay.control.guard import BoardCovered

    table, _backend, player = finished_table_and_player(lost_keys=0)
    for _ in range(5):
        table.covered_by, table.cover_is_own = "High Scores", True
        player.check_window()
    table.covered_by, table.cover_is_own = "High Scores", True
    with pytest.raises(BoardCovered):
        player.check_window()
