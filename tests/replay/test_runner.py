"""Replay loop: per-frame outcomes, annotated output, and reproduction of recorded decisions."""

import cv2

from autoplay.board import Board
from autoplay.replay.decide import decide_move
from autoplay.replay.runner import Replayer
from autoplay.replay.sources import collect_frames

from .fakes import TextDecoder, write_frame, write_recording

PLAYING = "mines=3\n..1..\n..1..\n111..\n.....\n"
LOST = "mines=3\n..1..\n.X1..\n111..\n.....\n"
IMPOSSIBLE = "mines=3\n3....\n.1...\n.....\n"


def test_folder_replay_reports_each_frame_and_keeps_going(tmp_path):
    frames = tmp_path / "shots"
    write_frame(frames, "001", PLAYING)
    write_frame(frames, "002", None)  # vision finds no board
    write_frame(frames, "003", IMPOSSIBLE)  # the solver finds a contradiction
    write_frame(frames, "004", LOST)
    (frames / "notes.md").write_text("not a frame")
    source = collect_frames(frames)
    assert [f.name for f in source.frames] == ["001", "002", "003", "004"]
    out = tmp_path / "out"
    outcomes = list(Replayer(TextDecoder(), out).run(source.frames))
    assert [o.status for o in outcomes] == ["ok", "failed", "failed", "over"]
    assert "no board found" in outcomes[1].problems[0] and "002.unreadable.png" in outcomes[1].problems[0]
    assert "needs 3 more mines" in outcomes[2].problems[0]
    expected = decide_move(Board.from_text(PLAYING), 3)
    assert outcomes[0].decision.moves == expected.moves
    picture = cv2.imread(str(outcomes[0].annotated))
    frame = cv2.imread(str(frames / "001.png"))
    h, w = frame.shape[:2]
    assert picture.shape[0] > h and picture.shape[1] >= w  # frame plus caption (widened for long text)
    assert (picture[:h, :w] != frame).any()
    assert outcomes[3].annotated.exists() and outcomes[3].decision is None


def recorded_decision(frame: str, board_text: str, moves: list[dict], game: int = 1) -> dict:
    return {
        "type": "decision",
        "game": game,
        "frame": f"frames/{frame}.png",
        "board": board_text,
        "grid": None,
        "moves": moves,
        "guess": False,
        "reason": "test",
        "state": "playing",
        "timing": {},
    }


def as_records(decision) -> list[dict]:
    return [{"action": m.action, "row": m.row, "col": m.col, "probability": m.probability} for m in decision.moves]


def test_recording_decisions_are_reproduced_and_mismatches_named(tmp_path):
    rec = tmp_path / "rec"
    second = "mines=3\n..1..\n..1..\n112..\n.....\n"
    write_frame(rec / "frames", "000001", PLAYING)
    write_frame(rec / "frames", "000002", second)
    write_frame(rec / "frames", "000003", PLAYING)
    truth1 = decide_move(Board.from_text(PLAYING), 3)
    records = [
        recorded_decision("000001", PLAYING, as_records(truth1)),
        recorded_decision("000002", second, [{"action": "reveal", "row": 3, "col": 4, "probability": 0.5}]),
        # the live player read one cell differently from what the frame shows now
        recorded_decision("000003", second, as_records(truth1)),
        {"type": "game", "game": 1, "result": "won"},
    ]
    write_recording(rec, {"skin": "fake", "rules": {"first_click": "zero", "win": "reveal"}}, records)
    source = collect_frames(rec)
    assert source.recording.skin == "fake" and source.recording.rules.first_click == "zero"
    assert source.default_out is None  # a recording's pictures are written only where --out says
    outcomes = list(Replayer(TextDecoder(), None, rules=source.recording.rules).run(source.frames))
    assert [o.status for o in outcomes] == ["ok", "mismatch", "mismatch"]
    assert outcomes[1].problems == ["decision differs: recorded reveal (3,4); replayed reveal (2,3), reveal (3,2)"]
    assert outcomes[2].problems == ["board differs from the recording (recorded->decoded): (2,2) '2'->'1'"]
    assert all(o.annotated is None for o in outcomes)  # no output folder, no pictures


def test_a_mine_count_from_outside_the_picture_lets_replay_see_a_win(tmp_path):
    frames = tmp_path / "shots"
    write_frame(frames, "won", "1.\n11\n")  # no mines= header: vision could not tell the count
    source = collect_frames(frames).frames
    (unknown_count,) = Replayer(TextDecoder(), None).run(source)
    assert unknown_count.status == "ok" and unknown_count.move_text == "flag (0,1) [certain]"
    (known_count,) = Replayer(TextDecoder(), None, mines=1).run(source)
    assert known_count.status == "over" and known_count.decision is None
