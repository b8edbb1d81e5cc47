"""The compiled solver: used where it was built, never when older than its source, the same decisions either way."""

from __future__ import annotations

import importlib.machinery
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import autoplay.compiled as compiled
import autoplay.solver.guess
from tests.packaging.compiler import can_compile
from tests.packaging.wheel import REPO
from tests.sim.test_decision_hashes import PINNED

EXTENSIONS = tuple(importlib.machinery.EXTENSION_SUFFIXES)


def _python(code: str, tree: Path, **env: str) -> str:
    """Run ``code`` importing ``autoplay`` from ``tree`` (ahead of the editable install), return its output."""
    boot = (
        "import sys; sys.meta_path[:] = [f for f in sys.meta_path if 'editable' not in repr(f).lower()]; "
        f"sys.path.insert(0, {str(tree)!r}); "
    )
    environment = {k: v for k, v in os.environ.items() if k != compiled.PURE_ENV} | env
    proc = subprocess.run(
        [sys.executable, "-c", boot + code], capture_output=True, text=True, env=environment, timeout=300
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.strip()


def test_a_changed_source_is_stale_and_a_missing_record_makes_all_stale(tmp_path: Path) -> None:
    for source in ("autoplay/solver/count.py", "autoplay/sim/game.py"):
        (tmp_path / source).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / source).write_text("x = 1\n")
    sources = ["autoplay/solver/count.py", "autoplay/sim/game.py"]
    record = {s: compiled.source_digest(tmp_path / s) for s in sources}
    assert compiled.stale_sources(tmp_path, record, sources) == []
    (tmp_path / "autoplay/sim/game.py").write_text("x = 2\n")
    assert compiled.stale_sources(tmp_path, record, sources) == ["autoplay/sim/game.py"]
    assert compiled.stale_sources(tmp_path, None, sources) == sources


def test_this_checkout_runs_the_compiled_solver_where_it_can_be_built() -> None:
    """CI installs with a C compiler: the solver must then really run compiled (a fresh build is never stale)."""
    if can_compile():
        assert compiled.is_compiled(), compiled.status()
        assert autoplay.solver.guess.__file__.endswith(EXTENSIONS)
    else:
        assert compiled.status() == "pure Python: not compiled"
        assert autoplay.solver.guess.__file__.endswith(".py")


def _copy_with_empty_compiled_files(root: Path) -> None:
    """The package copied under ``root`` with an empty "compiled" file beside every compiled source.

    Importing any of them would fail, so a test using this also fails if the loader ever reaches one.
    """
    shutil.copytree(
        REPO / "autoplay",
        root / "autoplay",
        ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd", compiled.RECORD_NAME),
    )
    for source in compiled.COMPILED_SOURCES + compiled.C_SOURCES:
        (root / source).with_suffix(EXTENSIONS[0]).write_bytes(b"")


_IMPORTS = (
    "import autoplay.compiled as c, autoplay.solver.guess as g, autoplay.sim.game as s; "
    "from autoplay.solver import choose_move; from autoplay.board.model import Board; "
    "print(c.status()); print(g.__file__); print(s.__file__); "
    "print(choose_move(Board.from_rows(['.1...'], mines=2)).guess)"
)


def test_a_compiled_copy_older_than_its_source_is_never_imported(tmp_path: Path) -> None:
    """A copy of the package whose compiled modules' record does not match: every module comes from source."""
    _copy_with_empty_compiled_files(tmp_path)
    record = {s: compiled.source_digest(tmp_path / s) for s in compiled.COMPILED_SOURCES + compiled.C_SOURCES}
    (tmp_path / "autoplay" / compiled.RECORD_NAME).write_text(json.dumps(record))
    with (tmp_path / "autoplay/solver/deduce.py").open("a") as edited:
        edited.write("\n# edited after the build\n")
    status, guess_file, game_file, decided = _python(_IMPORTS, tmp_path).splitlines()
    assert status == "pure Python: the compiled copy predates autoplay/solver/deduce.py; rebuild with pip install -e ."
    assert guess_file == str(tmp_path / "autoplay/solver/guess.py") and game_file.endswith("game.py")
    assert decided == "True"


def test_an_edited_c_source_keeps_every_compiled_module_and_the_c_sweep_out(tmp_path: Path) -> None:
    """The C sweep is recorded like the mypyc modules: its source edited after the build, none of them is used."""
    _copy_with_empty_compiled_files(tmp_path)
    record = {s: compiled.source_digest(tmp_path / s) for s in compiled.COMPILED_SOURCES + compiled.C_SOURCES}
    (tmp_path / "autoplay" / compiled.RECORD_NAME).write_text(json.dumps(record))
    with (tmp_path / compiled.C_SOURCES[0]).open("a") as edited:
        edited.write("\n/* edited after the build */\n")
    code = _IMPORTS + "; import autoplay.solver.native as n; print(n.PREPARE)"
    status, guess_file, _game_file, decided, sweep = _python(code, tmp_path).splitlines()
    assert status == f"pure Python: the compiled copy predates {compiled.C_SOURCES[0]}; rebuild with pip install -e ."
    assert guess_file == str(tmp_path / "autoplay/solver/guess.py") and decided == "True" and sweep == "None"


def test_compiled_files_without_a_record_are_never_imported(tmp_path: Path) -> None:
    """A build that compiled nothing or not everything (no C compiler) leaves no record: the source runs."""
    _copy_with_empty_compiled_files(tmp_path)
    status, guess_file, _game_file, decided = _python(_IMPORTS, tmp_path).splitlines()
    assert status.startswith("pure Python: compiled files without a complete build's record")
    assert guess_file == str(tmp_path / "autoplay/solver/guess.py") and decided == "True"


def test_the_pure_python_solver_decides_exactly_as_the_compiled_one() -> None:
    """AUTOPLAY_PURE_PYTHON runs the source; both must give the pinned digest of 40 expert games."""
    key = ("expert", "safe", 40, 7)
    code = (
        "import autoplay.compiled as c, autoplay.solver.guess as g; "
        "from tests.sim.test_decision_hashes import decision_digest; "
        f"print(c.status()); print(g.__file__); print(decision_digest(*{key!r}))"
    )
    status, guess_file, digest = _python(code, REPO, **{compiled.PURE_ENV: "1"}).splitlines()
    assert status.startswith("pure Python: ") and guess_file.endswith(".py")
    assert digest == PINNED[key]
