"""A dependency-free progress bar for long runs, shown only on a terminal."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    """Redraws one status line at most ten times a second; silent when not a TTY.

    Silence off a terminal keeps logs and ``--json`` output clean.
    """

    def __init__(self, total: int, label: str = "", stream: TextIO | None = None, enabled: bool | None = None):
        self.total, self.label, self.done = max(total, 0), label, 0
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.started = time.monotonic()
        self._last_draw = 0.0
        self.suffix = ""

    def advance(self, n: int = 1, suffix: str | None = None) -> None:
        self.done += n
        if suffix is not None:
            self.suffix = suffix
        now = time.monotonic()
        if self.enabled and (now - self._last_draw > 0.1 or self.done >= self.total):
            self._last_draw = now
            self._draw(now)

    def _draw(self, now: float) -> None:
        width = 30
        frac = self.done / self.total if self.total else 1.0
        bar = "#" * int(frac * width) + "-" * (width - int(frac * width))
        elapsed = now - self.started
        eta = elapsed / frac - elapsed if frac > 0 else 0.0
        self.stream.write(
            f"\r{self.label} [{bar}] {self.done}/{self.total} {elapsed:5.0f}s eta {eta:4.0f}s {self.suffix}\x1b[K"
        )
        self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\n")
            self.stream.flush()

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
