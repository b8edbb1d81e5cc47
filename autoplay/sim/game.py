"""A Minesweeper game engine with the rule variants real clones use.

The mines are laid at the first reveal, as the clones do, so the first-click
rule can be honoured; everything random comes from one ``random.Random`` so a
seed reproduces a game exactly.  A game can also be given its layout (to replay
the same mines under another solver), and can allow several mines in one cell
(the seed's variant: numbers count mines, so they reach ``8 * max_per_cell``).
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Sequence

from autoplay.board.model import DIGITS, EXPLODED, FLAG, HIDDEN, MINE, Board, neighbour_table
from autoplay.board.multiformat import MultiBoard
from autoplay.board.rules import Rules


class Game:
    """One game: hidden mine layout, what the player has revealed and flagged.

    ``reveal`` and ``flag`` take 0-based coordinates; ``board()`` is the view a
    player (the solver) is allowed to see.  ``layout`` (flat indices, a cell
    repeated once per mine it holds) lays the mines at once instead of at the
    first reveal; the caller keeps the first click clear of them.
    ``max_per_cell`` above 1 allows that many mines in one cell.
    """

    def __init__(
        self,
        rows: int,
        cols: int,
        mines: int,
        rules: Rules = Rules(),
        rng: random.Random | None = None,
        *,
        layout: Sequence[int] | None = None,
        max_per_cell: int = 1,
    ):
        if rows <= 0 or cols <= 0:
            raise ValueError("a game needs at least one row and one column")
        if max_per_cell < 1:
            raise ValueError("max_per_cell must be at least 1")
        cells = rows * cols
        reserve = {"safe": 1, "zero": 9, "none": 0}[rules.first_click]
        if not 0 <= mines <= max_per_cell * (cells - min(reserve, cells)):
            raise ValueError(
                f"{mines} mines do not fit a {rows}x{cols} board under the first-click rule {rules.first_click!r}"
                + (f" with at most {max_per_cell} a cell" if max_per_cell > 1 else "")
            )
        self.rows, self.cols, self.mines, self.rules = rows, cols, mines, rules
        self.max_per_cell = max_per_cell
        self.rng = rng or random.Random()
        self._nbrs = neighbour_table(rows, cols)
        self.is_mine: list[bool] | None = None
        #: mines per cell, kept when a cell may hold several or the layout was given
        self.mine_counts: list[int] | None = None
        self.revealed = [False] * cells
        self.flagged = [False] * cells
        #: cells in the order they were opened and flagged, so a player can follow changes without re-reading
        self.opened: list[int] = []
        self.flags_placed: list[int] = []
        #: cells holding a mine, known once the mines are laid (with one mine a cell: the mine count)
        self.occupied = mines if max_per_cell == 1 else 0
        self.safe_left = cells - self.occupied
        self.lost = False
        self.exploded: int | None = None
        if layout is not None:
            self._set_layout(layout)
        elif rules.first_click == "none":
            self._lay_mines(excluded=set())

    # -- set-up ---------------------------------------------------------------
    def _lay_mines(self, excluded: set[int]) -> None:
        candidates = [i for i in range(self.rows * self.cols) if i not in excluded]
        if self.max_per_cell > 1:
            from autoplay.solver.multiweights import sample_counts

            drawn = sample_counts(len(candidates), self.mines, self.max_per_cell, self.rng)
            self._set_layout([i for i, n in zip(candidates, drawn) for _ in range(n)])
            return
        layout = [False] * (self.rows * self.cols)
        counts = [0] * len(layout)
        nbrs = self._nbrs
        for i in self.rng.sample(candidates, self.mines):
            layout[i] = True
            for j in nbrs[i]:  # a mine adds one to each neighbour: 8 steps a mine instead of 8 a cell
                counts[j] += 1
        self.is_mine = layout
        self._counts = counts

    def _set_layout(self, layout: Sequence[int]) -> None:
        """Lay exactly these mines (a cell listed n times holds n)."""
        cells = self.rows * self.cols
        held = [0] * cells
        for i in layout:
            if not 0 <= i < cells:
                raise ValueError(f"mine index {i} is outside a {self.rows}x{self.cols} board")
            held[i] += 1
        if len(layout) != self.mines:
            raise ValueError(f"the layout holds {len(layout)} mines, not {self.mines}")
        if max(held, default=0) > self.max_per_cell:
            i = max(range(cells), key=held.__getitem__)
            r, c = divmod(i, self.cols)
            raise ValueError(f"cell ({r},{c}) holds {held[i]} mines, more than {self.max_per_cell}")
        self.mine_counts = held
        self.is_mine = [n > 0 for n in held]
        self.occupied = sum(self.is_mine)
        self.safe_left = cells - self.occupied - sum(self.revealed)
        self._counts = [sum(held[j] for j in self._nbrs[i]) for i in range(cells)]

    def _first_click(self, index: int) -> None:
        excluded = {index}
        if self.rules.first_click == "zero":
            excluded.update(self._nbrs[index])
        self._lay_mines(excluded)

    # -- moves ----------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.lost or self.won

    @property
    def won(self) -> bool:
        if self.lost or self.safe_left:
            return False
        if self.rules.win == "flag-all":
            return self.is_mine is not None and all(f == m for f, m in zip(self.flagged, self.is_mine))
        return True

    def reveal(self, row: int, col: int) -> bool:
        """Reveal a cell (cascading through zeros); returns False when it was a mine."""
        index = row * self.cols + col
        if self.over or self.revealed[index] or self.flagged[index]:
            return True
        if self.is_mine is None:
            self._first_click(index)
        assert self.is_mine is not None
        if self.is_mine[index]:
            self.lost = True
            self.exploded = index
            return False
        self._open_from(index)
        return True

    def _open_from(self, start: int) -> None:
        assert self.is_mine is not None
        queue = deque([start])
        self.revealed[start] = True
        self.safe_left -= 1
        opened = self.opened
        opened.append(start)
        counts, revealed, flagged, nbrs = self._counts, self.revealed, self.flagged, self._nbrs
        while queue:
            i = queue.popleft()
            if counts[i]:
                continue
            for j in nbrs[i]:
                if not revealed[j] and not flagged[j]:
                    revealed[j] = True
                    self.safe_left -= 1
                    opened.append(j)
                    queue.append(j)

    def flag(self, row: int, col: int) -> None:
        """Toggle-free flagging: a flag is placed (never removed) on a hidden cell."""
        index = row * self.cols + col
        if not self.over and not self.revealed[index] and not self.flagged[index]:
            self.flagged[index] = True
            self.flags_placed.append(index)

    def number(self, index: int) -> int:
        """The number an opened cell shows (mines around it)."""
        return self._counts[index]

    # -- views ----------------------------------------------------------------
    def board(self) -> Board:
        """What the player sees, with the total mine count as the clones' counters show it."""
        cells = []
        counts = getattr(self, "_counts", None)
        for i in range(self.rows * self.cols):
            if self.revealed[i]:
                cells.append(DIGITS[counts[i]] if counts is not None else HIDDEN)
            elif self.exploded == i:
                cells.append(EXPLODED)
            elif self.lost and self.is_mine and self.is_mine[i] and not self.flagged[i]:
                cells.append(MINE)
            elif self.flagged[i]:
                cells.append(FLAG)
            else:
                cells.append(HIDDEN)
        return Board(self.rows, self.cols, tuple(cells), self.mines)

    def solution(self) -> Board:
        """The whole layout with mines shown, for grading, generation and tests."""
        if self.is_mine is None:
            raise RuntimeError("mines are laid at the first reveal")
        cells = tuple(MINE if m else DIGITS[n] for m, n in zip(self.is_mine, self._counts))
        return Board(self.rows, self.cols, cells, self.mines)

    def multi_board(self) -> MultiBoard:
        """:meth:`board` for the several-mines-per-cell variant: numbers above 9, and flags with the count they cover."""
        held = self._held()
        cells = []
        for i in range(self.rows * self.cols):
            if self.revealed[i]:
                cells.append(str(self._counts[i]))
            elif self.exploded == i:
                cells.append(_mark(EXPLODED, held[i]))
            elif self.lost and held[i] and not self.flagged[i]:
                cells.append(_mark(MINE, held[i]))
            elif self.flagged[i]:
                cells.append(_mark(FLAG, held[i]))
            else:
                cells.append(HIDDEN)
        return MultiBoard(self.rows, self.cols, tuple(cells), self.mines, self.max_per_cell)

    def multi_solution(self) -> MultiBoard:
        """:meth:`solution` for the several-mines-per-cell variant: every mined cell as ``*n``."""
        held = self._held()
        cells = tuple(_mark(MINE, n) if n else str(c) for n, c in zip(held, self._counts))
        return MultiBoard(self.rows, self.cols, cells, self.mines, self.max_per_cell)

    def _held(self) -> list[int]:
        if self.is_mine is None:
            raise RuntimeError("mines are laid at the first reveal")
        return self.mine_counts if self.mine_counts is not None else [int(m) for m in self.is_mine]

    def mine_layout(self) -> tuple[int, ...]:
        """Flat indices of the mines, a cell repeated once per mine it holds (the layouts file's form)."""
        return tuple(i for i, n in enumerate(self._held()) for _ in range(n))

    @property
    def mines_flagged(self) -> int:
        if self.is_mine is None:
            return 0
        return sum(1 for f, m in zip(self.flagged, self.is_mine) if f and m)

    @property
    def safe_revealed(self) -> int:
        return self.rows * self.cols - self.occupied - self.safe_left


def _mark(char: str, mines: int) -> str:
    """A flag or mine token of the variant's text form: ``F`` for one mine, ``F2`` for two."""
    return char if mines == 1 else f"{char}{mines}"
