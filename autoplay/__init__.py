"""autoplay: a screen-reading auto-player for real Minesweeper windows.

The pipeline flows one way: ``board`` (model and text format) <- ``solver``
(exact probabilities, move choice) <- ``vision`` (screenshot -> board) <-
``control`` (windows, capture, mouse) <- ``play`` (the live loop) and
``replay`` (the same loop over saved frames); ``cli`` sits on top.
"""

__version__ = "0.1.0"

import os

# OpenCV prints its own warnings on stderr ("[ WARN:0@0.1] ... PNG input buffer is incomplete") before autoplay's
# one-line message; errors stay visible. Read when OpenCV first logs, so it is set before anything imports cv2.
os.environ.setdefault("OPENCV_LOG_LEVEL", "ERROR")

# numpy's OpenBLAS starts a thread per core that spins between matrix products. autoplay's products are tiny (a
# board's tiles against a skin's templates, under a millisecond), so those threads only burn CPU: live play used
# 20 CPU-seconds for 21 s of gnome-mines with them and 4.6 without (310,000 involuntary context switches against
# 8,600), a core taken from the game it plays. Read when numpy is first imported; a value the user set is kept.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

# First, before anything imports the solver: a compiled copy older than its source must not run (see the module).
import autoplay.compiled  # noqa: F401
