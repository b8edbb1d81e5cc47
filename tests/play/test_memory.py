"""Between games the session hands freed memory back: resident size falls once asked, not at random later."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from autoplay.play.memory import release_free_memory


def rss_kib() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc_trim and /proc are Linux's")
def test_freed_frames_leave_the_resident_set_once_released():
    warm = np.ones(
        3_000_000, np.uint8
    )  # a freed block larger than a frame (the BGRA grab) raises glibc's mmap threshold:
    del warm  # frame-sized blocks now come from the heap, which keeps their pages once they are freed
    frames, kept = [], []
    for _ in range(40):  # 60 MB of expert-window frames, touched, each followed by a block that stays
        frames.append(np.ones(1_500_000, np.uint8))
        kept.append(np.ones(100_000, np.uint8))  # (a decoded board, a cache entry): the heap cannot shrink
    del frames
    held = rss_kib()
    assert release_free_memory()
    assert held - rss_kib() > 30_000  # most of the 60 MB went back to the system
    del kept
