"""A normal (not editable) install works: the wheel, in a fresh venv outside the checkout, solves, decodes with the
shipped skins, replays screenshots and keeps user skins out of the installed package.

Every command is the installed console script, run from a folder with no ``calibration/`` or ``templates/``.
"""

from __future__ import annotations

import importlib.machinery
import json
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

from autoplay import __version__
from autoplay.board import read_board
from autoplay.compiled import C_SOURCES, COMPILED, COMPILED_SOURCES, RECORD_NAME
from tests.packaging.compiler import can_compile
from tests.packaging.wheel import REPO, InstalledWheel, build_wheel

FIXTURES = REPO / "tests" / "fixtures"

pytestmark = pytest.mark.slow  # builds the wheel twice and installs it into a fresh venv: minutes


def test_wheel_carries_the_skins_the_types_marker_and_the_licence(installed_wheel: InstalledWheel) -> None:
    names = set(zipfile.ZipFile(installed_wheel.wheel).namelist())
    for skin in ("gnome-mines", "xdemineur", "win7"):
        assert f"autoplay/skins/calibration/{skin}.toml" in names
        shipped = {p.name for p in (REPO / "templates" / skin).glob("*.png")}
        assert {n.rsplit("/", 1)[1] for n in names if n.startswith(f"autoplay/skins/templates/{skin}/")} == shipped
    assert "autoplay/py.typed" in names
    assert any(n.endswith(".dist-info/licenses/LICENSE") or n.endswith(".dist-info/LICENSE") for n in names)
    metadata = next(n for n in names if n.endswith(".dist-info/METADATA"))
    text = zipfile.ZipFile(installed_wheel.wheel).read(metadata).decode()
    assert f"Version: {__version__}" in text
    requires = [line.split(";")[0] for line in text.splitlines() if line.startswith("Requires-Dist:")]
    assert requires and not [r for r in requires if "==" in r]  # lower bounds only: exact pins are constraints.txt


def test_installed_package_is_the_wheel_not_the_checkout(installed_wheel: InstalledWheel) -> None:
    proc = installed_wheel.run("--version")
    assert proc.returncode == 0 and proc.stdout.strip().startswith(f"autoplay {__version__} (solver ")
    where = installed_wheel.python(
        "import autoplay, autoplay.vision.skin_home as h; print(autoplay.__file__); print(h.shipped_home())"
    ).split()
    assert all(Path(p).is_relative_to(installed_wheel.site_packages()) for p in where), where


def test_the_wheel_carries_the_compiled_solver_where_a_c_compiler_exists(installed_wheel: InstalledWheel) -> None:
    names = set(zipfile.ZipFile(installed_wheel.wheel).namelist())
    extensions = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    built = sorted(n for n in names if n.startswith("autoplay/") and n.endswith(extensions))
    version = installed_wheel.run("--version").stdout.strip()
    if can_compile():
        assert len(built) == len(COMPILED_SOURCES) + len(C_SOURCES), built
        assert f"autoplay/{RECORD_NAME}" in names
        assert version.endswith(f"(solver {COMPILED})")
        where = installed_wheel.python("import autoplay.solver.endgame as e; print(e.__file__)")
        assert where.endswith(extensions) and Path(where).is_relative_to(installed_wheel.site_packages())
        sweep = installed_wheel.python("import autoplay.solver.native as n; print(n.PREPARE)")
        assert sweep == "<built-in function prepare>", sweep
    else:  # the same package, pure Python: it still installs and plays
        assert not built and version.endswith("(solver pure Python: not compiled)")


def test_without_a_c_compiler_the_same_package_builds_as_pure_python_and_plays(
    installed_wheel: InstalledWheel, tmp_path: Path
) -> None:
    """What a user without a compiler gets (no binary wheel for their platform): it installs and plays, only slower."""
    wheel = build_wheel(tmp_path / "build", CC="false")  # a compiler that always fails, whatever this machine has
    names = zipfile.ZipFile(wheel).namelist()
    extensions = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    assert not [n for n in names if n.endswith(extensions)] and f"autoplay/{RECORD_NAME}" not in names
    target = tmp_path / "pure"  # beside the fixture's compiled install, found first through PYTHONPATH
    pip = [str(installed_wheel.bin / "python"), "-m", "pip", "install", "--quiet", "--no-deps", "--target"]
    subprocess.run([*pip, str(target), str(wheel)], check=True, capture_output=True, timeout=300)
    board = FIXTURES / "gnome-mines" / "expert_mid8.txt"
    solved = installed_wheel.run("solve", str(board), "--mines", "99", "--json", PYTHONPATH=str(target))
    assert solved.returncode == 0, solved.stderr
    assert json.loads(solved.stdout)["move"]["action"] in ("reveal", "flag")
    version = installed_wheel.run("--version", PYTHONPATH=str(target)).stdout
    assert version.strip().endswith("(solver pure Python: not compiled)"), version


def test_installed_solve_on_a_board_file(installed_wheel: InstalledWheel) -> None:
    board = installed_wheel.workdir / "board.txt"
    shutil.copy(FIXTURES / "gnome-mines" / "expert_mid8.txt", board)
    proc = installed_wheel.run("solve", str(board), "--mines", "99", "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert (data["rows"], data["cols"]) == (16, 30) and data["move"]["action"] in ("reveal", "flag")


def test_installed_decode_reads_fixtures_with_every_shipped_live_skin(installed_wheel: InstalledWheel) -> None:
    for skin, name in [("xdemineur", "small_end"), ("gnome-mines", "expert_mid8")]:
        proc = installed_wheel.run("decode", str(FIXTURES / skin / f"{name}.png"), "--skin", skin, "--json")
        assert proc.returncode == 0, proc.stderr
        truth = read_board(FIXTURES / skin / f"{name}.txt")
        assert json.loads(proc.stdout)["board"] == truth.row_strings()
    missing = installed_wheel.run("decode", str(FIXTURES / "xdemineur" / "small_end.png"), "--skin", "nope")
    assert missing.returncode != 0 and len(missing.stderr.strip().splitlines()) == 1
    assert "gnome-mines" in missing.stderr and "Traceback" not in missing.stderr


def test_installed_replay_of_screenshots(installed_wheel: InstalledWheel) -> None:
    shots = installed_wheel.workdir / "shots"
    shots.mkdir()
    for name in ("intermediate_mid3", "expert_mid8", "expert_end"):
        shutil.copy(FIXTURES / "gnome-mines" / f"{name}.png", shots)
    proc = installed_wheel.run("replay", str(shots), "--skin", "gnome-mines", "--out", str(shots / "out"), "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["summary"] == {"frames": 3, "ok": 2, "over": 1, "mismatch": 0, "failed": 0}
    assert sorted(p.name for p in (shots / "out").glob("*.png")) == sorted(p.name for p in shots.glob("*.png"))


def test_installed_calibrate_writes_to_the_user_folder_never_site_packages(installed_wheel: InstalledWheel) -> None:
    site = installed_wheel.site_packages()

    def installed_files() -> list[Path]:
        return sorted(p.relative_to(site) for p in site.rglob("*") if "__pycache__" not in p.parts)

    before = installed_files()
    xd = FIXTURES / "xdemineur"
    proc = installed_wheel.run("calibrate", str(xd / "small_fresh.png"), str(xd / "small_end.png"), "--name", "mine")
    assert proc.returncode == 0, proc.stderr
    assert (installed_wheel.data_home / "autoplay" / "calibration" / "mine.toml").is_file()
    assert (installed_wheel.data_home / "autoplay" / "templates" / "mine" / "contact-sheet.png").is_file()
    assert installed_files() == before
    # the new skin is found by name from then on, next to the shipped ones
    proc = installed_wheel.run("decode", str(xd / "small_end.png"), "--skin", "mine")
    assert proc.returncode in (0, 3), proc.stderr  # a blind skin may leave tiles it never saw unreadable
    assert "unknown skin" not in proc.stderr
