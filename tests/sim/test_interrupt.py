"""Ctrl-C during a multi-process simulation: one line on stderr, exit 130, no worker tracebacks."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest


@pytest.mark.parametrize("attempt", range(4))
def test_ctrl_c_during_simulate_with_two_jobs_is_one_line_and_130(attempt):
    # a terminal's Ctrl-C signals the whole process group, workers included: do the same
    proc = subprocess.Popen(
        [sys.executable, "-m", "autoplay", "simulate", "--games", "100000", "--jobs", "2", "--preset", "expert"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        text=True,
    )
    time.sleep(1.5 + 0.4 * attempt)  # at different moments: while workers start, and while they play
    os.killpg(proc.pid, signal.SIGINT)
    _out, err = proc.communicate(timeout=30)
    lines = [line for line in err.replace("\r", "\n").splitlines() if line.strip() and "simulate" not in line]
    assert proc.returncode == 130, err
    # one line; when some games had finished it says the summary printed is theirs
    assert len(lines) == 1 and lines[0].startswith("autoplay: interrupted"), err
    assert "Traceback" not in err
