"""The game's answer to a ping, asked of a real gnome-mines under Xvfb: a game that dies meanwhile ends the wait."""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest

from autoplay.control.games import launch_game
from autoplay.control.xping import NoAnswer, WindowGone, ping
from autoplay.control.xserver import VirtualDisplay


def test_a_game_killed_while_it_is_asked_ends_the_wait_at_once(tmp_path):
    """Stopped (SIGSTOP) it cannot answer; killed 0.5 s later, its window goes, and the wait ends then, not after
    the 20 s allowed (a killed game once held play 30 s and was then called frozen)."""
    with VirtualDisplay() as server, launch_game("gnome-mines", server.name, workdir=tmp_path / "game") as game:
        assert ping(server.name, game.window.id, 10.0) is not None  # alive, it answers
        os.killpg(game.process.pid, signal.SIGSTOP)
        with pytest.raises(NoAnswer):
            ping(server.name, game.window.id, 0.5)
        threading.Timer(0.5, os.killpg, (game.process.pid, signal.SIGKILL)).start()
        started = time.monotonic()
        with pytest.raises(WindowGone):
            ping(server.name, game.window.id, 20.0)
        assert time.monotonic() - started < 5.0
