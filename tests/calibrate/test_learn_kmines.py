"""``play --learn`` on a real kmines loss: its popup hides two mines, and its lighter top row of opened tiles
reads as covered.

The skin is the one live calibration made (it never saw a 4); the frame is the final picture of a lost game
with the player's flags and the cells that were unknown during the game (``lost_popup_1.json``).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from autoplay.calibrate.learn import learn_from_final_board
from autoplay.vision import decode_frame, load_skin, read_image
from autoplay.vision.grid import Grid

HERE = Path(__file__).resolve().parents[1] / "fixtures" / "kmines" / "learn"
GRID = Grid(15.0 + 31 * np.arange(31), 13.0 + 31 * np.arange(17))  # the board's lattice in the cropped frame
Cell = tuple[int, int]
FOURS = [(1, 15), (4, 14), (5, 14), (10, 11), (14, 6), (14, 10)]  # by eye, and by the mines shown around


@pytest.fixture(scope="module")
def game() -> tuple[np.ndarray, object, list[Cell], list[Cell]]:
    frame = read_image(HERE / "lost_popup_1.png")
    decoded = decode_frame(frame, load_skin("kmines-live", HERE / "skin"), GRID, 99)
    record = json.loads((HERE / "lost_popup_1.json").read_text())
    return frame, decoded, [tuple(x) for x in record["seen"]], [tuple(x) for x in record["flagged"]]


def test_a_zero_beside_a_covered_cell_is_refused_not_read(game):
    _, decoded, _, _ = game
    # the top row's opened tiles are lighter than the one opened tile calibration saw: closer to the covered one
    assert {(0, 0), (0, 1), (0, 2), (0, 3), (1, 0)} <= set(decoded.refused) <= set(decoded.unreadable)
    assert decoded.board[(2, 0)] == "0" and (2, 0) not in decoded.unreadable


def test_the_unknown_fours_are_named_by_the_rules_and_refused_cells_never(game):
    frame, decoded, seen, flagged = game
    unseen_refused = set(seen) - set(decoded.refused)  # what play --learn passes (learn_after_game)
    learned = learn_from_final_board(frame, GRID, decoded.board, decoded.unreadable, unseen_refused, "lost", flagged)
    named = {rc: t.label for t in learned for rc in t.cells}
    assert named == dict.fromkeys(FOURS, "4")
    # the popup's cells appeared only at the end, and the refused ones may be covered: both obstructed, never named
    assert not {(7, 12), (7, 13), (8, 14)} & set(named) and not set(decoded.refused) & set(named)


def test_a_game_seen_to_show_every_mine_still_needs_room_for_the_hidden_ones(game):
    """The popup hides two of the 99 mines (ten cells unread); the numbers around it say so, and the mine
    count then decides each unknown 4 alone, with or without knowing that the game shows every mine."""
    from autoplay.calibrate.learn import _room_for_hidden_mines

    frame, decoded, _, flagged = game
    alone = [(1, 15)]
    for shows_every_mine in (False, True):
        learned = learn_from_final_board(
            frame, GRID, decoded.board, decoded.unreadable, alone, "lost", flagged, shows_every_mine
        )
        assert [(t.label, t.cells) for t in learned] == [("4", ((1, 15),))]
    popup = {(r, c) for r in (7, 8) for c in range(12, 18)} & set(decoded.unreadable)
    assert len(popup) >= 10
    board = decoded.board
    # a claim that the game shows every mine holds only while the obstructed cells can hold the mines not shown
    assert _room_for_hidden_mines(board, popup) and not _room_for_hidden_mines(board.with_mines(99 + 10), popup)


def test_a_tile_beside_what_appeared_only_at_the_end_is_not_learned(game):
    """A cell unknown during the game whose neighbours changed only at the end may lie partly under the popup:
    its picture is not the tile's (a 4 under a fading "You have lost." was once learnt, text and all, and read
    popups as 4s in later games)."""
    frame, decoded, _, flagged = game
    edge = (7, 12)  # a 2 with the popup's border drawn over its right side, taken here as unknown during the game
    assert edge not in decoded.unreadable and (7, 13) in decoded.unreadable
    unknown = [*decoded.unreadable, edge]
    learned = learn_from_final_board(frame, GRID, decoded.board, unknown, [*FOURS, edge], "lost", flagged)
    named = {rc for t in learned for rc in t.cells}
    assert named == set(FOURS)
