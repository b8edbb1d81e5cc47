"""Games on a fixed mine layout: what ``grade BOARD`` plays and what ``generate`` writes.

A layout is a board in the text format with every mine shown as ``*`` (the
other cells may show their numbers or be hidden); a ``# first click: (R,C)``
comment names where play starts, as the generator writes it.
"""

from __future__ import annotations

import re
from pathlib import Path

from autoplay.board.model import DIGITS, EXPLODED, MINE, Board, neighbour_table
from autoplay.board.rules import Rules
from autoplay.board.textformat import parse_board
from autoplay.errors import BoardFormatError
from autoplay.sim.game import Game
from autoplay.solver.decide import first_move

Coord = tuple[int, int]

_FIRST_CLICK = re.compile(r"^\s*#\s*first click:?\s*\(\s*(\d+)\s*,\s*(\d+)\s*\)", re.IGNORECASE | re.MULTILINE)
MINE_CHARS = MINE + EXPLODED


class LaidGame(Game):
    """A :class:`Game` whose mines are the given layout instead of a random draw.

    The first-click rule is "none" because the layout is already laid; the
    caller picks a first click that is safe in it.
    """

    def __init__(self, mined: list[bool], rows: int, cols: int, win: str = "reveal") -> None:
        layout = [i for i, m in enumerate(mined) if m]
        super().__init__(rows, cols, len(layout), Rules(first_click="none", win=win), layout=layout)  # type: ignore[arg-type]


def read_layout(path: str | Path) -> tuple[Board, Coord | None]:
    """The layout board and the first click its comment names (None when it names none)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8-sig")  # a byte-order mark (Windows Notepad) is no text
    except (OSError, UnicodeDecodeError) as exc:
        reason = "no such file" if isinstance(exc, FileNotFoundError) else "cannot read it as text"
        raise BoardFormatError(reason, source=str(p)) from None
    board = parse_board(text, source=str(p))
    check_layout(board, str(p))
    match = _FIRST_CLICK.search(text)
    first = (int(match.group(1)), int(match.group(2))) if match else None
    if first is not None:
        if not board.contains(*first):
            raise BoardFormatError(f"first click ({first[0]},{first[1]}) is outside the board", source=str(p))
        if board[first] in MINE_CHARS:
            raise BoardFormatError(f"first click ({first[0]},{first[1]}) is on a mine", source=str(p))
    return board, first


def check_layout(board: Board, source: str) -> None:
    """A layout needs its mines shown, and any number it shows (and its mines=N header) must match them."""
    shown = sum(1 for ch in board.cells if ch in MINE_CHARS)
    if not shown:
        raise BoardFormatError("a layout board shows its mines as * (this one shows none)", source=source)
    if board.mines is not None and board.mines != shown:
        raise BoardFormatError(
            f"the header says mines={board.mines} but the layout shows {shown} mine(s) as *", source=source
        )
    nbrs = neighbour_table(board.rows, board.cols)
    for i, ch in enumerate(board.cells):
        if ch in DIGITS:
            touching = sum(1 for j in nbrs[i] if board.cells[j] in MINE_CHARS)
            if touching != int(ch):
                r, c = board.at(i)
                raise BoardFormatError(f"({r},{c}) shows {ch} but {touching} mine(s) touch it", source=source)


def layout_game(board: Board, win: str = "reveal") -> LaidGame:
    return LaidGame([ch in MINE_CHARS for ch in board.cells], board.rows, board.cols, win)


def default_first_click(board: Board, rules: Rules) -> Coord:
    """The solver's usual opening when it is a zero in the layout, else the first zero, else the first safe cell."""
    nbrs = neighbour_table(board.rows, board.cols)
    mined = [ch in MINE_CHARS for ch in board.cells]
    move = first_move(board.rows, board.cols, rules)
    usual = board.index(move.row, move.col)
    zeros = [i for i in range(len(mined)) if not mined[i] and not any(mined[j] for j in nbrs[i])]
    if usual in zeros:
        return move.row, move.col
    safe = zeros or [i for i in range(len(mined)) if not mined[i]]
    if not safe:
        raise BoardFormatError("every cell of the layout is a mine: there is nowhere to click")
    return board.at(safe[0])
