"""Decoding real screenshots of the shipped skins cell for cell, and refusing what cannot be read."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from autoplay.board.model import Board
from autoplay.board.rules import Rules
from autoplay.board.textformat import read_board
from autoplay.errors import AutoplayError, UnreadableBoardError
from autoplay.vision import check_consistency, decode_frame, list_skins, load_skin, locate_grid, read_image
from autoplay.vision.state import game_state

from .conftest import FIXTURES

CLONE_FIXTURES = sorted(
    (game, p.stem) for game in ("gnome-mines", "xdemineur") for p in (FIXTURES / game).glob("*.txt")
)


@pytest.fixture(scope="module")
def skins() -> dict:
    return {}


def skin_for(skins: dict, name: str):
    if name not in skins:
        skins[name] = load_skin(name, FIXTURES.parents[1])
    return skins[name]


@pytest.mark.parametrize("game,name", CLONE_FIXTURES)
def test_real_clone_screenshots_decode_exactly(skins: dict, game: str, name: str) -> None:
    truth = read_board(FIXTURES / game / f"{name}.txt")
    decoded = decode_frame(read_image(FIXTURES / game / f"{name}.png"), skin_for(skins, game))
    assert decoded.readable, decoded.unreadable
    assert decoded.board.row_strings() == truth.row_strings()
    assert decoded.labels.shape == (truth.rows, truth.cols)
    assert decoded.confidence.min() >= skin_for(skins, game).min_confidence
    if truth.mines is not None:  # the label's total is what the game's mine counter shows
        assert decoded.board.mines == truth.mines, decoded.counter
    assert decoded.state == game_state(truth, skin_for(skins, game).rules)


def test_total_mines_come_from_the_counter_then_the_board_size(skins: dict) -> None:
    gnome = skin_for(skins, "gnome-mines")
    decoded = decode_frame(read_image(FIXTURES / "gnome-mines" / "expert_dense_78.png"), gnome)
    assert (decoded.counter, decoded.board.mines) == ("0/336", 336)  # a custom count the size table cannot know
    without_counter = dataclasses.replace(gnome, counter=None)
    assert decode_frame(read_image(FIXTURES / "gnome-mines" / "expert_open.png"), without_counter).board.mines == 99
    xdemineur = skin_for(skins, "xdemineur")
    decoded = decode_frame(read_image(FIXTURES / "xdemineur" / "small_mid8.png"), xdemineur)
    assert (decoded.counter, decoded.board.mines) == ("0009", 10)  # the LED shows mines not yet flagged
    assert decode_frame(read_image(FIXTURES / "xdemineur" / "small_mid8.png"), xdemineur, mines=12).board.mines == 12
    blind = dataclasses.replace(xdemineur, counter=None)
    assert decode_frame(read_image(FIXTURES / "xdemineur" / "small_fresh.png"), blind).board.mines is None


def test_given_grid_is_used_as_is(skins: dict) -> None:
    image = read_image(FIXTURES / "xdemineur" / "expert_mid3.png")
    skin = skin_for(skins, "xdemineur")
    grid = locate_grid(image, skin)
    shifted = decode_frame(image, skin, grid.shifted(0, 21))  # one row down: the last row is off the board
    assert shifted.grid == grid.shifted(0, 21)
    assert shifted.board.row_strings()[:-1] == decode_frame(image, skin, grid).board.row_strings()[1:]


def test_dialog_over_the_board_is_unreadable_with_debug_image(skins: dict, tmp_path: Path) -> None:
    # As in the live loop: the grid is known from an earlier frame when the top-ten dialog pops up over it.
    skin = skin_for(skins, "gnome-mines")
    grid = locate_grid(read_image(FIXTURES / "gnome-mines" / "beginner_end.png"), skin)
    decoded = decode_frame(read_image(FIXTURES / "gnome-mines" / "beginner_score_dialog.png"), skin, grid)
    assert not decoded.readable and decoded.state == "unknown"
    assert len(decoded.unreadable) >= 30  # the dialog covers most of the 8x8 board
    debug = tmp_path / "debug" / "bad.png"
    with pytest.raises(UnreadableBoardError) as info:
        decoded.require_readable(debug)
    assert info.value.exit_code == 3
    r, c = decoded.unreadable[0]
    assert f"({r},{c})" in str(info.value) and str(debug) in str(info.value)
    marked = read_image(debug)
    x0, y0, _x1, _y1 = decoded.grid.cell_rect(r, c)
    assert tuple(marked[y0 + 1, x0 + 1]) == (0, 0, 255)  # the bad cell is boxed in red


def test_unknown_tile_is_unreadable_not_guessed(skins: dict) -> None:
    image = read_image(FIXTURES / "xdemineur" / "expert_mid3.png").copy()
    skin = skin_for(skins, "xdemineur")
    grid = locate_grid(image, skin)
    x0, y0, x1, y1 = grid.cell_rect(5, 7)
    image[y0:y1, x0:x1] = (255, 0, 255)  # a tile no skin has
    decoded = decode_frame(image, skin, grid)
    assert decoded.unreadable == [(5, 7)]
    assert decoded.unreadable_mask.sum() == 1 and decoded.unreadable_mask[5, 7]
    assert decoded.confidence[5, 7] < skin.min_confidence


def test_contradictory_decode_is_reported_as_misread(skins: dict) -> None:
    decoded = decode_frame(read_image(FIXTURES / "xdemineur" / "small_mid8.png"), skin_for(skins, "xdemineur"))
    check_consistency(decoded)  # the real decode is consistent
    board = decoded.board
    zero = next(i for i, ch in enumerate(board.cells) if ch == "0")
    r, c = board.at(zero)
    misread = dataclasses.replace(decoded, board=board.replace({(r, c): "8"}))
    with pytest.raises(UnreadableBoardError, match="misread") as info:
        check_consistency(misread)
    assert f"({r},{c})" in str(info.value)


def test_game_state_follows_each_win_rule() -> None:
    reveal = Board.from_text("mines=2\n1F\n1.\n")
    assert game_state(reveal, Rules(win="reveal")) == "won"
    assert game_state(reveal, Rules(win="flag-all")) == "playing"
    assert game_state(Board.from_text("mines=2\n1F\n1F\n"), Rules(win="flag-all")) == "won"
    assert game_state(Board.from_text("mines=2\n1.\n..\n"), Rules()) == "playing"
    assert game_state(Board.from_text("1X\n1.\n"), Rules()) == "lost"
    assert game_state(Board.from_text("1.\n1.\n"), Rules()) == "playing"  # mine count unknown: cannot call a win
    assert game_state(reveal, Rules(), readable=False) == "unknown"


def test_read_image_errors_are_one_line_exit_3(tmp_path: Path) -> None:
    with pytest.raises(UnreadableBoardError, match="no such image") as info:
        read_image(tmp_path / "missing.png")
    assert info.value.exit_code == 3
    text = tmp_path / "board.png"
    text.write_text("not a picture")
    with pytest.raises(UnreadableBoardError, match="not an image"):
        read_image(text)


def test_skins_are_found_and_unknown_ones_listed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert {"gnome-mines", "xdemineur", "win7"} <= set(list_skins())
    skin = load_skin("xdemineur")
    assert skin.rules == Rules(first_click="none", win="flag-all")
    assert skin.window["wm_class"] == "xdemineur" and skin.new_game == {"click": "face"}
    assert set("012.F*X") <= set(skin.templates)
    with pytest.raises(AutoplayError, match="unknown skin 'no-such-game'") as info:
        load_skin("no-such-game")
    assert all(name in str(info.value) for name in ("gnome-mines", "win7", "xdemineur"))
    monkeypatch.setenv("AUTOPLAY_HOME", str(tmp_path))  # an empty user home: the shipped skins are still there
    assert load_skin("xdemineur").rules == skin.rules
    with pytest.raises(AutoplayError, match="available .*none"):
        load_skin("xdemineur", tmp_path)


def test_shipped_gnome_skin_knows_its_game() -> None:
    skin = load_skin("gnome-mines")
    assert skin.rules == Rules(first_click="zero", win="reveal")
    assert skin.mines_for(16, 16) == 40 and skin.new_game == {"key": "ctrl+r"}
    assert skin.pitch_range[0] <= 28 and skin.pitch_range[1] >= 77
    assert np.all(np.isfinite(skin.template_matrix()[0]))


def test_won_xdemineur_needs_every_mine_flagged(skins: dict) -> None:
    image = read_image(FIXTURES / "xdemineur" / "small_won.png")
    skin = skin_for(skins, "xdemineur")
    assert decode_frame(image, dataclasses.replace(skin, counter=None)).state == "playing"  # no total: no win
    assert decode_frame(image, skin).state == "won"  # the LED's 0000 with 10 flags gives the total
    won = decode_frame(image, skin, mines=10)
    assert won.state == "won" and won.board.mines == 10 and won.board.count("F") == 10
    assert decode_frame(image, skin, mines=11).state == "playing"
