"""The variant's board text: numbers above 9 and flag counts as spaced tokens; old one-character files unchanged."""

import pytest

from autoplay.board.multiformat import header_max_per_cell, parse_multi_board
from autoplay.board.textformat import parse_board
from autoplay.errors import BoardFormatError

SPACED = """mines=9
max-per-cell=2
# a 12 and a flag on two mines
 .  .  .
 . 12 F2
 1  .  .
"""


def test_spaced_tokens_carry_big_numbers_and_flag_counts():
    board = parse_multi_board(SPACED)
    assert (board.rows, board.cols, board.mines, board.max_per_cell) == (3, 3, 9, 2)
    assert board.number(4) == 12 and board.mines_at(5) == 2 and board.is_unknown(0)
    assert parse_multi_board(board.to_text()) == board


def test_compact_rows_read_as_before_and_round_trip():
    old = "mines=2\n1F.\n11.\n"
    board = parse_multi_board(old)
    assert board.max_per_cell == 1 and board.to_board() == parse_board(old)
    assert header_max_per_cell(old) is None and header_max_per_cell(SPACED) == 2


@pytest.mark.parametrize(
    "text, words",
    [
        ("max-per-cell=2\n. 17\n. .\n", "more than 2 mines in each of the cell's 3 neighbours"),
        ("max-per-cell=2\nF3 .\n", "marks 3 mines"),
        ("max-per-cell=2\n. x\n", "unknown cell 'x'"),
        ("max-per-cell=2\n. .\n. . .\n", "row 1 has 3 cells"),
        ("max-per-cell=two\n..\n", "whole number"),
    ],
)
def test_bad_boards_name_the_problem(text, words):
    with pytest.raises(BoardFormatError, match=words):
        parse_multi_board(text)
