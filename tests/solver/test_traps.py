"""Traps and pseudo-50/50s: the shapes against the rule that makes them traps, the counts and picks by brute force."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

import pytest

from autoplay.board.model import Board, neighbour_table
from autoplay.solver.analysis import Analysis, analyze
from autoplay.solver.position import Position
from autoplay.solver.traps import OUTER, SHAPES, forced_count, placement, pseudo_fifty_fifty

from .brute import random_position


def _layouts(board: Board) -> list[set[int]]:
    """Every placement of the board's remaining mines that agrees with its numbers."""
    nbrs = neighbour_table(board.rows, board.cols)
    unknown = [i for i, ch in enumerate(board.cells) if ch in ".?"]
    numbers = [i for i, ch in enumerate(board.cells) if ch.isdigit()]
    known = {i for i, ch in enumerate(board.cells) if ch in "F*X"}
    found = []
    for chosen in itertools.combinations(unknown, board.mines - len(known)):
        mine = known | set(chosen)
        if all(sum(1 for j in nbrs[i] if j in mine) == int(board.cells[i]) for i in numbers):
            found.append(mine)
    return found


def _telling(nbrs: tuple[tuple[int, ...], ...], mines: list[int], safe: list[int]) -> set[int]:
    """Cells outside a trap that see its mine half and its safe half a different number of times."""
    cells = set(mines) | set(safe)
    around = {j for i in cells for j in nbrs[i]} - cells
    return {j for j in around if sum(j in nbrs[i] for i in mines) != sum(j in nbrs[i] for i in safe)}


def _analysed(board: Board) -> tuple[Analysis, Position, dict[int, float]]:
    analysis = analyze(board)
    pos = analysis.position
    assert pos is not None
    cols = board.cols
    return analysis, pos, {j: float(analysis.probabilities[j // cols][j % cols] or 0.0) for j in pos.unknown}


def _random_boards(seed: int, count: int) -> Iterator[tuple[Board, Analysis, Position, dict[int, float]]]:
    """Small boards from real random games, every other one with some true mines flagged, each analysed."""
    rng = random.Random(seed)
    for k in range(count):
        board = random_position(rng, max_unknown=12, flags=k % 2 == 1)
        yield (board, *_analysed(board))


@pytest.mark.parametrize("kind", range(len(SHAPES)))
def test_the_outer_cells_are_exactly_the_cells_that_tell_a_shape_apart(kind: int) -> None:
    rows, cols = 6, 6
    nbrs = neighbour_table(rows, cols)
    top_left = 2 * cols + 2
    mines = [top_left + dr * cols + dc for dr, dc in SHAPES[kind][0]]
    safe = [top_left + dr * cols + dc for dr, dc in SHAPES[kind][1]]
    outer = {top_left + dr * cols + dc for dr, dc in OUTER[kind]}
    assert _telling(nbrs, mines, safe) == outer


def test_forced_counts_match_brute_force() -> None:
    checked = 0
    for board, _, pos, risk in _random_boards(13, 600):
        layouts = _layouts(board)
        unknown, known = set(pos.unknown), set(pos.known_mines)
        for kind, top_left in itertools.product(range(len(SHAPES)), pos.unknown):
            trap = placement(pos, kind, top_left, unknown, known, risk)
            if trap is None:
                continue
            mines, safe, outer = trap
            want = sum(1 for m in layouts if set(mines + outer) <= m and m.isdisjoint(safe))
            assert forced_count(pos, board.mines, trap) == want, (board, trap)
            checked += 1
    assert checked > 150


def _trapped(board: Board, layout: set[int], k: int) -> bool:
    """In this layout the mine ``k`` sits in a pair or 2x2 block whose halves no cell outside can tell apart.

    Worked out from neighbourhoods alone: a cell outside the trap that sees its halves differently
    must be a mine (it will never show a number).
    """
    rows, cols = board.rows, board.cols
    nbrs = neighbour_table(rows, cols)
    hidden = {i for i, ch in enumerate(board.cells) if ch in ".?"}
    r, c = divmod(k, cols)

    def quiet(mines: list[int], safe: list[int]) -> bool:
        cells = set(mines) | set(safe)
        if not cells <= hidden or cells & layout != set(mines):
            return False
        return _telling(nbrs, mines, safe) <= layout

    for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0)):
        if 0 <= r + dr < rows and 0 <= c + dc < cols and quiet([k], [k + dr * cols + dc]):
            return True
    for r0, c0 in itertools.product((r - 1, r), (c - 1, c)):
        if r0 >= 0 and r0 + 1 < rows and c0 >= 0 and c0 + 1 < cols:
            block = [r0 * cols + c0, r0 * cols + c0 + 1, (r0 + 1) * cols + c0, (r0 + 1) * cols + c0 + 1]
            diagonal = [block[0], block[3]] if k in (block[0], block[3]) else [block[1], block[2]]
            if quiet(diagonal, [i for i in block if i not in diagonal]):
                return True
    return False


def test_a_pseudo_fifty_fifty_is_a_mine_only_where_a_trap_holds_it() -> None:
    """Every cell the rule picks is checked against every layout of its board, and the rule must fire often."""
    found = 0
    for board, analysis, pos, risk in _random_boards(5, 1200):
        cell = pseudo_fifty_fifty(pos, board.mines, analysis.solutions, risk, analysis.exact)
        if cell is None:
            continue
        found += 1
        assert 0.0 < risk[cell] < 1.0
        with_mine = [m for m in _layouts(board) if cell in m]
        assert with_mine and all(_trapped(board, m, cell) for m in with_mine), (board, divmod(cell, board.cols))
    assert found >= 10


def test_a_pair_that_can_still_be_split_is_no_pseudo_fifty_fifty() -> None:
    # one mine in (0,0)-(0,1), as in the module's example, but the second 1 makes (0,2) safe: shown, it tells the
    # two apart
    board = Board.from_rows(["...", "11."], 1)
    analysis, pos, risk = _analysed(board)
    assert pseudo_fifty_fifty(pos, board.mines, analysis.solutions, risk, analysis.exact) is None
    proved = Board.from_rows(["...2.", "13...", "01121", "0001."], 4)  # the example: (0,2) and (1,2) proved mines
    analysis, pos, risk = _analysed(proved)
    assert pseudo_fifty_fifty(pos, proved.mines, analysis.solutions, risk, analysis.exact) in (0, 1)
