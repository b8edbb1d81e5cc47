"""``play --learn`` on real sgt-mines frames and the skin live calibration made for them (it never saw a 4 or a 5).

The rules name a tile only when the final board decides it; every learned
template is logged and ``--forget-learned`` gives back the skin as it was.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from autoplay.board.model import Board
from autoplay.calibrate.learn import learn_from_final_board
from autoplay.calibrate.learn_game import learn_after_game
from autoplay.calibrate.learned_templates import add_learned, forget_learned, learned_log
from autoplay.cli.main import main
from autoplay.cli.play import learning_hook
from autoplay.play.player import GameResult
from autoplay.vision import decode_frame, load_skin, read_image

SGT = Path(__file__).resolve().parents[1] / "fixtures" / "sgt-mines"
NAME = "sgt-live"


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """A copy of the live-calibrated skin, free to change."""
    shutil.copytree(SGT / "skin", tmp_path / "skin")
    return tmp_path / "skin"


def frame_and_truth(name: str) -> tuple[np.ndarray, Board]:
    return read_image(SGT / f"{name}.png"), Board.from_text((SGT / f"{name}.txt").read_text())


def unknown_cells(home: Path, name: str) -> tuple[list[tuple[int, int]], Board, Board]:
    frame, truth = frame_and_truth(name)
    decoded = decode_frame(frame, load_skin(NAME, home), None, 99)
    return list(decoded.unreadable), decoded.board, truth


def test_a_won_board_names_its_unknown_numbers_exactly(home):
    frame, truth = frame_and_truth("tile20_won")
    decoded = decode_frame(frame, load_skin(NAME, home), None, 99)
    assert decoded.unreadable  # the 4s and the 5s
    learned = learn_from_final_board(frame, decoded.grid, decoded.board, decoded.unreadable, decoded.unreadable, "won")
    assert sorted(t.label for t in learned) == ["4", "5"]
    named = {rc: t.label for t in learned for rc in t.cells}
    assert set(named) == set(decoded.unreadable)
    assert all(truth[rc] == label for rc, label in named.items())


def test_learned_templates_read_other_frames_right(home):
    frame, _ = frame_and_truth("tile20_won")
    decoded = decode_frame(frame, load_skin(NAME, home), None, 99)
    learned = learn_from_final_board(frame, decoded.grid, decoded.board, decoded.unreadable, decoded.unreadable, "won")
    add_learned(home, NAME, learned, game=1, end="won")
    for name in ("tile20_won", "tile20_mid", "tile20_mid_five", "tile20_fresh", "expert_lost_20px"):
        before, _, _ = unknown_cells(SGT / "skin", name)
        after, board, truth = unknown_cells(home, name)
        assert len(after) <= len(before), name
        readable = [rc for rc in board.coords() if rc not in set(after)]
        assert all(board[rc] == truth[rc] for rc in readable), name  # nothing misread, learned tiles included
    assert unknown_cells(home, "tile20_won")[0] == [] and unknown_cells(home, "tile20_mid")[0] == []


def test_a_lost_board_that_hides_its_mines_decides_nothing(home):
    frame, _ = frame_and_truth("tile20_lost")
    decoded = decode_frame(frame, load_skin(NAME, home), None, 99)
    assert decoded.unreadable
    assert (
        learn_from_final_board(frame, decoded.grid, decoded.board, decoded.unreadable, decoded.unreadable, "lost") == []
    )


def test_nothing_is_learned_without_the_mine_count_or_from_tiles_only_the_end_showed(home):
    frame, _ = frame_and_truth("tile20_won")
    decoded = decode_frame(frame, load_skin(NAME, home), None, 99)
    cells, grid = decoded.unreadable, decoded.grid
    assert learn_from_final_board(frame, grid, decoded.board.with_mines(None), cells, cells, "won") == []
    assert learn_from_final_board(frame, grid, decoded.board.with_mines(98), cells, cells, "won") == []
    assert learn_from_final_board(frame, grid, decoded.board, cells, [], "won") == []
    five = [rc for rc in cells if frame_and_truth("tile20_won")[1][rc] == "5"]
    learned = learn_from_final_board(frame, grid, decoded.board, cells, five, "won")
    assert [t.label for t in learned] == ["5"]  # only the tile seen during the game


def test_every_addition_is_logged_and_forgetting_restores_the_skin(home):
    toml = home / "calibration" / f"{NAME}.toml"
    before_text = toml.read_text()
    before_files = sorted(p.name for p in (home / "templates" / NAME).iterdir())
    frame, _ = frame_and_truth("tile20_won")
    decoded = decode_frame(frame, load_skin(NAME, home), None, 99)
    learned = learn_from_final_board(frame, decoded.grid, decoded.board, decoded.unreadable, decoded.unreadable, "won")
    entries = add_learned(home, NAME, learned, game=3, end="won")
    log = [json.loads(line) for line in learned_log(home, NAME).read_text().splitlines()]
    assert log == entries and len(log) == 2
    for entry in log:
        assert (home / entry["template"]).is_file() and entry["game"] == 3 and entry["cells"]
    assert load_skin(NAME, home).templates.keys() >= {"4", "5"}
    forgotten = forget_learned(home, NAME)
    assert sorted(forgotten.removed) == sorted(e["stem"] for e in entries) and not forgotten.missing
    assert toml.read_text() == before_text
    assert sorted(p.name for p in (home / "templates" / NAME).iterdir()) == before_files
    assert not learned_log(home, NAME).exists()


def test_calibrate_forget_learned_command(home, capsys):
    frame, _ = frame_and_truth("tile20_won")
    decoded = decode_frame(frame, load_skin(NAME, home), None, 99)
    learned = learn_from_final_board(frame, decoded.grid, decoded.board, decoded.unreadable, decoded.unreadable, "won")
    add_learned(home, NAME, learned, game=1, end="won")
    assert main(["calibrate", "--forget-learned", "--name", NAME, "--out-root", str(home)]) == 0
    assert capsys.readouterr().out.count("removed learned template") == 2
    assert "4" not in load_skin(NAME, home).templates


def test_the_play_hook_learns_prints_and_reloads_the_skin(home, capsys, monkeypatch):
    monkeypatch.setenv("AUTOPLAY_HOME", str(home))
    frame, _ = frame_and_truth("tile20_won")
    skin = load_skin(NAME, home)
    decoded = decode_frame(frame, skin, None, 99)

    class PlayerStub:
        decode = None

    player = PlayerStub()
    seen: list[GameResult] = []
    hook = learning_hook(player, skin, 99, seen.append, __import__("sys").stdout)
    result = GameResult(1, "won", 1.0, final_frame=frame, final_grid=decoded.grid)
    result.unknown_seen.update(decoded.unreadable)
    hook(result)
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 and all(line.startswith("learned ") for line in lines)
    assert seen == [result] and result.final_frame is None
    assert player.decode is not None and player.decode(frame, decoded.grid).unreadable == []
    # a second game showing the same tiles learns nothing more: the reloaded skin reads them
    again = GameResult(2, "won", 1.0, final_frame=frame, final_grid=decoded.grid)
    again.unknown_seen.update(decoded.unreadable)
    assert learn_after_game(home, load_skin(NAME, home), again, 99) == []


def test_a_skin_written_by_live_calibration_is_marked_so_play_learns_by_default(tmp_path):
    from autoplay.calibrate.skin_writer import SkinSettings, write_skin

    frame, _ = frame_and_truth("tile20_fresh")
    tiles = {"hidden-00": (".", frame[54:74, 29:49]), "flag-00": ("F", frame[54:74, 49:69])}
    write_skin(tmp_path, "marked", tiles, SkinSettings(), 0.1, 0.3, {}, [(20.0, 20.0)], origin="live")
    write_skin(tmp_path, "plain", tiles, SkinSettings(), 0.1, 0.3, {}, [(20.0, 20.0)])
    assert load_skin("marked", tmp_path).origin == "live" and load_skin("plain", tmp_path).origin == ""


def test_a_loss_that_shows_only_some_mines_names_numbers_its_flags_and_neighbours_decide(home):
    """sgt-mines shows only the mine stepped on. A tile unknown during the game is a revealed number, bounded by
    the player's flags (certain mines) and the covered cells around it; where that leaves one value, it is named."""
    frame, truth = frame_and_truth("tile20_mid_five")  # 37 flags, 4s the skin never saw, most mines not shown
    decoded = decode_frame(frame, load_skin(NAME, home), None, 99)
    cells = decoded.unreadable
    learned = learn_from_final_board(frame, decoded.grid, decoded.board, cells, cells, "lost")
    named = {rc: t.label for t in learned for rc in t.cells}
    assert named and set(named.values()) == {"4"}
    assert all(truth[rc] == label for rc, label in named.items())
    # tiles that appeared only at the end (not seen during the game) may be mines of an unknown look: not learned
    assert learn_from_final_board(frame, decoded.grid, decoded.board, cells, [], "lost") == []
    # without the mine total nothing is decided
    assert learn_from_final_board(frame, decoded.grid, decoded.board.with_mines(None), cells, cells, "lost") == []


def test_flags_of_ours_no_template_reads_are_flags_not_numbers(home):
    """A game that draws its tiles over a picture shows each flag a little differently, so some of the player's
    own flags match no template. They are the cells it right-clicked: mines on the final board and tiles to
    learn as ``F`` — never numbers, which would name the flag a digit and the digits around it one too low."""
    from autoplay.calibrate.learn import learn_flag_looks

    frame, truth = frame_and_truth("tile20_mid_five")
    decoded = decode_frame(frame, load_skin(NAME, home), None, 99)
    flags = [divmod(i, truth.cols) for i, c in enumerate(decoded.board.cells) if c == "F"]
    # the flags beside the unknown 4s, taken as unreadable: what a skin that knows one flag look sees
    near = {(r + dr, c + dc) for r, c in decoded.unreadable for dr in (-1, 0, 1) for dc in (-1, 0, 1)}
    hidden_flags = sorted(set(flags) & near)
    assert len(hidden_flags) >= 3
    unknown = sorted(set(decoded.unreadable) | set(hidden_flags))
    learned = learn_from_final_board(frame, decoded.grid, decoded.board, unknown, unknown, "lost", flagged=flags)
    named = {rc: t.label for t in learned for rc in t.cells}
    assert named and set(named.values()) == {"4"} and not set(named) & set(hidden_flags)
    assert all(truth[rc] == label for rc, label in named.items())

    def look(rc: tuple[int, int]) -> np.ndarray:
        x0, y0, x1, y1 = decoded.grid.cell_rect(*rc)
        return frame[y0:y1, x0:x1]

    tiles = learn_flag_looks({rc: look(rc) for rc in hidden_flags})
    assert [t.label for t in tiles] == ["F"] and set(tiles[0].cells) == set(hidden_flags)


def test_the_play_hook_carries_that_the_game_shows_every_mine_to_later_games(home, monkeypatch):
    """One lost board that showed the whole mine count proves the rule for the session's later games."""
    import autoplay.calibrate.learn_game as learn_game

    passed: list[bool] = []

    def learn(home: Path, skin: object, result: GameResult, mines: int, shows_every_mine: bool) -> list[dict]:
        passed.append(shows_every_mine)
        return []

    monkeypatch.setattr(learn_game, "learn_after_game", learn)
    monkeypatch.setenv("AUTOPLAY_HOME", str(home))
    skin = load_skin(NAME, home)
    hook = learning_hook(type("PlayerStub", (), {"decode": None})(), skin, 99, None, __import__("sys").stdout)
    partial = GameResult(1, "lost", 1.0, final_shows_all_mines=False)
    whole = GameResult(2, "lost", 1.0, final_shows_all_mines=True)
    for result in (partial, whole, partial, GameResult(4, "won", 1.0)):
        hook(result)
    assert passed == [False, False, True, True]
