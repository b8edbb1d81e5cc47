"""scripts/install.sh on machines where it cannot install the system packages: it says what is needed and how to
go on, instead of failing inside apt-get or sudo.  The machine is shaped by PATH: only the commands put there exist.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
BASH = shutil.which("bash") or "/bin/bash"


def fake_machine(tmp_path: Path, *, uid: int, tools: dict[str, str]) -> dict[str, str]:
    """A PATH with the plain tools install.sh needs, an ``id`` that reports ``uid`` and the given fake commands."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name in ("dirname", "grep", "sed", "cat"):
        found = shutil.which(name)
        assert found, name
        (bin_dir / name).symlink_to(found)
    for name, body in {"id": f"echo {uid}", **tools}.items():
        script = bin_dir / name
        script.write_text(f"#!{BASH}\n{body}\n")
        script.chmod(0o755)
    return {"PATH": str(bin_dir), "HOME": str(tmp_path)}


def run_install(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [BASH, str(REPO / "scripts" / "install.sh"), *args], env=env, capture_output=True, text=True, timeout=60
    )


def test_not_debian_names_the_packages_and_the_way_on(tmp_path: Path) -> None:
    proc = run_install(fake_machine(tmp_path, uid=0, tools={}))
    assert proc.returncode == 1
    assert "not a Debian-like system (no apt-get)" in proc.stderr
    assert "xvfb" in proc.stderr and "gnome-mines" in proc.stderr and "--no-system" in proc.stderr


def test_no_root_and_no_sudo_is_said_before_anything_runs(tmp_path: Path) -> None:
    marker = tmp_path / "apt-get-ran"
    env = fake_machine(
        tmp_path,
        uid=1000,
        tools={"dpkg-query": "exit 1", "apt-get": f"touch {marker}"},  # nothing installed, apt-get would work as root
    )
    proc = run_install(env)
    assert proc.returncode == 1 and "not running as root and sudo is not available" in proc.stderr
    assert "xdotool" in proc.stderr and not marker.exists()


def test_no_system_skips_the_system_packages(tmp_path: Path) -> None:
    env = fake_machine(tmp_path, uid=1000, tools={"dpkg-query": "exit 1", "python3": "exit 1"})
    proc = run_install(env, "--no-system")
    # it went past the system packages straight to Python (which this fake machine lacks: said in one line)
    assert proc.returncode == 1 and "cannot install the system packages" not in proc.stderr
    assert "autoplay needs Python >= 3.11" in proc.stderr


def test_unknown_option_is_refused(tmp_path: Path) -> None:
    proc = run_install({**os.environ}, "--frobnicate")
    assert proc.returncode == 2 and "unknown option --frobnicate" in proc.stderr
