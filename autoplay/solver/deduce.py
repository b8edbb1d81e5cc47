"""Cheap certain deductions that settle most moves without counting anything.

Tried in order of cost: the mine-count rule (no mines left / every unknown is
a mine), the single-number rule, then the pair rule on every two numbers that
share unknown cells (it contains the subset rule and the 1-1 / 1-2 patterns).
The first rule that finds something wins: the caller applies those moves and
asks again, which is cheaper than iterating to a fixed point here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from autoplay.errors import ContradictionError
from autoplay.solver.position import Position


@dataclass
class Deduction:
    """Certain safe cells and mines (flat indices) and the name of the rule that found them."""

    safe: set[int] = field(default_factory=set)
    mines: set[int] = field(default_factory=set)
    rule: str = ""

    def __bool__(self) -> bool:
        return bool(self.safe or self.mines)


def cheap_deductions(pos: Position, mines_left: int | None) -> Deduction:
    """Run the rules cheapest first; an empty :class:`Deduction` means the full engine is needed."""
    found = _mine_count_rule(pos, mines_left)  # called by name, not from a tuple: compiled code then calls directly
    if not found:
        found = _single_number_rule(pos, mines_left)
    if not found:
        found = _pair_rule(pos, mines_left)
    return found or Deduction()  # nothing found names no rule


def _mine_count_rule(pos: Position, mines_left: int | None) -> Deduction:
    if mines_left is None or not pos.unknown:
        return Deduction()
    if mines_left < 0:
        raise ContradictionError(
            f"too few mines: {len(pos.known_mines)} flags or shown mines but only {len(pos.known_mines) + mines_left} "
            "mines in the game",
            pos.coords(pos.known_mines),
        )
    if mines_left == 0:
        return Deduction(safe=set(pos.unknown), rule="mine-count rule (no mines left)")
    if mines_left == len(pos.unknown):
        return Deduction(mines=set(pos.unknown), rule="mine-count rule (every unknown cell is a mine)")
    return Deduction()


def _single_number_rule(pos: Position, mines_left: int | None) -> Deduction:
    found = Deduction(rule="single-number rule")
    for con in pos.constraints:
        if con.mines == 0:
            found.safe.update(con.unknowns)
        elif con.mines == len(con.unknowns):
            found.mines.update(con.unknowns)
    return found


def _pair_rule(pos: Position, mines_left: int | None) -> Deduction:
    """For numbers A and B sharing cells I: bound the mines in I from both sides, then in A-B and B-A."""
    found = Deduction(rule="pair rule")
    constraints = pos.constraints
    by_cell: dict[int, list[int]] = {}
    for k, con in enumerate(constraints):
        for j in con.unknowns:
            by_cell.setdefault(j, []).append(k)
    sets = [frozenset(con.unknowns) for con in constraints]
    for a, con_a in enumerate(constraints):
        set_a = sets[a]
        partners = {b for j in con_a.unknowns for b in by_cell[j] if b > a}
        for b in partners:
            set_b = sets[b]
            shared = set_a & set_b
            only_a, only_b = set_a - shared, set_b - shared
            ra, rb = con_a.mines, constraints[b].mines
            lo = max(0, ra - len(only_a), rb - len(only_b))
            hi = min(ra, rb, len(shared))
            if lo > hi:
                raise ContradictionError(
                    "two neighbouring numbers cannot both be satisfied",
                    pos.coords((con_a.cell, constraints[b].cell)),
                )
            _settle(found, only_a, ra - hi, ra - lo)
            _settle(found, only_b, rb - hi, rb - lo)
            _settle(found, shared, lo, hi)
    return found


def _settle(found: Deduction, cells: frozenset[int] | set[int], least: int, most: int) -> None:
    """Cells holding between ``least`` and ``most`` mines are all mines or all safe at the bounds' extremes."""
    if not cells:
        return
    if most == 0:
        found.safe.update(cells)
    elif least == len(cells):
        found.mines.update(cells)


def check_deduction(pos: Position, safe: set[int], mines: set[int], mines_left: int | None = None) -> None:
    """Raise :class:`ContradictionError` when certain cells break a number (or the mine count) they were not
    drawn from.

    Each cheap rule looks at one or two numbers and stops at the first that finds anything, so a board with a
    misread number can pass them and still have no placement of mines at all, which the engine would refuse.  A
    Firefox page showed a 4 its skin had never seen; a second look read it as a 1 beside a 2 whose two covered
    cells were then proven mines, both touching the "1", and they were flagged.  Every number is checked against
    the cells before any is acted on (one pass, a fraction of a millisecond); the cells named are the number
    broken, the certain cells that break it and the numbers that see them, since the rules cannot tell which
    of those numbers was read wrong.

    >>> from autoplay.board.model import Board
    >>> from autoplay.solver.position import read_position
    >>> pos = read_position(Board.from_rows(["12.", "..."]))
    >>> check_deduction(pos, set(), {3, 4})  # two mines touching the 1
    Traceback (most recent call last):
    ...
    autoplay.errors.ContradictionError: the number at (0,0) would have 2 mines around it: cells (0,0), (0,1), (1,0), (1,1)
    """
    if mines_left is not None and len(mines) > mines_left:
        raise ContradictionError(
            f"{len(mines)} cells proven mines but only {mines_left} mines left", pos.coords(sorted(mines))
        )
    for con in pos.constraints:
        hit_mines = [j for j in con.unknowns if j in mines]
        hit_safe = [j for j in con.unknowns if j in safe]
        if len(hit_mines) > con.mines:
            wrong, says = hit_mines, f"would have {len(hit_mines)} mines around it"
        elif len(con.unknowns) - len(hit_safe) < con.mines:
            wrong, says = hit_safe, f"would have room for {len(con.unknowns) - len(hit_safe)} more mines only"
        else:
            continue
        seen_by = {other.cell for other in pos.constraints if any(j in other.unknowns for j in wrong)}
        r, c = pos.coord(con.cell)
        raise ContradictionError(f"the number at ({r},{c}) {says}", pos.coords({con.cell, *wrong, *seen_by}))
