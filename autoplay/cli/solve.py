"""``autoplay solve``: exact probabilities and the chosen move for a board file."""

from __future__ import annotations

import argparse
import sys
import time

from autoplay.cli.arguments import non_negative_int, positive_seconds
from autoplay.cli.output import exact_json
from autoplay.errors import UsageError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "solve",
        help="show exact mine probabilities and the best move for a board file",
        description="Read a board text file, print every unknown cell's exact mine probability (percent) and "
        "the move the solver would make. With the total mine count (mines=N header or --mines) the "
        "probabilities are global; without it only cells touching a number get one.",
        epilog="example: autoplay solve board.txt --mines 99 --json",
    )
    p.add_argument(
        "board",
        help="board text file (one line per row: . F ? * X 0-8, optional mines=N header; with several mines a "
        "cell, cells may be space-separated tokens such as 12 or F2, see README)",
    )
    p.add_argument("--mines", type=non_negative_int, help="total mines in the game (overrides the file's header)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of the grid")
    p.add_argument("--time-limit", type=positive_seconds, default=1.0, help="seconds for the decision (default: 1)")
    p.add_argument(
        "--explain",
        action="store_true",
        help="say why each move is made: the smallest set of numbers forcing a certain move (its "
        "'pieces of information' and pattern name), or a guess's odds against the runners-up; with "
        "--json each move gets an 'explanation' object",
    )
    from autoplay.cli.simulate import add_max_per_cell

    add_max_per_cell(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from autoplay.board.multiformat import MultiBoard
    from autoplay.cli.multimine_view import load_board
    from autoplay.solver import analyze, choose_move

    started = time.perf_counter()  # --time-limit bounds the whole answer: reading, deciding and the grid shown
    board = load_board(args.board, args)
    if isinstance(board, MultiBoard):
        return _run_multi(board, args)
    if not board.unknown_cells():
        raise UsageError(f"{args.board}: no hidden cell left, so there is no move to make")
    decision = choose_move(board, time_limit=max(0.0, args.time_limit - (time.perf_counter() - started)))
    # the engine's own analysis when it ran; cheap rules decide without one, so the grid gets the time left
    analysis = decision.analysis or analyze(board, deadline=started + args.time_limit)
    explanations = later = None
    if args.explain:
        from autoplay.insight.explain import explain_decision, later_certain_moves

        extra = later_certain_moves(decision, analysis)
        explained = explain_decision(board, decision, time_limit=EXPLAIN_SECONDS, also=extra)
        explanations, later = explained[: len(decision.moves)], explained[len(decision.moves) :]
    if args.json:
        out = _as_json(analysis, decision, explanations)
        if later is not None:
            out["also_certain"] = [
                {"action": e.action, "row": e.row, "col": e.col, "explanation": e.to_dict()} for e in later
            ]
        print(exact_json(out))
    else:
        sys.stdout.write(_as_text(board, analysis, decision))
        if explanations:
            from autoplay.insight import format_explanations

            print("why:")
            print(format_explanations(explanations, limit=EXPLAINED_LINES))
            if later:
                print("also certain (for later moves):")
                print(format_explanations(later, limit=EXPLAINED_LINES))
    return 0


def _run_multi(board, args: argparse.Namespace) -> int:
    """``solve`` for a board with several mines a cell: the chance of a mine, the expected count, the move."""
    from autoplay.cli.multimine_view import multi_json, multi_text, solve_multi
    from autoplay.errors import UsageError

    if args.explain:
        raise UsageError("--explain names the one-mine game's patterns; it does not take --max-per-cell above 1")
    analysis, decision = solve_multi(board, args.time_limit)
    if args.json:
        print(exact_json(multi_json(analysis, decision)))
    else:
        sys.stdout.write(multi_text(board, analysis, decision))
    return 0


#: Explanations printed as text; the rest are counted (a cascade can certify dozens of cells at once).
EXPLAINED_LINES = 40
#: Seconds of minimal-set search per board: enough for real positions (a few ms), a cap for contrived dense ones.
EXPLAIN_SECONDS = 5.0


def _as_json(analysis, decision, explanations=None) -> dict:
    """The JSON contract; explanations (``--explain``) add an ``explanation`` object to each move, nothing else."""
    why = {(e.action, e.row, e.col): e.to_dict() for e in explanations or []}

    def move_dict(m) -> dict:
        out = {"action": m.action, "row": m.row, "col": m.col, "probability": m.probability}
        if explanations is not None:
            out["explanation"] = why.get((m.action, m.row, m.col))
        return out

    return {
        "rows": analysis.rows,
        "cols": analysis.cols,
        "mode": analysis.mode,
        "probabilities": analysis.probabilities,
        "expected_mines": analysis.probabilities,  # one mine a cell at most: the mean count is the probability
        "max_per_cell": 1,
        "move": move_dict(decision.moves[0]),
        "moves": [move_dict(m) for m in decision.moves],
        "guess": decision.guess,
        "reason": decision.reason,
        "safe": [list(cell) for cell in analysis.safe],
        "mines": [list(cell) for cell in analysis.mines],
        "solutions": analysis.solutions,
        "approximate": analysis.approximate,
    }


def _cell_text(ch: str, p: float | None) -> str:
    """A number or flag as itself; an unknown cell as its rounded percent (0% and 100% only when certain)."""
    if ch not in ".?":
        return ch
    if p is None:
        return ch
    if p == 0.0 or p == 1.0:
        return f"{round(100 * p)}%"
    return f"{min(99, max(1, round(100 * p)))}%"


def _as_text(board, analysis, decision) -> str:
    width = 5
    lines = [
        f"mode {analysis.mode}, {len(analysis.safe)} certainly safe, {len(analysis.mines)} certain mines"
        + (", approximate (time limit)" if analysis.approximate else ""),
        "    " + "".join(f"{c:>{width}}" for c in range(board.cols)),
    ]
    for r in range(board.rows):
        cells = "".join(f"{_cell_text(board[r, c], analysis.probabilities[r][c]):>{width}}" for c in range(board.cols))
        lines.append(f"{r:>4}{cells}")
    move = decision.moves[0]
    more = f" (+{len(decision.moves) - 1} more certain moves)" if len(decision.moves) > 1 else ""
    lines.append(
        f"move: {move.action} ({move.row},{move.col}), P(mine) {move.probability:.3f}{more}; {decision.reason}"
    )
    return "\n".join(lines) + "\n"
