"""Input discovery and the recording reader's documented errors."""

import json

import pytest

from autoplay.board.textformat import parse_board
from autoplay.errors import AutoplayError
from autoplay.replay.decide import decide_move
from autoplay.replay.recording import RecordingFormatError, read_recording
from autoplay.replay.sources import SINGLE_FILE_OUT, collect_frames

from .fakes import write_frame, write_recording

BOARD = "mines=1\n1.\n..\n"
DECISION = {
    "type": "decision",
    "game": 2,
    "frame": "frames/000007.png",
    "board": BOARD,
    "grid": {"rows": 2},
    "moves": [{"action": "reveal", "row": 1, "col": 1, "probability": 0.25}],
    "guess": True,
    "reason": "lowest",
    "state": "playing",
    "timing": {"decode_ms": 3.5},
    "extra": "ignored",
}


def test_single_file_and_missing_paths(tmp_path):
    shot = write_frame(tmp_path, "shot", BOARD)
    source = collect_frames(shot)
    assert [f.path for f in source.frames] == [shot] and source.default_out == SINGLE_FILE_OUT
    with pytest.raises(AutoplayError, match="no such file or folder"):
        collect_frames(tmp_path / "missing")
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(AutoplayError, match="no screenshots"):
        collect_frames(empty)


def test_read_recording_fields(tmp_path):
    rec = write_recording(
        tmp_path / "rec",
        {"skin": "gnome-mines", "rules": "zero", "mines": 1, "time_limit": 0.5},
        [DECISION, {"type": "game", "game": 2, "result": "lost", "guesses": 3}],
    )
    recording = read_recording(rec)
    assert recording.skin == "gnome-mines" and recording.rules.first_click == "zero" and recording.mines == 1
    assert recording.time_limit == 0.5
    assert not recording.closed_batches  # recordings from before play closed its batches replay as they were made
    (d,) = recording.decisions
    assert d.frame == rec / "frames" / "000007.png" and d.game == 2 and d.line == 1
    assert d.board.mines == 1 and d.board.row_strings() == ["1.", ".."]
    assert d.moves[0].key == ("reveal", 1, 1) and d.moves[0].probability == 0.25
    assert d.guess and d.grid == {"rows": 2} and d.timing == {"decode_ms": 3.5}
    assert recording.games[0].result == "lost" and recording.games[0].details == {"guesses": 3}


def test_a_recording_of_closed_batches_replays_them_closed(tmp_path):
    rec = write_recording(tmp_path / "rec", {"skin": "gnome-mines", "closed_batches": True}, [DECISION])
    assert read_recording(rec).closed_batches
    board = parse_board("mines=1\n011\n01.\n01.")
    assert [m.action for m in decide_move(board, 1).moves] == ["flag"]  # one rule: the flag alone
    assert [m.action for m in decide_move(board, 1, closed=True).moves] == ["reveal", "flag"]


@pytest.mark.parametrize(
    "line, fragment",
    [
        ("{not json", "decisions.jsonl:2: not valid JSON"),
        ("[1, 2]", "decisions.jsonl:2: each line must be a JSON object"),
        ('{"type": "move"}', "unknown record type 'move'"),
        (json.dumps({**DECISION, "board": "1.\n...\n"}), "row 1 has 3 cells"),
        (json.dumps({k: v for k, v in DECISION.items() if k != "moves"}), "decisions.jsonl:2: missing 'moves'"),
        (json.dumps({**DECISION, "moves": [{"action": "reveal", "row": "1", "col": 1}]}), "'row' has the wrong type"),
    ],
)
def test_malformed_decision_lines_name_file_and_line(tmp_path, line, fragment):
    rec = write_recording(tmp_path / "rec", {"skin": "x"}, [DECISION])
    with open(rec / "decisions.jsonl", "a") as f:
        f.write(line + "\n")
    with pytest.raises(RecordingFormatError, match=fragment.replace("(", r"\(")):
        read_recording(rec)


def test_bad_session_and_missing_log(tmp_path):
    rec = write_recording(tmp_path / "rec", {"skin": "x", "rules": {"first_click": "always"}}, [DECISION])
    with pytest.raises(RecordingFormatError, match="unknown first-click rule"):
        read_recording(rec)
    (rec / "decisions.jsonl").unlink()
    with pytest.raises(RecordingFormatError, match="no decisions.jsonl"):
        read_recording(rec)


def test_recording_without_decisions_is_an_error(tmp_path):
    rec = write_recording(tmp_path / "rec", {"skin": "x"}, [{"type": "game", "game": 1, "result": "won"}])
    with pytest.raises(AutoplayError, match="holds no decisions"):
        collect_frames(rec)
