"""The presses that make a batch of certain moves: one chord where it opens several of them at once.

People clear a satisfied number with one press: a chord (xdemineur's middle button, in most games) on a shown
number whose flags on screen match it opens every other covered neighbour.  A batch of certain reveals often
holds several such neighbours; each press costs a guarded round of checks and a redraw, so a chord that makes
k reveals saves k - 1 of them (a third of xdemineur's presses over 30 expert games).

A chord is planned only where it opens nothing but reveals of the batch: every covered neighbour of the number
that is not a flag on screen is one of them.  The game then opens exactly the cells the solver proved safe, and
if it disagrees about the flags (a number read wrongly) it opens nothing, which the next frame shows like any
press the game ignored.  The flags that count are those play placed itself, on screen or pressed earlier in the
batch (a game reads its input in order, so a flag pressed before the chord is down when the chord comes: the
batch's flags are pressed first); a flag placed by someone else is no proof of a mine.

>>> from autoplay.board.textformat import parse_board
>>> from autoplay.solver.decide import Move
>>> board = parse_board("F1.\\n11.\\n...")  # the 1 at (0, 1) has its flag: (0, 2), (1, 2) are safe
>>> moves = [Move("reveal", 0, 2, 0.0), Move("reveal", 1, 2, 0.0), Move("reveal", 2, 0, 0.0)]
>>> [(p.row, p.col, p.button, p.moves) for p in plan_presses(board, moves, "middle", flagged={(0, 0)})]
[(0, 1, 'middle', (0, 1)), (2, 0, 'left', (2,))]
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from autoplay.board.model import FLAG, HIDDEN, Board, Coord
from autoplay.control.mouse import Button
from autoplay.solver.decide import Move

#: A chord must make at least this many of the batch's reveals to replace them.
MIN_CHORD = 2


@dataclass(frozen=True)
class Press:
    """One press: the cell and button, and the positions in the batch of the moves it makes."""

    row: int
    col: int
    button: Button
    moves: tuple[int, ...]

    @property
    def is_chord(self) -> bool:
        """Whether the press makes several moves (a chord on a number; a plain press makes its own cell's)."""
        return len(self.moves) > 1


def plan_presses(
    board: Board | None, moves: Sequence[Move], chord: Button | None, flagged: Collection[Coord] = ()
) -> list[Press]:
    """The presses for ``moves`` on ``board`` (as shown on screen), chords where ``chord`` names the game's button.

    ``flagged``: the cells play flagged itself; a flag on screen elsewhere keeps chords off its neighbours.

    Without a board or a chord button, one press per move, in order.  With them, the batch's flags come first
    (a chord counts them), then the other presses in the order of the first move each makes.
    """
    plain = [Press(m.row, m.col, "left" if m.action == "reveal" else "right", (i,)) for i, m in enumerate(moves)]
    if chord is None or board is None:
        return plain
    reveal_at = {(m.row, m.col): i for i, m in enumerate(moves) if m.action == "reveal"}
    batch_flags = {(m.row, m.col) for m in moves if m.action == "flag"}
    cells = list(board.cells)
    for r, c in batch_flags:
        cells[board.index(r, c)] = FLAG
    with_flags = Board(board.rows, board.cols, tuple(cells), board.mines)
    chords = _chords(with_flags, reveal_at, chord, frozenset(flagged) | batch_flags)
    made_by = {i: press for press in chords for i in press.moves}
    presses = [press for press in plain if press.button == "right"]
    for i, press in enumerate(plain):
        if press.button == "right":
            continue
        by_chord = made_by.get(i)
        if by_chord is None:
            presses.append(press)
        elif by_chord.moves[0] == i:
            presses.append(by_chord)
    return presses


def in_press_order(
    board: Board | None, moves: Sequence[Move], chord: Button | None, flagged: Collection[Coord] = ()
) -> tuple[list[Move], list[Press]]:
    """``moves`` reordered so each press's moves come one after the other, and the presses that make them.

    A batch cut short (a page that moved its board mid-batch) then leaves a prefix of the moves made, as without
    chords.

    >>> from autoplay.board.textformat import parse_board
    >>> board = parse_board("F1.\\n11.\\n...")
    >>> moves = [Move("reveal", 0, 2, 0.0), Move("reveal", 2, 0, 0.0), Move("reveal", 1, 2, 0.0)]
    >>> ordered, presses = in_press_order(board, moves, "middle", flagged={(0, 0)})
    >>> [(m.row, m.col) for m in ordered], [p.moves for p in presses]
    ([(0, 2), (1, 2), (2, 0)], [(0, 1), (2,)])
    """
    presses = plan_presses(board, moves, chord, flagged)
    ordered: list[Move] = []
    renumbered: list[Press] = []
    for press in presses:
        start = len(ordered)
        ordered.extend(moves[i] for i in press.moves)
        renumbered.append(Press(press.row, press.col, press.button, tuple(range(start, len(ordered)))))
    return ordered, renumbered


def _chords(board: Board, reveal_at: dict[Coord, int], button: Button, flagged: frozenset[Coord]) -> list[Press]:
    """Chords that each make at least :data:`MIN_CHORD` reveals no other chord makes, the largest first.

    Only numbers beside a reveal of the batch can make one: the rest of the board is not looked at (this runs
    before every batch).
    """
    beside = {rc for reveal in reveal_at for rc in board.neighbours(*reveal)}
    options: list[tuple[int, int, list[int]]] = []
    for r, c in sorted(beside):
        made = _opens(board, r, c, reveal_at, flagged)
        if made is not None and len(made) >= MIN_CHORD:
            options.append((r, c, made))
    chosen: list[Press] = []
    taken: set[int] = set()
    while options:
        options.sort(key=lambda o: (-len([i for i in o[2] if i not in taken]), o[0], o[1]))
        r, c, made = options.pop(0)
        new = [i for i in made if i not in taken]
        if len(new) < MIN_CHORD:
            break
        chosen.append(Press(r, c, button, tuple(sorted(new))))
        taken.update(new)
    return chosen


def _opens(board: Board, r: int, c: int, reveal_at: dict[Coord, int], flagged: frozenset[Coord]) -> list[int] | None:
    """The batch positions of the reveals a chord on (r, c) opens; None where it may open anything else."""
    number = board.number(r, c)
    if not number:
        return None
    flags, made = 0, []
    for rc in board.neighbours(r, c):
        cell = board[rc]
        if cell == FLAG:
            if rc not in flagged:
                return None  # a flag play did not place
            flags += 1
        elif cell == HIDDEN:
            if rc not in reveal_at:
                return None  # a covered cell the batch does not open
            made.append(reveal_at[rc])
        elif board.number(*rc) is None:
            return None  # anything unsure (a question mark, an unread tile) is left to single presses
    return made if flags == number else None
