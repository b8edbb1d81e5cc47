"""The solver's parts written in C, used where the build compiled them and the compiled solver is in use.

``_sweep.c`` is :class:`count._Enumerator`'s sweep on 128-bit integers.  It is built with the mypyc modules
(``setup.py``) and follows them: with ``AUTOPLAY_PURE_PYTHON=1``, without a complete build, or with a source
changed since the build (:mod:`autoplay.compiled`), it is not used, and the Python sweep counts alike.

>>> SWEEP is None or callable(SWEEP)
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from autoplay.compiled import is_compiled

#: A number's part in a group's sweep step: (where its need is in the state or -1, its fresh need, a third field)
Term = tuple[int, int, int]


class NativeSweep(Protocol):
    """What count._Enumerator asks of the C sweep (``_sweep.c``)."""

    def run(self, deadline: float | None, clock: Callable[[], float]) -> dict[int, list[int]] | None:
        """The counts as ``_Enumerator.run`` gives them; None where one passes 128 bits; raises past ``deadline``."""
        ...

    def set_need(self, i: int, terms: list[Term], plan: list[tuple[int, int, bool]]) -> None:
        """Group ``i``'s terms and plan after a need changed; forgets the sub-counts from groups ``0..i``."""
        ...


#: Sweep(sizes, steps, terms, plans): the set-up _Enumerator made, handed over.
SweepMaker = Callable[[list[int], list[int], list[list[Term]], list[list[tuple[int, int, bool]]]], NativeSweep]


class _NeverRaised(Exception):
    """Stands for the C sweep's deadline error where there is no C sweep."""


def _load() -> tuple[SweepMaker | None, type[Exception]]:
    """The C sweep's class and deadline error, or (None, a stand-in) where the compiled solver is not in use."""
    if not is_compiled():
        return None, _NeverRaised
    try:
        from autoplay.solver import _sweep
    except ImportError:
        return None, _NeverRaised
    return _sweep.Sweep, _sweep.OutOfTime


#: The C sweep (None: count the Python way), and what it raises past its deadline.
SWEEP, SWEEP_OUT_OF_TIME = _load()
