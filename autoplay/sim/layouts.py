"""Layouts files: the mines of many games, one game a line, for playing identical games with two solvers.

A line lists a game's mines as flat cell indices ``row * cols + col`` separated by spaces; a cell
that holds several mines (``--max-per-cell``) is listed once per mine.  Blank lines and lines
starting with ``#`` are skipped.  The board size is not in the file: the reader is told it, and
the mine count of each game is its line's length.  The simulator writes the layouts it deals
(:func:`deal_layout`), so a run and its layouts file play exactly the same games.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from pathlib import Path

from autoplay.board.model import neighbour_table
from autoplay.board.textformat import read_board_text
from autoplay.errors import BoardFormatError

Layout = tuple[int, ...]


def parse_layouts(text: str, rows: int, cols: int, max_per_cell: int = 1, source: str = "layouts") -> list[Layout]:
    """Every game's mines; a bad line raises :class:`BoardFormatError` naming the line."""
    cells = rows * cols
    out: list[Layout] = []
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        try:
            mines = tuple(int(word) for word in line.split())
        except ValueError:
            raise BoardFormatError(
                "a layout line lists cell indices (whole numbers)", source=source, line=lineno
            ) from None
        held: dict[int, int] = {}
        for i in mines:
            if not 0 <= i < cells:
                raise BoardFormatError(
                    f"cell index {i} is outside a {rows}x{cols} board (0 to {cells - 1})", source=source, line=lineno
                )
            held[i] = held.get(i, 0) + 1
            if held[i] > max_per_cell:
                r, c = divmod(i, cols)
                raise BoardFormatError(
                    f"cell {i} ({r},{c}) is listed {held[i]} times but a cell holds at most {max_per_cell} "
                    "(--max-per-cell)",
                    source=source,
                    line=lineno,
                )
        out.append(tuple(sorted(mines)))
    if not out:
        raise BoardFormatError("no layouts in the file", source=source)
    return out


def read_layouts(path: str | Path, rows: int, cols: int, max_per_cell: int = 1) -> list[Layout]:
    """:func:`parse_layouts` of a file; a missing or unreadable file is a one-line :class:`BoardFormatError`."""
    return parse_layouts(read_board_text(path), rows, cols, max_per_cell, source=str(Path(path)))


def format_layouts(layouts: Iterable[Layout]) -> str:
    return "".join(" ".join(map(str, layout)) + "\n" for layout in layouts)


def check_first_click(layout: Layout, rows: int, cols: int, first: tuple[int, int], first_click: str) -> str | None:
    """Why ``layout`` breaks the first-click rule at ``first`` (None when it keeps it).

    ``safe`` needs the first cell free of mines, ``zero`` the cell and its neighbours; ``none`` allows anything.
    """
    if first_click == "none":
        return None
    start = first[0] * cols + first[1]
    kept = {start}
    if first_click == "zero":
        kept.update(neighbour_table(rows, cols)[start])
    hit = sorted(kept.intersection(layout))
    if not hit:
        return None
    r, c = divmod(hit[0], cols)
    where = "the first click" if hit[0] == start else "a neighbour of the first click"
    return f"a mine at ({r},{c}), {where} ({first[0]},{first[1]}), which the rule {first_click!r} keeps free"


def deal_layout(spec, seed: int, index: int) -> Layout:
    """The mines the simulator deals for game ``index`` of a run seeded ``seed`` (``spec``: a GameSpec)."""
    from autoplay.sim.game import Game
    from autoplay.sim.runner import game_rng, start_cell

    rng = game_rng(seed, index)
    game = Game(
        spec.rows,
        spec.cols,
        spec.mines,
        spec.rules,
        rng=random.Random(rng.getrandbits(64)),
        max_per_cell=spec.max_per_cell,
    )
    game.reveal(*start_cell(spec))
    return game.mine_layout()
