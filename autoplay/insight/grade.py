"""How hard a board is: play it with the solver limited to a few numbers at a time.

At each step the grader uses the lowest level that finds any move (one
number, two, ... then the mine count, then the full engine) and applies
every move found at that level; only when nothing is certain does it guess,
with the normal guess policy.  The grader knows the layout, so a guess that
hits a mine is counted and flagged instead of ending the game: the grade
describes the whole board, not one lucky or unlucky run.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from autoplay.board.rules import Rules
from autoplay.insight.proofs import ENGINE, GUESS, MAX_NUMBERS, Prover, level_names, level_rank
from autoplay.sim.game import Game
from autoplay.solver.analysis import analyze_position
from autoplay.solver.decide import choose_move
from autoplay.solver.position import read_position

Coord = tuple[int, int]


@dataclass
class Grade:
    """Moves (cells revealed or flagged by the player, not opened by a cascade) per level, and guesses."""

    moves: dict[str, int]
    guesses: int = 0
    guesses_hit: int = 0
    seconds: float = 0.0
    first_click: Coord = (0, 0)
    max_numbers: int = MAX_NUMBERS
    unfinished: bool = False
    steps: list[str] = field(default_factory=list, repr=False)

    @property
    def no_guess(self) -> bool:
        return self.guesses == 0 and not self.unfinished

    @property
    def hardest(self) -> str | None:
        """The highest level any certain move needed (None when the first click won)."""
        used = [level for level, n in self.moves.items() if n]
        return max(used, key=level_rank) if used else None

    def reaches(self, level: str) -> bool:
        """Some certain move needed ``level`` or higher (``--min-level``)."""
        return any(n and level_rank(lv) >= level_rank(level) for lv, n in self.moves.items())

    def to_dict(self) -> dict[str, Any]:
        return {
            "moves_by_level": dict(self.moves),
            "guesses": self.guesses,
            "guesses_hit_mine": self.guesses_hit,
            "no_guess": self.no_guess,
            "hardest": self.hardest,
            "first_click": list(self.first_click),
            "max_numbers": self.max_numbers,
            "seconds": round(self.seconds, 4),
        }

    def summary(self) -> str:
        levels = "  ".join(f"{level}: {n}" for level, n in self.moves.items())
        hit = f" ({self.guesses_hit} hit a mine; the grader flagged it and went on)" if self.guesses_hit else ""
        verdict = "no guess needed" if self.no_guess else f"{self.guesses} guess(es){hit}"
        return f"moves by level  {levels}\n{verdict}; hardest certain move: level {self.hardest or '-'}"


def grade_game(
    game: Game,
    first_click: Coord,
    rules: Rules = Rules(),
    *,
    max_numbers: int = MAX_NUMBERS,
    time_limit: float = 1.0,
    stop_at_guess: bool = False,
) -> Grade:
    """Play ``game`` from ``first_click`` with the level ladder; ``stop_at_guess`` gives up at the first guess."""
    started = time.perf_counter()
    grade = Grade({level: 0 for level in level_names(max_numbers)}, first_click=first_click, max_numbers=max_numbers)
    game.reveal(*first_click)
    while not game.over:
        board = game.board()
        pos = read_position(board)
        if not pos.unknown:
            break
        left = game.mines - len(pos.known_mines)
        level, forced = Prover(pos, left, max_numbers).easiest_moves()
        safe, mines = set(forced.safe), set(forced.mines)
        if not forced:
            analysis = analyze_position(pos, game.mines, deadline=time.perf_counter() + time_limit / 2)
            safe = {board.index(r, c) for r, c in analysis.safe}
            mines = {board.index(r, c) for r, c in analysis.mines}
            level = ENGINE
        if not safe and not mines:
            if stop_at_guess:
                grade.unfinished = True
                break
            _guess(game, board, rules, time_limit, grade)
            continue
        grade.moves[level] += len(safe) + len(mines)
        grade.steps.append(level)
        for j in sorted(mines):
            game.flag(*board.at(j))
        for j in sorted(safe):
            game.reveal(*board.at(j))
    grade.seconds = time.perf_counter() - started
    return grade


def _guess(game: Game, board: Any, rules: Rules, time_limit: float, grade: Grade) -> None:
    move = choose_move(board, game.mines, rules, time_limit=time_limit).moves[0]
    grade.guesses += 1
    grade.steps.append(GUESS)
    assert game.is_mine is not None
    if game.is_mine[board.index(move.row, move.col)]:
        grade.guesses_hit += 1
        game.flag(move.row, move.col)
    else:
        game.reveal(move.row, move.col)
