"""autoplay: a screen-reading auto-player for real Minesweeper windows.

The pipeline flows one way: ``board`` (model and text format) <- ``solver``
(exact probabilities, move choice) <- ``vision`` (screenshot -> board) <-
``control`` (windows, capture, mouse) <- ``play`` (the live loop) and
``replay`` (the same loop over saved frames); ``cli`` sits on top.
"""

__version__ = "0.1.0"

# First, before anything imports the solver: a compiled copy older than its source must not run (see the module).
import autoplay.compiled  # noqa: F401
