"""The solver's parts written in C, used where the build compiled them and the compiled solver is in use.

``_sweep.c`` is :class:`count._Enumerator`'s sweep on 128-bit integers.  The C modules are built with the mypyc
modules (``setup.py``) and follow them: with ``AUTOPLAY_PURE_PYTHON=1``, without a complete build, or with a source
changed since the build (:mod:`autoplay.compiled`), none is used, and the Python code gives the same answers.

>>> SWEEP is None or callable(SWEEP)
True
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from types import ModuleType
from typing import Protocol

from autoplay.compiled import is_compiled

#: A number's part in a group's sweep step: (where its need is in the state or -1, its fresh need, a third field)
Term = tuple[int, int, int]


class NativeSweep(Protocol):
    """What count._Enumerator asks of the C sweep (``_sweep.c``)."""

    def run(self, deadline: float | None, clock: Callable[[], float]) -> dict[int, list[int]] | None:
        """The counts as ``_Enumerator.run`` gives them; None where one passes 128 bits; raises past ``deadline``."""
        ...

    def counts(
        self, deadline: float | None, clock: Callable[[], float]
    ) -> dict[int, tuple[tuple[int, ...], tuple[tuple[int, ...], ...], int, tuple[int, ...]]] | None:
        """count._by_watched of :meth:`run`, as the fields of each ComponentCount but its groups; None past 128 bits."""
        ...

    def set_need(self, i: int, terms: list[Term], plan: list[tuple[int, int, bool]]) -> None:
        """Group ``i``'s terms and plan after a need changed; forgets the sub-counts from groups ``0..i``."""
        ...


#: Sweep(sizes, steps, terms, plans): the set-up _Enumerator made, handed over.
SweepMaker = Callable[[list[int], list[int], list[list[Term]], list[list[tuple[int, int, bool]]]], NativeSweep]


class _NeverRaised(Exception):
    """Stands for a C module's error where there is no C module."""


def load(name: str) -> ModuleType | None:
    """``autoplay.solver.<name>`` where the compiled solver is in use and the build made it, else None."""
    if not is_compiled():
        return None
    try:
        return importlib.import_module(f"autoplay.solver.{name}")
    except ImportError:
        return None


_SWEEP_MODULE = load("_sweep")
#: The C sweep (None: count the Python way), and what it raises past its deadline.
SWEEP: SweepMaker | None = None if _SWEEP_MODULE is None else _SWEEP_MODULE.Sweep
SWEEP_OUT_OF_TIME: type[Exception] = _NeverRaised if _SWEEP_MODULE is None else _SWEEP_MODULE.OutOfTime
