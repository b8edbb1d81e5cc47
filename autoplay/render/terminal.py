"""A board as terminal text: probabilities in place of hidden cells, ANSI colours only when asked.

Each cell is four characters: a lead character (``>`` marks the chosen move)
and a right-aligned three-character value, so columns line up with or
without colour and the output pastes cleanly into an issue or a log.
"""

from __future__ import annotations

from typing import Any

from autoplay.board.model import DIGITS, FLAG, Board
from autoplay.render.layers import KNOWN_MINE_CHARS, Probabilities, as_move_mark, check_shape, probability_at
from autoplay.render.palette import BGR, NUMBER_COLOURS, heat_colour, percent_label

_RESET = "\x1b[0m"


def _fg(colour: BGR) -> str:
    b, g, r = colour
    return f"\x1b[38;2;{r};{g};{b}m"


def _bg(colour: BGR) -> str:
    b, g, r = colour
    return f"\x1b[48;2;{r};{g};{b}m"


def _cell_text(ch: str, p: float | None) -> str:
    if ch == FLAG:
        return "F"
    if p is not None:
        return percent_label(p)
    if ch == "0":
        return "\u00b7"  # a middle dot keeps empty areas visible but quiet
    return ch


def format_grid(
    board: Board, probabilities: Probabilities | None = None, move: Any = None, colour: bool = False
) -> str:
    """The grid with 0-based row and column numbers; hidden cells show their mine probability in percent."""
    check_shape(probabilities, board.rows, board.cols)
    mark = as_move_mark(move)
    lines = ["    " + "".join(f"{c:>4}" for c in range(board.cols))]
    for r in range(board.rows):
        parts = [f"{r:>4}"]
        for c in range(board.cols):
            ch = board[r, c]
            p = None if ch in KNOWN_MINE_CHARS else probability_at(probabilities, r, c)
            is_move = mark is not None and (mark.row, mark.col) == (r, c)
            lead = ">" if is_move else " "
            text = _cell_text(ch, p)
            if not colour:
                parts.append(f"{lead}{text:>3}")
                continue
            style = ""
            if p is not None:
                style = _bg(heat_colour(p)) + "\x1b[30m"
            elif ch in DIGITS:
                style = "\x1b[1m" + _fg(NUMBER_COLOURS[int(ch)])
            elif ch in KNOWN_MINE_CHARS:
                style = "\x1b[1;31m"
            lead_text = f"\x1b[1;34m{lead}{_RESET}" if is_move else lead
            value_style = style + ("\x1b[4m" if is_move else "")
            parts.append(f"{lead_text}{value_style}{text:>3}{_RESET}" if value_style else f"{lead_text}{text:>3}")
        lines.append("".join(parts))
    return "\n".join(lines)
