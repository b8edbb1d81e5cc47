"""Reading a cell that the rules leave only a few things to show.

A last guess ends the game either way: safe, it opened the last safe cell, which shows the one number its
neighbours allow; a mine, it shows the exploded mine.  A skin made live has not always seen that tile in the look
the game draws it in now: a page at 125% draws a tile a little differently at each fraction of a pixel it falls
on, and a skin sees the exploded mine once a lost game, at one place.  The usual reading must tell every label
from every other, and finds such a tile unlike all of them.  Told which few outcomes are possible, a reading needs
to tell only those apart from each other and from everything else: the cell is given the outcome whose templates
are nearest (both blurred, the grid moved by up to a pixel, as for tiles drawn at another size:
:func:`autoplay.vision.rescaled.label_distances`) when that distance is at most ``SHARE`` of the distance to the
nearest template of anything else, another outcome or any other label the skin knows.  A tile never seen in any
look (a 6 the first time one shows) is about as near other labels as to any outcome, so it stays unread.

An outcome shown only by numbers the skin has no template of (the last safe cell's 7, when no game of this look
has shown a 7) is stood in for by every number the skin knows: a number is drawn as the others are, a digit on
the opened tile, so a cell much nearer to some number than to a mine and to every other label shows a number.
It is still unread unless it is that near; and a mine the skin has seen is nearer to its own templates than to
any number (``benchmarks/last_guess_reads.py``: no exploded mine over 80 skins of the web page was taken for a
number never seen).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

import numpy as np

from autoplay.board.model import DIGITS
from autoplay.vision.grid import Grid
from autoplay.vision.rescaled import SHARE, label_distances
from autoplay.vision.skin import Skin


def read_among(
    image: np.ndarray, grid: Grid, skin: Skin, cell: tuple[int, int], outcomes: Mapping[str, Collection[str]]
) -> str | None:
    """The outcome (a key of ``outcomes``, each naming the labels that show it) that ``cell`` shows, or None.

    >>> import numpy as np
    >>> tile = lambda bgr: np.full((10, 10, 3), bgr, np.uint8)
    >>> skin = Skin("flat", templates={"X": [tile((0, 0, 230))], "2": [tile((200, 200, 200))],
    ...                                ".": [tile((120, 120, 120))]})
    >>> grid = Grid(np.array([0.0, 10.0, 20.0]), np.array([0.0, 10.0]))
    >>> image = np.hstack([tile((10, 10, 215)), tile((160, 160, 160))])
    >>> ends = {"lost": "X*", "won": "2"}
    >>> read_among(image, grid, skin, (0, 0), ends), read_among(image, grid, skin, (0, 1), ends)
    ('lost', None)
    """
    names, distances = label_distances(image, grid, skin, np.array([cell[0] * grid.cols + cell[1]]))
    by_label = dict(zip(names.tolist(), distances[0].tolist(), strict=True))
    shown_by = {name: stand_ins(labels, by_label) for name, labels in outcomes.items()}
    near = {
        name: min((by_label[label] for label in labels if label in by_label), default=np.inf)
        for name, labels in shown_by.items()
    }
    claimed = {label for labels in shown_by.values() for label in labels}
    rest = min((d for label, d in by_label.items() if label not in claimed), default=np.inf)
    best = min(near, key=near.__getitem__)
    runner_up = min([rest, *(d for name, d in near.items() if name != best)])
    if not np.isfinite(near[best]) or near[best] > SHARE * runner_up:
        return None
    return best


def stand_ins(labels: Collection[str], known: Collection[str]) -> Collection[str]:
    """``labels``, or the numbers among ``known`` (the skin's labels) when ``labels`` are numbers it has no template of.

    >>> stand_ins("7", {"1", "2", "X"}), stand_ins("2", {"1", "2", "X"}), stand_ins("*X", {"1"})
    ('12', '2', '*X')
    """
    if labels and all(label in DIGITS and label not in known for label in labels):
        return "".join(label for label in DIGITS if label in known)
    return labels
