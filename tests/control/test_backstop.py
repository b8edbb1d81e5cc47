"""The backstop under the game's window, against a real Xvfb: plain python-xlib windows stand in for the game.

The game, a bystander window below it, and a window manager's frame are other clients' windows; the guard and its
backstop are autoplay's.  What is checked is the X server's own answer: the stacking order, the window's class,
which client's window a press was delivered to.
"""

from __future__ import annotations

import pytest
from Xlib import X, display

from autoplay.control.guard import WindowClosed
from autoplay.control.xbackstop import BACKSTOP_NAME
from autoplay.control.xguard import PressGap, X11Guard, XTestPointer
from autoplay.control.xserver import VirtualDisplay, XConnection

pytestmark = pytest.mark.e2e

GAME = (100, 80, 600, 400)
BOARD = (130, 160, 540, 300)


@pytest.fixture
def server():
    with VirtualDisplay(1024, 768) as running:
        yield running.name


def make_window(conn, rect, name, parent=None):
    """A shown window of ``conn``'s client that takes button presses (as a game or any program would)."""
    screen = conn.screen()
    win = (parent or screen.root).create_window(
        *rect,
        0,
        screen.root_depth,
        X.InputOutput,
        X.CopyFromParent,
        override_redirect=True,
        background_pixel=screen.white_pixel,
        event_mask=X.ButtonPressMask,
    )
    win.set_wm_name(name)
    win.map()
    conn.sync()
    return win


def root_children(name):
    """The root's children, bottom first, asked on a fresh connection (the guard's own state is not trusted)."""
    conn = display.Display(name)
    try:
        return [int(child.id) for child in conn.screen().root.query_tree().children]
    finally:
        conn.close()


def presses(conn):
    """The ButtonPress events ``conn``'s client has been sent so far."""
    conn.sync()
    found = []
    while conn.pending_events():
        event = conn.next_event()
        if event.type == X.ButtonPress:
            found.append(int(event.window.id))
    return found


def test_holding_puts_an_input_only_window_of_its_own_just_below_the_game_over_the_board(server):
    other = display.Display(server)
    make_window(other, (0, 0, 1024, 768), "desktop")  # something below, as a user's desktop would be
    game = make_window(other, GAME, "game")
    guard = X11Guard(XConnection(server), game.id, GAME, "game")
    assert guard.backstop.id is None
    picture = other.screen().root.get_image(*GAME, X.ZPixmap, 0xFFFFFFFF).data
    with guard.holding(BOARD):
        pass
    stop = guard.backstop.id
    children = root_children(server)
    assert children.index(stop) == children.index(game.id) - 1
    window = other.create_resource_object("window", stop)
    assert window.get_attributes().win_class == X.InputOnly
    assert window.get_attributes().override_redirect
    geometry = window.get_geometry()
    assert (geometry.x, geometry.y, geometry.width, geometry.height) == BOARD
    assert window.get_wm_name() == BACKSTOP_NAME
    assert other.screen().root.get_image(*GAME, X.ZPixmap, 0xFFFFFFFF).data == picture  # draws nothing
    guard.close()
    assert stop not in root_children(server)
    other.close()


def test_the_backstop_goes_back_under_the_game_after_a_restack(server):
    other = display.Display(server)
    game = make_window(other, GAME, "game")
    guard = X11Guard(XConnection(server), game.id, GAME, "game")
    with guard.holding(BOARD):
        pass
    stop = guard.backstop.id
    elsewhere = make_window(other, (800, 600, 100, 100), "elsewhere")  # off the board: covers nothing
    game.configure(stack_mode=X.Below)  # the game lowered to the bottom: the backstop now lies above it
    elsewhere.configure(stack_mode=X.Below)  # and another window in between
    other.sync()
    with guard.holding(BOARD):  # not taken for a window over the board: it is ours, and is put back first
        pass
    children = root_children(server)
    assert children.index(stop) == children.index(game.id) - 1
    guard.close()
    other.close()


def test_under_a_frame_it_lies_inside_the_frame_just_below_the_game(server):
    """A window manager reparents the game into a frame, which outlives a dead game until the grab ends: the
    backstop goes inside the frame, directly below the game's window, over the board (in the frame's pixels)."""
    manager = display.Display(server)
    frame = make_window(manager, (GAME[0] - 5, GAME[1] - 25, GAME[2] + 10, GAME[3] + 30), "frame")
    other = display.Display(server)
    inside = other.create_resource_object("window", frame.id)  # the game's client creates its window in the frame
    make_window(other, (0, 0, 10, 10), "frame decoration", parent=inside)
    game = make_window(other, (5, 25, GAME[2], GAME[3]), "game", parent=inside)
    guard = X11Guard(XConnection(server), game.id, GAME, "game")
    with guard.holding(BOARD):
        pass
    children = [int(child.id) for child in frame.query_tree().children]
    stop = guard.backstop.id
    assert stop is not None and children.index(stop) == children.index(game.id) - 1
    geometry = manager.create_resource_object("window", stop).get_geometry()
    assert (geometry.x, geometry.y, geometry.width, geometry.height) == (35, 105, 540, 300)
    game.configure(stack_mode=X.Below)  # lowered below the backstop inside the frame
    other.sync()
    with guard.holding(BOARD):
        pass
    children = [int(child.id) for child in frame.query_tree().children]
    assert children.index(stop) == children.index(game.id) - 1
    guard.close()
    other.close()
    manager.close()


class KillInTheGap(PressGap):
    """The test hook's pause, used to close the game's connection between the last check and the press."""

    def __init__(self, game_conn, guard, game_id):
        super().__init__(0.0)
        self.game_conn, self.guard, self.game_id = game_conn, guard, game_id

    def wait(self):
        self.game_conn.close()  # the game dies: the server destroys its windows even though we hold the grab
        for _ in range(200):  # asked on the guard's own connection, the only one the grab lets through
            if self.game_id not in [c.id for c in self.guard.x.root.query_tree().children]:
                return
        raise AssertionError("the game's window outlived its client")


def test_a_press_after_the_game_died_lands_on_the_backstop_and_stops_play(server):
    bystander_conn = display.Display(server)
    bystander = make_window(bystander_conn, (0, 0, 1024, 768), "bystander")  # another program, below the game
    game_conn = display.Display(server)
    game = make_window(game_conn, GAME, "game")
    guard = X11Guard(XConnection(server), game.id, GAME, "game")
    pointer = XTestPointer(guard.x, keys=None, guard=guard)
    pointer.move(300, 300)
    with guard.holding(BOARD):
        pointer.click(300, 300, "left")  # a normal press: the game's
    assert presses(game_conn) == [game.id]
    pointer.gap = KillInTheGap(game_conn, guard, game.id)
    with pytest.raises(WindowClosed, match="the window was closed"), guard.holding(BOARD):
        pointer.click(300, 300, "left")
    assert presses(bystander_conn) == [], "a press reached the program below the game"
    assert bystander.id in root_children(server)
    guard.close()
    bystander_conn.close()


def test_without_a_press_nothing_is_read_as_struck(server):
    other = display.Display(server)
    game = make_window(other, GAME, "game")
    guard = X11Guard(XConnection(server), game.id, GAME, "game")
    pointer = XTestPointer(guard.x, keys=None, guard=guard)
    for _ in range(3):
        with guard.holding(BOARD):
            pointer.click(300, 300, "left")
    assert presses(other) == [game.id] * 3
    assert not guard.backstop.struck()
    guard.close()
    guard.close()  # twice is safe
    other.close()


def test_the_gap_hook_is_off_unless_a_test_sets_it(monkeypatch, tmp_path):
    monkeypatch.delenv("AUTOPLAY_TEST_PRESS_GAP", raising=False)
    assert PressGap.from_env().seconds == 0.0
    monkeypatch.setenv("AUTOPLAY_TEST_PRESS_GAP", "not a number")
    assert PressGap.from_env().seconds == 0.0
    mark = tmp_path / "gaps"
    monkeypatch.setenv("AUTOPLAY_TEST_PRESS_GAP", "0.01")
    monkeypatch.setenv("AUTOPLAY_TEST_PRESS_GAP_MARK", str(mark))
    gap = PressGap.from_env()
    gap.wait()
    gap.wait()
    assert mark.read_text().split("\n") == ["begin 1", "end 1", "begin 2", "end 2", ""]
