"""The board as every other part sees it: a rectangle of one-character cells.

The characters are the text format's own (see :mod:`autoplay.board.textformat`),
so a board prints, parses and compares without any translation table, and the
vision, solver, simulator and replay all exchange the same immutable object.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache

HIDDEN = "."
FLAG = "F"
QUESTION = "?"
MINE = "*"
EXPLODED = "X"
DIGITS = "012345678"

#: Every character a cell may hold.
CELL_CHARS = frozenset(HIDDEN + FLAG + QUESTION + MINE + EXPLODED + DIGITS)
#: Cells the solver treats as unknown (a question mark is only a note to the player).
UNKNOWN_CHARS = frozenset(HIDDEN + QUESTION)

Coord = tuple[int, int]


@lru_cache(maxsize=64)
def neighbour_table(rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    """Flat indices of each cell's neighbours, shared by every board of one size.

    Cached because the solver and the simulator ask for it millions of times.
    """
    table = []
    for r in range(rows):
        for c in range(cols):
            table.append(
                tuple(
                    rr * cols + cc
                    for rr in range(max(0, r - 1), min(rows, r + 2))
                    for cc in range(max(0, c - 1), min(cols, c + 2))
                    if (rr, cc) != (r, c)
                )
            )
    return tuple(table)


@dataclass(frozen=True)
class Board:
    """A rows x cols grid of cell characters, plus the total mine count if known.

    ``cells`` is row-major and flat so that neighbour look-ups are plain index
    arithmetic; use :meth:`at` and :meth:`index` to move between the two views.
    """

    rows: int
    cols: int
    cells: tuple[str, ...]
    mines: int | None = None

    def __post_init__(self) -> None:
        if self.rows <= 0 or self.cols <= 0:
            raise ValueError("a board needs at least one row and one column")
        if len(self.cells) != self.rows * self.cols:
            raise ValueError(f"{len(self.cells)} cells for a {self.rows}x{self.cols} board")

    # -- construction -------------------------------------------------------
    @classmethod
    def empty(cls, rows: int, cols: int, mines: int | None = None) -> Board:
        """A board with every cell hidden, as at the start of a game."""
        return cls(rows, cols, (HIDDEN,) * (rows * cols), mines)

    @classmethod
    def from_rows(cls, rows: Iterable[str], mines: int | None = None) -> Board:
        """Build from row strings; no validation beyond shape (use the text parser for that)."""
        lines = list(rows)
        return cls(len(lines), len(lines[0]) if lines else 0, tuple("".join(lines)), mines)

    @classmethod
    def from_text(cls, text: str, source: str = "") -> Board:
        """Parse the text format, raising :class:`~autoplay.errors.BoardFormatError` on bad input."""
        from autoplay.board.textformat import parse_board

        return parse_board(text, source=source)

    def to_text(self, header: bool = True) -> str:
        from autoplay.board.textformat import format_board

        return format_board(self, header=header)

    # -- access -------------------------------------------------------------
    @property
    def shape(self) -> tuple[int, int]:
        return self.rows, self.cols

    def index(self, row: int, col: int) -> int:
        return row * self.cols + col

    def at(self, index: int) -> Coord:
        return divmod(index, self.cols)

    def __getitem__(self, rc: Coord) -> str:
        r, c = rc
        if not (0 <= r < self.rows and 0 <= c < self.cols):
            raise IndexError(f"cell ({r},{c}) is outside a {self.rows}x{self.cols} board")
        return self.cells[r * self.cols + c]

    def contains(self, row: int, col: int) -> bool:
        return 0 <= row < self.rows and 0 <= col < self.cols

    def row_strings(self) -> list[str]:
        c = self.cols
        return ["".join(self.cells[i : i + c]) for i in range(0, len(self.cells), c)]

    def neighbours(self, row: int, col: int) -> list[Coord]:
        cols = self.cols
        return [divmod(i, cols) for i in neighbour_table(self.rows, self.cols)[row * cols + col]]

    def coords(self) -> Iterator[Coord]:
        for r in range(self.rows):
            for c in range(self.cols):
                yield r, c

    def number(self, row: int, col: int) -> int | None:
        """The revealed number at a cell, or None when the cell shows no number."""
        ch = self[row, col]
        return int(ch) if ch in DIGITS else None

    def is_unknown(self, row: int, col: int) -> bool:
        return self[row, col] in UNKNOWN_CHARS

    def count(self, chars: str) -> int:
        return sum(1 for ch in self.cells if ch in chars)

    def unknown_cells(self) -> list[Coord]:
        return [self.at(i) for i, ch in enumerate(self.cells) if ch in UNKNOWN_CHARS]

    @property
    def is_fresh(self) -> bool:
        """True before the first move: every cell hidden.

        A flag counts as a move: it tells the solver where a mine is (with the mine count, possibly where
        every mine is), so a flagged board goes to the engine and never to the blind first-click rule.
        """
        return all(ch in UNKNOWN_CHARS for ch in self.cells)

    @property
    def is_lost(self) -> bool:
        return any(ch in (MINE, EXPLODED) for ch in self.cells)

    # -- change -------------------------------------------------------------
    def replace(self, changes: dict[Coord, str] | Iterable[tuple[Coord, str]]) -> Board:
        """A copy with some cells changed; boards are immutable so history stays intact."""
        cells = list(self.cells)
        items = changes.items() if isinstance(changes, dict) else changes
        for (r, c), ch in items:
            cells[r * self.cols + c] = ch
        return Board(self.rows, self.cols, tuple(cells), self.mines)

    def with_mines(self, mines: int | None) -> Board:
        return Board(self.rows, self.cols, self.cells, mines)

    def __str__(self) -> str:
        return self.to_text()
