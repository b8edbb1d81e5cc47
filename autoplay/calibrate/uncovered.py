"""A loss that uncovers the whole board: which of the tiles that appeared are the mines.

Most games show their mines when a game is lost and leave the other covered
cells covered, so every tile that appears on a covered cell at the losing
click is a mine.  Some (xbomb) uncover the whole board instead: the numbers
appear too, and taking every new tile for a mine once named xbomb's 4 a mine.
Such a loss is told by what it leaves: no covered cell at all.  Its mines are
then found by counting, never by looks: some set of the new tiles' clusters
holds as many cells as the mines not yet shown, and with those as the mines,
every other new cell's cluster must stand for one number (each of its cells
has the same count of mines around it).  Only a single set that passes both
is taken; otherwise nothing of the loss is used.
"""

from __future__ import annotations

import itertools

import numpy as np

from autoplay.board.model import neighbour_table

#: Most clusters whose subsets are tried (2**12 sets, nearly all cut by the count alone).
MAX_CLUSTERS = 12


def uncovered_mines(
    covered: np.ndarray,
    newly: np.ndarray,
    ids: np.ndarray,
    target: int,
    flagged: np.ndarray,
    mines: int | None,
    shape: tuple[int, int],
) -> np.ndarray | None:
    """The mine cells (flat mask) of a loss that uncovered every covered cell, or None.

    ``covered``: cells covered before the losing click; ``newly``: cells whose tile changed at it; ``ids``: each
    cell's cluster now; ``target``: the cell clicked; ``flagged``: our flags (maybe mines, maybe not).

    >>> # 1x4: the click at 0 lost; the 1 at cell 1 and the 0s at 2, 3 appeared with the mine at 0 stepped on
    >>> covered = np.array([True, True, True, True]); ids = np.array([9, 5, 6, 6])
    >>> uncovered_mines(covered, covered, ids, 0, np.zeros(4, bool), 1, (1, 4))  # no mine left to show
    >>> # 3x3, two mines, the click at 0 lost: cluster 9 is the mine tile, the others a 1, a 2 and a 0
    >>> covered = np.ones(9, bool); ids = np.array([9, 9, 1, 2, 2, 1, 0, 0, 0])
    >>> uncovered_mines(covered, covered, ids, 0, np.zeros(9, bool), 2, (3, 3)).nonzero()[0].tolist()
    [1]
    """
    rows, cols = shape
    candidates = newly.copy()
    candidates[target] = False
    left_covered = covered & ~newly & ~flagged
    left_covered[target] = False
    if mines is None or left_covered.any() or candidates.sum() <= mines - 1:
        return None  # covered cells stay covered (or only mines appeared): the usual loss
    clusters, counts = np.unique(ids[candidates], return_counts=True)
    if len(clusters) > MAX_CLUSTERS:
        return None
    table = neighbour_table(rows, cols)
    low, high = mines - 1 - int(flagged.sum()), mines - 1
    found = None
    for size in range(1, len(clusters)):
        for subset in itertools.combinations(range(len(clusters)), size):
            if not low <= int(counts[list(subset)].sum()) <= high:
                continue
            mine = candidates & np.isin(ids, clusters[list(subset)])
            if _numbers_agree(mine, candidates & ~mine, ids, target, flagged, table):
                if found is not None:
                    return None  # two readings fit: neither is taken
                found = mine
    return found


def _numbers_agree(
    mine: np.ndarray,
    numbers: np.ndarray,
    ids: np.ndarray,
    target: int,
    flagged: np.ndarray,
    table: tuple[tuple[int, ...], ...],
) -> bool:
    """Does every cluster of ``numbers`` have one count of mines (``mine`` and the ``target``) around its cells?

    Cells beside a flag are not counted (the flag may or may not be a mine).
    """
    mines = mine.copy()
    mines[target] = True
    value: dict[int, int] = {}
    for index in np.flatnonzero(numbers):
        around = table[index]
        if any(flagged[n] for n in around):
            continue
        count = sum(bool(mines[n]) for n in around)
        if value.setdefault(int(ids[index]), count) != count:
            return False
    return bool(value)
