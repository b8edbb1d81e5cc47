"""Boards that can be cleared from the first click without a single guess: generate and test.

Mines are laid exactly as the simulator lays them under the first-click rule
(so a generated board is one a real clone could deal), then the grader plays
it; the first guess rejects the layout and a fresh one is drawn.  Rejecting
early keeps the typical attempt much cheaper than a whole game.  Every
attempt draws from one seeded generator, so (seed, index) reproduces a board.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from autoplay.board.model import Board
from autoplay.board.rules import Rules
from autoplay.board.textformat import format_board
from autoplay.insight.grade import Grade, grade_game
from autoplay.insight.layout import layout_game
from autoplay.insight.proofs import MAX_NUMBERS
from autoplay.sim.game import Game

Coord = tuple[int, int]


class GenerationFailed(Exception):
    """No layout passed within the attempt budget."""


@dataclass
class Generated:
    layout: Board
    first_click: Coord
    grade: Grade
    attempts: int
    seconds: float

    def to_text(self, note: str = "") -> str:
        """The board file: mines shown, numbers filled in, first click and grade in comments."""
        r, c = self.first_click
        levels = " ".join(f"{level}:{n}" for level, n in self.grade.moves.items() if n)
        lines = [
            f"# {note}" if note else "# no-guess board",
            f"# first click: ({r},{c})",
            f"# moves by level: {levels or '-'}; hardest {self.grade.hardest or '-'}",
            f"# generated in {self.seconds:.3f} s, {self.attempts} attempt(s)",
        ]
        return "\n".join(lines) + "\n" + format_board(self.layout)


def generate(
    rows: int,
    cols: int,
    mines: int,
    rules: Rules,
    first_click: Coord,
    rng: random.Random,
    *,
    no_guess: bool = True,
    min_level: str | None = None,
    max_numbers: int = MAX_NUMBERS,
    max_attempts: int = 10_000,
    time_limit: float = 1.0,
) -> Generated:
    """One board; raises :class:`GenerationFailed` after ``max_attempts`` rejected layouts."""
    started = time.perf_counter()
    for attempt in range(1, max_attempts + 1):
        game = Game(rows, cols, mines, rules, rng=random.Random(rng.getrandbits(64)))
        game.reveal(*first_click)
        layout = game.solution()
        # grade a fresh game on the same layout: the dealt game already has its first click applied
        grade = grade_game(
            layout_game(layout),
            first_click,
            rules,
            max_numbers=max_numbers,
            time_limit=time_limit,
            stop_at_guess=no_guess,
        )
        if no_guess and not grade.no_guess:
            continue
        if min_level is not None and not grade.reaches(min_level):
            continue
        return Generated(layout, first_click, grade, attempt, time.perf_counter() - started)
    raise GenerationFailed(f"no board passed in {max_attempts} attempts")
