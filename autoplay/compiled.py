"""Which modules run compiled to C, and running their source instead when the compiled copy is out of date.

The solver and the simulated game are plain typed Python; when autoplay is built on a machine with a C compiler,
``setup.py`` also compiles them with mypyc (the compiler that ships with mypy: it turns the type annotations
mypy already checks into C, keeping Python's semantics, big integers included), which with the C modules makes the
simulator about 4x faster.  Python imports a compiled module in preference to the ``.py`` beside it, so a compiled
copy older than its source would silently run old code: the build records a SHA-256 of every source it compiled,
and importing ``autoplay`` (whose ``__init__`` imports this module first) compares them and, when any differs,
has every compiled module load from its source instead.  ``AUTOPLAY_PURE_PYTHON=1`` does the same on purpose
(profiling with cProfile, or comparing the two).  The C modules of :mod:`autoplay.solver.native` (:data:`C_SOURCES`)
are built and recorded with them and used only where they are.

>>> status() == COMPILED or status().startswith("pure Python: ")
True
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

#: The modules setup.py compiles, as paths from the repository root (the package's parent).
COMPILED_SOURCES = (
    "autoplay/solver/analysis.py",
    "autoplay/solver/closure.py",
    "autoplay/solver/count.py",
    "autoplay/solver/decide.py",
    "autoplay/solver/deduce.py",
    "autoplay/solver/deeper.py",
    "autoplay/solver/endgame.py",
    "autoplay/solver/guess.py",
    "autoplay/solver/lowest.py",
    "autoplay/solver/multimine.py",
    "autoplay/solver/multiweights.py",
    "autoplay/solver/position.py",
    "autoplay/solver/record.py",
    "autoplay/solver/tracker.py",
    "autoplay/solver/traps.py",
    "autoplay/solver/unknown_cells.py",
    "autoplay/sim/game.py",
    "autoplay/insight/layout.py",  # its LaidGame is a Game, and an interpreted class cannot extend a compiled one
)
#: Modules written in C (:mod:`autoplay.solver.native`), built and recorded with the mypyc ones, used only with them.
C_SOURCES = ("autoplay/solver/_endgame.c", "autoplay/solver/_lowest.c", "autoplay/solver/_sweep.c")

#: Written by the build beside this file: {source path: SHA-256 of the source that was compiled}.
RECORD_NAME = "compiled-sources.json"

PURE_ENV = "AUTOPLAY_PURE_PYTHON"
#: :func:`status` when the compiled modules are in use.
COMPILED = "compiled with mypyc"

_ROOT = Path(__file__).resolve().parent.parent


def module_name(source: str) -> str:
    """``autoplay/solver/count.py`` -> ``autoplay.solver.count``.

    >>> module_name("autoplay/sim/game.py"), module_name("autoplay/solver/_sweep.c")
    ('autoplay.sim.game', 'autoplay.solver._sweep')
    """
    return source.rsplit(".", 1)[0].replace("/", ".")


def source_digest(path: Path) -> str:
    """SHA-256 of a file, as the build records it."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def stale_sources(
    root: Path, record: dict[str, str] | None, sources: Sequence[str] = COMPILED_SOURCES + C_SOURCES
) -> list[str]:
    """The compiled sources whose file under ``root`` no longer matches what was compiled (all if no record).

    >>> stale_sources(Path("/nonexistent"), None, ["autoplay/sim/game.py"])
    ['autoplay/sim/game.py']
    """
    if record is None:
        return list(sources)
    stale = []
    for source in sources:
        path = root / source
        if source not in record or not path.is_file() or source_digest(path) != record[source]:
            stale.append(source)
    return stale


class _SourceFinder:
    """Finds the listed modules as their ``.py`` files, ahead of the compiled extension beside them.

    A meta path finder needs only ``find_spec``; not deriving from ``importlib.abc.MetaPathFinder`` spares every
    start the import of ``importlib.abc`` (12 ms, a tenth of the simulator's start).
    """

    def __init__(self, root: Path, names: dict[str, str]):
        self.root = root
        self.names = names

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        source = self.names.get(fullname)
        if source is None:
            return None
        import importlib.util  # only where a stale build runs its sources

        return importlib.util.spec_from_file_location(fullname, self.root / source)


def _has_compiled(root: Path) -> bool:
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    first = root / COMPILED_SOURCES[0]
    return any(first.with_name(first.stem + s).is_file() for s in suffixes)


def _choose_modules() -> str:
    """Decide, before any compiled module is imported, whether the compiled copies may be used; say which."""
    if not _has_compiled(_ROOT):
        return "pure Python: not compiled"
    if os.environ.get(PURE_ENV):
        reason = f"{PURE_ENV} is set"
    else:
        record_path = Path(__file__).resolve().parent / RECORD_NAME
        try:
            record = json.loads(record_path.read_text())
        except (OSError, ValueError):
            record = None
        stale = stale_sources(_ROOT, record)
        if not stale:
            return COMPILED
        if record is None:  # the last build compiled nothing or not everything (no C compiler, say)
            reason = "compiled files without a complete build's record; rebuild with pip install -e ."
        else:
            reason = f"the compiled copy predates {stale[0]}; rebuild with pip install -e ."
    # all or none: compiled modules call each other directly, so one stale module would still run through the rest
    sys.meta_path.insert(0, _SourceFinder(_ROOT, {module_name(s): s for s in COMPILED_SOURCES}))
    return f"pure Python: {reason}"


#: Decided once, when ``autoplay`` is imported (its ``__init__`` imports this module first).
_STATUS = _choose_modules()


def status() -> str:
    """:data:`COMPILED` when the solver runs as C, else ``pure Python: `` and why (``--version``, benchmarks)."""
    return _STATUS


def is_compiled() -> bool:
    """Whether the solver and the simulated game run compiled."""
    return _STATUS == COMPILED
