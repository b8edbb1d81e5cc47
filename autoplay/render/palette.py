"""Colours shared by every picture, so a heat map means the same thing everywhere."""

from __future__ import annotations

import itertools

BGR = tuple[int, int, int]

#: Heat map anchors over the square root of the probability (see :func:`heat_colour`),
#: from certainly safe to certainly a mine; yellow marks a 25% risk.
_HEAT_STOPS: tuple[tuple[float, BGR], ...] = (
    (0.0, (60, 190, 40)),  # green
    (0.5, (0, 215, 255)),  # yellow
    (1.0, (40, 40, 220)),  # red
)

#: Number colours of the classic Windows game: players read a number by its colour first.
NUMBER_COLOURS: dict[int, BGR] = {
    0: (128, 128, 128),
    1: (255, 0, 0),  # blue
    2: (0, 128, 0),  # green
    3: (0, 0, 255),  # red
    4: (128, 0, 0),  # navy
    5: (0, 0, 128),  # maroon
    6: (128, 128, 0),  # teal
    7: (0, 0, 0),  # black
    8: (128, 128, 128),  # grey
}

HIDDEN_TILE: BGR = (189, 189, 189)
REVEALED_TILE: BGR = (222, 222, 222)
GRID_LINE: BGR = (110, 110, 110)
TEXT_DARK: BGR = (20, 20, 20)
TEXT_LIGHT: BGR = (255, 255, 255)
#: The chosen move uses colours the heat map never produces, so it never blends in.
MOVE_REVEAL: BGR = (255, 160, 0)  # bright blue
MOVE_FLAG: BGR = (200, 0, 200)  # magenta
OUTLINE: BGR = (0, 0, 0)
SAFE_MARK: BGR = (40, 140, 0)
MINE_MARK: BGR = (0, 0, 170)
EXPLODED_TILE: BGR = (60, 60, 230)


def heat_colour(probability: float) -> BGR:
    """Colour for a mine probability in [0, 1]: green (safe) through yellow (25%) to red (mine).

    The square root spreads the low range, where real decisions are made: a
    5% and a 20% cell must not look alike, while 70% and 90% both just mean "no".
    """
    p = min(1.0, max(0.0, float(probability))) ** 0.5
    for (p0, c0), (p1, c1) in itertools.pairwise(_HEAT_STOPS):
        if p <= p1:
            t = (p - p0) / (p1 - p0)
            return tuple(round(a + (b - a) * t) for a, b in zip(c0, c1))
    return _HEAT_STOPS[-1][1]


def percent_label(probability: float) -> str:
    """Short percentage that never rounds a possible mine to 0 or a possible safe cell to 100."""
    pct = 100.0 * probability
    if 0.0 < pct < 1.0:
        return "<1"
    if 99.0 < pct < 100.0:
        return ">99"
    return f"{pct:.0f}"
