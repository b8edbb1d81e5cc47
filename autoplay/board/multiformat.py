"""Boards of the several-mines-per-cell variant, and their text form.

With up to ``K`` mines in one cell a number counts mines, not mined cells, so it reaches ``8K``, and
a flag (or a shown mine) stands for a count of mines.  One character per cell cannot say that, so
such a board file may write a row as cells separated by spaces, each cell one token:

``.`` or ``?`` hidden; a decimal number (``0`` to ``8K``) revealed; ``F`` a flag on one mine and
``F2``, ``F3``... a flag on that many; ``*``/``*2`` and ``X``/``X2`` a shown or exploded cell with
one or that many mines.

A row without spaces is read one character per cell exactly as before, so every existing board file
is read the same way.  A ``max-per-cell=K`` header line (beside ``mines=N``) says the file is of this
variant; without it ``K`` comes from ``--max-per-cell``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from autoplay.board.model import Board, neighbour_table
from autoplay.board.textformat import check_row_width, header_value
from autoplay.errors import BoardFormatError

_HEADER = re.compile(r"^\s*(mines|max-per-cell)\s*=\s*(\S*)\s*$", re.IGNORECASE)
_TOKEN = re.compile(r"^(?:[.?]|\d+|[F*X]\d*)$")
HIDDEN_TOKENS = frozenset(".?")


@dataclass(frozen=True)
class MultiBoard:
    """A rows x cols grid of cell tokens (see the module docstring), the mine total and ``max_per_cell``."""

    rows: int
    cols: int
    cells: tuple[str, ...]
    mines: int | None
    max_per_cell: int

    def number(self, index: int) -> int | None:
        """The number a revealed cell shows, or None."""
        token = self.cells[index]
        return int(token) if token.isdigit() else None

    def mines_at(self, index: int) -> int:
        """Mines a flag or a shown mine stands for (0 for any other cell)."""
        token = self.cells[index]
        return int(token[1:] or 1) if token[0] in "F*X" else 0

    def is_unknown(self, index: int) -> bool:
        return self.cells[index] in HIDDEN_TOKENS

    def token(self, row: int, col: int) -> str:
        return self.cells[row * self.cols + col]

    def to_text(self, header: bool = True) -> str:
        """The file form: rows of single characters when every cell fits one, spaced tokens otherwise."""
        lines = []
        if header:
            if self.mines is not None:
                lines.append(f"mines={self.mines}")
            lines.append(f"max-per-cell={self.max_per_cell}")
        compact = all(len(t) == 1 for t in self.cells)
        width = max(len(t) for t in self.cells)
        for r in range(self.rows):
            row = self.cells[r * self.cols : (r + 1) * self.cols]
            lines.append("".join(row) if compact else " ".join(t.rjust(width) for t in row).rstrip())
        return "\n".join(lines) + "\n"

    def to_board(self) -> Board:
        """The same board in the one-mine model's :class:`Board` (only when every cell fits one character)."""
        if self.max_per_cell != 1 or any(len(t) > 1 for t in self.cells):
            raise ValueError("only a board of one mine per cell converts")
        return Board(self.rows, self.cols, self.cells, self.mines)


def header_max_per_cell(text: str) -> int | None:
    """The ``max-per-cell=K`` header's value, or None when the text has none (or a malformed one)."""
    for raw in text.splitlines():
        match = _HEADER.match(raw)
        if match and match.group(1).lower() == "max-per-cell" and match.group(2).isdigit():
            return int(match.group(2))
    return None


def parse_multi_board(text: str, max_per_cell: int | None = None, source: str = "") -> MultiBoard:
    """Parse a board of the variant; ``max_per_cell`` overrides the header (default 1 without either).

    Every malformation raises :class:`BoardFormatError` naming the file line, row and column.
    """
    values: dict[str, int] = {}
    rows: list[tuple[str, ...]] = []
    row_lines: list[int] = []
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        header = _HEADER.match(line)
        if header:
            name = header.group(1).lower()
            values[name] = header_value(name, header.group(2), bool(rows), name in values, source, lineno)
            continue
        tokens = tuple(line.split()) if any(ch.isspace() for ch in line) else tuple(line)
        row = len(rows)
        for col, token in enumerate(tokens):
            if not _TOKEN.match(token):
                raise BoardFormatError(
                    f"row {row}, column {col}: unknown cell {token!r} (expected . ? F F2 * *2 X X2 or a number)",
                    source=source,
                    line=lineno,
                )
        check_row_width(row, len(tokens), len(rows[0]) if rows else len(tokens), source, lineno)
        rows.append(tuple(_normal(t) for t in tokens))
        row_lines.append(lineno)
    if not rows:
        raise BoardFormatError("empty board: no rows found", source=source)
    k = max_per_cell if max_per_cell is not None else values.get("max-per-cell", 1)
    if k < 1:
        raise BoardFormatError("max-per-cell must be at least 1", source=source)
    board = MultiBoard(len(rows), len(rows[0]), tuple(t for row in rows for t in row), values.get("mines"), k)
    _check_values(board, row_lines, source)
    return board


def _normal(token: str) -> str:
    """One spelling per cell: ``F1`` is ``F``, ``007`` is ``7``."""
    if token.isdigit():
        return str(int(token))
    if token[0] in "F*X" and token[1:] in ("1", "01"):
        return token[0]
    return token


def _check_values(board: MultiBoard, row_lines: list[int], source: str) -> None:
    k = board.max_per_cell
    table = neighbour_table(board.rows, board.cols)
    for i, token in enumerate(board.cells):
        r, c = divmod(i, board.cols)
        number = board.number(i)
        if number is not None and number > k * len(table[i]):
            raise BoardFormatError(
                f"row {r}, column {c}: {number} is more than {k} mines in each of the cell's {len(table[i])} neighbours",
                source=source,
                line=row_lines[r],
            )
        held = board.mines_at(i)
        if token[0] in "F*X" and not 1 <= held <= k:
            raise BoardFormatError(
                f"row {r}, column {c}: {token} marks {held} mines but a cell holds 1 to {k}",
                source=source,
                line=row_lines[r],
            )
    if board.mines is not None and board.mines > k * board.rows * board.cols:
        raise BoardFormatError(f"mines={board.mines} is more than the board can hold", source=source)
