"""The solver's view of a board: unknown cells and the number constraints on them.

Everything downstream works on flat indices and plain tuples because the
engine and the guess search read positions thousands of times per game; the
:class:`Board` methods are too slow for those loops.  Reading a position is
also where per-number contradictions surface, since that is the first place a
number meets its neighbours.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from autoplay.board.model import DIGITS, EXPLODED, FLAG, MINE, UNKNOWN_CHARS, Board, neighbour_table
from autoplay.errors import ContradictionError
from autoplay.solver.record import Record

if TYPE_CHECKING:  # imported where a board is read: the simulator never reads one, and starts 50 ms sooner without it
    import numpy as np

#: Cells the solver counts as mines already placed: trusted flags and, on a lost board, shown mines.
KNOWN_MINE_CHARS = frozenset(FLAG + MINE + EXPLODED)


class Constraint(Record):
    """``mines`` of the cells ``unknowns`` are mines, as the number at flat index ``cell`` says.

    A :class:`~autoplay.solver.record.Record` rather than a frozen dataclass: the simulator makes one for every
    number each time a neighbour opens (compared and printed by value all the same).

    >>> Constraint(5, (4, 6), 1)
    Constraint(cell=5, unknowns=(4, 6), mines=1)
    """

    _fields = ("cell", "unknowns", "mines")
    __slots__ = _fields

    def __init__(self, cell: int, unknowns: tuple[int, ...], mines: int) -> None:
        self.cell = cell
        self.unknowns = unknowns
        self.mines = mines

    def _values(self) -> tuple[object, ...]:
        return (self.cell, self.unknowns, self.mines)


@dataclass(frozen=True)
class Position:
    """A board reduced to what counting needs.

    ``constraints`` holds only numbers that still touch unknown cells, and at
    most one constraint per distinct unknown set (duplicates say nothing new).
    """

    rows: int
    cols: int
    unknown: tuple[int, ...]
    known_mines: tuple[int, ...]
    constraints: tuple[Constraint, ...]

    def coord(self, index: int) -> tuple[int, int]:
        return divmod(index, self.cols)

    def coords(self, indices: Iterable[int]) -> list[tuple[int, int]]:
        cols = self.cols
        return sorted(divmod(i, cols) for i in indices)


def read_position(board: Board, opened: Collection[tuple[int, int]] = ()) -> Position:
    """Extract the constraints of ``board``, raising :class:`ContradictionError` for an impossible number.

    ``opened``: covered-looking cells known to be open, though their number cannot be read (live play shows a
    tile its skin does not know as covered, yet knows the cell was opened: it read a number there before, or a
    0 beside it).  They are safe cells with no number: neither unknown nor a constraint.  Left unknown, the
    solver would call them safe again and again, and play, which never clicks an unread tile, would guess
    elsewhere instead.

    Neighbour counts are computed for the whole grid at once with numpy: most
    numbers on a board are long satisfied, and looping over them in Python
    was the largest cost of a cheap decision.

    >>> board = Board.from_rows(["1..", "..."], mines=1)
    >>> read_position(board).unknown
    (1, 2, 3, 4, 5)
    >>> pos = read_position(board, opened=[(1, 0)])
    >>> pos.unknown, pos.constraints
    ((1, 2, 4, 5), (Constraint(cell=0, unknowns=(1, 4), mines=1),))
    """
    import numpy as np

    rows, cols = board.rows, board.cols
    codes = np.frombuffer("".join(board.cells).encode("ascii"), np.uint8).reshape(rows, cols)
    is_unknown, is_known_mine, digit_value = _tables()
    unknown, mine, value = is_unknown[codes], is_known_mine[codes], digit_value[codes]
    if opened:
        unknown = unknown.copy()
        for r, c in opened:
            unknown[r, c] = 0
    unknown_around, mines_around = neighbour_counts(unknown), neighbour_counts(mine)
    need = value - mines_around
    is_number = value >= 0
    nbrs = neighbour_table(rows, cols)
    flat_unknown = unknown.ravel().tolist()
    bad = np.flatnonzero(is_number & ((need < 0) | (need > unknown_around)))
    if bad.size:
        i = int(bad[0])
        flat_mine = mine.ravel().tolist()
        _checked(
            i,
            int(value.flat[i]),
            tuple(j for j in nbrs[i] if flat_unknown[j]),
            [j for j in nbrs[i] if flat_mine[j]],
            cols,
        )
    flat_need = need.ravel().tolist()
    constraints = [
        Constraint(i, tuple(j for j in nbrs[i] if flat_unknown[j]), flat_need[i])
        for i in np.flatnonzero(is_number & (unknown_around > 0)).tolist()
    ]
    return Position(
        rows,
        cols,
        tuple(np.flatnonzero(unknown.ravel()).tolist()),
        tuple(np.flatnonzero(mine.ravel()).tolist()),
        useful_constraints(constraints, cols),
    )


def _lookup(chars: str, values: list[int] | None = None, default: int = 0) -> np.ndarray:
    import numpy as np

    table = np.full(256, default, np.int16)
    for k, ch in enumerate(chars):
        table[ord(ch)] = 1 if values is None else values[k]
    return table


@cache
def _tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """By character code: whether it is an unknown cell, whether a known mine, its digit (-1: none); made once."""
    return (
        _lookup("".join(sorted(UNKNOWN_CHARS))),
        _lookup("".join(sorted(KNOWN_MINE_CHARS))),
        _lookup(DIGITS, list(range(len(DIGITS))), default=-1),
    )


def neighbour_counts(mask: np.ndarray) -> np.ndarray:
    """How many of each cell's eight neighbours are set in ``mask``."""
    import numpy as np

    rows, cols = mask.shape
    p = np.zeros((rows + 2, cols + 2), mask.dtype)  # a zero border; np.pad costs several times more
    p[1:-1, 1:-1] = mask
    around: np.ndarray = (
        p[:-2, :-2] + p[:-2, 1:-1] + p[:-2, 2:] + p[1:-1, :-2] + p[1:-1, 2:] + p[2:, :-2] + p[2:, 1:-1] + p[2:, 2:]
    )
    return around


def _checked(cell: int, value: int, unknowns: tuple[int, ...], flagged: list[int], cols: int) -> Constraint:
    need = value - len(flagged)
    r, c = divmod(cell, cols)
    if need < 0:
        raise ContradictionError(
            f"the {value} at ({r},{c}) has {len(flagged)} flagged or shown mines around it",
            [(r, c)] + [divmod(j, cols) for j in flagged],
        )
    if need > len(unknowns):
        raise ContradictionError(
            f"the {value} at ({r},{c}) needs {need} more mines but only {len(unknowns)} unknown cells touch it",
            [(r, c)] + [divmod(j, cols) for j in unknowns],
        )
    return Constraint(cell, unknowns, need)


def useful_constraints(constraints: list[Constraint], cols: int) -> tuple[Constraint, ...]:
    """Drop satisfied numbers and duplicates; two numbers on one cell set that disagree are a contradiction."""
    seen: dict[tuple[int, ...], Constraint] = {}
    for con in constraints:
        if not con.unknowns:
            continue
        other = seen.get(con.unknowns)
        if other is None:
            seen[con.unknowns] = con
        elif other.mines != con.mines:
            raise ContradictionError(
                f"two numbers see the same unknown cells but need {other.mines} and {con.mines} mines",
                [divmod(j, cols) for j in (other.cell, con.cell, *con.unknowns)],
            )
    return tuple(seen.values())


def with_reveal(pos: Position, index: int, value: int) -> Position:
    """The position after ``index`` shows ``value``, for asking "what if" about one number.

    Cheaper than re-reading the board because only the numbers touching the
    cell change.  The guess search asks about every number at once instead
    (:func:`analysis.reveal_outcomes`, checked against this one by one).
    Raises :class:`ContradictionError` when the value cannot occur.
    """
    cols = pos.cols
    nbrs = neighbour_table(pos.rows, cols)[index]
    unknown_set = set(pos.unknown)
    unknown_set.discard(index)
    known = set(pos.known_mines)
    unk = tuple(j for j in nbrs if j in unknown_set)
    flagged = [j for j in nbrs if j in known]
    new = _checked(index, value, unk, flagged, cols)
    changed = []
    for con in pos.constraints:
        if index in con.unknowns:
            con = Constraint(con.cell, tuple(j for j in con.unknowns if j != index), con.mines)
            if len(con.unknowns) < con.mines:
                raise ContradictionError("revealed cell was needed as a mine", [pos.coord(con.cell)])
        changed.append(con)
    changed.append(new)
    return Position(pos.rows, cols, tuple(sorted(unknown_set)), pos.known_mines, useful_constraints(changed, cols))
