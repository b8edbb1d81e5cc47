"""The lowest mine probability after a reveal, found in floats and confirmed exactly where it matters.

The guess search asks, for most numbers a cell could show, only one thing of the position after it: its
lowest mine probability (the best next move's risk).  Joining the components exactly under the mine
count (:func:`analysis._global`) multiplies counts of hundreds of bits for every group of every
component, to read one minimum.  Here the same sums are made in floats first (``_lowest.c``): every
count is scaled to at most 1 (a component's totals and group counts by one factor, which cancels in
each of its shares, since a component's shares are its group sums over its own total), and every
non-zero float is kept above 2**-300, so nothing underflows: each share comes out within a relative
error far below 1e-9 of its exact value, and a share of exactly 0 is exactly 0.  Only the shares
within 1e-9 of the smallest one can be the smallest; those few are worked out exactly, and the least of
their correctly rounded quotients is the answer: the same float as the full join's
(``tests/solver/test_lowest.py``).  Where a count is too far from the others to scale safely, where
the board is too large for the error bound, or where the C module is not in use, the caller joins
exactly instead.

>>> scaled([0, 3, 6])
[0.0, 0.5, 1.0]
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Final, Protocol

from autoplay.solver.count import ComponentCount
from autoplay.solver.native import load

#: Every scaled non-zero value stays above this (``_lowest.c`` keeps the same floor).
_TINY: Final = 2.0**-300

#: A share that could be the least: (component, group), component -1 for the cells off the frontier.
Where = tuple[int, int]


class FloatKept(Protocol):
    """``_lowest.Kept``: the components a reveal leaves alone, in floats."""

    def contenders(
        self,
        totals: tuple[int, ...],
        group_mines: tuple[tuple[int, ...], ...],
        sizes: tuple[int, ...],
        room: list[float],
        n_off: int,
        left: int,
    ) -> list[Where] | None:
        """The groups whose share could be the least once the changed component joins; [] if it is 0; None: join."""
        ...


_LOWEST = load("_lowest")


def kept_floats(counts: list[ComponentCount]) -> FloatKept | None:
    """``counts`` in floats for :func:`contenders`, or None where the C module is not in use."""
    if _LOWEST is None:
        return None
    kept: FloatKept = _LOWEST.Kept([(c.totals, c.group_mines, sizes(c)) for c in counts])
    return kept


def sizes(count: ComponentCount) -> tuple[int, ...]:
    """The cells of each of the component's groups."""
    return tuple([len(cells) for cells in count.groups])


def contenders(
    kept: FloatKept, count: ComponentCount, room: tuple[int, ...], n_off: int, left: int
) -> list[Where] | None:
    """The shares that could be the least with ``count`` joined to ``kept`` (:class:`FloatKept`)."""
    room_f = scaled_room(room)
    if room_f is None:
        return None
    return kept.contenders(count.totals, count.group_mines, sizes(count), room_f, n_off, left)


def scaled(values: Sequence[int]) -> list[float] | None:
    """``values`` over their largest, correctly rounded; None where a non-zero one would fall below 2**-300."""
    top = max(values, default=0)
    out: list[float] = []
    for v in values:
        if v:
            f = v / top
            if f < _TINY:
                return None
            out.append(f)
        else:
            out.append(0.0)
    return out


@lru_cache(maxsize=4096)
def scaled_room(room: tuple[int, ...]) -> list[float] | None:
    """:func:`scaled` of the off-frontier placements (:func:`analysis._room`), made once per tuple."""
    return scaled(room)
