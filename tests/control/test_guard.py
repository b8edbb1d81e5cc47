"""The X11 click guard against a real X server: plain python-xlib windows stand in for the game and the intruders."""

from __future__ import annotations

import pytest
from Xlib import X, display

from autoplay.control.guard import BoardCovered, WindowClosed, WindowMoved, change_message, intersects
from autoplay.control.xguard import X11Guard
from autoplay.control.xserver import VirtualDisplay, XConnection

pytestmark = pytest.mark.e2e

GAME = (100, 80, 600, 400)
BOARD = (130, 160, 540, 300)


@pytest.fixture
def x():
    with VirtualDisplay(1024, 768) as server:
        other = display.Display(server.name)  # the "other clients": the game and intruders
        yield server.name, other
        other.close()


def make_window(conn, rect, name="intruder", mapped=True):
    screen = conn.screen()
    win = screen.root.create_window(
        *rect, 0, screen.root_depth, X.InputOutput, X.CopyFromParent, override_redirect=True
    )
    win.set_wm_name(name)
    if mapped:
        win.map()
    conn.sync()
    return win


def guard_for(name, game):
    return X11Guard(XConnection(name), game.id, GAME, "game")


def test_a_clear_board_passes_and_intruders_elsewhere_do_not_count(x):
    name, other = x
    game = make_window(other, GAME, "game")
    make_window(other, (0, 0, 90, 70))  # above the game, off the board
    make_window(other, (140, 170, 50, 50), mapped=False)  # over the board but not shown
    guard = guard_for(name, game)
    guard.check_clear(BOARD)
    below = make_window(other, (140, 170, 50, 50))
    below.configure(stack_mode=X.Below)  # shown, but under the game window
    other.sync()
    guard.check_clear(BOARD)


def test_a_window_over_the_board_is_named(x):
    name, other = x
    game = make_window(other, GAME, "game")
    guard = guard_for(name, game)
    make_window(other, (600, 420, 160, 80), "xmessage")  # overlaps the board's bottom-right corner
    with pytest.raises(BoardCovered, match="the board is covered by window 'xmessage'") as info:
        guard.check_clear(BOARD)
    assert info.value.exit_code == 4


def test_a_moved_resized_or_closed_window_is_named(x, capfd):
    name, other = x
    game = make_window(other, GAME, "game")
    guard = guard_for(name, game)
    game.configure(x=220, y=170)
    other.sync()
    with pytest.raises(WindowMoved, match=r"the window moved by \(\+120,\+90\)"):
        guard.check_clear(BOARD)
    game.configure(x=100, y=80, width=500)
    other.sync()
    with pytest.raises(WindowMoved, match="resized from 600x400 to 500x400"):
        guard.check_clear(BOARD)
    game.destroy()
    other.sync()
    with pytest.raises(WindowClosed, match="the window was closed"):
        guard.check_clear(BOARD)
    with pytest.raises(WindowClosed, match="the window was closed"):
        guard.focus()  # an asynchronous BadWindow becomes the message ...
    assert "X protocol error" not in capfd.readouterr().err  # ... and is not printed


def test_nothing_can_map_over_the_board_while_the_guard_holds(x):
    """Another client's map request waits for the end of the held block (the server is grabbed)."""
    import threading
    import time

    name, other = x
    game = make_window(other, GAME, "game")
    guard = guard_for(name, game)
    intruder = threading.Thread(target=make_window, args=(other, (140, 170, 50, 50)))
    with guard.holding(BOARD):
        intruder.start()
        time.sleep(0.3)
        assert intruder.is_alive()  # its sync is still waiting for the server
        guard.check_clear(BOARD)  # and the board is still clear
    intruder.join(timeout=5)
    assert not intruder.is_alive()
    with pytest.raises(BoardCovered), guard.holding(BOARD):
        pass


def test_helpers():
    assert intersects((0, 0, 10, 10), (9, 9, 5, 5)) and not intersects((0, 0, 10, 10), (10, 0, 5, 5))
    assert change_message((0, 0, 5, 5), (-3, 4, 5, 5)) == "the window moved by (-3,+4)"


def take_pings(conn, win):
    conn_protocols = conn.intern_atom("WM_PROTOCOLS")
    win.set_wm_protocols([conn.intern_atom("WM_DELETE_WINDOW"), conn.intern_atom("_NET_WM_PING")])
    conn.sync()
    return conn_protocols


#: The event masks toolkits send a ping's answer to the root with (GTK 3; Qt 5/6's xcb plugin): a watcher
#: that selects only one of the notify masks misses the other toolkit's answers.
ANSWER_MASKS = {
    "gtk": X.SubstructureRedirectMask | X.SubstructureNotifyMask,
    "qt": X.StructureNotifyMask | X.SubstructureRedirectMask,
}


def answer_pings(conn, protocols, mask=ANSWER_MASKS["gtk"]):
    """What a GTK or Qt client does when its event loop runs: send each ping back to the root window."""
    from Xlib.protocol import event

    root = conn.screen().root
    while conn.pending_events():
        ev = conn.next_event()
        if ev.type == X.ClientMessage and ev.client_type == protocols:
            reply = event.ClientMessage(window=root, client_type=protocols, data=ev.data)
            root.send_event(reply, event_mask=mask)
    conn.flush()


def test_a_game_that_takes_no_pings_cannot_be_asked(x):
    name, other = x
    game = make_window(other, GAME, "game")  # like xdemineur: WM_PROTOCOLS without _NET_WM_PING
    assert guard_for(name, game).caught_up(1.0) is None


@pytest.mark.parametrize("toolkit", sorted(ANSWER_MASKS))
def test_a_game_that_answers_its_ping_has_caught_up(x, toolkit):
    import threading

    name, other = x
    game = make_window(other, GAME, "game")
    protocols = take_pings(other, game)
    stop = threading.Event()

    def event_loop():
        while not stop.wait(0.05):
            answer_pings(other, protocols, ANSWER_MASKS[toolkit])

    loop = threading.Thread(target=event_loop, daemon=True)
    loop.start()
    try:
        answered = guard_for(name, game).caught_up(5.0)
    finally:
        stop.set()
        loop.join()
    assert answered is not None and 0 <= answered < 5.0


def test_a_game_that_never_reads_its_events_is_named_not_waited_for_forever(x):
    from autoplay.control.guard import GameNotResponding

    name, other = x
    game = make_window(other, GAME, "game")
    take_pings(other, game)  # ... and then never reads its events: a frozen game
    with pytest.raises(GameNotResponding, match="did not answer for 1 s"):
        guard_for(name, game).caught_up(1.0)


def test_asking_a_closed_window_says_so(x):
    name, other = x
    game = make_window(other, GAME, "game")
    guard = guard_for(name, game)
    game.destroy()
    other.sync()
    with pytest.raises(WindowClosed):
        guard.caught_up(1.0)


def test_a_window_destroyed_while_the_guard_looks_covers_nothing(x, monkeypatch):
    """A dialog over the board that goes between the guard reading the stacking order and asking about each
    window (kmines' "High Scores" closing) covers nothing: it was once taken for the game's own window closing."""
    name, other = x
    game = make_window(other, GAME, "game")
    dialog = make_window(other, (140, 170, 200, 100), "High Scores")
    guard = guard_for(name, game)
    tree = guard.x.root.query_tree()
    dialog.destroy()
    other.sync()
    monkeypatch.setattr(guard.x.root, "query_tree", lambda: tree)  # the order read just before it went
    guard.check_clear(BOARD)


def test_a_press_is_made_only_while_the_pointer_is_over_the_game(x, monkeypatch):
    """A game killed a moment before the batch is found dead by the server only when it next writes to it, which
    our own pointer motion can cause while the grab holds: its window then goes, and the press would land on the
    root (the fault suite saw it once). The pointer's window is asked right before each press."""
    from autoplay.control.xguard import XTestPointer

    name, other = x
    game = make_window(other, GAME, "game")
    guard = guard_for(name, game)
    pointer = XTestPointer(guard.x, keys=None, guard=guard)
    pointer.move(300, 300)
    with guard.holding(BOARD):
        guard.check_under_pointer()  # over the game: fine
    real = guard.x.root.query_pointer

    class OverRoot:
        child = None

    monkeypatch.setattr(guard.x.root, "query_pointer", OverRoot)
    with pytest.raises(BoardCovered, match="would land on 'the root window'"), guard.holding(BOARD):
        pointer.click(300, 300, "left")
    monkeypatch.setattr(guard.x.root, "query_pointer", real)
    assert (real().root_x, real().root_y) == (300, 300)
