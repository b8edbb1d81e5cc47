"""The board text format is a contract with other tools: round trips and every documented error."""

import pytest

from autoplay.board import Board, parse_board, read_board
from autoplay.errors import BoardFormatError


def test_round_trip_with_header_and_comments():
    text = "# a comment\nmines=3\n..1\nF21\n?*X\n"
    board = parse_board(text)
    assert board.shape == (3, 3)
    assert board.mines == 3
    assert board[1, 0] == "F" and board[2, 2] == "X"
    assert board.number(1, 1) == 2 and board.number(0, 0) is None
    assert board.to_text() == "mines=3\n..1\nF21\n?*X\n"
    assert parse_board(board.to_text()) == board


def test_unknown_cells_include_question_marks():
    board = parse_board("?.\n12\n")
    assert board.unknown_cells() == [(0, 0), (0, 1)]
    assert board.is_fresh is False
    assert Board.empty(2, 3).is_fresh


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("..\n...\n", "row 1 has 3 cells but row 0 has 2"),
        ("..\n.z\n", "row 1, column 1: unknown character 'z'"),
        ("4.\n..\n", "row 0, column 0: 4 is more than the cell's 3 neighbours"),
        ("", "empty board"),
        ("# only a comment\n\n", "empty board"),
        ("mines=x\n..\n", "mines= needs a whole number"),
        ("..\nmines=1\n", "header must come before the rows"),
        ("mines=9\n..\n", "more than the 2 cells"),
    ],
)
def test_bad_input_names_the_place(text, fragment):
    with pytest.raises(BoardFormatError) as info:
        parse_board(text, source="b.txt")
    assert fragment in str(info.value)
    assert str(info.value).startswith("b.txt")
    assert info.value.exit_code == 2


def test_error_names_the_file_line():
    with pytest.raises(BoardFormatError) as info:
        parse_board("# c\n...\n.a.\n", source="x.txt")
    assert str(info.value).startswith("x.txt:3:")


def test_read_board_errors_for_missing_and_binary_files(tmp_path):
    with pytest.raises(BoardFormatError, match="no such file"):
        read_board(tmp_path / "missing.txt")
    binary = tmp_path / "b.txt"
    binary.write_bytes(b"\xff\xfe\x00\x80")
    with pytest.raises(BoardFormatError, match="not a text file"):
        read_board(binary)
    with pytest.raises(BoardFormatError, match="folder"):
        read_board(tmp_path)


def test_neighbours_and_replace():
    board = Board.empty(3, 4)
    assert sorted(board.neighbours(0, 0)) == [(0, 1), (1, 0), (1, 1)]
    assert len(board.neighbours(1, 1)) == 8
    changed = board.replace({(0, 0): "F"})
    assert changed[0, 0] == "F" and board[0, 0] == "."
    with pytest.raises(IndexError):
        board[3, 0]
