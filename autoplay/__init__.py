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

# First, before anything imports the solver: a compiled copy older than its source must not run (see the module).
import autoplay.compiled  # noqa: F401
