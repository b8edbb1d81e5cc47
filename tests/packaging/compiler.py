"""Whether this machine can build the compiled solver, which decides what the tests expect of the install."""

from __future__ import annotations

import shutil
import sysconfig
from pathlib import Path


def can_compile() -> bool:
    """This Python's C compiler is on PATH and its headers are installed (what mypyc's build needs)."""
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    return shutil.which(cc) is not None and (Path(sysconfig.get_paths()["include"]) / "Python.h").is_file()
