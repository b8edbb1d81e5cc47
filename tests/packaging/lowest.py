"""The lowest versions pyproject.toml declares: its lower bounds, the pins of constraints-lowest.txt, and a venv
holding exactly those pins.

The venv takes about 20 seconds to fill (numpy, OpenCV) and depends only on the pins, so it is kept between test
runs in the user's cache folder under a name made from the hash of what decides its contents. A lock keeps two test
runs from filling or reinstalling it at once; autoplay itself is reinstalled from a freshly built wheel every run.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import shutil
import subprocess
import sys
import tomllib
import venv
from collections.abc import Iterator
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

from tests.packaging.wheel import REPO

LOWEST = REPO / "constraints-lowest.txt"
PYPROJECT = REPO / "pyproject.toml"


def declared_dependencies() -> list[Requirement]:
    """pyproject.toml's [project] dependencies that apply on this machine (markers evaluated)."""
    project = tomllib.loads(PYPROJECT.read_text())["project"]
    requirements = [Requirement(text) for text in project["dependencies"]]
    return [r for r in requirements if r.marker is None or r.marker.evaluate()]


def lower_bounds() -> dict[str, Version]:
    """Each dependency's ``>=`` bound by canonical name; a dependency with no such bound has no entry."""
    bounds: dict[str, Version] = {}
    for requirement in declared_dependencies():
        for spec in requirement.specifier:
            if spec.operator == ">=":
                bounds[canonicalize_name(requirement.name)] = Version(spec.version)
    return bounds


def lowest_pins() -> dict[str, Version]:
    """constraints-lowest.txt's ``==`` pins by canonical name (markers evaluated, comments skipped)."""
    pins: dict[str, Version] = {}
    for line in LOWEST.read_text().splitlines():
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        requirement = Requirement(text)
        if requirement.marker is not None and not requirement.marker.evaluate():
            continue
        (spec,) = requirement.specifier
        assert spec.operator == "==", f"constraints-lowest.txt pins exactly, not {text!r}"
        pins[canonicalize_name(requirement.name)] = Version(spec.version)
    return pins


def _cache_key() -> str:
    """What decides the venv's contents: the pins, the declared dependencies and this Python."""
    digest = hashlib.sha256()
    digest.update(LOWEST.read_bytes())
    digest.update("\n".join(str(r) for r in declared_dependencies()).encode())
    digest.update(sys.version.encode())
    return digest.hexdigest()[:16]


def _cache_root() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "autoplay-tests"


def pip_env() -> dict[str, str]:
    """The environment for the venv's pip: no PIP_CONSTRAINT (the main run's exact pins would fight the lowest)."""
    return {k: v for k, v in os.environ.items() if k not in ("PIP_CONSTRAINT", "PYTHONPATH", "VIRTUAL_ENV")}


def pip(env_dir: Path, *args: str) -> None:
    """Run the venv's pip, failing with the end of its stderr."""
    cmd = [str(env_dir / "bin" / "python"), "-m", "pip", *args, "--quiet", "--disable-pip-version-check"]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600, env=pip_env())
    if proc.returncode != 0:
        raise AssertionError(f"pip {' '.join(args[:3])} ... failed ({proc.returncode}):\n{proc.stderr[-3000:]}")


@contextlib.contextmanager
def lowest_venv() -> Iterator[Path]:
    """A venv with the dependencies at exactly constraints-lowest.txt's pins (cached), held locked while in use."""
    root = _cache_root()
    root.mkdir(parents=True, exist_ok=True)
    env_dir = root / f"lowest-{_cache_key()}"
    with open(root / f"{env_dir.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        complete = env_dir / "autoplay-deps-installed"
        if not complete.is_file():  # absent or left half-filled by an interrupted run
            shutil.rmtree(env_dir, ignore_errors=True)
            venv.create(env_dir, with_pip=True)
            requirements = env_dir / "requirements.txt"
            requirements.write_text("".join(f"{r}\n" for r in declared_dependencies()))
            pip(env_dir, "install", "-c", str(LOWEST), "-r", str(requirements))
            complete.touch()
        yield env_dir
