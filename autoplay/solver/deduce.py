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
