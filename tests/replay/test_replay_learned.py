"""A session whose skin learnt a tile during play replays to the same decisions with the skin as it is now."""

from __future__ import annotations

from autoplay.board import parse_board
from autoplay.replay.runner import board_differences


def test_a_cell_play_could_not_read_is_no_difference_once_the_skin_reads_it() -> None:
    """The recording keeps the decoder's best guess for a cell no template matched (played as covered); once the
    skin has learnt that tile, replay reads the true number there. Found on sgt-mines taught live: 55 of 121
    decisions were reported as 'board differs' for that alone."""
    recorded = parse_board("...1\n..F1\n1111\n")
    now = parse_board("...2\n..F1\n1111\n")
    assert board_differences(recorded, now, unread=[(0, 3)]) == []
    assert board_differences(recorded, now) != []  # a cell that was read is still compared
    assert board_differences(recorded, parse_board("...1\n..F2\n1111\n"), unread=[(0, 3)]) != []


def test_a_recorded_guess_no_cell_could_show_is_read_as_covered(tmp_path) -> None:
    """The recorder keeps the decoder's best guess for an unknown cell; one was a 6 at the board's edge (5
    neighbours), and the whole recording became unreadable to replay and audit (Firefox, web clone look 66044)."""
    from autoplay.replay.recording import RecordingFormatError, _parse_decision

    line = {"type": "decision", "frame": "frames/000001.png", "board": "mines=2\n..1\n116\n", "moves": []}
    decision = _parse_decision(tmp_path, {**line, "unknown": [[1, 2]]}, "decisions.jsonl:1", 1)
    assert decision.board.to_text().splitlines()[-1] == "11."
    assert decision.unknown == {(1, 2)}
    import pytest

    with pytest.raises(RecordingFormatError):  # a read cell that no game can show is still refused
        _parse_decision(tmp_path, line, "decisions.jsonl:1", 1)
