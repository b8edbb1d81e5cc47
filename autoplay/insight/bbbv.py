"""3BV, the Minesweeper community's measure of a layout: the fewest left clicks that clear it.

Every opening (an 8-connected region of cells with no mine around them) takes
one click, which also opens the numbers on its border; every safe cell that is
no zero and touches no zero takes a click of its own.  3BV/s and efficiency
(3BV per click) are built on it.  A lost game counts the 3BV "solved": the
openings the player opened and the lone numbers they clicked.
"""

from __future__ import annotations

from collections.abc import Collection

from autoplay.board.model import neighbour_table

Coord = tuple[int, int]


def _numbers(rows: int, cols: int, mines: set[int]) -> list[int]:
    """The count of mines around every cell (mines included, their count unused)."""
    table = neighbour_table(rows, cols)
    return [sum(1 for n in table[i] if n in mines) for i in range(rows * cols)]


def _openings(rows: int, cols: int, mines: set[int], numbers: list[int]) -> list[set[int]]:
    """Each opening as the set of its zero cells."""
    table = neighbour_table(rows, cols)
    seen: set[int] = set()
    found: list[set[int]] = []
    for i in range(rows * cols):
        if i in mines or numbers[i] or i in seen:
            continue
        region = {i}
        todo = [i]
        seen.add(i)
        while todo:
            for n in table[todo.pop()]:
                if n not in seen and n not in mines and not numbers[n]:
                    seen.add(n)
                    region.add(n)
                    todo.append(n)
        found.append(region)
    return found


def bbbv(rows: int, cols: int, mines: Collection[Coord], opened: Collection[Coord] | None = None) -> int:
    """The layout's 3BV; with ``opened`` (the cells a player opened), only the part of it they cleared."""
    mine_set = {r * cols + c for r, c in mines}
    numbers = _numbers(rows, cols, mine_set)
    table = neighbour_table(rows, cols)
    done = None if opened is None else {r * cols + c for r, c in opened}
    total = 0
    for region in _openings(rows, cols, mine_set, numbers):
        if done is None or region & done:
            total += 1
    for i in range(rows * cols):
        if i in mine_set or not numbers[i]:
            continue
        if any(not numbers[n] and n not in mine_set for n in table[i]):
            continue  # on an opening's border: its opening's click opens it
        if done is None or i in done:
            total += 1
    return total
