"""Board model, text format and rule sets: the vocabulary every other part speaks."""

from autoplay.board.model import (
    CELL_CHARS,
    DIGITS,
    EXPLODED,
    FLAG,
    HIDDEN,
    MINE,
    QUESTION,
    UNKNOWN_CHARS,
    Board,
    Coord,
    neighbour_table,
)
from autoplay.board.rules import PRESETS, Preset, Rules
from autoplay.board.textformat import format_board, parse_board, read_board

__all__ = [
    "CELL_CHARS",
    "DIGITS",
    "EXPLODED",
    "FLAG",
    "HIDDEN",
    "MINE",
    "PRESETS",
    "QUESTION",
    "UNKNOWN_CHARS",
    "Board",
    "Coord",
    "Preset",
    "Rules",
    "format_board",
    "neighbour_table",
    "parse_board",
    "read_board",
]
