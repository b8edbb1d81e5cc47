"""The solver's parts written in C, used where the build compiled them and the compiled solver is in use.

Three, each where the compiled solver still spent its time allocating Python objects:

- ``_sweep.c``: :mod:`count`'s set-up and memoised sweep of a component, on 128-bit integers;
- ``_lowest.c``: the float shares that find which groups could hold the lowest probability (:mod:`lowest`);
- ``_endgame.c``: the exhaustive endgame search (:mod:`endgame`).

They are built with the mypyc modules (``setup.py``) and follow them: with ``AUTOPLAY_PURE_PYTHON=1``, without a
complete build, or with a source changed since the build (:mod:`autoplay.compiled`), none is used, and the Python
code gives the same answers (``tests/sim/test_decision_hashes.py`` pins them).

>>> PREPARE is None or callable(PREPARE)
True
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from types import ModuleType
from typing import Protocol

from autoplay.compiled import is_compiled


class NativeSweep(Protocol):
    """What count.py asks of the C sweep of one component (``_sweep.c``), made by :data:`PREPARE`."""

    def counts(
        self, deadline: float | None, clock: Callable[[], float]
    ) -> dict[int, tuple[tuple[int, ...], tuple[tuple[int, ...], ...], int, tuple[int, ...]]] | None:
        """count._by_watched of the counts, as each ComponentCount's fields but its groups; None past 128 bits."""
        ...

    def set_need(self, c: int, need: int) -> None:
        """Number ``c`` needs ``need`` from now on; the sub-counts that depend on it are forgotten."""
        ...


#: prepare(constraints, watched, early) -> (the groups in sweep order, the sweep): count._prepare in C.
Prepare = Callable[
    [list[tuple[tuple[int, ...], int]], tuple[int, ...], int], tuple[tuple[tuple[int, ...], ...], NativeSweep]
]


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
#: The C set-up and sweep (None: count the Python way), and what the sweep raises past its deadline.
PREPARE: Prepare | None = None if _SWEEP_MODULE is None else _SWEEP_MODULE.prepare
SWEEP_OUT_OF_TIME: type[Exception] = _NeverRaised if _SWEEP_MODULE is None else _SWEEP_MODULE.OutOfTime
