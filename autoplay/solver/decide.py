"""The solver's front door: one :class:`Decision` per board.

Cheap rules run first and, when they find anything, the full engine is never
paid for; the engine's certain cells come next; only then a guess.  Every
decision respects ``time_limit``: half of it is reserved for the engine's
enumeration and the rest (whatever is left) for scoring guesses, and both fall
back to a cheaper answer instead of running over.
"""

from __future__ import annotations

import random
import time
from collections.abc import Collection
from dataclasses import dataclass
from typing import Literal

from autoplay.board.model import Board
from autoplay.board.rules import Rules
from autoplay.solver.analysis import Analysis, analyze_position
from autoplay.solver.deduce import cheap_deductions, check_deduction
from autoplay.solver.guess import DEFAULT_DEPTH, GuessChoice, choose_guess
from autoplay.solver.position import Position, read_position
from autoplay.solver.record import Record

Action = Literal["reveal", "flag"]


class Move(Record):
    """Reveal or flag one 0-based cell; ``probability`` is its chance of being a mine.

    A :class:`~autoplay.solver.record.Record`: a simulated game makes hundreds of these.

    >>> Move("flag", 2, 3, 1.0)
    Move(action='flag', row=2, col=3, probability=1.0)
    """

    _fields = ("action", "row", "col", "probability")
    __slots__ = _fields

    def __init__(self, action: Action, row: int, col: int, probability: float) -> None:
        self.action: Action = action
        self.row = row
        self.col = col
        self.probability = probability

    def _values(self) -> tuple[object, ...]:
        return (self.action, self.row, self.col, self.probability)


@dataclass
class Decision:
    """Every certain move found, or exactly one guessed reveal when nothing is certain.

    ``guess_choice`` keeps the guess policy's scores of the cells it weighed, for explanations.
    """

    moves: list[Move]
    guess: bool
    analysis: Analysis | None
    reason: str
    guess_choice: GuessChoice | None = None


def first_move(board_rows: int, board_cols: int, rules: Rules) -> Move:
    """Where to open a fresh board.

    A corner when only the clicked cell is protected (it shows a zero most
    often).  When the click is guaranteed to open an area a corner's opening
    is the smallest, so the start moves inwards: to (2, 2) on boards up to
    16x16 and to (3, 3) on larger ones, as measured (BENCHMARKS.md: beginner
    +0.36 points at (2, 2) over (3, 3), intermediate +0.3; expert +1.1 points
    at (3, 3) over (2, 2)).  Clamped on tiny boards.
    """
    if rules.first_click == "zero":
        inset = ZERO_START_SMALL if board_rows * board_cols <= SMALL_BOARD_CELLS else ZERO_START_LARGE
        return Move("reveal", min(inset, board_rows - 1), min(inset, board_cols - 1), 0.0)
    return Move("reveal", 0, 0, 0.0)


#: Distance from the top-left corner of the first click when it is guaranteed an opening.
ZERO_START_SMALL = 2
ZERO_START_LARGE = 3
#: Boards with at most this many cells (16x16) use the small inset.
SMALL_BOARD_CELLS = 256


def choose_move(
    board: Board,
    mines: int | None = None,
    rules: Rules = Rules(),
    *,
    time_limit: float = 1.0,
    rng: random.Random | None = None,
    depth: int = DEFAULT_DEPTH,
    opened: Collection[tuple[int, int]] = (),
) -> Decision:
    """The next move(s) for ``board``; ``mines`` defaults to ``board.mines`` (None: local mode).

    ``rng`` is accepted so callers can seed any randomised tie-break; the
    current policy is deterministic and does not draw from it.  ``depth`` is
    how many moves a guess looks ahead (2, or 3 for close calls; see :mod:`guess`).
    ``opened``: covered-looking cells known to be open, played as safe cells with no number
    (:func:`~autoplay.solver.position.read_position`).

    Raises :class:`~autoplay.errors.ContradictionError` for a board no placement of mines explains, also where a
    cheap rule found moves first (:func:`~autoplay.solver.deduce.check_deduction`): a board read from the screen
    can hold a misread number, and nothing is acted on until it is read again.  The simulator enters at
    :func:`decide_position`, whose boards are true, and pays for no such check.
    """
    started = time.perf_counter()
    if mines is None:
        mines = board.mines
    if board.is_fresh and not opened:
        move = first_move(board.rows, board.cols, rules)
        return Decision([move], rules.first_click == "none", None, f"first move: rule {rules.first_click!r}")
    pos = read_position(board, opened)
    decision = decide_position(pos, mines, time_limit=time_limit, started=started, depth=depth)
    if decision.analysis is None and decision.moves:  # a cheap rule's answer: checked against every number
        cols = pos.cols
        safe = {m.row * cols + m.col for m in decision.moves if m.action == "reveal"}
        proven = {m.row * cols + m.col for m in decision.moves if m.action == "flag"}
        check_deduction(pos, safe, proven, None if mines is None else mines - len(pos.known_mines))
    return decision


def decide_position(
    pos: Position,
    mines: int | None,
    *,
    time_limit: float = 1.0,
    started: float | None = None,
    depth: int = DEFAULT_DEPTH,
) -> Decision:
    """:func:`choose_move` on a position already read from a board that is not fresh.

    The simulator keeps its position up to date move by move (:mod:`tracker`) and enters here.
    ``started`` is when the decision's time limit began (default: now).
    """
    if started is None:
        started = time.perf_counter()
    if not pos.unknown:
        return Decision([], False, None, "nothing to do: no unknown cells left")
    found = cheap_deductions(pos, None if mines is None else mines - len(pos.known_mines))
    if found:
        return Decision(_certain_moves(pos, found.safe, found.mines), False, None, f"certain: {found.rule}")
    analysis = analyze_position(pos, mines, deadline=started + time_limit / 2)
    if analysis.safe or analysis.mines:
        cols = pos.cols
        safe = {r * cols + c for r, c in analysis.safe}
        certain_mines = {r * cols + c for r, c in analysis.mines}
        rule = "approximate engine (time limit)" if analysis.approximate else "exact probabilities"
        return Decision(_certain_moves(pos, safe, certain_mines), False, analysis, f"certain: {rule}")
    choice = choose_guess(analysis, mines, started + time_limit, depth)
    reason = choice.reason
    if analysis.approximate:
        reason += " (approximate: enumeration hit the time limit)"
    r, c = pos.coord(choice.index)
    return Decision([Move("reveal", r, c, choice.probability)], True, analysis, reason, choice)


def _certain_moves(pos: Position, safe: set[int], mines: set[int]) -> list[Move]:
    cols = pos.cols
    moves = [Move("reveal", j // cols, j % cols, 0.0) for j in sorted(safe)]
    moves.extend([Move("flag", j // cols, j % cols, 1.0) for j in sorted(mines)])
    return moves
