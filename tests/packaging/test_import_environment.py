"""What importing autoplay sets up for the libraries it loads after it."""

from __future__ import annotations

import os
import subprocess
import sys

#: Threads of a process that imported autoplay, then numpy, and ran a matrix product (OpenBLAS starts its pool
#: at load; a product is what wakes it).
THREADS_AFTER_A_PRODUCT = (
    "import os, autoplay, numpy\na = numpy.ones((64, 64)); a @ a\nprint(len(os.listdir('/proc/self/task')))\n"
)


def run(code: str, **env: str) -> str:
    base = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    proc = subprocess.run([sys.executable, "-c", code], env={**base, **env}, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.strip()


def test_numpy_after_autoplay_runs_one_thread_unless_the_user_asks_for_more() -> None:
    assert run(THREADS_AFTER_A_PRODUCT) == "1"  # no idle BLAS threads spinning beside live play
    assert int(run(THREADS_AFTER_A_PRODUCT, OPENBLAS_NUM_THREADS="2")) >= 2  # the user's own value is kept
