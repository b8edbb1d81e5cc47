"""Build autoplay's wheel from a copy of the checkout and install it into a fresh venv outside the checkout.

What a user gets from ``pip install .``: no editable link back to the sources, no ``PYTHONPATH``, a working
directory with no ``calibration/`` or ``templates/`` in sight, and an empty per-user skin folder.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import venv
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
#: What the wheel is built from: everything but local state (a stale build/ would leak deleted files into it, and
#: the editable install's compiled solver would stand in for the one the wheel build must make itself).
_NOT_SOURCES = shutil.ignore_patterns(
    ".git",
    ".venv",
    "build",
    "dist",
    "*.egg-info",
    "runs",
    "__pycache__",
    ".*_cache",
    "replay-out",
    "*.so",
    "*.pyd",
    "compiled-sources.json",
)


@dataclass(frozen=True)
class InstalledWheel:
    """A venv holding only the built wheel and its dependencies, and a working folder outside the checkout."""

    wheel: Path
    venv: Path
    workdir: Path
    data_home: Path

    @property
    def bin(self) -> Path:
        return self.venv / ("Scripts" if os.name == "nt" else "bin")

    def env(self, **extra: str) -> dict[str, str]:
        """The environment for the installed ``autoplay``: no PYTHONPATH, no AUTOPLAY_HOME, a private data folder."""
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "AUTOPLAY_HOME", "VIRTUAL_ENV")}
        env["XDG_DATA_HOME"] = str(self.data_home)
        env["PATH"] = os.pathsep.join([str(self.bin), env.get("PATH", "")])
        return {**env, **extra}

    def python(self, code: str) -> str:
        """Run ``code`` in the venv's Python from the working folder and return what it printed."""
        proc = subprocess.run(
            [str(self.bin / "python"), "-c", code], cwd=self.workdir, env=self.env(), capture_output=True, text=True
        )
        assert proc.returncode == 0, proc.stderr
        return proc.stdout.strip()

    def site_packages(self) -> Path:
        return Path(self.python("import sysconfig; print(sysconfig.get_paths()['purelib'])"))

    def run(self, *args: str, timeout: float = 120, **extra_env: str) -> subprocess.CompletedProcess[str]:
        """Run the installed ``autoplay`` console script from the working folder."""
        return subprocess.run(
            [str(self.bin / "autoplay"), *args],
            cwd=self.workdir,
            env=self.env(**extra_env),
            capture_output=True,
            text=True,
            timeout=timeout,
        )


def build_and_install(base: Path) -> InstalledWheel:
    """Copy the sources, build the wheel, make a fresh venv and install the wheel with the pinned dependencies."""
    wheel = build_wheel(base)
    pip_quiet = ["--quiet", "--disable-pip-version-check"]
    env_dir = base / "venv"
    venv.create(env_dir, with_pip=True)
    installed = InstalledWheel(wheel, env_dir, base / "work", base / "data")
    installed.workdir.mkdir()
    python = installed.bin / "python"
    _check([str(python), "-m", "pip", "install", *pip_quiet, "-c", str(REPO / "constraints.txt"), str(wheel)])
    return installed


def build_wheel(base: Path, **extra_env: str) -> Path:
    """Copy the sources to ``base`` and build the wheel there (``extra_env`` for the build, e.g. no compiler)."""
    sources = base / "src"
    shutil.copytree(REPO, sources, ignore=_NOT_SOURCES)
    dist = base / "dist"
    pip_quiet = ["--quiet", "--disable-pip-version-check"]
    _check(
        [sys.executable, "-m", "pip", "wheel", *pip_quiet, "--no-deps", "--wheel-dir", str(dist), str(sources)],
        **extra_env,
    )
    (wheel,) = dist.glob("autoplay-*.whl")
    return wheel


def _check(cmd: list[str], **extra_env: str) -> None:
    # the build's own tools (mypy, which compiles the solver) at the versions of constraints.txt, as install.sh has it
    env = {**os.environ, "PIP_CONSTRAINT": str(REPO / "constraints.txt"), **extra_env}
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=900, env=env)
    if proc.returncode != 0:
        raise AssertionError(f"{' '.join(cmd[:5])} ... failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
