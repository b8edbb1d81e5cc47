"""The board text format: the contract other tools read and write.

One line per row, one character per cell, ``#`` comment lines, and an optional
``mines=N`` header.  Errors name the file line, row and column (0-based, as in
every other output of autoplay) so a user can find the bad cell at once.
"""

from __future__ import annotations

import re
from pathlib import Path

from autoplay.board.model import CELL_CHARS, DIGITS, Board, neighbour_table
from autoplay.errors import BoardFormatError

_HEADER = re.compile(r"^\s*mines\s*=\s*(\S*)\s*$", re.IGNORECASE)


def parse_board(text: str, source: str = "") -> Board:
    r"""Parse board text; every malformation raises :class:`BoardFormatError` with its position.

    Text as editors save it reads the same: a UTF-8 byte-order mark (Windows Notepad writes one) is dropped, and
    CRLF or CR line ends and a missing last newline are line ends like any other.

    >>> parse_board("\ufeffmines=1\r\n.1\r\n.1") == parse_board("mines=1\n.1\n.1\n")
    True
    """
    text = text.removeprefix("\ufeff")
    mines: int | None = None
    rows: list[str] = []
    row_lines: list[int] = []
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        header = _HEADER.match(line)
        if header:
            mines = header_value("mines", header.group(1), bool(rows), mines is not None, source, lineno)
            continue
        row = len(rows)
        for col, ch in enumerate(line):
            if ch not in CELL_CHARS:
                raise BoardFormatError(
                    f"row {row}, column {col}: unknown character {ch!r} (expected one of . F ? * X 0-8)",
                    source=source,
                    line=lineno,
                )
        check_row_width(row, len(line), len(rows[0]) if rows else len(line), source, lineno)
        rows.append(line)
        row_lines.append(lineno)
    if not rows:
        raise BoardFormatError("empty board: no rows found", source=source)
    board = Board.from_rows(rows, mines)
    table = neighbour_table(board.rows, board.cols)
    for i, ch in enumerate(board.cells):
        if ch in DIGITS and int(ch) > len(table[i]):
            r, c = board.at(i)
            raise BoardFormatError(
                f"row {r}, column {c}: {ch} is more than the cell's {len(table[i])} neighbours",
                source=source,
                line=row_lines[r],
            )
    if mines is not None and mines > board.rows * board.cols:
        raise BoardFormatError(f"mines={mines} is more than the {board.rows * board.cols} cells", source=source)
    return board


def header_value(name: str, value: str, after_rows: bool, seen: bool, source: str, lineno: int) -> int:
    """The whole number of a ``name=N`` header line, or the error saying why it is misplaced or malformed."""
    if after_rows:
        raise BoardFormatError(f"the {name}=N header must come before the rows", source=source, line=lineno)
    if seen:
        raise BoardFormatError(f"{name}= given twice", source=source, line=lineno)
    if not value.isdigit():
        raise BoardFormatError(f"{name}= needs a whole number, got {value!r}", source=source, line=lineno)
    return int(value)


def check_row_width(row: int, width: int, first: int, source: str, lineno: int) -> None:
    """Every row needs as many cells as the first one."""
    if width != first:
        raise BoardFormatError(f"row {row} has {width} cells but row 0 has {first}", source=source, line=lineno)


def format_board(board: Board, header: bool = True) -> str:
    """Board text with a trailing newline; the header only when the mine count is known."""
    lines = [f"mines={board.mines}"] if header and board.mines is not None else []
    lines.extend(board.row_strings())
    return "\n".join(lines) + "\n"


def read_board(path: str | Path) -> Board:
    """Read a board file, turning file-system failures into one-line user errors."""
    return parse_board(read_board_text(path), source=str(Path(path)))


def read_board_text(path: str | Path) -> str:
    """A board file's text; a missing, unreadable or binary file is a one-line :class:`BoardFormatError`."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8-sig")  # a byte-order mark (Windows Notepad) is no text
    except FileNotFoundError:
        raise BoardFormatError("no such file", source=str(p)) from None
    except IsADirectoryError:
        raise BoardFormatError("is a folder, not a board file", source=str(p)) from None
    except UnicodeDecodeError:
        raise BoardFormatError("not a text file", source=str(p)) from None
    except OSError as exc:
        raise BoardFormatError(exc.strerror or str(exc), source=str(p)) from None
    return text
