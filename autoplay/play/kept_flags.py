"""Mines the player proved and keeps in mind instead of flagging them on screen.

Under the usual win rule (every safe cell opened) a flag wins nothing: it only tells the player where a mine is, and
a bot that proved the mine knows that already.  Each flag pressed is a press and, in most games, a redraw to wait
for (gnome-mines restyles the tile and its counter); over an expert game about a third of the presses were flags.
So with ``play --flags needed`` (the default since 2026-11-29: BENCHMARKS.md), where the rules do not need
them, play keeps the mines its certain moves name (``kept``) and draws them into the board it decides on, as flags: the solver sees what it would have seen had they been pressed, and the rules that
compare a batch with the board it was decided on see the same board.  The game's own flags, and ours where the win
rule counts them (``flag-all``: xdemineur), are pressed as before.

>>> from autoplay.board.model import Board
>>> from autoplay.solver.decide import Move
>>> moves = [Move("reveal", 0, 0, 0.0), Move("flag", 1, 1, 1.0)]
>>> pressed, kept = split_flags(moves, press_flags=False)
>>> [m.action for m in pressed], kept
(['reveal'], [(1, 1)])
>>> with_kept_flags(Board.from_text("1.\\n.."), kept).cells
('1', '.', '.', 'F')
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from autoplay.board.model import FLAG, HIDDEN, Board
from autoplay.board.rules import Rules
from autoplay.solver.decide import Move

Cell = tuple[int, int]


def flags_needed(rules: Rules) -> bool:
    """Whether the game counts flags towards its win: then every flag is pressed.

    >>> flags_needed(Rules(win="flag-all")), flags_needed(Rules())
    (True, False)
    """
    return rules.win == "flag-all"


def split_flags(moves: Sequence[Move], press_flags: bool) -> tuple[list[Move], list[Cell]]:
    """The moves to press and the cells of the flag moves kept in mind instead (none when ``press_flags``)."""
    if press_flags:
        return list(moves), []
    return [m for m in moves if m.action != "flag"], [(m.row, m.col) for m in moves if m.action == "flag"]


def with_kept_flags(board: Board, kept: Collection[Cell]) -> Board:
    """``board`` with the ``kept`` mines that show covered drawn in as flags (a cell that shows anything else keeps
    its reading: a lost game's mines, or a misread the rules will find)."""
    if not kept:
        return board
    cells = list(board.cells)
    for r, c in kept:
        if cells[r * board.cols + c] == HIDDEN:
            cells[r * board.cols + c] = FLAG
    return Board(board.rows, board.cols, tuple(cells), board.mines)
