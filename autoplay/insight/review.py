"""A person's game reviewed from what the screen showed: their steps, each judged against the position before it.

Nothing but consecutive boards is known, so a step is worked out from what
changed: a covered cell that now shows a number (or the exploded mine) was
opened, a cover that became a flag was flagged.  One click opens one cell, or,
on a cell with no mine around it, a connected region: each 8-connected group of
newly opened cells is one click.  Which cell of a region was clicked cannot be
seen (any of its zeros opens the same region); the pointer's cell, when it lies
in the group, names it, and otherwise the step is judged for the kindest of the
cells that could have been clicked, so a verdict of "riskier than needed" is
never a guess about where the click was.

Verdicts, for the position before the step, with the solver's exact odds:
``certain`` (a cell proven safe, or a proven mine flagged), ``safest available``
(no covered cell had lower odds), ``riskier than needed`` (a cell with higher
odds than the lowest available; both are given, and late in a game the chance
of winning before and after the step), ``a certain mine`` (a cell
proven to be a mine was opened), ``a flag on a safe cell``, ``an uncertain flag``
(a flag on a cell not proven either way), ``odds unknown`` (the solver had no
odds for the cell: no mine count and the cell off the frontier, or an
unreadable position) and ``flag removed``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from autoplay.board.model import DIGITS, EXPLODED, FLAG, MINE, UNKNOWN_CHARS, Board, Coord
from autoplay.board.rules import Rules
from autoplay.insight.bbbv import bbbv
from autoplay.insight.win_cost import WinCost

REVEAL, FLAG_STEP, UNFLAG = "reveal", "flag", "unflag"
CERTAIN = "certain"
SAFEST = "safest available"
RISKIER = "riskier than needed"
CERTAIN_MINE = "a certain mine"
FLAG_ON_SAFE = "a flag on a safe cell"
UNCERTAIN_FLAG = "an uncertain flag"
UNKNOWN_ODDS = "odds unknown"
REMOVED = "flag removed"
#: Odds closer than this count as equal (the solver's floats of one exact fraction).
TIE = 1e-9
Probabilities = list[list[float | None]]


@dataclass(frozen=True)
class Step:
    """One action of the person: a reveal (the cells it opened), a flag or a flag taken off."""

    action: str
    cell: Coord | None  # the cell clicked, when it can be told
    candidates: tuple[Coord, ...]  # the cells that may have been clicked (one when told)
    opened: tuple[Coord, ...]  # for a reveal, every cell it opened
    t: float  # seconds since watching started, when the change was first seen


@dataclass(frozen=True)
class Judged:
    """A step and its verdict; ``probability`` is the clicked cell's mine chance, ``lowest`` the lowest on offer."""

    step: Step
    verdict: str
    probability: float | None = None
    lowest: float | None = None
    #: for a step riskier than needed, the chance of winning with best play and after the step, where the solver
    #: knows them (:mod:`autoplay.insight.win_cost`: late in a game); else None
    win: WinCost | None = None

    def to_dict(self) -> dict[str, Any]:
        s = self.step
        return {
            "action": s.action,
            "cell": list(s.cell) if s.cell is not None else None,
            "candidates": [list(c) for c in s.candidates],
            "opened": [list(c) for c in s.opened],
            "t": round(s.t, 3),
            "verdict": self.verdict,
            "probability": self.probability,
            "lowest": self.lowest,
            "win_chance": None if self.win is None else {"best": self.win.best, "after": self.win.after},
        }


def _groups(cells: set[Coord]) -> list[list[Coord]]:
    """``cells`` split into 8-connected groups, each sorted, in the order of their first cell."""
    left = set(cells)
    groups = []
    for start in sorted(cells):
        if start not in left:
            continue
        left.discard(start)
        group, todo = [start], [start]
        while todo:
            r, c = todo.pop()
            for n in [(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)]:
                if n in left:
                    left.discard(n)
                    group.append(n)
                    todo.append(n)
        groups.append(sorted(group))
    return groups


def steps_between(
    before: Board,
    after: Board,
    t: float,
    *,
    finished: bool = False,
    pointer_cell: Coord | None = None,
    doubtful: frozenset[Coord] = frozenset(),
) -> list[Step]:
    """The person's steps that turn ``before`` into ``after`` (same size), flags first, the pointer's step last.

    ``finished``: ``after`` shows the game's end, where the game itself uncovers the mines (a loss) or flags them
    (a win): new mines and flags there are the game's, and only the exploded mine is the person's click.
    ``doubtful`` cells could not be read in one of the two frames and say nothing.
    """
    opened: set[Coord] = set()
    flagged: list[Coord] = []
    unflagged: list[Coord] = []
    for i, (was, now) in enumerate(zip(before.cells, after.cells, strict=True)):
        cell = before.at(i)
        if cell in doubtful or was == now:
            continue
        if was in UNKNOWN_CHARS and (now in DIGITS or now == EXPLODED):
            opened.add(cell)
        elif was in UNKNOWN_CHARS and now == FLAG and not finished:
            flagged.append(cell)
        elif was == FLAG and now in UNKNOWN_CHARS:
            unflagged.append(cell)
    if finished and EXPLODED not in after.cells and pointer_cell is not None:
        r, c = pointer_cell
        if before[r, c] in UNKNOWN_CHARS and after[r, c] == MINE:
            opened.add(pointer_cell)  # a game that shows the mine stepped on like the others
    steps = [Step(FLAG_STEP, c, (c,), (), t) for c in flagged] + [Step(UNFLAG, c, (c,), (), t) for c in unflagged]
    reveals = []
    for group in _groups(opened):
        zeros = [c for c in group if after[c] == "0"]
        candidates = tuple(group) if len(group) == 1 or not zeros else tuple(zeros)
        clicked = candidates[0] if len(candidates) == 1 else None
        if pointer_cell is not None and pointer_cell in candidates:
            clicked = pointer_cell
        reveals.append(Step(REVEAL, clicked, candidates, tuple(group), t))
    reveals.sort(key=lambda s: pointer_cell in s.opened)
    return steps + reveals


def _odds(probabilities: Probabilities | None, cell: Coord) -> float | None:
    if probabilities is None:
        return None
    return probabilities[cell[0]][cell[1]]


def lowest_odds(board: Board, probabilities: Probabilities | None) -> float | None:
    """The lowest mine chance of any covered cell (flags excluded), None when no cell has odds."""
    if probabilities is None:
        return None
    known = [p for r, c in board.unknown_cells() if (p := probabilities[r][c]) is not None]
    return min(known) if known else None


def judge(step: Step, before: Board, probabilities: Probabilities | None, rules: Rules) -> Judged:
    """The verdict on ``step`` against ``before`` and its exact odds (None when the solver had none)."""
    if step.action == UNFLAG:
        return Judged(step, REMOVED)
    if step.action == FLAG_STEP:
        assert step.cell is not None
        p = _odds(probabilities, step.cell)
        if p is None:
            return Judged(step, UNKNOWN_ODDS)
        verdict = CERTAIN if p >= 1.0 else FLAG_ON_SAFE if p <= 0.0 else UNCERTAIN_FLAG
        return Judged(step, verdict, p)
    if before.is_fresh and rules.first_click != "none":
        return Judged(step, CERTAIN, 0.0, 0.0)  # the game keeps the first click safe
    lowest = lowest_odds(before, probabilities)
    # the cell the pointer named; else which cell of a region was clicked cannot be seen: the kindest reading
    clicked = (step.cell,) if step.cell is not None else step.candidates
    odds = [_odds(probabilities, c) for c in clicked]
    known = [p for p in odds if p is not None]
    if not known:
        return Judged(step, UNKNOWN_ODDS, None, lowest)
    p = min(known)
    if p <= 0.0:
        verdict = CERTAIN
    elif p >= 1.0:
        verdict = CERTAIN_MINE
    elif lowest is None or p <= lowest + TIE:
        verdict = SAFEST
    else:
        verdict = RISKIER
    return Judged(step, verdict, p, lowest)


def known_layout(final: Board, state: str) -> set[Coord] | None:
    """Where every mine was, when the finished board shows it; else None.

    After a win every cell not opened is a mine.  After a loss the mines shown, the exploded one and the flags
    are, if they make the game's mine count (a game that shows only the mine stepped on tells no more).
    """
    if state == "won":
        mines = {final.at(i) for i, ch in enumerate(final.cells) if ch not in DIGITS}
    elif state == "lost":
        mines = {final.at(i) for i, ch in enumerate(final.cells) if ch in (MINE, EXPLODED, FLAG)}
    else:
        return None
    if final.mines is not None and len(mines) != final.mines:
        return None
    return mines


@dataclass
class GameReview:
    """The judged steps of one game and its summary once it ends."""

    judged: list[Judged] = field(default_factory=list)
    result: str = "playing"

    def summary(self, final: Board) -> dict[str, Any]:
        """Time, 3BV, 3BV/s, clicks seen, efficiency and the verdicts counted.

        The time runs from the first step seen to the last (the game's own clock starts at the first click).
        3BV needs the layout, known after a win or a loss that shows every mine; a lost game is measured by the
        3BV it cleared.  Efficiency is that 3BV per click seen (flags count as clicks, as the community counts).
        """
        steps = [j.step for j in self.judged]
        seconds = round(steps[-1].t - steps[0].t, 3) if steps else None
        mines = known_layout(final, self.result)
        opened = {c for s in steps for c in s.opened}
        total = solved = None
        if mines is not None:
            total = bbbv(final.rows, final.cols, mines)
            solved = total if self.result == "won" else bbbv(final.rows, final.cols, mines, opened)
        clicks = len(steps)
        verdicts: dict[str, int] = {}
        for j in self.judged:
            verdicts[j.verdict] = verdicts.get(j.verdict, 0) + 1
        return {
            "result": self.result,
            "seconds": seconds,
            "3bv": total,
            "3bv_solved": solved,
            "3bv_per_second": round(solved / seconds, 3) if solved is not None and seconds else None,
            "clicks": clicks,
            "reveals": sum(s.action == REVEAL for s in steps),
            "flags": sum(s.action == FLAG_STEP for s in steps),
            "efficiency": round(solved / clicks, 3) if solved is not None and clicks else None,
            "verdicts": verdicts,
        }


def format_summary(summary: dict[str, Any]) -> str:
    """The summary as one line for the terminal."""

    def show(value: object, unit: str = "") -> str:
        return "-" if value is None else f"{value}{unit}"

    total = summary["3bv"]
    bbbv_text = show(total) if summary["result"] == "won" or total is None else f"{summary['3bv_solved']}/{total}"
    verdicts = ", ".join(f"{n} {v}" for v, n in sorted(summary["verdicts"].items())) or "no steps seen"
    return (
        f"game {summary['result']}: {show(summary['seconds'], ' s')}, 3BV {bbbv_text}, "
        f"3BV/s {show(summary['3bv_per_second'])}, {summary['clicks']} clicks, "
        f"efficiency {show(summary['efficiency'])}; {verdicts}"
    )


def format_judged(j: Judged) -> str:
    """One step and its verdict as a line: ``12.3 s reveal (4,5): riskier than needed (31% where 12% was on offer)``."""
    s = j.step
    where = f"({s.cell[0]},{s.cell[1]})" if s.cell is not None else f"one of {len(s.candidates)} cells"
    opened = f", opened {len(s.opened)}" if s.action == REVEAL and len(s.opened) > 1 else ""
    odds = ""
    if j.verdict == RISKIER and j.probability is not None and j.lowest is not None:
        odds = f" ({100 * j.probability:.1f}% where {100 * j.lowest:.1f}% was on offer"
        if j.win is not None:
            odds += f"; win chance {100 * j.win.best:.1f}% -> {100 * j.win.after:.1f}%"
        odds += ")"
    elif j.probability is not None and j.verdict not in (CERTAIN, CERTAIN_MINE, FLAG_ON_SAFE):
        odds = f" ({100 * j.probability:.1f}%)"
    return f"{s.t:7.2f} s {s.action} {where}{opened}: {j.verdict}{odds}"
