"""Handing a finished game's freed memory back to the system, so a long session's resident size stays flat.

A game's frames are window-sized arrays (about 1.5 MB each for an expert gnome-mines window), made on
the live thread and freed by the recorder's writer thread.  CPython and numpy free them, but glibc's
allocator keeps freed heap pages mapped until it needs them again, so the resident size of a long
session jumps by megabytes at random moments and falls back later.  Between games nothing is held on
purpose, so it is the one moment to ask glibc to return what is free (``malloc_trim``); elsewhere (other C
libraries, other systems) this does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import sys
from collections.abc import Callable
from pathlib import Path


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    if not sys.platform.startswith("linux"):
        return None
    name = ctypes.util.find_library("c")
    try:
        trim: Callable[[int], int] = ctypes.CDLL(name).malloc_trim  # glibc only; musl has none
    except (OSError, AttributeError, TypeError):
        return None
    return trim


def resident_kib(pid: int | None = None) -> int | None:
    """Resident memory (VmRSS) of ``pid`` (default: this process) in KiB; None where /proc does not say or it exited."""
    try:
        for line in Path(f"/proc/{pid or 'self'}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return None


def release_free_memory() -> bool:
    """Return the allocator's free pages to the system; False where the C library offers no way to."""
    trim = _malloc_trim()
    if trim is None:
        return False
    trim(0)
    return True
