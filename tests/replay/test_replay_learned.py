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
