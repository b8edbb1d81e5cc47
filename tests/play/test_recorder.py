"""The recording a live session leaves behind, as ``autoplay replay`` reads it."""

from __future__ import annotations

import json

import numpy as np

from autoplay.board.model import Board
from autoplay.board.rules import Rules
from autoplay.play.recorder import Recorder
from autoplay.replay.recording import read_recording
from autoplay.solver import Move


def test_frames_decisions_games_and_session_round_trip(tmp_path):
    rec = Recorder(tmp_path, "xdemineur", Rules("none", "flag-all"), mines=99)
    frame = np.zeros((20, 30, 3), np.uint8)
    first = rec.frame(frame)
    kept = rec.frame(frame, "unreadable")
    board = Board.from_text("..1\n.21\n11.").with_mines(2)
    rec.decision(
        1,
        first,
        board,
        {"rows": 3, "cols": 3, "xs": [0, 1, 2, 3], "ys": [0, 1, 2, 3]},
        [Move("reveal", 0, 0, 0.25), Move("flag", 1, 0, 1.0)],
        True,
        "guess: test",
        "playing",
        {"capture": 0.001, "settle": 0.03, "decode": 0.004, "solve": 0.0005, "click": 0.002},
    )
    rec.game(1, "lost", seconds=1.5)
    rec.close(wins=0, losses=1)

    assert (first, kept) == ("frames/000001.png", "frames/000002-unreadable.png")
    assert (tmp_path / kept).is_file()
    session = json.loads((tmp_path / "session.json").read_text())
    assert session["skin"] == "xdemineur" and session["rules"] == {"first_click": "none", "win": "flag-all"}
    assert session["games"] == 1 and session["losses"] == 1 and "started" in session and "finished" in session

    recording = read_recording(tmp_path)
    (decision,) = recording.decisions
    assert decision.board == board and decision.guess and decision.state == "playing"
    assert [m.key for m in decision.moves] == [("reveal", 0, 0), ("flag", 1, 0)]
    assert set(decision.timing) == {"capture", "settle", "decode", "solve", "click"}
    assert [(g.game, g.result) for g in recording.games] == [(1, "lost")]
    assert recording.rules == Rules("none", "flag-all")


def test_frames_waiting_for_the_writer_are_bounded_and_flush_writes_them_all(tmp_path, monkeypatch):
    import time

    from autoplay.play import recorder as recorder_module

    written = []

    def slow_write(path, image, **options):  # a writer thread that falls behind, as on a loaded machine
        time.sleep(0.01)
        written.append(path)

    monkeypatch.setattr(recorder_module, "_write_png", slow_write)
    rec = Recorder(tmp_path, "xdemineur", Rules("none", "flag-all"), mines=99)
    queued = []
    for i in range(30):
        rec.frame(np.full((20, 30, 3), i, np.uint8))
        queued.append(len(rec._pending))
    assert max(queued) <= recorder_module.MAX_PENDING  # the live loop waits instead of holding every frame
    rec.flush()
    assert rec._pending == [] and len(written) == 30
    rec.close()
