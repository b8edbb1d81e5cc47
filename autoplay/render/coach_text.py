"""``autoplay watch --terminal``: the newest position as one screen of text, redrawn in place.

The grid is ``analyze``'s (:func:`autoplay.render.terminal.format_grid`: each
covered cell's mine chance in percent, ``>`` on the move); below it the cells
certain either way, the move autoplay would make with its "why", the person's
last steps with their verdicts, and the summary of the last game that ended.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from autoplay.insight.coach import Coached
from autoplay.insight.review import Judged, format_judged, format_summary
from autoplay.render.terminal import format_grid

#: Moves to the top left corner and clears the screen, so each view replaces the last.
HOME_AND_CLEAR = "\x1b[H\x1b[2J"
#: Steps listed under the grid, the newest last.
STEPS_SHOWN = 8


def _cells(cells: Sequence[tuple[int, int]], limit: int = 10) -> str:
    shown = " ".join(f"({r},{c})" for r, c in cells[:limit])
    return (shown + (f" ... ({len(cells)})" if len(cells) > limit else "")) or "-"


def format_view(
    coached: Coached, t: float, steps: Sequence[Judged], summary: dict[str, Any] | None, colour: bool = False
) -> str:
    """One screen: the heat map, the certain cells, the move and its why, recent steps, the last game's summary."""
    advice = coached.advice
    board = advice.board
    mines = "unknown" if board.mines is None else str(board.mines)
    lines = [f"{t:.1f} s  {board.rows}x{board.cols}, {mines} mines, {coached.state}"]
    analysis, decision = advice.analysis, advice.decision
    move = decision.moves[0] if decision is not None and decision.moves else None
    lines.append(format_grid(board, analysis.probabilities if analysis is not None else None, move, colour=colour))
    if analysis is not None:
        lines.append(f"certainly safe: {_cells(analysis.safe)}    certain mines: {_cells(analysis.mines)}")
    if decision is not None and move is not None:
        kind = "guess" if decision.guess else "certain"
        lines.append(
            f"autoplay would {move.action} ({move.row},{move.col}) [{kind}, mine {100 * move.probability:.1f}%]"
        )
        why = advice.explanations[0].text if advice.explanations else decision.reason
        lines.append(f"why: {why}")
    elif advice.problem:
        lines.append(f"no move: {advice.problem}")
    if steps:
        lines.append("your steps:")
        lines.extend("  " + format_judged(j) for j in steps[-STEPS_SHOWN:])
    if summary is not None:
        lines.append(format_summary(summary))
    return "\n".join(lines)
