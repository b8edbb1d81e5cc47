"""Everything ``autoplay analyze`` reports about one position, as data (printing is the CLI's job).

The solver is asked twice: without the mine count ("local": only the numbers
constrain the frontier) and with it ("global": the count couples every
subsystem and prices cells off the frontier).  Both views matter to a human
checking a position: a cell can look safe locally and risky globally.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from autoplay.board.model import Board, Coord
from autoplay.board.rules import Rules
from autoplay.replay.decide import decide_move
from autoplay.solver.analysis import Analysis
from autoplay.solver.decide import Decision


@dataclass(frozen=True)
class CellReport:
    """One unknown cell.  ``mine_solutions`` counts the solutions (of the global view when there is one)
    in which the cell is a mine; None when the solver could only estimate."""

    row: int
    col: int
    global_p: float | None
    local_p: float | None
    mine_solutions: int | None
    frontier: bool


@dataclass(frozen=True)
class SubsystemReport:
    """An independent part of the frontier: its cells and 'mines in it -> number of assignments'."""

    cells: list[Coord]
    mine_counts: dict[int, int]
    exact: bool


@dataclass
class PositionReport:
    board: Board
    mines: int | None
    local: Analysis
    global_: Analysis | None
    cells: list[CellReport]
    subsystems: list[SubsystemReport]
    #: Convolution of every subsystem map: mines on the whole frontier -> frontier assignments.
    combined: dict[int, int]
    #: Global view only: mines on the frontier -> full-board solutions (off-frontier binomial applied).
    weighted: dict[int, int] = field(default_factory=dict)
    decision: Decision | None = None

    @property
    def analysis(self) -> Analysis:
        """The view the move is chosen from: global when the mine count is known."""
        return self.global_ if self.global_ is not None else self.local

    @property
    def solutions(self) -> int:
        return self.analysis.solutions

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready; counts stay exact integers (they overflow floats on expert boards)."""
        return {
            "rows": self.board.rows,
            "cols": self.board.cols,
            "mines": self.mines,
            "board": self.board.to_text(),
            "mode": self.analysis.mode,
            "approximate": bool(self.analysis.approximate),
            "solutions": {"global": self.global_.solutions if self.global_ else None, "local": self.local.solutions},
            "cells": [
                {
                    "row": c.row,
                    "col": c.col,
                    "global": c.global_p,
                    "local": c.local_p,
                    "mine_solutions": c.mine_solutions,
                    "frontier": c.frontier,
                }
                for c in self.cells
            ],
            "safe": [list(rc) for rc in self.analysis.safe],
            "certain_mines": [list(rc) for rc in self.analysis.mines],
            "subsystems": [
                {"cells": [list(rc) for rc in s.cells], "mine_counts": _keys_to_str(s.mine_counts), "exact": s.exact}
                for s in self.subsystems
            ],
            "combined": _keys_to_str(self.combined),
            "weighted": _keys_to_str(self.weighted),
            "decision": decision_to_dict(self.decision),
        }


def _keys_to_str(counts: dict[int, int]) -> dict[str, int]:
    return {str(k): v for k, v in sorted(counts.items())}


def decision_to_dict(decision: Decision | None) -> dict[str, Any] | None:
    """The solver's Decision in the same shape the live recording uses for moves."""
    if decision is None:
        return None
    return {
        "moves": [
            {
                "action": m.action,
                "row": m.row,
                "col": m.col,
                "probability": None if m.probability is None else float(m.probability),
            }
            for m in decision.moves
        ],
        "guess": bool(decision.guess),
        "reason": decision.reason,
    }


def convolve_counts(maps: list[dict[int, int]]) -> dict[int, int]:
    """Mine-count map of independent subsystems taken together (their counts multiply, mines add)."""
    combined = {0: 1}
    for counts in maps:
        joined: dict[int, int] = {}
        for m1, n1 in combined.items():
            for m2, n2 in counts.items():
                joined[m1 + m2] = joined.get(m1 + m2, 0) + n1 * n2
        combined = joined
    return combined


def _mine_solutions(analysis: Analysis, rc: Coord) -> int | None:
    """Solutions with a mine at ``rc``: the exact probability times the solution count is an integer."""
    exact: Fraction | None = analysis.exact.get(rc)
    if exact is None or analysis.approximate:
        return None
    count = exact * analysis.solutions
    return int(count) if count.denominator == 1 else None


def report_position(
    board: Board,
    mines: int | None = None,
    *,
    decide: bool = True,
    rules: Rules | None = None,
    time_limit: float = 1.0,
    deadline: float | None = None,
) -> PositionReport:
    """Analyse ``board`` both ways (global only when a mine count is known) and pick the move.

    ``mines`` overrides ``board.mines``.  Impossible boards raise the solver's
    :class:`~autoplay.errors.ContradictionError`, which names the cells.  With ``deadline``
    (a ``time.perf_counter()`` value) the two views and the move share the time left: each view
    gets a third, the move what remains, and anything not counted in time is marked approximate.
    """
    from autoplay.solver import analyze

    total = board.mines if mines is None else mines
    local_deadline = global_deadline = None
    if deadline is not None:
        now = time.perf_counter()
        local_deadline = now + (deadline - now) / 3
        global_deadline = now + 2 * (deadline - now) / 3
    local = analyze(board.with_mines(None), None, deadline=local_deadline)
    global_ = analyze(board.with_mines(total), total, deadline=global_deadline) if total is not None else None
    main = global_ if global_ is not None else local
    frontier = {rc for comp in local.components for rc in comp.cells}
    cells = [
        CellReport(
            r,
            c,
            global_p=global_.probabilities[r][c] if global_ is not None else None,
            local_p=local.probabilities[r][c],
            mine_solutions=_mine_solutions(main, (r, c)),
            frontier=(r, c) in frontier,
        )
        for r, c in board.unknown_cells()
    ]
    subsystems = [SubsystemReport(list(comp.cells), dict(comp.mine_counts), comp.exact) for comp in local.components]
    report = PositionReport(
        board=board.with_mines(total),
        mines=total,
        local=local,
        global_=global_,
        cells=cells,
        subsystems=subsystems,
        combined=convolve_counts([s.mine_counts for s in subsystems if s.exact]),
        weighted=dict(global_.mine_count_weights) if global_ is not None else {},
    )
    if decide and cells:  # a board with nothing hidden has no move (and the solver expects one)
        if deadline is not None:
            time_limit = max(0.01, deadline - time.perf_counter())
        report.decision = decide_move(report.board, total, rules, time_limit)
    return report
