"""A box the game fades in over its board at a win is no reason to stop: the last certain batch won the game.

kmines at 125% draws a translucent "Congratulations! You have won!" over the middle of the board when the last safe
cell opens; the cells under it read as faded numbers that contradict each other, and play stopped with exit 2.
"""

from __future__ import annotations

from functools import partial

import pytest

from autoplay.board.model import Board
from autoplay.board.textformat import parse_board
from autoplay.control.mouse import Mouse
from autoplay.play.player import Player, PlayerSettings
from autoplay.solver import choose_move
from tests.play.fakes import FakeBackend, FakeDecoded, FakeGuard, FakeTable

FAST = dict(settle_interval=0.002, change_timeout=0.05, settle_timeout=1.0, late_redraw=0.05, unasked_wait=0.05)


def box_at_the_win(table: FakeTable):  # type: ignore[no-untyped-def]
    """The table read by a skin that sees no win: at the end, a block of the board reads as 3s and 0s."""

    def decode(frame, grid):  # type: ignore[no-untyped-def]
        decoded = table.decode(frame, grid)
        if decoded.state != "won":
            return decoded
        cells = list(decoded.board.cells)
        for r in range(3, 6):
            for c in range(2, 7):
                cells[r * table.cols + c] = "3" if (r + c) % 2 else "0"
        board = Board(table.rows, table.cols, tuple(cells), table.mines)
        return FakeDecoded(board, "unknown", decoded.grid)

    return decode


@pytest.mark.parametrize("seed", range(1, 9))
def test_a_box_drawn_over_the_board_at_a_win_ends_the_game_won(seed):
    table = FakeTable(9, 9, 10, seed=seed)
    backend = FakeBackend(table)
    solve = partial(choose_move, mines=table.mines, rules=table.rules, time_limit=0.5)
    player = Player(table, Mouse(backend, guard=FakeGuard(table)), box_at_the_win(table), solve, PlayerSettings(**FAST))
    result = player.play_game(1)
    assert result.result == table.state
    if table.state == "won":
        # the truth kept for the audit: every cell read or left unknown, none as the box reads it
        final, truth = parse_board(result.final_board), table.game.board()
        unknown = set(map(tuple, result.final_unknown))
        for i, cell in enumerate(final.cells):
            rc = divmod(i, 9)
            if rc not in unknown and cell != "F":
                assert cell == truth.cells[i], (rc, cell, truth.cells[i])
