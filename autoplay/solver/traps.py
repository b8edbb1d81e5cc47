"""Traps: pairs and 2x2 blocks that no number will ever split, found while they are still forming.

Two hidden cells side by side holding one mine can never be told apart once the three cells
beyond each end are mines (or the wall): every number that can still be shown sees both.  A 2x2
block with its two mines on a diagonal is the same trap when its four outer corners are mines.
A game that holds a trap needs a coin toss on it some day, whatever is played meanwhile.

That makes some guesses free.  If a cell is a mine *only* in layouts where such a trap holds it
(its partner safe, the outer cells mines), then guessing it now loses exactly the layouts the
trap's own coin toss would lose later (swapping the two halves of a trap changes no number, so
the partner's half is as large), while a safe answer tells the trap apart and may spare every
other guess.  DavidNHill's solver calls such a cell a pseudo-50/50 and guesses it at once; the
test here counts layouts exactly: the position is counted again with the trap's cells forced.

>>> from autoplay.board.model import Board
>>> from autoplay.solver.analysis import analyze
>>> board = Board.from_rows(["...2.", "13...", "01121", "0001."], 4)
>>> analysis = analyze(board)
>>> pos = analysis.position
>>> risk = {j: analysis.probabilities[j // 5][j % 5] for j in pos.unknown}
>>> pseudo_fifty_fifty(pos, 4, analysis.solutions, risk, analysis.exact)  # (0,0): the 1 and the 3 close the pair
0
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Final

from autoplay.errors import ContradictionError
from autoplay.solver.analysis import layout_count
from autoplay.solver.position import Constraint, Position, useful_constraints

#: Traps still missing more outer mines than this are not tried: a cell that is a mine only inside one is
#: found almost only where the trap is nearly closed (DavidNHill's solver draws the same line).
MAX_MISSING: Final = 1

#: The three trap shapes, at their top-left cell: (cells that are mines, cells that are safe), as offsets.
SHAPES: Final = (
    (((0, 0),), ((0, 1),)),
    (((0, 0),), ((1, 0),)),
    (((0, 0), (1, 1)), ((0, 1), (1, 0))),
)
#: Each shape's outer cells: the only cells that see its two halves differently.
OUTER: Final = (
    ((-1, -1), (0, -1), (1, -1), (-1, 2), (0, 2), (1, 2)),
    ((-1, -1), (-1, 0), (-1, 1), (2, -1), (2, 0), (2, 1)),
    ((-1, -1), (-1, 2), (2, -1), (2, 2)),
)

#: One placement of a trap, as flat cells: (its mines, its safe cells, outer cells that are not yet known mines).
Trap = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]


def pseudo_fifty_fifty(
    pos: Position,
    mines: int,
    solutions: int,
    risk: Mapping[int, float],
    shares: Mapping[tuple[int, int], Fraction],
) -> int | None:
    """A cell that is a mine only where a trap holds it (see the module docstring), or None.

    ``risk`` and ``shares`` give every unknown cell's mine chance (by flat index as a float, by row
    and column exactly); ``solutions`` counts the layouts of ``pos``.  The counts have no deadline
    (the forced positions differ from ``pos`` in a few cells, so they cost about what counting it did).
    """
    cols = pos.cols
    unknown, known = set(pos.unknown), set(pos.known_mines)
    for kind, top_left in _sites(pos, risk):
        trap = placement(pos, kind, top_left, unknown, known, risk)
        if trap is None:
            continue
        halves, outer = trap[0] + trap[1], trap[2]
        # a cell that is a mine only inside the trap makes every outer cell a mine whenever it is one
        suspects = [k for k in halves if all(risk[m] >= risk[k] for m in outer)]
        if not suspects:
            continue
        count = forced_count(pos, mines, trap)  # by symmetry also the count with the halves swapped
        for k in suspects:
            if count and shares[divmod(k, cols)] * solutions == count:
                return k
    return None


def placement(
    pos: Position, kind: int, top_left: int, unknown: set[int], known: set[int], risk: Mapping[int, float]
) -> Trap | None:
    """Shape ``kind`` of :data:`SHAPES` placed at ``top_left``, or None when it cannot become a trap.

    It cannot when one of its cells is off the board or not hidden, or an outer cell is shown (or
    certainly safe, so it will be).  Outer cells off the board or known to be mines are left out.
    """
    rows, cols = pos.rows, pos.cols
    r0, c0 = divmod(top_left, cols)
    halves: list[int] = []
    for dr, dc in SHAPES[kind][0] + SHAPES[kind][1]:
        r, c = r0 + dr, c0 + dc
        if not (0 <= r < rows and 0 <= c < cols) or r * cols + c not in unknown:
            return None
        halves.append(r * cols + c)
    missing: list[int] = []
    for dr, dc in OUTER[kind]:
        r, c = r0 + dr, c0 + dc
        if not (0 <= r < rows and 0 <= c < cols):
            continue  # the wall never shows a number
        j = r * cols + c
        if j in known or risk.get(j) == 1.0:
            continue
        if j not in unknown or risk.get(j) == 0.0:
            return None
        missing.append(j)
    split = len(SHAPES[kind][0])
    return tuple(halves[:split]), tuple(halves[split:]), tuple(missing)


def forced_count(pos: Position, mines: int, trap: Trap) -> int:
    """Layouts of ``pos`` in which the trap's mines and outer cells are mines and its safe cells are not.

    The forced cells leave the position the way flags and shown cells do, and what is left is counted
    by the engine (untouched components come from its cache; no cell's share is worked out).
    """
    trap_mines, trap_safe, missing = trap
    forced_mines = set(trap_mines) | set(missing)
    if len(pos.known_mines) + len(forced_mines) > mines:
        return 0
    gone = forced_mines | set(trap_safe)
    constraints = []
    for con in pos.constraints:
        if gone.isdisjoint(con.unknowns):
            constraints.append(con)
            continue
        rest = tuple(j for j in con.unknowns if j not in gone)
        need = con.mines - sum(1 for j in con.unknowns if j in forced_mines)
        if need < 0 or need > len(rest):
            return 0
        constraints.append(Constraint(con.cell, rest, need))
    try:
        forced = Position(
            pos.rows,
            pos.cols,
            tuple(j for j in pos.unknown if j not in gone),
            tuple(sorted((*pos.known_mines, *forced_mines))),
            useful_constraints(constraints, pos.cols),
        )
    except ContradictionError:
        return 0
    return layout_count(forced, mines)


#: What :func:`_sites` knows of a cell: shown (or certainly safe, so it will be), unsure, or neither (a known mine,
#: a certain mine, or the wall beyond the board).
_NEITHER: Final = 0
_SHOWN: Final = 1
_UNSURE: Final = 2


def _sites(pos: Position, risk: Mapping[int, float]) -> list[tuple[int, int]]:
    """(shape, top-left cell) of every placement that could still become a trap missing at most :data:`MAX_MISSING`.

    One pass over a grid of what each cell is, with a border of two cells of wall (the wall is neither shown
    nor missing): most placements fail on their first cell, a shown one, so the pass costs about a look per
    placement (it was a numpy screen, whose forty small array operations cost more than the look-ups).
    """
    rows, cols = pos.rows, pos.cols
    width = cols + 4
    grid = [_NEITHER] * ((rows + 4) * width)
    for r in range(rows):
        row = (r + 2) * width + 2
        for c in range(cols):
            grid[row + c] = _SHOWN
    for j in pos.known_mines:
        grid[(j // cols + 2) * width + j % cols + 2] = _NEITHER
    for j in pos.unknown:
        p = risk[j]
        grid[(j // cols + 2) * width + j % cols + 2] = _SHOWN if p == 0.0 else _UNSURE if p < 1.0 else _NEITHER
    found: list[tuple[int, int]] = []
    for kind, (trap_mines, trap_safe) in enumerate(SHAPES):
        inside = [dr * width + dc for dr, dc in trap_mines + trap_safe]
        outside = [dr * width + dc for dr, dc in OUTER[kind]]
        for r in range(rows):
            row = (r + 2) * width + 2
            for c in range(cols):
                at = row + c
                ok = True
                for d in inside:
                    if grid[at + d] != _UNSURE:
                        ok = False
                        break
                if not ok:
                    continue
                missing = 0
                for d in outside:
                    seen = grid[at + d]
                    if seen == _SHOWN:
                        ok = False
                        break
                    if seen == _UNSURE:
                        missing += 1
                if ok and missing <= MAX_MISSING:
                    found.append((kind, r * cols + c))
    return found
