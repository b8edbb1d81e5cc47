"""Every certain move a batch implies, found before the batch is clicked.

The cheap rules stop at the first rule that finds something (:mod:`deduce`): its caller applies those moves and
asks again.  In the simulator asking again costs microseconds.  In a live game it costs a round trip: the batch
is clicked, the game redraws (gnome-mines takes ~50 ms to restyle its tiles), the frame settles and is read.  A
batch of flags alone learns nothing on that trip that the solver did not know already, yet it was a fifth of
gnome-mines' decisions: the numbers those flags satisfy have safe neighbours that only the next read found.

So live play closes each certain batch: the batch's cells are taken as decided, every number is reduced by them,
and the cheap rules are asked again, until they find nothing new.  The added moves are exactly as certain as the
batch: the same rules on the same reading.  Cells a safe reveal will open stay unknown (their numbers are not
shown yet), so no move depends on anything not on the screen.  The simulator keeps the one-rule steps: its
decisions, and the decision hashes pinned on them, stay as they are.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace

from autoplay.board.model import Board
from autoplay.errors import ContradictionError
from autoplay.solver.decide import Decision, Move
from autoplay.solver.deduce import cheap_deductions, check_deduction
from autoplay.solver.position import Constraint, Position, read_position, useful_constraints

#: Rounds of the cheap rules after the batch; each round must find a new mine or safe cell, so a board's cells
#: bound it anyway.  The cap keeps a pathological board from costing a live decision more than a few ms.
MAX_ROUNDS = 50


def decided(pos: Position, safe: set[int], mines: set[int]) -> Position:
    """``pos`` with the cells ``safe`` and ``mines`` (flat indices) known: fewer unknowns, every number reduced.

    Numbers left with no unknown cell drop out, and two left over the same cells must agree
    (:func:`~autoplay.solver.position.useful_constraints`, as when a board is read).  Raises
    :class:`ContradictionError` for a number the decided cells cannot satisfy (a misread the batch relies on).

    >>> pos = Position(1, 3, (0, 2), (), (Constraint(1, (0, 2), 1),))
    >>> decided(pos, set(), {0})
    Position(rows=1, cols=3, unknown=(2,), known_mines=(0,), constraints=(Constraint(cell=1, unknowns=(2,), mines=0),))
    """
    check_deduction(pos, safe, mines)  # the same check choose_move makes of a cheap rule's cells
    both = safe | mines
    reduced = [
        con
        if both.isdisjoint(con.unknowns)  # most numbers: a batch's cells lie in one corner of the board
        else Constraint(
            con.cell, tuple(j for j in con.unknowns if j not in both), con.mines - sum(j in mines for j in con.unknowns)
        )
        for con in pos.constraints
    ]
    return Position(
        pos.rows,
        pos.cols,
        tuple(j for j in pos.unknown if j not in both),
        tuple(sorted(set(pos.known_mines) | mines)),
        useful_constraints(reduced, pos.cols),
    )


def closed_batch(
    board: Board, decision: Decision, mines: int | None, opened: Collection[tuple[int, int]] = ()
) -> Decision:
    """``decision`` with the certain moves its own moves imply added (reveals first, then flags).

    ``opened``: covered-looking cells known to be open, as ``decision`` was made with them
    (:func:`~autoplay.solver.position.read_position`).

    A guess, a first move and an empty decision come back as they are; so does a batch whose closure meets a
    contradiction (the next read then finds it the usual way, nothing is added on a doubtful reading).

    >>> from autoplay.board.textformat import parse_board
    >>> board = parse_board("111\\n...\\n...")
    >>> one_step = Decision([Move("flag", 1, 1, 1.0)], False, None, "certain: single-number rule")
    >>> [(m.action, m.row, m.col) for m in closed_batch(board, one_step, None).moves]
    [('reveal', 1, 0), ('reveal', 1, 2), ('flag', 1, 1)]
    """
    if decision.guess or not decision.moves or board.is_fresh:
        return decision
    cols = board.cols
    safe = {m.row * cols + m.col for m in decision.moves if m.action == "reveal"}
    flagged = {m.row * cols + m.col for m in decision.moves if m.action == "flag"}
    known_safe, known_mines = set(safe), set(flagged)
    try:
        # each round decides only the cells the last one found, on the position the rounds before left: the
        # cheap rules' conclusions only grow as cells are decided, so where they stop is the same whichever order
        # they were found in, and each cell is checked against every number once
        now = decided(read_position(board, opened), known_safe, known_mines)
        for _ in range(MAX_ROUNDS):
            found = cheap_deductions(now, None if mines is None else mines - len(now.known_mines))
            if not found:
                break
            known_safe |= found.safe
            known_mines |= found.mines
            now = decided(now, set(found.safe), set(found.mines))
    except ContradictionError:
        return decision
    added_safe, added_mines = known_safe - safe, known_mines - flagged
    if not added_safe and not added_mines:
        return decision
    reveals = [m for m in decision.moves if m.action == "reveal"]
    reveals += [Move("reveal", j // cols, j % cols, 0.0) for j in sorted(added_safe)]
    flags = [m for m in decision.moves if m.action != "reveal"]
    flags += [Move("flag", j // cols, j % cols, 1.0) for j in sorted(added_mines)]
    reason = f"{decision.reason}, and the {len(added_safe) + len(added_mines)} moves it implies"
    return replace(decision, moves=reveals + flags, reason=reason)
