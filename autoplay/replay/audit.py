"""Checking every board read during live play against the layout the game revealed at its end.

A misread that does not end in a lost game leaves no trace in a win rate, so
"zero misreads" needs its own measurement.  The last frame of every game tells
the truth: a won board shows every safe cell, a lost one shows every mine.  From
those mines each cell's true number follows, and every board the player decoded
during that game can be compared with it cell by cell, with no human labels.
Certain moves are checked too: a certain reveal of a true mine (or a flag on a
safe cell) is a misread or a solver bug even when the game happened to survive.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from autoplay.board.model import DIGITS, EXPLODED, FLAG, MINE, UNKNOWN_CHARS, Board, neighbour_table
from autoplay.replay.recording import RecordedDecision, Recording, parse_cells


@dataclass(frozen=True)
class Misread:
    """One cell read differently from the truth, or a certain move the truth says was wrong."""

    game: int
    frame: str
    row: int
    col: int
    read: str
    truth: str  # "*" for a mine, else the true number

    def __str__(self) -> str:
        return f"game {self.game} {self.frame} ({self.row},{self.col}): read {self.read!r}, truth {self.truth!r}"


@dataclass
class AuditReport:
    games: int = 0  # games whose end gave a usable truth
    unverifiable: list[str] = field(default_factory=list)  # games whose end did not (with why)
    boards: int = 0
    cells: int = 0  # revealed or flagged cells compared
    certain_moves: int = 0
    misreads: list[Misread] = field(default_factory=list)
    wrong_moves: list[Misread] = field(default_factory=list)

    @property
    def clean(self) -> bool:
        return not self.misreads and not self.wrong_moves

    def to_dict(self) -> dict[str, Any]:
        return {
            "games_audited": self.games,
            "games_unverifiable": len(self.unverifiable),
            "unverifiable": self.unverifiable,
            "boards": self.boards,
            "cells": self.cells,
            "certain_moves": self.certain_moves,
            "misreads": len(self.misreads),
            "wrong_certain_moves": len(self.wrong_moves),
            "examples": [str(m) for m in (self.misreads + self.wrong_moves)[:10]],
        }


def truth_from_final(board: Board, result: str, unknown: frozenset[tuple[int, int]] = frozenset()) -> tuple[str, ...]:
    """Each cell's truth ("*" or its number) from a finished game's last board; ValueError when it cannot tell.

    Won: whatever is still covered is a mine.  Lost: the game shows its mines
    (flags are trusted — the player only flags certain mines, and a wrong flag
    shows up as a mine total that does not add up).  Cells in ``unknown`` matched
    no template: they are taken for numbers, and if one was a mine after all the
    total does not add up and the game is not used.
    """
    skip = {r * board.cols + c for r, c in unknown}
    if result == "won":
        mines = {i for i, c in enumerate(board.cells) if (c in UNKNOWN_CHARS or c == FLAG) and i not in skip}
    elif result == "lost":
        mines = {i for i, c in enumerate(board.cells) if c in (MINE, EXPLODED, FLAG) and i not in skip}
    else:
        raise ValueError(f"the game ended {result!r}, not won or lost")
    if unknown and board.mines is None:
        raise ValueError("the last board has cells no template matched and no mine total to check them by")
    if board.mines is not None and len(mines) != board.mines:
        raise ValueError(f"the last board shows {len(mines)} mines, the game has {board.mines}")
    neighbours = neighbour_table(board.rows, board.cols)
    return tuple(
        MINE if i in mines else str(sum(n in mines for n in neighbours[i])) for i in range(board.rows * board.cols)
    )


def compare(
    board: Board, truth: tuple[str, ...], game: int, frame: str, unknown: frozenset[tuple[int, int]] = frozenset()
) -> tuple[int, list[Misread]]:
    """Cells compared and the misread ones: numbers must be the true number, flags and shown mines true mines.

    Cells in ``unknown`` matched no template and were played as covered: not reads, so not compared.
    """
    compared, wrong = 0, []
    for index, cell in enumerate(board.cells):
        if cell in UNKNOWN_CHARS or divmod(index, board.cols) in unknown:
            continue
        compared += 1
        expected_mine = cell in (FLAG, MINE, EXPLODED)
        ok = truth[index] == MINE if expected_mine else (cell in DIGITS and truth[index] == cell)
        if not ok:
            wrong.append(Misread(game, frame, *divmod(index, board.cols), cell, truth[index]))
    return compared, wrong


def wrong_certain_moves(decision: RecordedDecision, truth: tuple[str, ...]) -> tuple[int, list[Misread]]:
    """Certain moves checked against the truth; guesses may hit mines, certain moves may not."""
    if decision.guess:
        return 0, []
    cols = decision.board.cols
    wrong = []
    for move in decision.moves:
        is_mine = truth[move.row * cols + move.col] == MINE
        if (move.action == "reveal") == is_mine:
            wrong.append(
                Misread(
                    decision.game,
                    decision.frame.name,
                    move.row,
                    move.col,
                    move.action,
                    truth[move.row * cols + move.col],
                )
            )
    return len(decision.moves), wrong


def audit_games(
    decisions: Iterable[RecordedDecision],
    finals: dict[int, tuple[str, Board]],
    final_unknown: dict[int, frozenset[tuple[int, int]]] | None = None,
) -> AuditReport:
    """Audit decisions grouped by game number against ``finals``: game -> (result, last board).

    ``final_unknown`` gives, per game, the final board's cells no template matched.
    """
    report = AuditReport()
    truths: dict[int, tuple[str, ...] | None] = {}
    for game, (result, board) in sorted(finals.items()):
        unknown = (final_unknown or {}).get(game, frozenset())
        try:
            truth = truth_from_final(board, result, unknown)
        except ValueError as exc:
            truths[game] = None
            report.unverifiable.append(f"game {game}: {exc}")
            continue
        truths[game] = truth
        report.games += 1
        cells, wrong = compare(board, truth, game, "final", unknown)
        report.cells += cells
        report.misreads += wrong
    for decision in decisions:
        known = truths.get(decision.game)
        if known is None:
            continue
        truth = known
        if (decision.board.rows * decision.board.cols) != len(truth):
            report.misreads.append(Misread(decision.game, decision.frame.name, -1, -1, "board size", "final size"))
            continue
        report.boards += 1
        cells, wrong = compare(decision.board, truth, decision.game, decision.frame.name, decision.unknown)
        report.cells += cells
        report.misreads += wrong
        moves, bad = wrong_certain_moves(decision, truth)
        report.certain_moves += moves
        report.wrong_moves += bad
    return report


def audit_recording(recording: Recording) -> AuditReport:
    """Audit a recording whose game records carry the final board (``autoplay play --record`` writes it)."""
    from autoplay.board.textformat import parse_board

    finals: dict[int, tuple[str, Board]] = {}
    final_unknown: dict[int, frozenset[tuple[int, int]]] = {}
    missing = []
    for game in recording.games:
        text = game.details.get("final_board")
        if game.details.get("final_shows_all_mines") is False:
            missing.append(f"game {game.game}: the lost board shows only some of its mines, no full truth")
        elif isinstance(text, str):
            finals[game.game] = (game.result, parse_board(text, source=f"game {game.game} final board"))
            final_unknown[game.game] = parse_cells(game.details.get("final_unknown"), f"game {game.game}")
        else:
            missing.append(f"game {game.game}: no final board recorded")
    report = audit_games(recording.decisions, finals, final_unknown)
    report.unverifiable += missing
    return report
