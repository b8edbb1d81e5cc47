"""A press and its count are one step: Ctrl-C waits until both are done (the report then agrees with the server)."""

from __future__ import annotations

import os
import signal

import pytest

from autoplay.control.mouse import ctrl_c_held


def test_ctrl_c_during_a_press_arrives_after_the_count():
    counted = []
    with pytest.raises(KeyboardInterrupt), ctrl_c_held():
        os.kill(os.getpid(), signal.SIGINT)  # the user's Ctrl-C, in the middle of the press
        counted.append("press")  # still counted
    assert counted == ["press"]
