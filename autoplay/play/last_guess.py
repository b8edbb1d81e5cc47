"""The end of a game whose last guess opened a tile the skin does not know.

When the guessed cell was the last safe one, the game is over either way: the guess was safe and the game is won,
the cell showing the one number its neighbours leave (every other cell still covered is then a mine), or it was a
mine and the game is lost on it.  If the skin cannot read the end elsewhere (a face, every mine shown), that cell is
the only witness, and play used to end such a game "undecided".  Knowing the only two things the cell can show,
the frame is read again for just those (:func:`autoplay.vision.among.read_among`): a look of the exploded mine the
skin has seen at another sub-pixel place, or the number drawn a little otherwise, is then near enough to tell.  A
number the skin has never seen in any look is stood in for by the numbers it knows (a digit on the opened tile,
much nearer to them than to a mine); a tile near neither leaves the game undecided, as before.

A guess that, safe, would leave cells to open can still have ended the game: a mine shows a mine whatever the
game does next, so its cell is read among a mine and any number, and a mine there ends it lost (Chromium at 150%
with a skin taught at 100%, look 40731: a 21% guess lost on an exploded mine that matched no template closely enough,
and the game ended undecided).  A number there decides nothing: the game may go on or not, as before.

>>> board = Board.from_rows(["1.", "1."], mines=1)
>>> last_guess_outcomes(board, [(1, 1)], [])
{(1, 1): {'won': '1', 'lost': '*X'}}
>>> last_guess_outcomes(Board.from_rows(["1..", "1.."], mines=1), [(1, 1)], [])  # safe, it leaves a safe cell
{(1, 1): {'going on': '012345678', 'lost': '*X'}}
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace
from typing import Any

from autoplay.board.model import DIGITS, EXPLODED, MINE, Board
from autoplay.play.final_board import covers_left

Cell = tuple[int, int]
#: The results a last guess can have, by what its cell shows: its number (won) or a mine (lost); a guess that is
#: not the last shows a number (the game goes on, or not: nothing is decided) or a mine (lost).
WON, LOST, GOING_ON = "won", "lost", "going on"


def last_guess_outcomes(
    board: Board, guessed: Collection[Cell], opened: Collection[Cell]
) -> dict[Cell, dict[str, str]]:
    """For each ``guessed`` cell, the labels that show a win or a loss, when opening those cells safely would leave
    no safe cell (``board`` has its unread cells covered; ``opened`` are cells known open though unread).

    When the guesses, safe, would leave cells to open (or the mine count is not known), a cell shows a loss or that
    the game may go on (any number).
    """
    if not guessed:
        return {}
    mines = covers_left(board, set(opened) | set(guessed))
    if board.mines is None or len(mines) != board.mines:
        return {cell: {GOING_ON: DIGITS, LOST: MINE + EXPLODED} for cell in guessed}
    return {
        cell: {WON: str(sum(rc in mines for rc in board.neighbours(*cell))), LOST: MINE + EXPLODED} for cell in guessed
    }


def read_last_guess(decoded: Any, outcomes: dict[Cell, dict[str, str]]) -> tuple[str | None, Any]:
    """The game's end as the guessed cells read among their ``outcomes`` (None if any is unsure), and ``decoded``
    with those cells read: lost if one shows a mine, won if every one shows its number.

    ``decoded`` reads a cell among a few outcomes with its ``read_among`` (a
    :class:`~autoplay.vision.decode.DecodedFrame` does; without it nothing is decided).
    """
    read = getattr(decoded, "read_among", None)
    if read is None or not outcomes:
        return None, decoded
    seen = {cell: read(cell, choices) for cell, choices in outcomes.items()}
    if LOST in seen.values():
        end = LOST
        letters = {cell: EXPLODED for cell, outcome in seen.items() if outcome == LOST}
    elif all(outcome == WON for outcome in seen.values()):
        end = WON
        letters = {cell: outcomes[cell][WON] for cell in seen}
    else:
        return None, decoded
    unread = [tuple(rc) for rc in getattr(decoded, "unreadable", []) if tuple(rc) not in letters]
    return end, replace(decoded, board=decoded.board.replace(letters), unreadable=unread)
