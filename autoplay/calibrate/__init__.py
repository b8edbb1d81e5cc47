"""Teaching autoplay a skin: cut templates from screenshots and set thresholds from measured margins.

``calibrate_supervised`` uses label boards the user provides; ``calibrate_unsupervised``
clusters the tiles, proposes labels and draws a contact sheet for the user to check.
"""

from autoplay.calibrate.skin_writer import SkinSettings
from autoplay.calibrate.supervised import CalibrationResult, calibrate_supervised
from autoplay.calibrate.unsupervised import ProposalResult, calibrate_unsupervised

__all__ = ["CalibrationResult", "ProposalResult", "SkinSettings", "calibrate_supervised", "calibrate_unsupervised"]
