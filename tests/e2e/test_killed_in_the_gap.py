"""The game killed between the guard's last check and a press, on purpose (the test hook widens that gap).

The press that follows must land on autoplay's own backstop window, never on the program below the game (a
bystander window, here), and play must stop with one line and exit code 4.  Judged by the X server's RECORD of
which client every press was delivered to, and by the bystander's own log of the presses it received.
"""

from __future__ import annotations

import shutil

import pytest

from autoplay.control.xserver import start_window_manager
from tests.e2e.fault_harness import Table
from tests.e2e.gap_kill import kill_in_the_gap

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("manager", [None, "openbox"])
def test_a_game_killed_between_the_check_and_the_press_gets_no_press_through(tmp_path, manager):
    """Under a window manager the backstop lies inside the manager's frame (which outlives the dead game until
    autoplay's grab ends), just below the game's window; without one, on the root, just below the game."""
    table = Table(tmp_path)
    wm = None
    try:
        if manager is not None:
            if shutil.which(manager) is None:
                pytest.skip(f"{manager} is not installed")
            wm = start_window_manager(table.server.name, manager)
            table.relaunch()  # a game mapped under the manager, so that it is framed
        run = kill_in_the_gap(table, tmp_path / "run")
    finally:
        table.close()
        if wm is not None:
            wm.kill()
            wm.wait()
    assert run.outcome.fault_at is not None, "the play command ended before the fault was made"
    assert run.in_gap, "the game was not dead before the pause ended: the fault missed the gap"
    assert run.problems() == []
    assert run.caught >= 1, "no press fell through: the race was not made"
