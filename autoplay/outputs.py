"""Where autoplay may create files: only where the user asked, or in a fresh per-run temp folder.

Every writer of pictures and recordings goes through these functions so the rule is the same for all
commands: an output file's missing parent folder is created only if the folder above it exists (one
level: ``--out runs/new/heat.png`` works, a typo such as ``/x/y.png`` does not create ``/x``), and
anything written without a path from the user goes to a new ``autoplay-*`` folder in the system temp
folder whose path is printed, so two runs never overwrite each other's files.
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

from autoplay.errors import UsageError


def ensure_folder(folder: str | Path, what: str = "folder") -> Path:
    """``folder`` as an existing, writable directory, creating it one level deep at most."""
    p = Path(folder)
    if p.exists() and not p.is_dir():
        raise UsageError(f"{p}: {what} is a file, not a folder")
    if not p.exists():
        parent = p.parent
        if not parent.is_dir():
            raise UsageError(f"{p}: cannot create {what}: {parent} does not exist (only one missing level is created)")
        try:
            p.mkdir()
        except OSError as exc:
            raise UsageError(f"{p}: cannot create {what}: {exc.strerror or exc}") from None
    if not os.access(p, os.W_OK | os.X_OK):
        raise UsageError(f"{p}: {what} is not writable")
    return p


def output_file(path: str | Path, root: str | Path | None = None) -> Path:
    """``path`` ready to be written: its folder exists (created one level deep at most) and is writable.

    ``root`` is a folder the user named (checked with :func:`ensure_folder`): autoplay's own layout
    below it (``frames/`` of a recording) is created at any depth.
    """
    p = Path(path)
    if p.is_dir():
        raise UsageError(f"{p}: is a folder, expected a file name")
    if root is not None and p.parent != Path(root) and Path(root) in p.parents:
        ensure_folder(root)
        try:
            p.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UsageError(f"{p.parent}: cannot create folder: {exc.strerror or exc}") from None
    ensure_folder(p.parent)
    return p


def run_folder(purpose: str = "debug") -> Path:
    """A new folder of its own under the system temp folder, for files nobody named (debug pictures)."""
    return Path(tempfile.mkdtemp(prefix=f"autoplay-{purpose}-"))


#: A skin or file-set name: letters, digits, dot, dash, underscore; not starting with a dot (no '..', no '/').
_PLAIN_NAME = re.compile(r"^[A-Za-z0-9_-][A-Za-z0-9._-]{0,63}$")


def is_plain_name(text: str) -> bool:
    """True when ``text`` joined to a folder stays a direct child of it (skin names, template stems)."""
    return bool(_PLAIN_NAME.fullmatch(text))
