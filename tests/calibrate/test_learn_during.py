"""``play --learn`` while a game goes on: unknown tiles proven opened are named by the rules, never by looks.

The frame is a real sgt-mines mid-game (``tile20_mid_five``: 37 flags, eight 4s and a 5); the skin is the one
live calibration wrote from three blind games, which knows 0–3, the covered tile, the flag and the exploded
mine, but no 4 or 5.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from autoplay.board.model import Board
from autoplay.calibrate.learn import learn_during_game
from autoplay.calibrate.learned_templates import add_learned
from autoplay.vision import decode_frame, load_skin, read_image
from autoplay.vision.grid import Grid

HERE = Path(__file__).resolve().parents[1] / "fixtures" / "sgt-mines"
FOURS = [(6, 3), (6, 4), (6, 5), (8, 16), (9, 6), (10, 6), (10, 16), (14, 16)]
FIVE = (12, 16)


@pytest.fixture(scope="module")
def game():
    frame = read_image(HERE / "tile20_mid_five.png")
    decoded = decode_frame(frame, load_skin("sgt-live", HERE / "skin"), None, 99)
    truth = Board.from_text((HERE / "tile20_mid_five.txt").read_text())
    flags = [divmod(i, truth.cols) for i, c in enumerate(truth.cells) if c == "F"]
    return frame, decoded, flags


def test_the_unknown_tiles_are_the_fours_and_the_five(game):
    _, decoded, _ = game
    assert sorted(decoded.unreadable) == sorted([*FOURS, FIVE])


def test_one_four_proven_opened_names_every_four_and_leaves_the_five_open(game, tmp_path):
    frame, decoded, flags = game
    learned = learn_during_game(frame, decoded.grid, decoded.board, decoded.unreadable, [(6, 3)], flags)
    assert [(t.label, sorted(t.cells)) for t in learned] == [("4", FOURS)]
    # added to (a copy of) the skin as play --learn adds it, the picture reads the fours, and nothing else, as 4
    shutil.copytree(HERE / "skin", tmp_path / "skin")
    add_learned(tmp_path / "skin", "sgt-live", learned, game=1, end="during")
    again = decode_frame(frame, load_skin("sgt-live", tmp_path / "skin"), decoded.grid, 99)
    assert [rc for rc in FOURS if again.board[rc] == "4"] == FOURS
    assert sorted(again.unreadable) == [FIVE] and again.board.cells.count("4") == len(FOURS)


def test_the_five_alone_is_not_decided_mid_game(game):
    """Around the 5, mines and covered cells still allow several values: nothing is named on looks."""
    frame, decoded, flags = game
    assert learn_during_game(frame, decoded.grid, decoded.board, decoded.unreadable, [FIVE], flags) == []


def test_nothing_is_learned_without_a_cell_proven_opened(game):
    frame, decoded, flags = game
    assert learn_during_game(frame, decoded.grid, decoded.board, decoded.unreadable, [], flags) == []


TK = Path(__file__).resolve().parents[1] / "fixtures" / "tk-clone"


def test_two_different_tiles_a_pixel_off_the_lattice_are_not_named_as_one():
    """Look 2 of the Tk clone draws every digit in one dark colour at 17 px; in play its last column but one sat
    a pixel off the located lattice, so its 2s and 3s matched no template and were 0.05 apart, inside the general
    clustering radius.  Grouped together, all of them were named 2 while the game went on (both values fit a
    board in play), and three games were lost on moves called certain.  Grouped tighter than the nearest two
    different tiles the board reads, each is named right or not at all."""
    frame = read_image(TK / "look2_mid.png")
    grid = Grid.from_dict(json.loads((TK / "look2_mid_grid.json").read_text()))
    decoded = decode_frame(frame, load_skin("look-2", TK / "look2-skin"), grid, 99)
    truth = Board.from_text((TK / "look2_mid_layout.txt").read_text())
    unknown = sorted(decoded.unreadable)
    column = [rc for rc in unknown if rc[1] == 28 and truth[rc] != "*"]
    assert {"2", "3"} <= {truth[rc] for rc in column}  # the two tiles the general radius merged
    flagged = [rc for rc in unknown if truth[rc] == "*"]
    flagged += [divmod(i, truth.cols) for i, c in enumerate(decoded.board.cells) if c == "F"]
    opened = [rc for rc in unknown if truth[rc] != "*"]  # every unknown number taken as proven opened
    learned = learn_during_game(frame, grid, decoded.board, unknown, opened, flagged)
    assert learned  # the 5s elsewhere are still named
    for tile in learned:
        assert {truth[rc] for rc in tile.cells} == {tile.label}
