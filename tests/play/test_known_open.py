"""Cells play knows open though their tile is unknown to the skin are decided as safe cells with no number.

A skin made live has not seen every number yet (a 6 appears once in many games).  Played as covered, such a
cell is one the solver calls safe again and again; play never clicks an unread tile, so it guessed elsewhere
(the live losses that the simulator won from the same board), or pressed the other cell of a 50/50 just won.
"""

from __future__ import annotations

from functools import partial

import pytest

from autoplay.control.mouse import Mouse
from autoplay.play.player import Player, PlayerSettings
from autoplay.play.recorder import Recorder
from autoplay.replay.decide import decide_move
from autoplay.replay.recording import read_recording
from autoplay.sim.game import Game
from autoplay.solver import choose_move
from autoplay.solver.unknown_cells import avoid_cells, with_unknown_covered
from tests.play.fakes import FakeBackend, FakeDecoded, FakeGuard, FakeTable

FAST = dict(settle_interval=0.002, change_timeout=0.05, settle_timeout=1.0, late_redraw=0.05, unasked_wait=0.05)


def skin_without(table: FakeTable, digits: str):  # type: ignore[no-untyped-def]
    """The table read by a skin that has never seen ``digits``: those cells are unreadable, the state unknown."""

    def decode(frame, grid):  # type: ignore[no-untyped-def]
        decoded = table.decode(frame, grid)
        unread = [divmod(i, table.cols) for i, c in enumerate(decoded.board.cells) if c in digits]
        if not unread:
            return decoded
        return FakeDecoded(decoded.board, "unknown", decoded.grid, False, sorted(set(unread) | set(decoded.unreadable)))

    return decode


def play(seed: int, digits: str, recorder: Recorder | None = None):  # type: ignore[no-untyped-def]
    table = FakeTable(16, 16, 40, seed=seed)
    backend = FakeBackend(table)
    solve = partial(choose_move, mines=table.mines, rules=table.rules, time_limit=0.5)
    decisions: list[dict] = []
    player = Player(
        table,
        Mouse(backend, guard=FakeGuard(table)),
        skin_without(table, digits),
        solve,
        PlayerSettings(**FAST),
        recorder,
        on_decision=decisions.append,
    )
    return table, backend, player.play_game(1), decisions


@pytest.mark.parametrize("seed", range(1, 11))
def test_a_number_the_skin_cannot_read_is_no_cell_to_guess_around(seed):
    table, backend, result, decisions = play(seed, "3")
    reasons = [d["reason"] for d in decisions]
    assert "safest cell the skin can read" not in reasons, reasons
    assert result.result == table.state or (result.result == "undecided" and table.state in ("won", "lost"))
    assert backend.stray == []
    if table.state == "lost":  # lost on a guess: the exploded mine is the last press
        x, y, button = backend.clicks[-1]
        board = table.game.board()
        assert button == "left" and board[table.cell_at(x, y)] == "X"


def test_the_cells_known_open_are_recorded_for_replay(tmp_path):
    recorder = Recorder(tmp_path / "rec", "fake", FakeTable().rules, mines=40)
    played = [play(seed, "2", recorder) for seed in range(1, 4)]
    recorder.close()
    assert any(d["reason"] != "safest cell the skin can read" for _, _, _, ds in played for d in ds)
    recorded = read_recording(tmp_path / "rec").decisions
    with_open = [d for d in recorded if d.opened]
    assert with_open and all(d.opened <= d.unknown for d in with_open)
    for d in with_open:  # what replay has: the board, its unknown cells and those known open decide the same moves
        board = with_unknown_covered(d.board, d.unknown, d.own_flags)
        again = avoid_cells(decide_move(board, 40, FakeTable().rules, 0.5, opened=d.opened), board, d.unknown)
        assert [(m.action, m.row, m.col) for m in again.moves] == [m.key for m in d.moves]


def test_a_won_fifty_fifty_onto_a_number_never_seen_presses_nothing_more():
    """Chromium, look 4187: the last safe cell, guessed right, opened a 6 the skin had never seen.  Shown covered,
    it was the solver's choice again and play pressed the other cell of the 50/50, the mine, on the won page.

    Here: 4x5, mines at (0,0), (1,0) and (3,0); after the opening and one certain batch, the last two covered
    cells are a 50/50 and the one guessed shows a 2, a number this skin has never seen.  Won if the guess was
    safe, lost on it if not, and only that tile tells which: the game ends undecided, with no press after it.
    """
    table = FakeTable(4, 5, 3, seed=1)
    table.game = Game(4, 5, 3, table.rules, layout=[0, 5, 15])
    backend = FakeBackend(table)
    solve = partial(choose_move, mines=3, rules=table.rules, time_limit=0.5)
    decisions: list[dict] = []
    settings = PlayerSettings(**FAST)
    player = Player(table, Mouse(backend, guard=FakeGuard(table)), skin_without(table, "2"), solve, settings)
    player.on_decision = decisions.append
    result = player.play_game(1)
    assert table.state == "won" and result.result == "undecided"
    guess = decisions[-1]["moves"]
    assert decisions[-1]["guess"] and len(guess) == 1
    x, y, button = backend.clicks[-1]
    assert (table.cell_at(x, y), button) == ((guess[0].row, guess[0].col), "left")  # the guess was the last press
